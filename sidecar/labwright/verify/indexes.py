"""The questions the resolver asks Crossref and OpenAlex, and their answers as records.

Crossref: ``/works/{doi}`` (one work), ``/works?filter=isbn:…`` and
``/works?query.bibliographic=…`` (lists; ``message.items``, best first).
OpenAlex: ``/works/doi:{doi}`` (one work, free of its daily budget) and
``/works?filter=title.search:…`` (a list; ``results``). Every answer passes
through the cache: a question asked once is not asked again within its time
to live, and offline the cache alone answers.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from labwright.verify.cache import CitationCache
from labwright.verify.match import normalized_title, tokens
from labwright.verify.polite import Service, Unavailable
from labwright.verify.records import WorkRecord, from_crossref, from_openalex

_CROSSREF_SELECT = ",".join(
    (
        "DOI,title,subtitle,original-title,author,editor,issued,published-print,published-online",
        "container-title,short-container-title,volume,issue,page,type,ISBN,relation,publisher,language",
    )
)
_OPENALEX_SELECT = (
    "id,doi,title,display_name,publication_year,authorships,primary_location,"
    "biblio,type,type_crossref,locations,language,ids"
)
ROWS = 5
#: DOIs per batched lookup (OpenAlex ORs at most 100 values in one filter).
BATCH = 50
#: Fewer DOIs than this are asked one by one (single records are free at OpenAlex
#: and have Crossref's higher limit; a list request is dearer at both).
BATCH_FROM = 3
#: Titles OR-ed in one OpenAlex title search, and the results asked per title.
TITLE_BATCH = 10
TITLE_ROWS = ROWS
#: OpenAlex's largest page.
MAX_PER_PAGE = 200


@dataclass(frozen=True)
class Answer:
    records: list[WorkRecord]
    #: When the index gave this answer (now, or when it was cached).
    fetched_at: float
    cached: bool


class Offline(Exception):
    """Asked while no request may be sent, and the cache does not know (message: why)."""


class Indexes:
    """Crossref and OpenAlex behind the cache. `services` None: cache only (offline)."""

    def __init__(
        self,
        cache: CitationCache,
        crossref: Service | None,
        openalex: Service | None,
        *,
        offline_reason: str = "",
    ) -> None:
        self.cache = cache
        self.crossref = crossref
        self.openalex = openalex
        self.offline_reason = offline_reason
        # One request per question at a time: two entries with the same title
        # (a typo'd copy of a reference) share the first one's answer.
        self._asking: dict[str, threading.Event] = {}
        self._asking_lock = threading.Lock()

    def _ask(
        self,
        key: str,
        service: Service | None,
        fetch: Callable[[Service, float], list[WorkRecord]],
        deadline: float,
    ) -> Answer:
        with self._asking_lock:
            pending = self._asking.get(key)
            mine = pending is None
            if mine:
                self._asking[key] = threading.Event()
        if not mine:
            assert pending is not None
            pending.wait(timeout=max(0.0, deadline - time.monotonic()))
        try:
            return self._ask_now(key, service, fetch, deadline)
        finally:
            if mine:
                with self._asking_lock:
                    self._asking.pop(key).set()

    def _ask_now(
        self,
        key: str,
        service: Service | None,
        fetch: Callable[[Service, float], list[WorkRecord]],
        deadline: float,
    ) -> Answer:
        cached = self.cache.get(key)
        if cached is not None and (cached.fresh or service is None or service.down):
            return Answer(_records(cached.value), cached.fetched_at, True)
        if service is None:
            raise Offline(self.offline_reason or "network checks are off")
        try:
            records = fetch(service, deadline)
        except Unavailable:
            if cached is not None:  # stale, but the index did not answer now
                return Answer(_records(cached.value), cached.fetched_at, True)
            raise
        now = time.time()
        self.cache.put(key, {"records": [r.to_json() for r in records]}, now=now)
        return Answer(records, now, False)

    def knows(self, key: str) -> bool:
        """A fresh answer to this question is in the cache (routing asks that index first)."""
        cached = self.cache.get(key)
        return cached is not None and cached.fresh

    # -- Crossref ------------------------------------------------------------------

    def crossref_doi(self, doi: str, deadline: float) -> Answer:
        def fetch(service: Service, until: float) -> list[WorkRecord]:
            data = service.get("/works/" + quote(doi, safe="/:;()"), {}, deadline=until)
            return [from_crossref(data["message"])] if data is not None and _message(data) else []

        return self._ask(f"crossref:doi:{doi}", self.crossref, fetch, deadline)

    def crossref_isbn(self, isbn: str, deadline: float) -> Answer:
        def fetch(service: Service, until: float) -> list[WorkRecord]:
            params = {"filter": f"isbn:{isbn}", "rows": str(ROWS), "select": _CROSSREF_SELECT}
            return _crossref_items(service.get("/works", params, deadline=until, kind="list"))

        return self._ask(f"crossref:isbn:{isbn}", self.crossref, fetch, deadline)

    def crossref_search(self, title: str, author: str, year: str, deadline: float) -> Answer:
        def fetch(service: Service, until: float) -> list[WorkRecord]:
            params = {
                "query.bibliographic": " ".join(p for p in (title, author, year) if p),
                "rows": str(ROWS),
                "select": _CROSSREF_SELECT,
            }
            if author:
                params["query.author"] = author
            return _crossref_items(service.get("/works", params, deadline=until, kind="list"))

        key = f"crossref:title:{normalized_title(title)}"
        return self._ask(key, self.crossref, fetch, deadline)

    # -- OpenAlex ------------------------------------------------------------------

    def openalex_doi(self, doi: str, deadline: float) -> Answer:
        def fetch(service: Service, until: float) -> list[WorkRecord]:
            data = service.get(
                "/works/doi:" + quote(doi, safe="/:;()"),
                {"select": _OPENALEX_SELECT},
                deadline=until,
            )
            return [from_openalex(data)] if isinstance(data, dict) and data.get("id") else []

        return self._ask(f"openalex:doi:{doi}", self.openalex, fetch, deadline)

    def openalex_search(self, title: str, deadline: float) -> Answer:
        def fetch(service: Service, until: float) -> list[WorkRecord]:
            words = _filter_words(title)
            params = {
                "filter": f"title.search:{words}",
                "per-page": str(ROWS),
                "select": _OPENALEX_SELECT,
            }
            data = service.get("/works", params, deadline=until, kind="list")
            results = data.get("results") if isinstance(data, dict) else None
            return [from_openalex(w) for w in results or [] if isinstance(w, dict)]

        key = f"openalex:title:{normalized_title(title)}"
        return self._ask(key, self.openalex, fetch, deadline)

    # -- batches -----------------------------------------------------------------

    def prefetch_jobs(self, dois: list[str], deadline: float) -> list[Callable[[], None]]:
        """Many DOIs in one request, each answer cached as if asked alone: one job per
        chunk, to run in parallel.

        OpenAlex ``filter=doi:a|b|…`` (it holds Crossref's DOIs and arXiv's): one
        list request instead of one per entry. Crossref is asked only for the DOIs
        OpenAlex does not return, one single record each: Crossref allows more
        single records than lists a second, and its lists are kept for the
        searches only it can answer. A DOI a batch does not return is cached as
        not held by that index; a failed batch is left to the per-entry
        questions.
        """
        wanted = [d for d in dict.fromkeys(d for d in dois if d) if not self._fresh("openalex", d)]
        if len(wanted) < BATCH_FROM or self.openalex is None:
            return []  # single records are the cheaper question for a few
        return [
            lambda c=chunk: self._batch("openalex", self.openalex, c, deadline)  # type: ignore[misc]
            for chunk in _chunks([d for d in wanted if "|" not in d])
        ]

    def title_prefetch_jobs(self, titles: list[str], deadline: float) -> list[Callable[[], None]]:
        """Many titles in one OpenAlex search (``filter=title.search:a|b|…``, values of
        one filter OR-ed), each title's share of the results cached as if searched
        alone: one job per chunk of `TITLE_BATCH`.

        A search costs OpenAlex's daily budget per request, not per title, and
        every entry's answer comes in one round trip. A title's share is the
        results that hold at least half its words, best first; a title with no
        share is cached as "nothing found" only when the batch returned every
        result it matched (else the page may have cut its work off, and the
        entry asks alone). Crossref's bibliographic search has no OR: it is
        asked per entry, for what OpenAlex does not hold.
        """
        if self.openalex is None:
            return []
        wanted = [
            t
            for t in dict.fromkeys(t for t in titles if _filter_words(t))
            if not self.knows(f"openalex:title:{normalized_title(t)}")
        ]
        if len(wanted) < BATCH_FROM:
            return []  # single searches answer a few as fast
        chunks = [wanted[i : i + TITLE_BATCH] for i in range(0, len(wanted), TITLE_BATCH)]
        return [lambda c=chunk: self._title_batch(c, deadline) for chunk in chunks]  # type: ignore[misc]

    def _title_batch(self, titles: list[str], deadline: float) -> None:
        service = self.openalex
        if service is None or service.down:
            return
        per_page = min(MAX_PER_PAGE, TITLE_ROWS * len(titles))
        params = {
            "filter": "title.search:" + "|".join(_filter_words(t) for t in titles),
            "per-page": str(per_page),
            "select": _OPENALEX_SELECT,
        }
        try:
            data = service.get("/works", params, deadline=deadline, kind="list")
        except Unavailable:
            return  # left to the per-entry searches
        results = data.get("results") if isinstance(data, dict) else None
        records = [from_openalex(w) for w in results or [] if isinstance(w, dict)]
        meta = data.get("meta") if isinstance(data, dict) else None
        count = meta.get("count") if isinstance(meta, dict) else None
        complete = isinstance(count, int) and count <= len(records)
        record_words = [set(tokens(r.title)) for r in records]
        now = time.time()
        for title in titles:
            words = set(tokens(title))
            shares = [
                (len(words & held) / len(words), i)
                for i, held in enumerate(record_words)
                if words and len(words & held) * 2 >= len(words)
            ]
            if not shares and not complete:
                continue
            best = [records[i] for _, i in sorted(shares, key=lambda s: (-s[0], s[1]))]
            self.cache.put(
                f"openalex:title:{normalized_title(title)}",
                {"records": [r.to_json() for r in best[:TITLE_ROWS]]},
                now=now,
            )

    def _fresh(self, index: str, doi: str) -> bool:
        return self.knows(f"{index}:doi:{doi}")

    def _batch(self, index: str, service: Service | None, dois: list[str], deadline: float) -> None:
        if service is None or service.down or not dois:
            return
        try:
            if index == "crossref":
                params = {
                    "filter": ",".join(f"doi:{d}" for d in dois),
                    "rows": str(len(dois)),
                    "select": _CROSSREF_SELECT,
                }
                records = _crossref_items(
                    service.get("/works", params, deadline=deadline, kind="list")
                )
            else:
                params = {
                    "filter": "doi:" + "|".join(f"https://doi.org/{d}" for d in dois),
                    "per-page": str(len(dois)),
                    "select": _OPENALEX_SELECT,
                }
                data = service.get("/works", params, deadline=deadline, kind="list")
                results = data.get("results") if isinstance(data, dict) else None
                records = [from_openalex(w) for w in results or [] if isinstance(w, dict)]
        except Unavailable:
            return
        now = time.time()
        by_doi: dict[str, list[WorkRecord]] = {}
        for record in records:
            by_doi.setdefault(record.doi, []).append(record)
        for doi in dois:
            found = by_doi.get(doi, [])
            self.cache.put(f"{index}:doi:{doi}", {"records": [r.to_json() for r in found]}, now=now)


def _filter_words(title: str) -> str:
    """A title as a filter value: the syntax separates filters by commas and values by "|"."""
    return re.sub(r"\s+", " ", re.sub(r"[,|:!]+", " ", title)).strip()


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i : i + BATCH] for i in range(0, len(items), BATCH)]


def _message(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("message"), dict)


def _crossref_items(data: Any) -> list[WorkRecord]:
    if not _message(data):
        return []
    items = data["message"].get("items") or []
    return [from_crossref(item) for item in items if isinstance(item, dict)]


def _records(value: Any) -> list[WorkRecord]:
    if not isinstance(value, dict):
        return []
    out = []
    for item in value.get("records") or []:
        try:
            out.append(WorkRecord.from_json(item))
        except (TypeError, ValueError):
            continue  # a row from another version of the record shape
    return out
