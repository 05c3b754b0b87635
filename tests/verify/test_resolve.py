"""The resolver against the fake Crossref and OpenAlex over real sockets.

The labelled set is the quality bar (benchmarks/citations.py prints it);
the rest are the ways the real services misbehave: 429 with Retry-After,
500s, answers too slow, dropped connections, no network at all.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from labwright.testing.citation_cases import CASES
from labwright.testing.fake_scholar import FakeScholar, Fault, Latency
from labwright.verify.bibtex import parse_bib
from labwright.verify.polite import ServiceLimits
from labwright.verify.resolve import Resolver, identifiers
from labwright.verify.settings import CitationSettings

LECUN = "@article{lecun, author={LeCun, Yann}, title={Deep learning}, journal={Nature}, year={2015}, doi={10.1038/nature14539}}"
LECUN_NO_DOI = (
    "@article{lecun, author={LeCun, Yann}, title={Deep learning}, journal={Nature}, year={2015}}"
)


@pytest.fixture
def fake() -> Iterator[FakeScholar]:
    # The real polite pool advertises fewer; the rate test below uses that.
    with FakeScholar(rate_limit=(50, "1s")) as server:
        yield server


def settings_for(fake: FakeScholar, **kw: object) -> CitationSettings:
    return CitationSettings(
        contact_email="lab@example.org",
        crossref_url=fake.crossref_url,
        openalex_url=fake.openalex_url,
        **kw,
    )


def resolver(fake: FakeScholar, home: Path | None = None, **limits: float) -> Resolver:
    crossref = ServiceLimits(concurrency=3, rate=50.0, read_timeout_s=limits.get("read", 6.0))
    return Resolver.from_settings(settings_for(fake), home, crossref_limits=crossref)


def one(text: str):  # type: ignore[no-untyped-def]
    return parse_bib(text).entries[0]


def test_the_labelled_set_is_right_and_no_invented_entry_is_verified(fake: FakeScholar) -> None:
    entries = [one(c.bibtex) for c in CASES]
    verdicts = resolver(fake).check(entries)
    right = [
        v.verdict == c.expected and (not c.fixes or any(d.field == c.fixes for d in v.differences))
        for c, v in zip(CASES, verdicts, strict=True)
    ]
    assert len(CASES) >= 60
    assert sum(right) / len(CASES) >= 0.95
    assert not [
        v.key for c, v in zip(CASES, verdicts, strict=True) if c.kind == "invented" and v.trusted
    ]


def test_a_correction_is_a_proposal_with_a_diff_of_the_file(fake: FakeScholar) -> None:
    text = (
        "% mine\n"
        + LECUN.replace("year={2015}", "year={2014}")
        + "\n\n@misc{other, title={Keep me}}\n"
    )
    source = parse_bib(text)
    verdict = resolver(fake).check(source.entries[:1], source=source, file="refs.bib")[0]
    assert verdict.verdict == "corrected" and verdict.proposal is not None
    assert "-" in verdict.proposal.diff and "+" in verdict.proposal.diff
    assert "year = {2015}" in verdict.proposal.entry
    assert "Keep me" not in "".join(
        line
        for line in verdict.proposal.diff.splitlines()
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))
    )
    assert source.text == text  # nothing was applied


def test_polite_pool_and_identifiers(fake: FakeScholar) -> None:
    resolver(fake).check([one(LECUN)])
    service, path, query = fake.requests[0]
    assert (service, path) == ("crossref", "/works/10.1038/nature14539")
    assert query["mailto"] == ["lab@example.org"]
    ids = identifiers(
        one("@misc{a, title={T}, howpublished={\\url{https://arxiv.org/abs/1706.03762v5}}}")
    )
    assert ids.arxiv == "1706.03762" and not ids.doi
    assert identifiers(one("@book{b, title={T}, isbn={978-0-935702-42-2}}")).isbn == "9780935702422"


def test_429_with_retry_after_is_waited_out_within_the_deadline(fake: FakeScholar) -> None:
    fake.fail("crossref", Fault(status=429, headers={"Retry-After": "1"}))
    verdict = resolver(fake).check([one(LECUN)])[0]
    assert verdict.verdict == "verified"
    assert fake.count("crossref") == 2


def test_retry_after_past_the_deadline_is_not_waited_for(fake: FakeScholar) -> None:
    fake.fail("crossref", *[Fault(status=429, headers={"Retry-After": "120"})] * 3)
    fake.fail("openalex", *[Fault(status=429, headers={"Retry-After": "120"})] * 3)
    verdict = resolver(fake).check([one(LECUN_NO_DOI)], deadline_s=3.0)[0]
    assert verdict.verdict == "unverifiable" and "slow down" in verdict.reason
    assert fake.count("crossref") == 1


def test_server_errors_are_retried(fake: FakeScholar) -> None:
    fake.fail("crossref", Fault(status=500), Fault(status=502))
    assert resolver(fake).check([one(LECUN)])[0].verdict == "verified"
    assert fake.count("crossref") == 3


def test_a_dropped_connection_is_retried(fake: FakeScholar) -> None:
    fake.fail("crossref", Fault(drop=True))
    assert resolver(fake).check([one(LECUN)])[0].verdict == "verified"


def test_an_index_too_slow_to_answer_makes_the_entry_unverifiable(fake: FakeScholar) -> None:
    fake.fail("crossref", *[Fault(delay=1.0)] * 20)
    fake.fail("openalex", *[Fault(delay=1.0)] * 20)
    check = Resolver.from_settings(
        settings_for(fake),
        None,
        crossref_limits=ServiceLimits(concurrency=3, rate=50, read_timeout_s=0.3),
        openalex_limits=ServiceLimits(concurrency=3, rate=50, read_timeout_s=0.3),
    )
    verdict = check.check([one(LECUN)], deadline_s=4.0)[0]
    assert verdict.verdict == "unverifiable" and "in time" in verdict.reason


def test_unreachable_indexes_cost_one_attempt_each(fake: FakeScholar) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    settings = CitationSettings(
        crossref_url=f"http://127.0.0.1:{port}", openalex_url=f"http://127.0.0.1:{port}"
    )
    check = Resolver.from_settings(settings, None)
    entries = [one(c.bibtex) for c in CASES[:20]]
    verdicts = check.check(entries)
    assert {v.verdict for v in verdicts} == {"unverifiable"}
    assert not check.online
    assert check.indexes.crossref is not None and check.indexes.crossref.requests <= 1
    assert check.indexes.openalex is not None and check.indexes.openalex.requests <= 5


def test_the_cache_answers_offline_and_says_when(fake: FakeScholar, tmp_path: Path) -> None:
    entries = [one(LECUN), one(CASES[-5].bibtex)]  # a real work and an invented one
    online = resolver(fake, tmp_path).check(entries)
    asked = len(fake.requests)
    offline = Resolver.from_settings(CitationSettings(network=False), tmp_path).check(entries)
    assert len(fake.requests) == asked  # nothing left the machine
    assert [v.verdict for v in offline] == [v.verdict for v in online] == ["verified", "not_found"]
    assert offline[0].evidence is not None and offline[0].evidence.cached_at is not None
    uncached = Resolver.from_settings(CitationSettings(network=False), tmp_path).check(
        [one(CASES[0].bibtex)]
    )
    assert (
        uncached[0].verdict == "unverifiable"
        and "turned off" in uncached[0].reason
        or "off" in uncached[0].reason
    )


def test_an_expired_answer_is_asked_again(fake: FakeScholar, tmp_path: Path) -> None:
    resolver(fake, tmp_path).check([one(LECUN)])
    first = len(fake.requests)
    resolver(fake, tmp_path).check([one(LECUN)])
    assert len(fake.requests) == first  # fresh in the cache
    stale = Resolver.from_settings(settings_for(fake, cache_days=0), tmp_path)
    stale.check([one(LECUN)])
    assert len(fake.requests) == first + 1


def test_requests_in_flight_stay_within_the_polite_pool() -> None:
    with FakeScholar(latency=Latency(single=(0.02, 0.05), search=(0.05, 0.1))) as fake:
        Resolver.from_settings(settings_for(fake), None).check([one(c.bibtex) for c in CASES[:30]])
        assert 1 <= fake.max_in_flight["crossref"] <= 3


def test_the_advertised_rate_limit_is_followed() -> None:
    with FakeScholar(rate_limit=(2, "1s")) as fake:
        check = Resolver.from_settings(settings_for(fake), None)
        check.check([one(LECUN)])
        assert check.indexes.crossref is not None
        assert check.indexes.crossref._bucket.limit == 2  # noqa: SLF001 - the bucket learnt it


# -- from the independent set -------------------------------------------------------


def _raw_index() -> FakeScholar:
    from labwright.testing import independent_records

    return FakeScholar(
        (),
        crossref_records=independent_records.CROSSREF_RECORDS,
        openalex_records=independent_records.OPENALEX_RECORDS,
        rate_limit=(50, "1s"),
    )


def test_searches_send_text_not_latex() -> None:
    with _raw_index() as fake:
        mine = one(
            r"@article{s, author={Schr{\"o}dinger, E.}, title={Die gegenw{\"a}rtige Situation in der Quantenmechanik}, year={1935}}"
        )
        verdict = resolver(fake).check([mine])[0]
        sent = [q for _, path, q in fake.requests if path == "/works"]
    assert verdict.verdict == "verified"
    assert sent and all(
        "{" not in v and "\\" not in v for q in sent for vs in q.values() for v in vs
    )


def test_a_preprint_found_in_openalex_is_followed_to_its_article_through_crossref(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from contextlib import contextmanager

    @contextmanager
    def openalex_first(self: Resolver, a: str, b: str, **_: object) -> Iterator[bool]:
        yield True

    monkeypatch.setattr(Resolver, "_route", openalex_first)
    with _raw_index() as fake:
        mine = one(
            "@misc{z, author={Zhou, Peng and Shi, Zheng-Li}, title={Discovery of a novel coronavirus associated with the recent pneumonia outbreak in humans and its potential bat origin}, howpublished={bioRxiv}, year={2020}, doi={10.1101/2020.01.22.914952}}"
        )
        verdict = resolver(fake).check([mine])[0]
    assert verdict.verdict == "corrected"
    assert verdict.proposal is not None and verdict.proposal.entry.startswith("@article{z,")
    # the article's title changed on the way; the proposal carries the published one
    assert "A pneumonia outbreak" in verdict.proposal.entry
    assert "10.1038/s41586-020-2012-7" in verdict.proposal.entry


def test_web_pages_and_standards_are_unverifiable_not_invented(fake: FakeScholar) -> None:
    entries = [
        one(
            r"@misc{w, author={{NIST}}, title={Fundamental Physical Constants}, howpublished={\url{https://physics.nist.gov/cuu/Constants/}}}"
        ),
        one(
            "@standard{s, title={数值修约规则与极限数值的表示和判定}, number={GB/T 8170-2008}, year={2008}}"
        ),
        one(
            "@misc{m, author={Miller, A.}, title={A plausible study of damped pendulums}, year={2019}}"
        ),
    ]
    verdicts = resolver(fake).check(entries)
    assert [v.verdict for v in verdicts] == ["unverifiable", "unverifiable", "not_found"]
