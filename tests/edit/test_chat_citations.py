"""A chat request to cite a work is one proposal: the \\cite and its checked .bib entry.

The real openai client against the fake model server and the resolver against the
fake Crossref/OpenAlex, both over real sockets; a real store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from labwright.agent.events import ProposalMade, Reply
from labwright.edit.citations import Check
from labwright.edit.model import ClientModel
from labwright.edit.service import ChatTurn, chat_turn
from labwright.latex.sectionizer import sectionize
from labwright.llm import LLMClient
from labwright.store import Store
from labwright.testing.fake_openai import FakeOpenAI
from labwright.testing.fake_scholar import FakeScholar
from labwright.verify.bibtex import parse_bib
from labwright.verify.citations import cite_keys
from labwright.verify.resolve import Resolver
from labwright.verify.settings import CitationSettings
from tests.edit.docs import EN

BIB = (
    "@book{halliday, author={Halliday, David}, title={Fundamentals of Physics}, year={2013}}\n\n"
    "@book{taylor1997, author={Taylor, John R.}, title={An Introduction to Error Analysis}, year={1997}}\n"
)
DOC = EN.replace(
    "\\end{document}", "\\bibliographystyle{unsrt}\n\\bibliography{refs}\n\\end{document}"
)
REAL = "@article{lecun2015, author={LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey}, title={Deep learning}, journal={Nature}, year={2015}}"
INVENTED = "@article{miller2015, author={Miller, Sarah J.}, title={Measurement of the gravitational acceleration with a compound pendulum and photogate timing}, journal={American Journal of Physics}, year={2015}}"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "home")
    yield opened
    opened.close()


@pytest.fixture
def scholar() -> Iterator[FakeScholar]:
    with FakeScholar(rate_limit=(50, "1s")) as fake:
        yield fake


def _check(fake: FakeScholar) -> Check:
    settings = CitationSettings(
        contact_email="tests@example.org",
        crossref_url=fake.crossref_url,
        openalex_url=fake.openalex_url,
    )

    def check(entries: Any) -> list[Any]:
        resolver = Resolver.from_settings(settings, None)
        try:
            return resolver.check(list(entries), deadline_s=10, origin="model")
        finally:
            resolver.close()

    return check


def _discussion(content: str) -> str:
    node = next(n for n in sectionize(content).nodes if "Discussion" in n.text(content)[:40])
    return node.text(content)


def _answers(entry: str, key: str) -> Any:
    """The model: routes to the discussion, adds one sentence citing `key`, writes `entry`."""

    def answer(messages: list[dict[str, Any]], _request: object) -> str:
        first = messages[0]["content"]
        last = messages[-1]["content"]
        if first.startswith("# Task: which part") or "# Task: which part" in last:
            anchor = next(
                n.anchor for n in sectionize(DOC).nodes if "Discussion" in n.text(DOC)[:40]
            )
            return json.dumps({"target": anchor})
        if "# Task: entries for new citations" in last:
            return "```bibtex\n" + entry + "\n```"
        section = _discussion(DOC).rstrip("\n")
        return f"```latex\n{section} Deep neural networks could fit such data~\\cite{{{key}}}.\n```"

    return answer


def _turn(
    store: Store, sid: int, message: str, client: LLMClient, check: Check | None
) -> list[Any]:
    turn = ChatTurn(
        store, sid, message, ClientModel(client), digest=lambda: "", check_references=check
    )
    return list(chat_turn(turn))


def _session(store: Store, tmp_path: Path) -> int:
    folder = tmp_path / "data"
    folder.mkdir(exist_ok=True)
    session = store.create_session(folder, language="en")
    store.add_version(session.id, DOC, summary="first draft", bibliography=BIB)
    return session.id


def test_a_real_work_becomes_one_proposal_with_the_cite_and_the_checked_entry(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient, scholar: FakeScholar
) -> None:
    sid = _session(store, tmp_path)
    fake_llm.on_messages(_answers(REAL, "lecun2015"))
    events = _turn(
        store,
        sid,
        "Cite the deep learning review by LeCun in the discussion.",
        llm_client,
        _check(scholar),
    )
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    proposal = store.get_proposal(made.proposal_id)
    assert "\\cite{lecun2015}" in proposal.new_text
    assert proposal.bib_old == BIB and proposal.bib_new is not None
    added = parse_bib(proposal.bib_new).by_key()
    # the entry is the index's record under the model's key, the user's entry untouched
    assert set(added) == {"halliday", "taylor1997", "lecun2015"}
    assert added["lecun2015"].get("doi") == "10.1038/nature14539"
    assert proposal.bib_new.startswith(BIB.rstrip("\n"))
    version = store.accept_proposal(made.proposal_id)
    assert set(cite_keys(version.content)) <= set(parse_bib(version.bibliography or "").by_key())
    # restore brings the old bibliography back with the old text
    first = store.list_versions(sid)[0]
    assert store.restore_version(first.id).bibliography == BIB
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert "lecun2015" in reply


def test_an_invented_work_is_not_added_and_the_reply_says_so(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient, scholar: FakeScholar
) -> None:
    sid = _session(store, tmp_path)
    fake_llm.on_messages(_answers(INVENTED, "miller2015"))
    events = _turn(
        store,
        sid,
        "Cite Miller's photogate pendulum paper in the discussion.",
        llm_client,
        _check(scholar),
    )
    proposals = store.list_proposals(sid)
    assert all("miller2015" not in p.new_text and p.bib_new is None for p in proposals)
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert "miller2015" in reply and "not added" in reply
    # the effect did not happen: no version gained the entry
    assert all(
        "miller2015" not in (store.get_version(v.id).bibliography or "")
        for v in store.list_versions(sid)
    )


def test_without_a_check_no_entry_is_added(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path)
    fake_llm.on_messages(_answers(REAL, "lecun2015"))
    events = _turn(
        store, sid, "Cite the deep learning review by LeCun in the discussion.", llm_client, None
    )
    assert all(
        p.bib_new is None and "lecun2015" not in p.new_text for p in store.list_proposals(sid)
    )
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert "could not be checked" in reply
