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
from tests.edit.docs import EN, ZH
from tests.edit.labelled import EN_SET, ZH_SET

CASES = [(EN, r, t) for r, t in EN_SET] + [(ZH, r, t) for r, t in ZH_SET]


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
        assert decision.by in ("defer", "none")


def test_share_decided_without_tokens_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    decided = sum(route_without_model(r, d).target is not None for d, r, _ in CASES)
    share = decided / len(CASES)
    with capsys.disabled():
        print(f"\nrouter: {decided}/{len(CASES)} requests ({share:.0%}) decided without tokens")
    # The set has 13 requests that name several parts or none; the rest are explicit.
    assert share >= 0.7


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
    labels = {r: t for r, t in EN_SET + ZH_SET}

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
