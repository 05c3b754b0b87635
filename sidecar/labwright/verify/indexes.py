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
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from labwright.verify.cache import CitationCache
from labwright.verify.match import normalized_title
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

    def _ask(
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
            return _crossref_items(service.get("/works", params, deadline=until))

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
            return _crossref_items(service.get("/works", params, deadline=until))

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
            # The filter syntax separates filters by commas and values by "|".
            words = re.sub(r"[,|:!]+", " ", title).strip()
            params = {
                "filter": f"title.search:{words}",
                "per-page": str(ROWS),
                "select": _OPENALEX_SELECT,
            }
            data = service.get("/works", params, deadline=until)
            results = data.get("results") if isinstance(data, dict) else None
            return [from_openalex(w) for w in results or [] if isinstance(w, dict)]

        key = f"openalex:title:{normalized_title(title)}"
        return self._ask(key, self.openalex, fetch, deadline)


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
