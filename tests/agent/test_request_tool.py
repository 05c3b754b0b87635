"""The model fills the request through the typed tool, over a real socket
(the real `openai` client against the fake OpenAI-compatible server); code
gates every item. Properties, not strings: what the merged request binds is
in the folder, what it names is in the catalogue, and what failed the gate
did not reach it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from labwright.agent.events import Warning_
from labwright.agent.request_tool import TOOL_NAME, RequestOutcome, fill_request
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import Column, Dataset, DocumentText, Provenance, ReadResult
from labwright.testing.fake_openai import FakeOpenAI, Turn

NOTES = (
    "Enzyme kinetics with a new substrate. The enzyme concentration is E0 = 0.05 uM.\n"
    "Tasks: determine the Michaelis constant and Vmax."
)


def _folder(notes: str = NOTES) -> ReadResult:
    s = np.geomspace(0.05, 5.0, 10)
    cols = [
        Column("No.", np.arange(1.0, 11.0), Provenance("kinetics.csv", column="No.")),
        Column("conc", s, Provenance("kinetics.csv", column="conc"), "mM"),
        Column("rate", 12 * s / (0.8 + s), Provenance("kinetics.csv", column="rate"), "uM/min"),
    ]
    ds = Dataset("kinetics", "kinetics.csv", "table", cols, provenance=Provenance("kinetics.csv"))
    return ReadResult(datasets=[ds], documents=[DocumentText("README.md", notes)])


def _evidence(phrase: str, reason: str = "read from the notes") -> dict[str, str]:
    return {"source": "README.md", "phrase": phrase, "reason": reason}


GOOD: dict[str, Any] = {
    "asked": [
        {"quantity": "Km", "model": "michaelis_menten", "evidence": _evidence("Michaelis constant")},
        {"quantity": "Vmax", "model": "michaelis_menten", "evidence": _evidence("Vmax")},
    ],
    "models": [{"key": "michaelis_menten", "evidence": _evidence("Enzyme kinetics")}],
    "bindings": [
        {"model": "michaelis_menten", "variable": "S", "file": "kinetics.csv", "column": "conc",
         "unit": "mM", "evidence": _evidence("conc", "the substrate concentration in mM")},
        {"model": "michaelis_menten", "variable": "v", "file": "kinetics.csv", "column": "rate",
         "unit": "uM/min", "evidence": _evidence("rate", "the initial rate")},
    ],
    "constants": [{"symbol": "E0", "value": 0.05, "unit": "uM", "evidence": _evidence("E0 = 0.05 uM")}],
}  # fmt: skip


def _run(client: Any, read: ReadResult) -> tuple[RequestOutcome, list[object]]:
    cat = catalogue()
    code = read_request(read, cat)
    outcome = RequestOutcome(request=code)
    events = list(fill_request(client, read, cat, code, outcome))
    return outcome, events


def _invariants(outcome: RequestOutcome, read: ReadResult) -> None:
    """What any merged request holds, whatever the model said."""
    cat = catalogue()
    columns = {(ds.source, c.name) for ds in read.datasets for c in ds.columns}
    for b in outcome.request.bindings:
        assert b.source != "column" or (b.file, b.column) in columns
        assert b.column != "No."  # never a row index
        assert b.model == "formula" or b.model in cat
    for m in outcome.request.models:
        assert m.key is None or m.key in cat
    for a in outcome.request.asked:
        assert a.model in (None, "formula") or a.quantity in cat[a.model].quantity_keys()


def test_a_good_request_passes_and_keeps_the_codes_reading(
    client: Any, fake_llm: FakeOpenAI
) -> None:
    fake_llm.script(Turn.tool(TOOL_NAME, GOOD))
    read = _folder()
    outcome, events = _run(client, read)
    _invariants(outcome, read)
    assert outcome.dropped == [] and outcome.calls == 1
    bound = {
        b.variable: b.column for b in outcome.request.bindings if b.model == "michaelis_menten"
    }
    assert bound == {"S": "conc", "v": "rate"}
    assert {a.quantity for a in outcome.request.asked} >= {"Km", "Vmax"}
    # The tool crossed the socket with its schema, and the model was forced to it.
    body = fake_llm.chat_requests[0].body
    assert body["tools"][0]["function"]["name"] == TOOL_NAME
    assert "asked" in body["tools"][0]["function"]["parameters"]["properties"]
    assert body["tool_choice"]["function"]["name"] == TOOL_NAME
    assert not any(isinstance(e, Warning_) for e in events)


def test_a_made_up_column_is_dropped_and_the_model_is_told(
    client: Any, fake_llm: FakeOpenAI
) -> None:
    bad = {**GOOD, "bindings": [
        {**GOOD["bindings"][0], "column": "substrate_mM_avg"},
        {**GOOD["bindings"][1], "variable": "v", "column": "No."},
    ]}  # fmt: skip
    fake_llm.script(Turn.tool(TOOL_NAME, bad), Turn.tool(TOOL_NAME, bad))
    read = _folder()
    outcome, events = _run(client, read)
    _invariants(outcome, read)
    assert all(b.column != "substrate_mM_avg" for b in outcome.request.bindings)
    assert any("substrate_mM_avg" in d.what for d in outcome.dropped)
    assert any("index" in d.why for d in outcome.dropped)
    # The second turn carried the gate's feedback; there was no third.
    assert len(fake_llm.chat_requests) == 2
    fed_back = [m["content"] for m in fake_llm.chat_requests[1].messages if m["role"] == "tool"]
    assert any("substrate_mM_avg" in text for text in fed_back)
    assert any(isinstance(e, Warning_) for e in events)


def test_a_made_up_law_and_an_invented_number_are_dropped(
    client: Any, fake_llm: FakeOpenAI
) -> None:
    bad = {
        **GOOD,
        "models": [{"key": "magic_enzyme_law", "evidence": _evidence("Enzyme kinetics")}],
        "asked": [{"quantity": "Kx", "model": "magic_enzyme_law", "evidence": _evidence("Vmax")}],
        "constants": [{"symbol": "E0", "value": 3.3, "unit": "uM", "evidence": _evidence("E0")}],
        "bindings": [{**GOOD["bindings"][0], "model": "magic_enzyme_law"}],
    }
    fake_llm.script(Turn.tool(TOOL_NAME, bad), Turn.tool(TOOL_NAME, bad))
    read = _folder()
    outcome, _ = _run(client, read)
    _invariants(outcome, read)
    assert all(m.key != "magic_enzyme_law" for m in outcome.request.models)
    assert all(c.value != 3.3 for c in outcome.request.constants)
    # What code read is still there.
    assert ("michaelis_menten", "Km") in {(a.model, a.quantity) for a in outcome.request.asked}


@pytest.mark.parametrize("garbage", ["{not json", '{"asked": "everything", "colour": 3}', "[]"])
def test_garbage_leaves_the_rules_request(client: Any, fake_llm: FakeOpenAI, garbage: str) -> None:
    fake_llm.script(Turn.tool(TOOL_NAME, garbage), Turn.tool(TOOL_NAME, garbage))
    read = _folder()
    code = read_request(read, catalogue())
    outcome, events = _run(client, read)
    assert outcome.request == code and outcome.from_model is None
    assert any(isinstance(e, Warning_) for e in events)


def test_a_model_that_answers_in_prose_changes_nothing(client: Any, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(Turn.text("Km is about 0.8 mM, I think."))
    read = _folder()
    outcome, events = _run(client, read)
    assert outcome.request == read_request(read, catalogue())
    assert any(isinstance(e, Warning_) for e in events)


def test_the_model_decides_what_code_could_not(client: Any, fake_llm: FakeOpenAI) -> None:
    t = np.linspace(0, 600, 12)
    cols = [
        Column("t", t, Provenance("decay.csv", column="t"), "s"),
        Column("c", np.exp(-t / 200), Provenance("decay.csv", column="c"), "mM"),
    ]
    ds = Dataset("decay", "decay.csv", "table", cols, provenance=Provenance("decay.csv"))
    read = ReadResult(
        datasets=[ds], documents=[DocumentText("README.md", "Find the rate constant.")]
    )
    code = read_request(read, catalogue())
    (open_,) = [a for a in code.asked if a.quantity == "k"]
    assert open_.model is None and "rate_first_order" in open_.candidates
    answer = {
        "asked": [{"quantity": "k", "model": "rate_first_order", "evidence": _evidence("rate constant")}],
        "models": [{"key": "rate_first_order", "evidence": _evidence("rate constant", "ln c falls on a line")}],
        "bindings": [
            {"model": "rate_first_order", "variable": "t", "file": "decay.csv", "column": "t", "unit": "s", "evidence": _evidence("t")},
            {"model": "rate_first_order", "variable": "c", "file": "decay.csv", "column": "c", "unit": "mM", "evidence": _evidence("c")},
        ],
    }  # fmt: skip
    fake_llm.script(Turn.tool(TOOL_NAME, answer))
    outcome = RequestOutcome(request=code)
    list(fill_request(client, read, catalogue(), code, outcome))
    _invariants(outcome, read)
    assert [(a.model, a.quantity) for a in outcome.request.asked] == [("rate_first_order", "k")]
    assert {b.variable for b in outcome.request.bindings if b.model == "rate_first_order"} == {
        "t",
        "c",
    }
