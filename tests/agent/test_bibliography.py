"""The bibliography step: folder entries as written, model entries only when an index holds them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from labwright.agent.bibliography import BibOutcome, build_bibliography
from labwright.agent.citation_check import CitationCheck, FolderBib
from labwright.agent.events import Warning_
from labwright.testing.fake_scholar import FakeScholar
from labwright.verify.bibtex import parse_bib
from labwright.verify.resolve import Resolver
from labwright.verify.settings import CitationSettings

DRAFT = r"\begin{document}As shown~\cite{a} and \cite{lecun,fake}.\end{document}"
MODEL = (
    "@article{lecun, author={LeCun, Y.}, title={Deep learning}, journal={Nature}, year={2015}}\n"
    "@article{fake, author={Miller, S.}, title={A pendulum that measures itself}, year={2019}}\n"
    "@book{zzz, title={not asked for}}"
)


@pytest.fixture
def fake() -> Iterator[FakeScholar]:
    with FakeScholar(rate_limit=(50, "1s")) as server:
        yield server


def online(fake: FakeScholar) -> CitationCheck:
    settings = CitationSettings(crossref_url=fake.crossref_url, openalex_url=fake.openalex_url)
    return CitationCheck(lambda: Resolver.from_settings(settings, None))


def offline() -> CitationCheck:
    return CitationCheck(lambda: Resolver.from_settings(CitationSettings(network=False), None))


def test_a_found_model_entry_is_cited_in_the_index_s_words_and_an_invented_one_dropped(
    fake: FakeScholar,
) -> None:
    asked: list[list[str]] = []

    def ask(keys: list[str]) -> str:
        asked.append(keys)
        return MODEL

    outcome = BibOutcome()
    check = online(fake)
    events = list(
        build_bibliography(
            DRAFT, [FolderBib("refs.bib", "@article{a, title={A}}")], ask, outcome, check=check
        )
    )
    assert asked == [["lecun", "fake"]]
    assert outcome.generated == ["lecun"] and outcome.dropped == {"fake": "not_found"}
    lecun = parse_bib(outcome.bib).by_key()["lecun"]
    assert lecun.get("doi") == "10.1038/nature14539" and lecun.get("volume") == "521"
    assert "zzz" not in outcome.bib and "fake" not in parse_bib(outcome.bib).keys
    assert (
        outcome.draft is not None
        and r"\cite{lecun}" in outcome.draft
        and "fake" not in outcome.draft
    )
    assert outcome.missing == []
    warnings = [e.message for e in events if isinstance(e, Warning_)]
    assert len(warnings) == 1 and "fake" in warnings[0] and "could not be found" in warnings[0]
    assert {(v.key, v.verdict, v.cited) for v in check.verdicts(0)} == {
        ("lecun", "verified", True),
        ("fake", "not_found", False),
    }


def test_offline_the_model_s_entries_are_not_cited_and_the_folder_s_are(tmp_path: object) -> None:
    outcome = BibOutcome()
    folder = FolderBib("refs.bib", "@article{a,\n  title = {A},\n}\n")
    events = list(build_bibliography(DRAFT, [folder], lambda keys: MODEL, outcome, check=offline()))
    assert outcome.generated == [] and set(outcome.dropped) == {"lecun", "fake"}
    assert outcome.bib == folder.text  # the person's file, byte for byte
    assert (
        outcome.draft is not None and r"\cite{a}" in outcome.draft and "lecun" not in outcome.draft
    )
    assert any(isinstance(e, Warning_) and "could not be checked" in e.message for e in events)


def test_without_a_model_missing_keys_are_reported() -> None:
    outcome = BibOutcome()
    events = list(build_bibliography(DRAFT, [], None, outcome, check=offline()))
    assert outcome.missing == ["a", "lecun", "fake"]
    assert any("no bibliography entry" in getattr(e, "message", "") for e in events)


def test_the_folder_s_entries_are_checked_in_the_background(
    fake: FakeScholar, tmp_path: object
) -> None:
    check = online(fake)
    check.start_folder([FolderBib("refs.bib", MODEL)])
    verdicts = {v.key: v.verdict for v in check.verdicts(wait_s=10)}
    assert verdicts == {"lecun": "verified", "fake": "not_found", "zzz": "not_found"}


def test_the_check_reference_tool_answers_with_the_index_s_record(fake: FakeScholar) -> None:
    import json

    from labwright.agent.reference_tool import check_reference_tool
    from labwright.agent.tools import ToolBox

    box = ToolBox([check_reference_tool(online(fake))])
    assert box.schemas()[0]["function"]["name"] == "check_reference"
    found = json.loads(
        box.call(
            "check_reference", {"title": "Deep learning", "first_author": "LeCun", "year": 2015}
        ).output
    )
    assert found["verdict"] == "verified" and found["record"]["doi"] == "10.1038/nature14539"
    invented = json.loads(
        box.call(
            "check_reference",
            {"title": "A pendulum that measures itself", "first_author": "Miller"},
        ).output
    )
    assert invented["verdict"] == "not_found" and "record" not in invented
    assert "at least a title" in box.call("check_reference", {}).output
    assert "not right" in box.call("check_reference", {"titel": "x"}).output
