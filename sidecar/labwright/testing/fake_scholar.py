"""A fake Crossref and a fake OpenAlex, each on its own loopback port.

Both answer from one corpus of works (`labwright.testing.scholar_corpus`),
each in its own index's response shape, written from the public API
documentation: Crossref ``{"status","message-type","message-version",
"message"}`` with ``message.items`` for lists and a plain-text 404
("Resource not found."), rate-limit headers ``x-rate-limit-limit`` /
``x-rate-limit-interval`` and ``x-api-pool``; OpenAlex's work objects, lists
as ``{"meta","results","group_by"}``, 404 as ``{"error","message"}``.

Raw records can be served beside the corpus (``crossref_records`` /
``openalex_records``: a Crossref ``message`` or an OpenAlex work exactly as the
service returns it, see `labwright.testing.independent_records`), so a test can
meet the real shapes and their quirks rather than what ``Work`` renders.

Batched DOI lookups answer as documented: Crossref ``filter=doi:a,doi:b``
(filters of one name are OR-ed), OpenAlex ``filter=doi:a|b`` (at most 100
values); OpenAlex title searches OR-ed the same way (``title.search:a|b``,
a work scored by its best alternative).

Searches behave like the real ones in the way that matters for a matcher:
they always return the best few works that share words with the query, also
when none is the work asked for.

Faults are scripted per service (`fail`): a status with headers (429 with
Retry-After, 500), a delay past the client's timeout, or a dropped
connection. Latency is drawn per request from a seeded range, lists slower
than single works, as the real services are.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from labwright.testing.scholar_corpus import CORPUS, Work


@dataclass
class Fault:
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    #: Seconds to wait before answering (past the client's read timeout: a timeout).
    delay: float = 0.0
    #: Close the connection without an answer.
    drop: bool = False
    #: Only requests whose path contains this (empty: any request).
    path: str = ""


@dataclass
class Latency:
    single: tuple[float, float] = (0.0, 0.0)
    search: tuple[float, float] = (0.0, 0.0)


def _words(text: str) -> list[str]:
    out: list[str] = []
    for word in re.findall(r"[^\W_]+", text.casefold()):
        if any("\u4e00" <= c <= "\u9fff" for c in word):
            out.extend(word)
        else:
            out.append(word)
    return out


def crossref_message(work: Work) -> dict[str, Any]:
    authors: list[dict[str, Any]] = []
    for i, (family, given) in enumerate(work.authors):
        person: dict[str, Any] = {
            "sequence": "first" if i == 0 else "additional",
            "affiliation": [],
        }
        if work.crossref_names_only:
            person["name"] = family + given
        else:
            person.update({"given": given, "family": family})
        authors.append(person)
    message: dict[str, Any] = {
        "indexed": {
            "date-parts": [[2026, 11, 1]],
            "date-time": "2026-11-01T00:00:00Z",
            "timestamp": 1793491200000,
        },
        "reference-count": 0,
        "publisher": work.publisher,
        "DOI": work.doi,
        "type": work.crossref_type,
        "created": {"date-parts": [[work.year, 1, 1]]},
        "source": "Crossref",
        "is-referenced-by-count": 10,
        "title": list(work.titles),
        "prefix": work.doi.split("/")[0],
        "member": "1",
        "container-title": [work.container] if work.container else [],
        "author": authors,
        "issued": {"date-parts": [[work.year]]},
        "URL": f"https://doi.org/{work.doi}",
        "language": work.language,
    }
    if work.print_year:
        message["published-print"] = {"date-parts": [[work.print_year]]}
    if work.subtitle:
        message["subtitle"] = [work.subtitle]
    for key, value in (("volume", work.volume), ("issue", work.issue), ("page", work.pages)):
        if value:
            message[key] = value
    if work.isbn:
        message["ISBN"] = list(work.isbn)
    if work.preprint_of:
        message["relation"] = {
            "is-preprint-of": [{"id-type": "doi", "id": work.preprint_of, "asserted-by": "subject"}]
        }
    if work.crossref_type == "erratum":
        message["type"] = "journal-article"
        message["update-to"] = [
            {"DOI": work.preprint_of or "10.0/unknown", "type": "correction", "label": "Correction"}
        ]
    return message


def openalex_work(work: Work) -> dict[str, Any]:
    first, _, last = (work.pages or "").partition("-")
    locations = []
    if work.container:
        locations.append(
            {
                "is_oa": False,
                "landing_page_url": f"https://doi.org/{work.doi}" if work.doi else None,
                "source": {"display_name": work.container, "type": "journal"},
            }
        )
    if work.arxiv:
        locations.append(
            {
                "is_oa": True,
                "landing_page_url": f"https://arxiv.org/abs/{work.arxiv}",
                "source": {"display_name": "arXiv (Cornell University)", "type": "repository"},
            }
        )
    doi = work.doi or (f"10.48550/arxiv.{work.arxiv}" if work.arxiv else "")
    oa_type = {
        "journal-article": "article",
        "proceedings-article": "article",
        "posted-content": "preprint",
        "book": "book",
        "book-chapter": "book-chapter",
    }.get(work.crossref_type, "article")
    title = work.titles[-1] if work.openalex_english and len(work.titles) > 1 else work.titles[0]
    if work.subtitle:
        title = f"{title}: {work.subtitle}"
    return {
        "id": f"https://openalex.org/{work.openalex_id}",
        "doi": f"https://doi.org/{doi}" if doi else None,
        "title": title,
        "display_name": title,
        "publication_year": work.year,
        "publication_date": f"{work.year}-01-01",
        "ids": {
            "openalex": f"https://openalex.org/{work.openalex_id}",
            **({"doi": f"https://doi.org/{doi}"} if doi else {}),
        },
        "language": work.language or "en",
        "primary_location": locations[0] if locations else None,
        "locations": locations,
        "type": oa_type,
        "type_crossref": work.crossref_type,
        "authorships": [
            {
                "author_position": "first" if i == 0 else "middle",
                "author": {
                    "id": f"https://openalex.org/A{abs(hash((family, given))) % 10**9}",
                    "display_name": (family + given)
                    if _cjk(family)
                    else f"{given} {family}".strip(),
                    "orcid": None,
                },
                "raw_author_name": (family + given)
                if _cjk(family)
                else f"{given} {family}".strip(),
                "institutions": [],
            }
            for i, (family, given) in enumerate(work.authors)
        ],
        "biblio": {
            "volume": work.volume or None,
            "issue": work.issue or None,
            "first_page": first or None,
            "last_page": last or None,
        },
        "cited_by_count": 10,
    }


def _cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


class FakeScholar:
    """`with FakeScholar() as fake:` then point the resolver at fake.crossref_url / openalex_url."""

    def __init__(
        self,
        corpus: tuple[Work, ...] = CORPUS,
        *,
        crossref_records: Sequence[dict[str, Any]] = (),
        openalex_records: Sequence[dict[str, Any]] = (),
        latency: Latency | None = None,
        seed: int = 0,
        rate_limit: tuple[int, str] = (10, "1s"),
        list_limit: int = 3,
        crossref_concurrency: int = 3,
        enforce: bool = True,
    ) -> None:
        self.corpus = corpus
        crossref, openalex = _work_records(corpus)
        self._crossref_records = crossref + [crossref_record(m) for m in crossref_records]
        self._openalex_records = openalex + [openalex_record(w) for w in openalex_records]
        self.latency = latency or Latency()
        self.rate_limit = rate_limit
        #: Crossref's published polite-pool limits: lists a second, requests in flight.
        self.list_limit = list_limit
        self.crossref_concurrency = crossref_concurrency
        #: Answer 429 to a request over the limits (else only count it).
        self.enforce = enforce
        self.violations = {"crossref": 0, "openalex": 0}
        self._arrivals: dict[tuple[str, str], deque[float]] = {}
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self._faults: dict[str, deque[Fault]] = {"crossref": deque(), "openalex": deque()}
        self.requests: list[tuple[str, str, dict[str, list[str]]]] = []
        self.in_flight = {"crossref": 0, "openalex": 0}
        self.max_in_flight = {"crossref": 0, "openalex": 0}
        self._servers: list[ThreadingHTTPServer] = []
        self.crossref_url = ""
        self.openalex_url = ""

    # -- control ------------------------------------------------------------------

    def fail(self, service: str, *faults: Fault) -> None:
        with self._lock:
            self._faults[service].extend(faults)

    def count(self, service: str) -> int:
        with self._lock:
            return sum(1 for s, _, _ in self.requests if s == service)

    def __enter__(self) -> FakeScholar:
        for service in ("crossref", "openalex"):
            server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler(service))
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()
            self._servers.append(server)
            url = f"http://127.0.0.1:{server.server_address[1]}"
            setattr(self, f"{service}_url", url)
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()

    # -- serving ------------------------------------------------------------------

    def _handler(self, service: str) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                return

            def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
                parts = urlsplit(self.path)
                query = parse_qs(parts.query)
                arrived = time.monotonic()
                done = False
                with fake._lock:
                    fake.requests.append((service, parts.path, query))
                    fake.in_flight[service] += 1
                    fake.max_in_flight[service] = max(
                        fake.max_in_flight[service], fake.in_flight[service]
                    )
                    fault = fake._take_fault(service, parts.path)
                    single = "/works/" in parts.path
                    lo, hi = fake.latency.single if single else fake.latency.search
                    delay = fake._random.uniform(lo, hi) if hi > 0 else 0.0
                try:
                    if fault is not None and fault.delay:
                        time.sleep(fault.delay)
                    if fault is not None and fault.drop:
                        self.close_connection = True
                        self.connection.shutdown(2)
                        return
                    if delay:
                        time.sleep(delay)
                    if fault is not None and fault.status:
                        self._send(fault.status, {"message": "scripted fault"}, fault.headers)
                        return
                    kind = "single" if single else "list"
                    polite = "mailto" in query
                    limit = fake._limit(service, kind, polite)
                    if fake._over(service, kind, arrived, limit):
                        with fake._lock:
                            fake.in_flight[service] -= 1
                            done = True
                        self._send(429, {"message": "rate limit exceeded"}, {"Retry-After": "1"})
                        return
                    status, body = fake._answer(service, unquote(parts.path), query)
                    headers = {}
                    if service == "crossref":
                        headers = {
                            "x-rate-limit-limit": str(limit),
                            "x-rate-limit-interval": fake.rate_limit[1],
                            "x-api-pool": "polite" if polite else "public",
                        }
                    # Out of flight before the answer leaves: the client may send
                    # its next request the moment it has read this one.
                    with fake._lock:
                        fake.in_flight[service] -= 1
                        done = True
                    self._send(status, body, headers)
                finally:
                    if not done:
                        with fake._lock:
                            fake.in_flight[service] -= 1

            def _send(self, status: int, body: Any, headers: dict[str, str]) -> None:
                if isinstance(body, str):
                    data, kind = body.encode(), "text/plain"
                else:
                    data, kind = json.dumps(body, ensure_ascii=False).encode(), "application/json"
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", f"{kind}; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return

        return Handler

    def _limit(self, service: str, kind: str, polite: bool) -> int:
        """The published limit for this kind of request (per `rate_limit[1]`)."""
        if service == "openalex":
            return 100
        if kind == "single":
            return self.rate_limit[0] if polite else max(1, self.rate_limit[0] // 2)
        return self.list_limit if polite else 1

    def _over(self, service: str, kind: str, arrived: float, limit: int) -> bool:
        """More requests of this kind than the limit within one interval, or more in
        flight than Crossref allows: counted in `violations`, answered 429."""
        interval = float(self.rate_limit[1].rstrip("s") or 1)
        with self._lock:
            window = self._arrivals.setdefault((service, kind), deque())
            while window and arrived - window[0] >= interval:
                window.popleft()
            window.append(arrived)
            over = len(window) > limit
            if service == "crossref" and self.in_flight[service] > self.crossref_concurrency:
                over = True
            if over:
                self.violations[service] += 1
            return over and self.enforce

    def _take_fault(self, service: str, path: str) -> Fault | None:
        queue = self._faults[service]
        for fault in list(queue):
            if not fault.path or fault.path in path:
                queue.remove(fault)
                return fault
        return None

    def _answer(self, service: str, path: str, query: dict[str, list[str]]) -> tuple[int, Any]:
        if service == "crossref":
            return self._crossref(path, query)
        return self._openalex(path, query)

    def _crossref(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any]:
        if path.startswith("/works/"):
            doi = path[len("/works/") :].lower()
            found = next((r for r in self._crossref_records if doi in r.dois), None)
            if found is None:
                return 404, "Resource not found."
            return 200, {
                "status": "ok",
                "message-type": "work",
                "message-version": "1.0.0",
                "message": found.body,
            }
        if path.rstrip("/") != "/works":
            return 404, "Resource not found."
        rows = int((query.get("rows") or ["20"])[0])
        scored: list[tuple[float, _Record]] = []
        filters = _crossref_filters((query.get("filter") or [""])[0])
        if "isbn" in filters:
            wanted_isbns = {i.replace("-", "") for i in filters["isbn"]}
            scored = [(1.0, r) for r in self._crossref_records if wanted_isbns & set(r.isbns)]
        elif "doi" in filters:
            # Filters of one name are OR-ed (Crossref's documented behaviour).
            wanted_dois = {d.lower() for d in filters["doi"]}
            scored = [(1.0, r) for r in self._crossref_records if wanted_dois & r.dois]
        else:
            terms = " ".join(query.get("query.bibliographic", []) + query.get("query.author", []))
            wanted = _words(terms)
            for record in self._crossref_records:
                shared = sum(1 for w in wanted if w in record.words)
                if shared:
                    scored.append((shared * 10.0 / max(1, len(wanted)), record))
            scored.sort(key=lambda s: -s[0])
        items = []
        for relevance, record in scored[:rows]:
            item = dict(record.body)
            item["score"] = round(relevance * 7.3, 3)
            items.append(item)
        return 200, {
            "status": "ok",
            "message-type": "work-list",
            "message-version": "1.0.0",
            "message": {
                "facets": {},
                "total-results": len(scored),
                "items": items,
                "items-per-page": rows,
                "query": {"start-index": 0, "search-terms": None},
            },
        }

    def _openalex(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any]:
        if path.startswith("/works/"):
            ref = (
                path[len("/works/") :].lower().removeprefix("https://doi.org/").removeprefix("doi:")
            )
            for record in self._openalex_records:
                if ref in record.dois or ref == record.work_id:
                    return 200, record.body
            return 404, {"error": "404 Not Found", "message": f"Work {ref} not found"}
        if path.rstrip("/") != "/works":
            return 404, {"error": "404 Not Found", "message": "unknown path"}
        per_page = int((query.get("per-page") or query.get("per_page") or ["25"])[0])
        filters = (query.get("filter") or [""])[0]
        scored: list[tuple[float, _Record]] = []
        if filters.startswith("doi:"):
            # One filter, values OR-ed with "|" (at most 100 of them, OpenAlex's documented cap).
            values = filters[len("doi:") :].split("|")
            if len(values) > 100:
                return 400, {
                    "error": "Invalid query",
                    "message": "Maximum of 100 values in an OR filter",
                }
            wanted_dois = {
                v.lower().removeprefix("https://doi.org/").removeprefix("doi:") for v in values
            }
            scored = [(1.0, r) for r in self._openalex_records if wanted_dois & r.dois]
        else:
            terms = (
                filters.split("title.search:", 1)[1]
                if "title.search:" in filters
                else (query.get("search") or [""])[0]
            )
            # Values of one filter are OR-ed with "|": a work matches its best alternative.
            alternatives = [_words(t) for t in terms.split("|")]
            for record in self._openalex_records:
                score = max(
                    sum(1 for w in wanted if w in record.words) / max(1, len(wanted))
                    for wanted in alternatives
                )
                if score >= 0.5:
                    scored.append((score, record))
            scored.sort(key=lambda s: -s[0])
        results = []
        for score, record in scored[:per_page]:
            item = dict(record.body)
            item["relevance_score"] = round(score * 100, 2)
            results.append(item)
        return 200, {
            "meta": {
                "count": len(scored),
                "db_response_time_ms": 12,
                "page": 1,
                "per_page": per_page,
            },
            "results": results,
            "group_by": [],
        }


@dataclass(frozen=True)
class _Record:
    """One work as one index holds it: the JSON it answers and what finds it."""

    body: dict[str, Any]
    dois: frozenset[str]
    words: frozenset[str]
    isbns: tuple[str, ...] = ()
    work_id: str = ""


def _crossref_filters(text: str) -> dict[str, list[str]]:
    """``doi:a,doi:b,type:x`` -> {"doi": [a, b], "type": [x]} (a DOI may hold ':' and ',' is its separator)."""
    out: dict[str, list[str]] = {}
    for part in text.split(","):
        name, sep, value = part.partition(":")
        if sep and value:
            out.setdefault(name.strip(), []).append(value.strip())
    return out


def _work_records(corpus: tuple[Work, ...]) -> tuple[list[_Record], list[_Record]]:
    crossref = [
        _Record(
            crossref_message(w),
            frozenset({w.doi.lower()}),
            frozenset(
                _words(
                    " ".join([*w.titles, w.subtitle]) + " " + " ".join(f + g for f, g in w.authors)
                )
            ),
            w.isbn,
        )
        for w in corpus
        if w.doi and w.in_crossref
    ]
    openalex = []
    for w in corpus:
        if not w.in_openalex:
            continue
        dois = {w.doi.lower()} if w.doi else set()
        if w.arxiv:
            dois.add(f"10.48550/arxiv.{w.arxiv}".lower())
        openalex.append(
            _Record(
                openalex_work(w),
                frozenset(dois),
                frozenset(_words(" ".join([*w.titles, w.subtitle]))),
                work_id=w.openalex_id.lower(),
            )
        )
    return crossref, openalex


def crossref_record(message: dict[str, Any]) -> _Record:
    """A raw Crossref ``message`` as the fake serves it (found by its DOI, ISBNs, title and names)."""
    names = " ".join(
        " ".join(str(a.get(k, "")) for k in ("given", "family", "name"))
        for a in message.get("author", [])
    )
    text = " ".join([*message.get("title", []), *message.get("subtitle", []), names])
    return _Record(
        message,
        frozenset({str(message["DOI"]).lower()}),
        frozenset(_words(text)),
        tuple(str(i).replace("-", "") for i in message.get("ISBN", [])),
    )


def openalex_record(work: dict[str, Any]) -> _Record:
    """A raw OpenAlex work as the fake serves it (found by its DOI, id and title)."""
    doi = str(work.get("doi") or "").lower().removeprefix("https://doi.org/")
    return _Record(
        work,
        frozenset({doi} if doi else set()),
        frozenset(_words(str(work.get("display_name") or ""))),
        work_id=str(work["id"]).rsplit("/", 1)[-1].lower(),
    )


def iter_requests(fake: FakeScholar, service: str) -> Iterator[str]:
    for s, path, _ in list(fake.requests):
        if s == service:
            yield path
