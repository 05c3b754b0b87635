"""The caller's time budget: what is undecided then is "not checked", never verified,
and its lookups go on in the background into the cache (fake indexes, real sockets)."""

from __future__ import annotations

import time
from pathlib import Path

from labwright.testing.fake_scholar import FakeScholar, Latency
from labwright.verify.bibtex import parse_bib
from labwright.verify.resolve import Resolver
from labwright.verify.settings import CitationSettings
from labwright.verify.verdict import NOT_CHECKED_IN_TIME

#: Found by its DOI (a single record, fast in these tests).
LECUN = "@article{lecun, author={LeCun, Yann}, title={Deep learning}, journal={Nature}, year={2015}, doi={10.1038/nature14539}}"
#: Found only by a title search (slow in these tests).
WATSON = "@article{watson, author={Watson, J. D. and Crick, F. H. C.}, title={Molecular structure of nucleic acids}, journal={Nature}, year={1953}}"
#: Invented: searches find nothing that fits.
INVENTED = "@article{fake, author={Kowalski, Jan}, title={A unified theory of damping in torsion pendulums}, journal={Phys. Rev. Lett.}, year={2016}}"

#: Lists (searches) far slower than the budget; single records quick.
SLOW_SEARCHES = Latency(single=(0.0, 0.0), search=(3.0, 3.0))


def _resolver(fake: FakeScholar, home: Path) -> Resolver:
    settings = CitationSettings(
        contact_email="lab@example.org",
        crossref_url=fake.crossref_url,
        openalex_url=fake.openalex_url,
    )
    return Resolver.from_settings(settings, home)


def _entries(*texts: str):  # type: ignore[no-untyped-def]
    return [parse_bib(t).entries[0] for t in texts]


def _until_idle(resolver: Resolver) -> None:
    deadline = time.monotonic() + 30
    while resolver.busy and time.monotonic() < deadline:
        time.sleep(0.05)


def test_an_entry_undecided_at_the_budget_is_not_checked_and_never_verified(
    tmp_path: Path,
) -> None:
    with FakeScholar(latency=SLOW_SEARCHES) as fake:
        resolver = _resolver(fake, tmp_path)
        verdicts = resolver.check(
            _entries(LECUN, WATSON, INVENTED), deadline_s=20, budget_s=1.5, origin="model"
        )
        by_key = {v.key: v for v in verdicts}
        assert by_key["lecun"].verdict == "verified"  # its single record came in time
        for key in ("watson", "fake"):
            assert by_key[key].verdict == "unverifiable"
            assert by_key[key].reason == NOT_CHECKED_IN_TIME
            assert by_key[key].origin == "model" and not by_key[key].trusted
        _until_idle(resolver)
        resolver.close()


def test_lookups_past_the_budget_fill_the_cache_for_the_next_check(tmp_path: Path) -> None:
    with FakeScholar(latency=SLOW_SEARCHES) as fake:
        first = _resolver(fake, tmp_path)
        late = first.check(_entries(WATSON, INVENTED), deadline_s=20, budget_s=0.5)
        assert {v.verdict for v in late} == {"unverifiable"}
        assert first.busy  # the searches are still out
        _until_idle(first)
        first.close()
        asked = len(fake.requests)
        second = _resolver(fake, tmp_path)
        verdicts = second.check(_entries(WATSON, INVENTED), deadline_s=20, budget_s=0.5)
        second.close()
        assert len(fake.requests) == asked  # every answer came from the cache
        assert [v.verdict for v in verdicts] == ["verified", "not_found"]


def test_without_a_budget_the_check_waits_for_the_answers(tmp_path: Path) -> None:
    with FakeScholar(latency=Latency(single=(0.0, 0.0), search=(0.3, 0.3))) as fake:
        resolver = _resolver(fake, tmp_path)
        verdicts = resolver.check(_entries(WATSON, INVENTED), deadline_s=20)
        assert not resolver.busy
        resolver.close()
        assert [v.verdict for v in verdicts] == ["verified", "not_found"]


def test_closing_when_idle_waits_for_the_background_lookups(tmp_path: Path) -> None:
    with FakeScholar(latency=SLOW_SEARCHES) as fake:
        resolver = _resolver(fake, tmp_path)
        resolver.check(_entries(WATSON), deadline_s=20, budget_s=0.3)
        resolver.close_when_idle(timeout_s=20)
        _until_idle(resolver)
        asked = len(fake.requests)
        again = _resolver(fake, tmp_path)
        assert again.check(_entries(WATSON), deadline_s=20)[0].verdict == "verified"
        again.close()
        assert len(fake.requests) == asked  # the late answer was cached before the close
