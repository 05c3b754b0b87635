"""The zero-token router on the labelled set, and the routing call through the fake server."""

from __future__ import annotations

import json

import pytest

from labwright.edit.router import (
    Target,
    find_signals,
    parse_routing_answer,
    route,
    route_without_model,
    routing_messages,
)
from labwright.llm.tokens import estimate_messages
from tests.edit.docs import EN, EN_HAND, EN_ITALIC, ZH, ZH_HAND
from tests.edit.labelled import (
    CITE_SET,
    EN_SET,
    HAND_KEYWORDS_EN,
    HAND_KEYWORDS_ZH,
    ZH_SET,
)

CASES = (
    [(EN, r, t) for r, t in EN_SET]
    + [(ZH, r, t) for r, t in ZH_SET]
    + [(ZH if any("\u4e00" <= c <= "\u9fff" for c in r) else EN, r, t) for r, t in CITE_SET]
    + [(doc, r, t) for doc in (EN_HAND, EN_ITALIC) for r, t in HAND_KEYWORDS_EN]
    + [(ZH_HAND, r, t) for r, t in HAND_KEYWORDS_ZH]
)


def test_the_labelled_set_is_large_and_bilingual() -> None:
    assert len(CASES) >= 60
    assert len(EN_SET) >= 25 and len(ZH_SET) >= 25


@pytest.mark.parametrize(("doc", "request_", "label"), CASES, ids=[c[1][:40] for c in CASES])
def test_zero_token_decisions_are_never_wrong(doc: str, request_: str, label: str) -> None:
    decision = route_without_model(request_, doc)
    assert not decision.used_tokens
    if decision.target is not None:
        assert decision.target.ref == label, decision
    else:
        # Every label is a part the document has: "none" (answered with "no
        # such part", no model asked) would be a wrong zero-token decision.
        assert decision.by == "defer", decision
    # Offline, route() also decides whole-document wording without tokens.
    offline = route(request_, doc)
    assert not offline.used_tokens
    assert offline.target is None or offline.target.ref == label, offline


def test_share_decided_without_tokens_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    decided = sum(route_without_model(r, d).target is not None for d, r, _ in CASES)
    share = decided / len(CASES)
    with capsys.disabled():
        print(f"\nrouter: {decided}/{len(CASES)} requests ({share:.0%}) decided without tokens")
    # The set has requests that name several parts or none, and requests for a
    # new citation (never decided by code); the rest are explicit.
    assert share >= 0.6


def test_whole_document_wording_defers_even_with_a_named_section() -> None:
    d = route_without_model("Make the discussion consistent with the rest throughout.", EN)
    assert d.target is None and d.by == "defer" and "whole" in d.reason


def test_a_named_but_missing_part_is_answered_with_a_sentence() -> None:
    d = route_without_model("Fix Table 9.", EN)
    assert d.target is None and d.by == "none"
    assert d.reason.endswith(".") and "Table 9" in d.reason


def test_longest_title_wins() -> None:
    doc = EN.replace(
        "\\subsection{Period measurements}", "\\subsection{Results of the period runs}"
    )
    d = route_without_model("Tidy up the results of the period runs.", doc)
    assert d.target is not None and d.target.ref == "n4"


def test_two_sections_are_never_guessed() -> None:
    d = route_without_model("Merge the aim into the conclusion.", EN)
    assert d.target is None and d.by == "defer"


def test_table_signal_names_the_innermost_section() -> None:
    (signal,) = [s for s in find_signals("Table 2 is wrong", EN) if s.cls == "float"]
    assert signal.target == Target("section", "n5", "4.2 Fit of $g$")


def test_offline_whole_wording_routes_to_whole_and_the_rest_asks_for_a_name() -> None:
    assert route("全文改用更正式的语气。", ZH).target == Target("whole", label="whole report")
    unclear = route("Improve it.", EN)
    assert unclear.target is None and not unclear.used_tokens and "model" in unclear.reason


@pytest.mark.parametrize(
    ("answer", "ref"),
    [
        ('{"target": "n7"}', "n7"),
        ('```json\n{"target": "whole"}\n```', "whole"),
        ("abstract", "abstract"),
        ('{"target": "n99"}', None),
        ("I think the discussion", None),
        ('{"target": "bibliography"}', "bibliography"),
    ],
)
def test_routing_answers_are_parsed_or_refused(answer: str, ref: str | None) -> None:
    target = parse_routing_answer(answer, EN)
    assert (target.ref if target else None) == ref


def test_routing_call_is_small_and_goes_to_the_cheap_tier(fake_llm, llm_client) -> None:  # type: ignore[no-untyped-def]
    labels = {r: t for _, r, t in CASES}

    def oracle(messages, _req):  # type: ignore[no-untyped-def]
        request_ = messages[-1]["content"].split("## Request\n", 1)[1]
        return json.dumps({"target": labels[request_]})

    fake_llm.on_messages(oracle)

    def ask(messages):  # type: ignore[no-untyped-def]
        return llm_client.chat(messages, tier="cheap", step="route").content

    deferred = [(d, r, t) for d, r, t in CASES if route_without_model(r, d).by == "defer"]
    assert deferred
    for doc, request_, label in deferred:
        decision = route(request_, doc, ask)
        assert decision.used_tokens and decision.by == "model"
        assert decision.target is not None and decision.target.ref == label
    assert {r.model for r in fake_llm.chat_requests} == {"fake-cheap"}
    assert max(estimate_messages(routing_messages(r, d)) for d, r, _ in deferred) < 400


@pytest.mark.parametrize(("request_", "label"), CITE_SET, ids=[r[:40] for r, _ in CITE_SET])
def test_a_new_citation_is_never_half_done_by_code(request_: str, label: str) -> None:
    doc = ZH if any("\u4e00" <= c <= "\u9fff" for c in request_) else EN
    decision = route_without_model(request_, doc)
    assert decision.target is None and decision.by == "defer" and "citation" in decision.reason
    # Through the routing call the model names the part (the fake answers as labelled).
    assert route(request_, doc, ask=lambda messages: json.dumps({"target": label})).used_tokens


def test_the_citation_style_is_still_a_bibliography_edit() -> None:
    decision = route_without_model("Change the citation style to numbered.", EN)
    assert decision.target is not None and decision.target.kind == "bibliography"


@pytest.mark.parametrize("doc", [EN_HAND, EN_ITALIC, ZH_HAND])
def test_hand_written_keyword_lines_are_found(doc: str) -> None:
    request_ = (
        "把关键词改成单摆、周期。" if doc is ZH_HAND else "Change the keywords to pendulum, period."
    )
    decision = route_without_model(request_, doc)
    assert decision.target is not None and decision.target.ref == "keywords"
