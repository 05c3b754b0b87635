"""Chat turns end to end: the real openai client against the fake server, a real store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from labwright.agent.events import Done, GateDecision, ProposalMade, Reply, Routed, UsageRecorded
from labwright.edit.locate import bibliography_block, metadata_block
from labwright.edit.model import ClientModel
from labwright.edit.service import ChatTurn, chat_turn
from labwright.latex.sectionizer import sectionize
from labwright.llm import LLMClient
from labwright.store import Store
from labwright.store.errors import StaleBaseError
from labwright.testing.fake_openai import FakeOpenAI
from tests.edit.docs import EN, ZH


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "home")
    yield opened
    opened.close()


def _session(store: Store, tmp_path: Path, content: str, lang: str = "en") -> int:
    folder = tmp_path / "data"
    folder.mkdir(exist_ok=True)
    session = store.create_session(folder, language=lang)
    store.add_version(session.id, content, summary="first draft")
    return session.id


def _turn(store: Store, sid: int, message: str, client: LLMClient | None) -> list[Any]:
    model = ClientModel(client) if client is not None else None
    return list(
        chat_turn(ChatTurn(store, sid, message, model, digest=lambda: "## notes.md\nL = 0.50 m"))
    )


def _is_routing(messages: list[dict[str, Any]]) -> bool:
    return messages[0]["content"].startswith("# Task: which part")


def _section(content: str, anchor: str) -> str:
    node = sectionize(content).by_anchor(anchor)
    assert node is not None
    return node.text(content)


def test_offline_rename_is_a_proposal_and_accepting_it_makes_a_version(
    store: Store, tmp_path: Path
) -> None:
    sid = _session(store, tmp_path, EN)
    events = _turn(store, sid, "Rename section 2 to Theory.", None)
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    routed = next(e for e in events if isinstance(e, Routed))
    assert routed.by == "deterministic" and not routed.used_tokens
    assert isinstance(events[-1], Done) and events[-1].ok
    version = store.accept_proposal(made.proposal_id)
    assert version.content == EN.replace("\\section{Principle}", "\\section{Theory}")
    roles = [m.role for m in store.list_messages(sid)]
    assert roles == ["user", "assistant"]


def test_offline_request_needing_a_model_says_so_and_proposes_nothing(
    store: Store, tmp_path: Path
) -> None:
    sid = _session(store, tmp_path, EN)
    events = _turn(store, sid, "Make the discussion more specific.", None)
    assert not [e for e in events if isinstance(e, ProposalMade)]
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert "model" in reply and reply.endswith(".")
    assert store.list_proposals(sid) == []


def test_scoped_edit_changes_only_the_target_bytes(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    old = _section(EN, "n7")
    new_section = "\\section{Discussion}\nThe value $g = 9.79$ m/s$^2$ lies 0.2\\% below the reference value.\n"
    fake_llm.script("```latex\n" + new_section + "```")
    events = _turn(store, sid, "Make the discussion more specific.", llm_client)
    routed = next(e for e in events if isinstance(e, Routed))
    assert routed.target == "n7" and not routed.used_tokens
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    assert [e for e in events if isinstance(e, UsageRecorded)]
    after = store.accept_proposal(made.proposal_id).content
    start = EN.index(old)
    assert after[:start] == EN[:start]
    assert after[start + len(after) - len(EN) + len(old) :] == EN[start + len(old) :]
    assert "0.2\\% below" in _section(after, "n7")
    request = fake_llm.chat_requests[-1]
    sent = "\n".join(m["content"] for m in request.messages)
    assert (
        old.strip() in sent and "\\section{Aim}\nTo measure" not in sent
    )  # only the target section


def test_a_fragment_that_adds_a_section_is_refused_with_a_sentence(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    bad = "\\section{Discussion}\nMore.\n\n\\section{Outlook}\nNext time, use a photogate.\n"
    fake_llm.script(bad, bad)  # the first answer and the one repair turn
    events = _turn(store, sid, "Make the discussion more specific.", llm_client)
    assert len(fake_llm.chat_requests) == 2  # one repair turn, then the refusal stands
    assert not [e for e in events if isinstance(e, ProposalMade)]
    gate = next(e for e in events if isinstance(e, GateDecision))
    assert not gate.accepted and gate.reasons
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert reply.count(". ") == 0 and reply.endswith(".") and "heading" in reply
    assert store.list_proposals(sid) == [] and store.latest_version(sid).content == EN  # type: ignore[union-attr]


def test_accepting_on_a_stale_base_is_refused(store: Store, tmp_path: Path) -> None:
    sid = _session(store, tmp_path, EN)
    events = _turn(store, sid, "Rename section 2 to Theory.", None)
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    store.add_version(sid, EN + "% a later build\n", summary="rebuilt")
    with pytest.raises(StaleBaseError):
        store.accept_proposal(made.proposal_id)
    assert store.get_proposal(made.proposal_id).status == "pending"


def test_whole_edit_over_aligned_skeletons_becomes_per_section_proposals(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    revised = EN.replace(
        "To measure the local", "The aim of this experiment is to measure the local"
    ).replace("We measured $g", "In conclusion, we measured $g")

    def answer(messages: list[dict[str, Any]], _req: Any) -> str:
        return '{"target": "whole"}' if _is_routing(messages) else revised

    fake_llm.on_messages(answer)
    events = _turn(store, sid, "Make the whole report more formal.", llm_client)
    routed = next(e for e in events if isinstance(e, Routed))
    assert routed.target == "whole" and routed.used_tokens
    made = [e for e in events if isinstance(e, ProposalMade)]
    assert [m.scope for m in made] == ["whole", "whole"]
    assert {m.target.split()[0] for m in made} == {"n0", "n8"}
    # Each part can be accepted on its own, in any order; both give the model's document.
    store.accept_proposal(made[1].proposal_id)
    final = store.accept_proposal(made[0].proposal_id)
    assert final.content == revised


def test_a_whole_part_is_stale_after_an_unrelated_version(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    revised = EN.replace("To measure the local", "To determine the local").replace(
        "We measured", "We determined"
    )
    fake_llm.on_messages(lambda m, _r: '{"target": "whole"}' if _is_routing(m) else revised)
    made = [
        e
        for e in _turn(store, sid, "Use the passive voice throughout.", llm_client)
        if isinstance(e, ProposalMade)
    ]
    store.accept_proposal(made[0].proposal_id)
    latest = store.latest_version(sid)
    assert latest is not None
    store.restore_version(latest.parent_id)  # type: ignore[arg-type]
    with pytest.raises(StaleBaseError):
        store.accept_proposal(made[1].proposal_id)


def test_a_restructured_whole_edit_stays_one_proposal(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    revised = EN.replace("\\section{Discussion}", "\\section{Discussion and outlook}")
    fake_llm.on_messages(lambda m, _r: '{"target": "whole"}' if _is_routing(m) else revised)
    made = [
        e
        for e in _turn(store, sid, "Polish the English of the whole document.", llm_client)
        if isinstance(e, ProposalMade)
    ]
    assert len(made) == 1 and made[0].scope == "whole"
    assert store.accept_proposal(made[0].proposal_id).content == revised


def test_bibliography_edit_leaves_the_body_byte_identical(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, ZH, "zh")
    fake_llm.script(
        "\\begin{thebibliography}{9}\n\\bibitem{halliday} D. Halliday, R. Resnick, J. Walker. "
        "Fundamentals of Physics. Wiley, 2013.\n\\end{thebibliography}"
    )
    events = _turn(store, sid, "参考文献格式不对，请补全作者和出版信息。", llm_client)
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    assert made.scope == "bib"
    after = store.accept_proposal(made.proposal_id).content
    block = bibliography_block(ZH)
    assert block is not None
    assert after[: block.start] == ZH[: block.start]
    assert after.endswith(ZH[block.end :])
    assert "Wiley" in after


def test_bibliography_fragment_with_body_text_is_refused(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    bad = "\\section{References}\n\\bibliographystyle{unsrt}\n\\bibliography{refs}"
    fake_llm.script(bad, bad)
    events = _turn(store, sid, "Sort the bibliography alphabetically.", llm_client)
    assert not [e for e in events if isinstance(e, ProposalMade)]


def test_keywords_edit_is_a_block_proposal_with_a_small_prompt(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    fake_llm.script("\\keywords{pendulum, free fall, small-angle approximation}")
    events = _turn(
        store,
        sid,
        "Change the keywords to pendulum, free fall, small-angle approximation.",
        llm_client,
    )
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    assert made.scope == "keywords"
    after = store.accept_proposal(made.proposal_id).content
    kw = metadata_block(after, "keywords")
    assert kw is not None and "free fall" in kw.text(after)
    assert fake_llm.chat_requests[-1].prompt_tokens() < 1000


def test_keywords_answer_in_another_form_is_refused(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    fake_llm.script("Keywords: pendulum, free fall", "Keywords: pendulum, free fall")
    events = _turn(store, sid, "Add two more keywords.", llm_client)
    assert not [e for e in events if isinstance(e, ProposalMade)]
    assert next(e for e in events if isinstance(e, Reply)).text.startswith("Nothing was changed")


def test_model_failure_is_one_sentence_and_nothing_changes(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    from labwright.testing.fake_openai import HTTPStatus, Turn

    sid = _session(store, tmp_path, EN)
    fake_llm.script(Turn.failing(HTTPStatus(400)))
    events = _turn(store, sid, "Make the discussion more specific.", llm_client)
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert "Settings" in reply and not [e for e in events if isinstance(e, ProposalMade)]
    assert isinstance(events[-1], Done) and not events[-1].ok


def test_no_version_yet(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    sid = store.create_session(folder).id
    events = list(chat_turn(ChatTurn(store, sid, "Shorten the abstract.")))
    assert isinstance(events[-1], Done) and "build one first" in events[-2].text


def test_a_chinese_request_gets_a_chinese_reply(store: Store, tmp_path: Path) -> None:
    sid = _session(store, tmp_path, ZH, "zh")
    events = _turn(store, sid, "把讨论部分写得更具体。", None)
    reply = next(e for e in events if isinstance(e, Reply)).text
    assert "语言模型" in reply and reply.endswith("。")


def test_earlier_turns_travel_folded_with_the_next_edit(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    store.add_message(sid, "user", "Use SI units everywhere.")
    store.add_message(sid, "assistant", EN)  # a whole document in the history is folded away
    fake_llm.script("\\section{Discussion}\nThe value agrees within 2 sigma.\n")
    _turn(store, sid, "Make the discussion more specific.", llm_client)
    sent = fake_llm.chat_requests[-1].messages
    contents = [m["content"] for m in sent]
    assert "Use SI units everywhere." in contents
    assert not any("\\documentclass" in c for c in contents[1:-1])
    assert any("omitted" in c for c in contents)


def test_one_repair_turn_feeds_the_refusal_back_and_can_succeed(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid = _session(store, tmp_path, EN)
    fake_llm.script(
        "Here is the revised section:\n\\section{Discussion}\nBetter.\n\\section{Extra}\nNo.\n",
        "\\section{Discussion}\nThe value agrees with the reference within 0.2\\%.\n",
    )
    events = _turn(store, sid, "Make the discussion more specific.", llm_client)
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    repair = fake_llm.chat_requests[-1].messages
    assert repair[-2]["role"] == "assistant" and "Your answer was not used" in repair[-1]["content"]
    assert "heading" in repair[-1]["content"]
    steps = [e.step for e in events if isinstance(e, UsageRecorded)]
    assert steps == ["edit", "edit-repair"]
    assert "0.2" in store.get_proposal(made.proposal_id).new_text


def _tagged_session(store: Store, tmp_path: Path) -> tuple[int, str]:
    from labwright.verify.tags import tag

    g = tag("ab12cd34ef", "9.79")
    content = EN.replace("The value agrees", f"The value $g = {g}$ agrees")
    assert content != EN
    return _session(store, tmp_path, content), g


def _record(_version: Any) -> dict[str, Any]:
    return {
        "numbers": [{"id": "ab12cd34ef", "printed": "9.79", "value": 9.7912, "computation": "g"}]
    }


def test_a_model_fragment_cannot_make_a_number_look_traced(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    """The number-tag gate: the model's copy of a traced number keeps its tag;
    a tag it invents, or one whose number it changed, is removed."""
    from labwright.verify.tags import find_tags

    sid, g = _tagged_session(store, tmp_path)
    fake_llm.script(
        "```latex\n\\section{Discussion}\n"
        f"We keep $g = {g}$, invent $h = \\lwnum{{ffff0000aa}}{{1.23}}$ and "
        "alter $g = \\lwnum{ab12cd34ef}{9.95}$ and round it to $\\lwnum{ab12cd34ef}{9.8}$.\n```"
    )
    turn = ChatTurn(
        store, sid, "Make the discussion more specific.", ClientModel(llm_client), record=_record
    )
    events = list(chat_turn(turn))
    (made,) = [e for e in events if isinstance(e, ProposalMade)]
    text = store.get_proposal(made.proposal_id).new_text
    assert [(t.id, t.printed) for t in find_tags(text)] == [
        ("ab12cd34ef", "9.79"),
        ("ab12cd34ef", "9.8"),
    ]
    assert "$h = 1.23$" in text and "$g = 9.95$" in text
    gate = next(e for e in events if isinstance(e, GateDecision) and e.gate == "number_tags")
    assert gate.reasons and "1.23" in gate.reasons[0] and "9.95" in gate.reasons[0]


def test_a_tag_the_model_dropped_is_put_back_on_its_unchanged_number(
    store: Store, tmp_path: Path, fake_llm: FakeOpenAI, llm_client: LLMClient
) -> None:
    sid, g = _tagged_session(store, tmp_path)
    fake_llm.script("```latex\n\\section{Discussion}\nOur $g = 9.79$ agrees; 2.5 is new.\n```")
    turn = ChatTurn(
        store, sid, "Make the discussion more specific.", ClientModel(llm_client), record=_record
    )
    (made,) = [e for e in chat_turn(turn) if isinstance(e, ProposalMade)]
    text = store.get_proposal(made.proposal_id).new_text
    assert f"$g = {g}$" in text and "2.5 is new" in text
