"""The resolver: one verdict per .bib entry, from Crossref and OpenAlex (or their cache).

Per entry, the cheapest question first: its DOI (Crossref, then OpenAlex for
DOIs Crossref did not register, such as arXiv's), its arXiv id (OpenAlex,
which also knows where the preprint was published), its ISBN (Crossref),
then its title and first author (Crossref's bibliographic search, then
OpenAlex's title search). The matcher (verify/match.py) decides whether a
record is the entry's work; the first record that is ends the questions.

Entries are checked in parallel under one deadline; the services' limits
(verify/polite.py) decide how many requests are really in flight.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx

from labwright.verify.bibtex import BibEntry, BibFile, replace_entries, unified_diff, write_entry
from labwright.verify.cache import CitationCache
from labwright.verify.indexes import Answer, Indexes, Offline
from labwright.verify.match import Fit, authors_fit, fit, normalized_title, plain
from labwright.verify.polite import Service, ServiceLimits, Unavailable
from labwright.verify.records import WorkRecord, arxiv_of_doi, normalize_doi
from labwright.verify.settings import CitationSettings
from labwright.verify.verdict import (
    NOT_CHECKED_IN_TIME,
    Difference,
    Evidence,
    Origin,
    Proposal,
    Verdict,
)

_ARXIV_ID = re.compile(
    r"(?<![\w.])(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?![\w])", re.I
)
_ARXIV_URL = re.compile(
    r"arxiv\.org/(?:abs|pdf)/([^\s?#}]+?)(?:v\d+)?(?:\.pdf)?(?=$|[\s?#}])", re.I
)
_DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+)", re.I)
_ISBN = re.compile(r"^(?:97[89])?\d{9}[\dX]$", re.I)

#: Crossref's published limits (from December 2025): polite pool three requests
#: in flight, ten single records and three lists (searches, filters) a second;
#: public pool one in flight, five and one. OpenAlex allows 100 requests a second
#: and prices them from a daily budget (single records free, lists and
#: searches not; a free API key raises the budget a hundredfold), so without a
#: key its searches come last and with one they share the load.
CROSSREF_POLITE = ServiceLimits(concurrency=3, rate=10.0, list_rate=3.0)
CROSSREF_PUBLIC = ServiceLimits(concurrency=1, rate=5.0, list_rate=1.0)
OPENALEX = ServiceLimits(concurrency=20, rate=20.0)
#: A work both indexes hold, for `Resolver.probe` (single-work lookups are free).
PROBE_DOI = "10.1038/nature14539"

_T = TypeVar("_T")
#: How long past its deadline a check without a budget waits for an entry's verdict.
_GRACE_S = 2.0


@dataclass(frozen=True)
class Identifiers:
    doi: str = ""
    arxiv: str = ""
    isbn: str = ""


def identifiers(entry: BibEntry) -> Identifiers:
    """DOI, arXiv id and ISBN wherever people put them (doi, eprint, url, journal, note)."""
    doi = normalize_doi(entry.get("doi"))
    if not doi:
        for name in ("url", "note", "howpublished"):
            found = _DOI_IN_TEXT.search(entry.get(name))
            if found:
                doi = normalize_doi(found.group(1))
                break
    arxiv = arxiv_of_doi(doi)
    if arxiv:
        doi = ""
    if not arxiv:
        prefix = (entry.get("archiveprefix") or entry.get("eprinttype")).lower()
        eprint = entry.get("eprint")
        if eprint and (prefix in ("arxiv", "") and _ARXIV_ID.fullmatch(eprint.strip())):
            arxiv = eprint.strip().lower()
    if not arxiv:
        for name in ("url", "journal", "note", "howpublished", "publisher"):
            value = entry.get(name)
            found = _ARXIV_URL.search(value)
            if not found and "arxiv" in value.lower():
                found = _ARXIV_ID.search(value)
            if found:
                arxiv = found.group(1).lower()
                break
    arxiv = re.sub(r"v\d+$", "", arxiv)
    isbn = re.sub(r"[^0-9Xx]", "", entry.get("isbn").split(",")[0]).upper()
    return Identifiers(doi, arxiv, isbn if _ISBN.match(isbn) else "")


@dataclass
class _Search:
    """What one entry's questions gathered."""

    fits: list[tuple[Fit, str, Answer]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    answered: set[str] = field(default_factory=set)

    def best(self) -> tuple[Fit, str, Answer] | None:
        accepted = [f for f in self.fits if f[0].same]
        if not accepted:
            return None
        order = {"crossref": 1, "openalex": 0}
        return max(accepted, key=lambda f: (f[0].strength, order.get(f[0].record.source, 0)))


class Resolver:
    def __init__(self, indexes: Indexes) -> None:
        self.indexes = indexes
        #: Lookups running in background threads (a caller's budget may end first).
        self._live = 0
        self._idle = threading.Condition()
        self._route_lock = threading.Lock()
        self._steps = {"crossref": 0, "openalex": 0}

    @classmethod
    def from_settings(
        cls,
        settings: CitationSettings,
        data_root: Path | None,
        *,
        transport: httpx.BaseTransport | None = None,
        crossref_limits: ServiceLimits | None = None,
        openalex_limits: ServiceLimits | None = None,
    ) -> Resolver:
        ttl = settings.cache_days * 86400.0
        cache = (
            CitationCache.in_data_dir(
                data_root, found_ttl_s=ttl, absent_ttl_s=min(ttl, 3 * 86400.0)
            )
            if data_root is not None
            else CitationCache()
        )
        if not settings.network:
            return cls(
                Indexes(cache, None, None, offline_reason="network checks are off in Settings")
            )
        contact = settings.contact_email
        crossref = Service(
            "Crossref",
            settings.crossref_url,
            crossref_limits or (CROSSREF_POLITE if contact else CROSSREF_PUBLIC),
            contact=contact,
            transport=transport,
        )
        openalex = Service(
            "OpenAlex",
            settings.openalex_url,
            openalex_limits or OPENALEX,
            contact=contact,
            transport=transport,
            params={"api_key": settings.openalex_api_key} if settings.openalex_api_key else None,
        )
        return cls(Indexes(cache, crossref, openalex))

    @property
    def online(self) -> bool:
        """False when no request may or can be sent (checks off, or both indexes unreachable)."""
        services = [s for s in (self.indexes.crossref, self.indexes.openalex) if s is not None]
        return any(not s.down for s in services)

    def probe(self, timeout_s: float = 4.0) -> None:
        """One cheap request per index, so a later check knows at once if the network is gone.

        An index that does not answer in time (a dead proxy, a captive portal:
        connections that open but never answer) is treated as unreachable for
        the rest of the run, as a refused connection already is.
        """
        deadline = time.monotonic() + timeout_s
        for service, path in (
            (self.indexes.crossref, "/works/" + PROBE_DOI),
            (self.indexes.openalex, "/works/doi:" + PROBE_DOI),
        ):
            if service is None or service.down:
                continue
            try:
                service.get(path, {}, deadline=deadline)
            except Unavailable as why:
                if "slow down" not in str(why):
                    service.down = service.down or str(why)

    @property
    def busy(self) -> bool:
        """Lookups are still running (a check returned at its budget before they ended)."""
        with self._idle:
            return self._live > 0

    def close_when_idle(self, timeout_s: float = 30.0) -> None:
        """Close once the background lookups ended (they fill the cache), without waiting."""

        def run() -> None:
            with self._idle:
                self._idle.wait_for(lambda: self._live == 0, timeout=timeout_s)
            self.close()

        threading.Thread(target=run, name="citation-close", daemon=True).start()

    def _spawn(self, job: Callable[[], _T]) -> Future[_T]:
        """`job` in a daemon thread: a check the caller stopped waiting for never holds
        up the process's exit (its questions end at their deadline anyway)."""
        future: Future[_T] = Future()
        with self._idle:
            self._live += 1

        def run() -> None:
            try:
                future.set_result(job())
            except BaseException as error:  # noqa: BLE001 - handed to whoever waits
                future.set_exception(error)
            finally:
                with self._idle:
                    self._live -= 1
                    self._idle.notify_all()

        threading.Thread(target=run, name="citation-lookup", daemon=True).start()
        return future

    def close(self) -> None:
        for service in (self.indexes.crossref, self.indexes.openalex):
            if service is not None:
                service.close()
        self.indexes.cache.close()

    # -- checking ------------------------------------------------------------------

    def check(
        self,
        entries: Sequence[BibEntry],
        *,
        deadline_s: float = 20.0,
        budget_s: float | None = None,
        origin: Origin = "user",
        source: BibFile | None = None,
        file: str = "",
    ) -> list[Verdict]:
        """A verdict per entry, in the entries' order. `source`: the file the entries
        came from, so a correction's proposal is a diff of that file.

        `budget_s`: how long the caller waits. An entry still undecided then is
        "unverifiable" (not checked in time, never verified); its questions go on
        in the background until `deadline_s`, so their answers reach the cache
        and the next check has them at once."""
        start = time.monotonic()
        deadline = start + deadline_s
        if not entries:
            return []
        found = [identifiers(e) for e in entries]
        dois = [i.doi for i in found] + [f"10.48550/arxiv.{i.arxiv}" for i in found if i.arxiv]
        # Every title, also of entries with a DOI: one that resolves to another
        # work is searched by its title next, and the batch costs no more for it.
        titles = [plain(_title_of(e)) for e in entries]
        online = self.online
        id_jobs = self.indexes.prefetch_jobs(dois, deadline) if online else []
        title_jobs = self.indexes.title_prefetch_jobs(titles, deadline) if online else []
        id_batches = [self._spawn(job) for job in id_jobs]
        title_batches = [self._spawn(job) for job in title_jobs]

        def waiter(batches: list[Future[None]]) -> Callable[[], None] | None:
            if not batches:
                return None

            def wait_batches() -> None:
                wait(batches, timeout=max(0.0, deadline - time.monotonic()))

            return wait_batches

        # Entries ask after the batched lookups answered (then from the cache):
        # those with an identifier after the DOI batch, title searches after the
        # title batch.
        by_ids, by_title = waiter(id_batches), waiter(title_batches)
        # One thread per entry: the services' slots and rate limits (polite.py)
        # decide what is really in flight, so no entry waits for a worker.
        futures = [
            self._spawn(
                lambda e=e, i=i: self.check_one(  # type: ignore[misc]
                    e,
                    deadline,
                    origin,
                    source,
                    file,
                    by_ids if (i.doi or i.arxiv) else None,
                    by_title,
                )
            )
            for e, i in zip(entries, found, strict=True)
        ]
        # Without a budget, wait for every verdict: the questions end at the
        # deadline by themselves, and an entry's verdict a moment later says why.
        until = deadline + _GRACE_S if budget_s is None else min(deadline, start + budget_s)
        wait(futures, timeout=max(0.0, until - time.monotonic()))
        return [
            f.result() if f.done() else _not_checked(e, origin, file)
            for f, e in zip(futures, entries, strict=True)
        ]

    def check_one(
        self,
        entry: BibEntry,
        deadline: float,
        origin: Origin = "user",
        source: BibFile | None = None,
        file: str = "",
        batched: Callable[[], None] | None = None,
        titles_batched: Callable[[], None] | None = None,
    ) -> Verdict:
        """`batched` / `titles_batched`: wait for the batched identifier / title
        lookups that answer this entry's questions through the cache."""
        ids = identifiers(entry)
        if batched is not None:
            batched()
        title = _title_of(entry)
        base = {"key": entry.key, "origin": origin, "file": file}
        if not (ids.doi or ids.arxiv or ids.isbn or title):
            return Verdict(
                verdict="unverifiable",
                reason="The entry has no title, DOI, arXiv id or ISBN to look up.",
                **base,  # type: ignore[arg-type]
            )
        search = _Search()
        self._gather(entry, ids, title, search, deadline, titles_batched)
        best = search.best()
        if best is None:
            return self._unmatched(entry, search, base)
        return self._matched(entry, ids, best, search, deadline, source, base)

    def _ask(self, search: _Search, what: str, ask: object, *args: object) -> Answer | None:
        try:
            answer: Answer = ask(*args)  # type: ignore[operator]
        except (Unavailable, Offline) as why:
            search.failures.append(str(why))
            return None
        search.answered.add(what)
        return answer

    def _consider(
        self, entry: BibEntry, search: _Search, answer: Answer | None, found_by: str
    ) -> bool:
        if answer is None:
            return False
        tied = found_by if found_by != "search" else ""
        for record in answer.records:
            search.fits.append((fit(entry, record, identified_by=tied), found_by, answer))
        return search.best() is not None

    def _gather(
        self,
        entry: BibEntry,
        ids: Identifiers,
        title: str,
        search: _Search,
        deadline: float,
        titles_batched: Callable[[], None] | None = None,
    ) -> None:
        idx = self.indexes
        if ids.doi:
            # Both indexes hold Crossref's DOIs: ask the one with a free slot
            # first, the other when the first does not know the DOI.
            doi_asks = [("crossref", idx.crossref_doi), ("openalex", idx.openalex_doi)]
            with self._route(f"crossref:doi:{ids.doi}", f"openalex:doi:{ids.doi}") as flip:
                if flip:
                    doi_asks.reverse()
                name, ask = doi_asks[0]
                answer = self._ask(search, name, ask, ids.doi, deadline)
            if self._consider(entry, search, answer, "doi"):
                return
            if answer is None or not answer.records:  # unknown there: the other may know it
                name, ask = doi_asks[1]
                answer = self._ask(search, name, ask, ids.doi, deadline)
                if self._consider(entry, search, answer, "doi"):
                    return
        if ids.arxiv:
            answer = self._ask(
                search, "openalex", idx.openalex_doi, f"10.48550/arxiv.{ids.arxiv}", deadline
            )
            if self._consider(entry, search, answer, "arxiv"):
                return
        if ids.isbn:
            answer = self._ask(search, "crossref", idx.crossref_isbn, ids.isbn, deadline)
            if self._consider(entry, search, answer, "isbn"):
                return
        if not title:
            return
        if titles_batched is not None:
            titles_batched()
        people = entry.authors
        # The indexes search words: LaTeX (``gegenw{\"a}rtige``, ``$2^{-\Delta}$``) goes as text.
        author = plain(people[0].family) if people else ""
        query = plain(title)
        found = re.search(r"\d{4}", entry.get("year"))
        year = found.group() if found else ""
        searches: list[tuple[str, Callable[[], Answer]]] = [
            ("crossref", lambda: idx.crossref_search(query, author, year, deadline)),
            ("openalex", lambda: idx.openalex_search(query, deadline)),
        ]
        key = normalized_title(title)
        with self._route(f"crossref:title:{key}", f"openalex:title:{key}", search=True) as flip:
            if flip:
                searches.reverse()
            answer = self._ask(search, searches[0][0], searches[0][1])
        if self._consider(entry, search, answer, "search"):
            return
        self._consider(entry, search, self._ask(search, searches[1][0], searches[1][1]), "search")

    @contextmanager
    def _route(
        self, crossref_key: str, openalex_key: str, *, search: bool = False
    ) -> Iterator[bool]:
        """Which index a step asks first (True: OpenAlex). The one whose answer is
        cached; else Crossref while its polite pool has room (three at once), then
        OpenAlex while it has, then the less loaded. Steps are counted until they
        end, so threads starting together spread over both indexes."""
        if self.indexes.knows(crossref_key):
            yield False
            return
        if self.indexes.knows(openalex_key):
            yield True
            return
        crossref, openalex = self.indexes.crossref, self.indexes.openalex
        if crossref is None or openalex is None:
            yield False
            return
        with self._route_lock:
            if openalex.down:
                first = "crossref"
            elif search and "api_key" in openalex.params:
                # With a key OpenAlex searches come from a budget that covers
                # them, at many a second; Crossref allows three lists a second,
                # kept for what OpenAlex does not find.
                first = "openalex"
            else:
                c_load = self._steps["crossref"] / crossref.limits.concurrency
                o_load = self._steps["openalex"] / openalex.limits.concurrency
                first = "crossref" if c_load < 1 or c_load <= o_load else "openalex"
            self._steps[first] += 1
        try:
            yield first == "openalex"
        finally:
            with self._route_lock:
                self._steps[first] -= 1

    def _unmatched(self, entry: BibEntry, search: _Search, base: dict[str, str]) -> Verdict:
        if search.failures:
            why = search.failures[0]
            reason = (
                f"It could not be checked: {why}."
                if not why.endswith(".")
                else f"It could not be checked: {why}"
            )
            return Verdict(verdict="unverifiable", reason=reason, **base)  # type: ignore[arg-type]
        if not_indexed_kind(entry):
            return Verdict(
                verdict="unverifiable",
                reason="Crossref and OpenAlex do not list web pages, standards, manuals or software; check this one by hand.",
                **base,  # type: ignore[arg-type]
            )
        closest = max((f for f, _, _ in search.fits), key=lambda f: f.strength, default=None)
        reason = "Neither Crossref nor OpenAlex holds this work (likely invented)."
        if closest is not None and closest.title != "different":
            reason = (
                "Neither Crossref nor OpenAlex holds this work; the nearest record, "
                f"“{closest.record.title}”, is another work ({closest.why_not})."
            )
        return Verdict(verdict="not_found", reason=reason, **base)  # type: ignore[arg-type]

    def _matched(
        self,
        entry: BibEntry,
        ids: Identifiers,
        best: tuple[Fit, str, Answer],
        search: _Search,
        deadline: float,
        source: BibFile | None,
        base: dict[str, str],
    ) -> Verdict:
        found, found_by, answer = best
        record = found.record
        differences = [Difference(*d) for d in found.differed]
        published = self._published_version(entry, ids, record, deadline)
        updates: dict[str, str] = {d.field: d.record for d in differences}
        if published is not None:
            differences = [d for d in differences if d.field not in ("journal", "booktitle")]
            renamed = fit(entry, published, identified_by="doi").title == "different"
            for name, value in published.bibtex_fields():
                wanted = ("journal", "booktitle", "doi", "year", "volume", "number", "pages")
                if name in wanted or (name == "title" and renamed):
                    if value and entry.get(name) != value:
                        updates[name] = value
                        differences.append(Difference(name, entry.get(name), value))
            record = published
        evidence = Evidence(
            source=record.source,
            record_id=record.record_id,
            url=record.url,
            title=record.title,
            authors=tuple(
                f"{p.given} {p.family}".strip() if p.given else p.family for p in record.authors[:6]
            ),
            year=record.year,
            venue=record.container,
            doi=record.doi,
            found_by=found_by,
            cached_at=answer.fetched_at if answer.cached else None,
        )
        extra = {"record": record}
        if not differences:
            return Verdict(
                verdict="verified",
                extra=extra,
                reason=f"{record.source.capitalize()} holds this work ({', '.join(found.matched) or 'its identifier'} match).",
                evidence=evidence,
                matched=tuple(found.matched),
                **base,  # type: ignore[arg-type]
            )
        names = ", ".join(dict.fromkeys(d.field for d in differences))
        why = (
            f"The preprint was published since; {names} differ from the published record."
            if published is not None
            else f"{record.source.capitalize()} holds this work, but its {names} differ."
        )
        proposal = _proposal(
            entry,
            updates,
            record,
            source,
            base.get("file") or "refs.bib",
            entry_type=record.bibtex_type() if published is not None else entry.entry_type,
        )
        return Verdict(
            verdict="corrected",
            reason=why,
            evidence=evidence,
            matched=tuple(found.matched),
            differences=tuple(differences),
            proposal=proposal,
            extra=extra,
            **base,  # type: ignore[arg-type]
        )

    def _published_version(
        self, entry: BibEntry, ids: Identifiers, record: WorkRecord, deadline: float
    ) -> WorkRecord | None:
        """The version of record of a preprint entry, when an index knows it was published."""
        # A preprint: named by its arXiv id, or found as a posted preprint (bioRxiv).
        preprint = (ids.arxiv or record.work_type in ("posted-content", "preprint")) and not (
            entry.get("journal") and "arxiv" not in entry.get("journal").lower()
        )
        if not preprint:
            return None
        if (
            record.doi
            and not arxiv_of_doi(record.doi)
            and record.container
            and (
                "arxiv" not in record.container.lower()
                and record.work_type not in ("posted-content", "preprint")
            )
        ):
            return record if normalize_doi(entry.get("doi")) != record.doi else None
        links = record.published_as
        if (
            not links
            and record.source == "openalex"
            and record.doi
            and not arxiv_of_doi(record.doi)
        ):
            # OpenAlex does not carry the preprint server's link; Crossref, where
            # the server registered the preprint's DOI, does.
            try:
                links = tuple(
                    doi
                    for r in self.indexes.crossref_doi(record.doi, deadline).records
                    for doi in r.published_as
                )
            except (Unavailable, Offline):
                links = ()
        for doi in links:
            # The preprint server's own link to the article: authoritative, also
            # when the article's title changed on the way (bioRxiv -> Nature).
            try:
                answer = self.indexes.crossref_doi(doi, deadline)
            except (Unavailable, Offline):
                return None
            for candidate in answer.records:
                if authors_fit(entry.authors, candidate.authors) != "mismatch":
                    return candidate
        if links:
            return None
        return self._published_by_title(entry, record, deadline)

    def _published_by_title(
        self, entry: BibEntry, preprint: WorkRecord, deadline: float
    ) -> WorkRecord | None:
        """A preprint record without a link (OpenAlex keeps arXiv copies as works of
        their own): the published article is the same work under a registered DOI."""
        title = plain(entry.get("title") or preprint.title)
        if not title:
            return None
        people = entry.authors
        author = plain(people[0].family) if people else ""
        for ask in (
            lambda: self.indexes.crossref_search(title, author, "", deadline),
            lambda: self.indexes.openalex_search(title, deadline),
        ):
            try:
                answer = ask()
            except (Unavailable, Offline):
                continue
            for candidate in answer.records:
                if (
                    candidate.doi
                    and not arxiv_of_doi(candidate.doi)
                    and candidate.container
                    and candidate.work_type not in ("posted-content", "preprint")
                    and (candidate.year or 0) >= (preprint.year or 0)
                    and fit(entry, candidate).same
                ):
                    return candidate
        return None


def _title_of(entry: BibEntry) -> str:
    return entry.get("title") or entry.get("booktitle")


def _not_checked(entry: BibEntry, origin: Origin, file: str) -> Verdict:
    return Verdict(
        key=entry.key,
        verdict="unverifiable",
        reason=NOT_CHECKED_IN_TIME,
        origin=origin,
        file=file,
    )


#: Entry types the scholarly indexes do not list; their absence there says nothing.
_NOT_INDEXED_TYPES = frozenset(
    {"online", "www", "electronic", "webpage", "manual", "standard", "patent", "software"}
)


def not_indexed_kind(entry: BibEntry) -> bool:
    """A web page, standard, manual or software: a URL and no scholarly venue or identifier."""
    kind = entry.entry_type.lower()
    if kind in _NOT_INDEXED_TYPES:
        return True
    scholarly = ("journal", "booktitle", "doi", "eprint", "isbn", "school", "institution")
    return (
        kind in ("misc", "unpublished")
        and bool(entry.get("url") or "\\url" in entry.get("howpublished"))
        and not any(entry.get(name) for name in scholarly)
    )


def _proposal(
    entry: BibEntry,
    updates: dict[str, str],
    record: WorkRecord,
    source: BibFile | None,
    name: str,
    *,
    entry_type: str,
) -> Proposal:
    """The entry with the record's values for the fields that differ; the file's diff.
    A preprint's entry becomes the published work's type (@misc -> @article)."""
    by_record = dict(record.bibtex_fields())
    # The record's BibTeX form where it has one ("816--821", "Family, Given and …").
    updates = {
        k: by_record.get(k, v) if k in ("author", "pages") else v for k, v in updates.items()
    }
    fields: list[tuple[str, str]] = []
    for key, value in entry.fields.items():
        fields.append((key, updates.get(key, value)))
    for key, value in updates.items():
        if key not in entry.fields:
            fields.append((key, value))
    text = write_entry(entry.key, entry_type if entry_type != "misc" else entry.entry_type, fields)
    if source is not None:
        diff = unified_diff(source.text, replace_entries(source, {entry.key: text}), name)
    else:
        diff = unified_diff(entry.raw + "\n", text + "\n", name)
    return Proposal(entry=text, diff=diff)
