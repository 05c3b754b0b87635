"""Batched questions: many DOIs, or many titles, in one OpenAlex request, each answer
cached as if asked alone (fake indexes over real sockets)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from labwright.testing.citation_cases import CASES
from labwright.testing.fake_scholar import FakeScholar
from labwright.verify import indexes
from labwright.verify.bibtex import BibEntry, parse_bib
from labwright.verify.match import normalized_title, plain
from labwright.verify.resolve import Resolver
from labwright.verify.settings import CitationSettings

BY_KEY = {parse_bib(c.bibtex).entries[0].key: c for c in CASES}
WITH_DOI = ("he2016", "schroedinger", "shannon", "ouyang2016")
#: Titles only: four real works OpenAlex holds and two invented ones.
TITLES_ONLY = ("lecun", "watson", "einstein", "hunter", "fake_not_all", "fake_pend")


def _entries(keys: tuple[str, ...]) -> list[BibEntry]:
    return [parse_bib(BY_KEY[k].bibtex).entries[0] for k in keys]


def _resolver(fake: FakeScholar, home: Path | None = None, *, key: str = "") -> Resolver:
    settings = CitationSettings(
        contact_email="lab@example.org",
        crossref_url=fake.crossref_url,
        openalex_url=fake.openalex_url,
        openalex_api_key=key,
    )
    return Resolver.from_settings(settings, home)


def _lists(fake: FakeScholar, service: str, name: str) -> list[str]:
    """The `filter` / query values of the list requests to one index."""
    out = []
    for s, path, query in list(fake.requests):
        if s == service and path.rstrip("/") == "/works":
            value = (query.get(name) or [""])[0]
            if value:
                out.append(value)
    return out


def test_dois_are_asked_in_one_openalex_request() -> None:
    with FakeScholar() as fake:
        verdicts = _resolver(fake).check(_entries(WITH_DOI), deadline_s=30)
        filters = [f for f in _lists(fake, "openalex", "filter") if f.startswith("doi:")]
        singles = [p for s, p, _ in fake.requests if s == "openalex" and p.startswith("/works/")]
    assert len(filters) == 1 and filters[0].count("|") == len(WITH_DOI) - 1
    assert singles == []  # every DOI the batch returned was answered from it
    assert [v.verdict for v in verdicts] == [BY_KEY[k].expected for k in WITH_DOI]


@pytest.mark.parametrize("key", ["", "bench-key"])
def test_titles_are_searched_in_one_openalex_request(key: str) -> None:
    with FakeScholar() as fake:
        verdicts = _resolver(fake, key=key).check(_entries(TITLES_ONLY), deadline_s=30)
        searches = [f for f in _lists(fake, "openalex", "filter") if f.startswith("title.search:")]
        crossref = _lists(fake, "crossref", "query.bibliographic")
    assert len(searches) == 1 and searches[0].count("|") == len(TITLES_ONLY) - 1
    assert [v.verdict for v in verdicts] == [BY_KEY[k].expected for k in TITLES_ONLY]
    # Crossref is searched only for what OpenAlex does not hold (with a key or
    # without: the batch's answers are in the cache, so OpenAlex is asked first).
    invented = [k for k in TITLES_ONLY if BY_KEY[k].kind == "invented"]
    assert len(crossref) == len(invented)


def test_a_second_check_answers_every_title_from_the_cache(tmp_path: Path) -> None:
    with FakeScholar() as fake:
        first = _resolver(fake, tmp_path).check(_entries(TITLES_ONLY), deadline_s=30)
        asked = len(fake.requests)
        second = _resolver(fake, tmp_path).check(_entries(TITLES_ONLY), deadline_s=30)
        assert len(fake.requests) == asked
    assert [v.verdict for v in second] == [v.verdict for v in first]


def test_a_cut_off_page_never_caches_nothing_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """One result per title: the page holds fewer results than the search matched,
    so a title without a share of it must be searched alone, not cached as absent."""
    monkeypatch.setattr(indexes, "TITLE_ROWS", 1)
    titles = [plain(e.get("title")) for e in _entries(TITLES_ONLY)]
    with FakeScholar() as fake:
        resolver = _resolver(fake)
        deadline = time.monotonic() + 30
        jobs = resolver.indexes.title_prefetch_jobs(titles, deadline)
        assert len(jobs) == 1
        jobs[0]()
        cached = {
            t: resolver.indexes.cache.get(f"openalex:title:{normalized_title(t)}") for t in titles
        }
        assert any(c is None for c in cached.values())  # the page could not answer them all
        for title, row in cached.items():
            assert row is None or row.value["records"], title
        verdicts = resolver.check(_entries(TITLES_ONLY), deadline_s=30)
    assert [v.verdict for v in verdicts] == [BY_KEY[k].expected for k in TITLES_ONLY]


def test_a_failed_batch_leaves_each_title_to_its_own_search() -> None:
    from labwright.testing.fake_scholar import Fault

    with FakeScholar() as fake:
        fake.fail("openalex", Fault(status=500), Fault(status=500), Fault(status=500))
        verdicts = _resolver(fake).check(_entries(TITLES_ONLY), deadline_s=30)
    assert [v.verdict for v in verdicts] == [BY_KEY[k].expected for k in TITLES_ONLY]
