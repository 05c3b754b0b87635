"""The model fills the request through a typed tool, and code gates it.

The tool is `fill_request`: its arguments model is `AnalysisRequest`
itself, so the JSON schema the model sees and the type the analysis runs
from cannot disagree. The handler never trusts the arguments: they pass
`validate_request` (every key, variable, file, column, unit and number
checked against the catalogue and the folder) and what fails is dropped,
with one line per item fed back to the model for one more try. The result
is merged with the request the rules read, code winning where code could
answer (`merge_requests`). A model that calls no tool, sends garbage or
fails leaves the rules' request as it was: nothing it produces changes
what is computed without passing the gate.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from labwright.agent.events import Event, Step, Warning_
from labwright.agent.tools import Tool, ToolBox
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.request_check import Checked, Dropped, merge_requests, validate_request
from labwright.analysis.request_rules import vocabulary
from labwright.analysis.request_rules.columns import folder_tables
from labwright.analysis.request_rules.text import read_notes
from labwright.ingest.types import ReadResult
from labwright.llm.errors import LLMError
from labwright.llm.knowledge import read_knowledge
from labwright.llm.model import ChatModel, JsonObject, Message
from labwright.messages import say

TOOL_NAME = "fill_request"
MAX_TURNS = 2  # the first call, and one more after the gate's feedback
NOTES_CHARS = 6000
_DESCRIPTION = (
    "Give the whole request: the quantities asked, the laws, the binding of each "
    "variable to a column, the constants and expected values given, the roles of "
    "files and what cannot be answered. Every item is checked; what fails is dropped."
)


@dataclass
class RequestOutcome:
    """What the request stage produced: the merged request, and what the gate dropped."""

    request: AnalysisRequest
    from_model: AnalysisRequest | None = None
    dropped: list[Dropped] = field(default_factory=list)
    calls: int = 0


@dataclass
class RequestTool:
    """The tool's state over one conversation: the last checked request."""

    catalogue: tuple[ModelEntry, ...]
    read: ReadResult
    checked: Checked | None = None
    calls: int = 0

    def handle(self, request: AnalysisRequest) -> str:
        self.calls += 1
        self.checked = validate_request(request, self.catalogue, self.read)
        return self.checked.feedback()

    def toolbox(self) -> ToolBox:
        return ToolBox((Tool(TOOL_NAME, _DESCRIPTION, AnalysisRequest, self.handle),))


def _entries_for(
    catalogue: tuple[ModelEntry, ...], read: ReadResult, code: AnalysisRequest
) -> list[ModelEntry]:
    """The laws worth showing: those whose words the notes use, and the code's."""
    vocab = vocabulary(catalogue)
    notes = read_notes(read.documents)
    keys = {m.key for m in code.models if m.key} | {k for a in code.asked for k in a.candidates}
    for clause in notes.clauses:
        keys |= {h.term.model for h in vocab.hits(clause)}
    shown = [e for e in catalogue if e.key in keys]
    return shown or list(catalogue)


def _law_line(e: ModelEntry) -> str:
    variables = "; ".join(
        f"{v.name} ({v.role}, {v.label.en}" + (f", {v.unit}" if v.unit else "") + ")"
        for v in e.variables
    )
    quantities = ", ".join(e.quantity_keys())
    inputs = ", ".join(i.name for i in e.inputs)
    return (
        f"- {e.key}: {e.name.en} / {e.name.zh}; {e.formula}; variables {variables}; "
        f"quantities {quantities}" + (f"; inputs {inputs}" if inputs else "")
    )


def material(catalogue: tuple[ModelEntry, ...], read: ReadResult, code: AnalysisRequest) -> str:
    """What the model reads: the notes, the tables, the laws, the rules' request."""
    notes = read_notes(read.documents)
    by_file: dict[str, list[str]] = {}
    for c in notes.clauses:
        by_file.setdefault(c.source, []).append(c.original)
    notes_text = "\n\n".join(f"## {f}\n" + "\n".join(lines) for f, lines in by_file.items())
    tables = []
    for ds, cols in folder_tables(read, notes):
        sheet = f", sheet {ds.provenance.sheet}" if ds.provenance and ds.provenance.sheet else ""
        described = "; ".join(
            f"{c.name}"
            + (f" [{c.unit}]" if c.unit else "")
            + f" ({c.role}"
            + (", set-point" if c.set_point else "")
            + ")"
            for c in cols
        )
        tables.append(f"- {ds.source}{sheet}, {ds.n_rows} rows: {described}")
    laws = "\n".join(_law_line(e) for e in _entries_for(catalogue, read, code))
    return (
        f"# Notes\n{notes_text[:NOTES_CHARS]}\n\n# Tables\n"
        + "\n".join(tables)
        + f"\n\n# Laws of the catalogue\n{laws}\n\n# The request code read\n"
        + json.dumps(code.record(), ensure_ascii=False)
    )


def fill_request(
    client: ChatModel,
    read: ReadResult,
    catalogue: Iterable[ModelEntry],
    code: AnalysisRequest,
    outcome: RequestOutcome,
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """Ask the model for the request; gate it; merge it into `outcome`."""
    entries = tuple(catalogue)
    tool = RequestTool(entries, read)
    box = tool.toolbox()
    messages: list[Message] = [
        {"role": "system", "content": read_knowledge("agent/request.md")},
        {"role": "user", "content": material(entries, read, code)},
    ]
    choice: JsonObject = {"type": "function", "function": {"name": TOOL_NAME}}
    for _ in range(MAX_TURNS):
        try:
            result = client.chat(
                messages, tier="cheap", tools=box.schemas(), tool_choice=choice,
                cancel=cancel, step="request",
            )  # fmt: skip
        except LLMError as error:
            yield Warning_(message=say("llm.request_unusable", reason=error.user_message))
            break
        messages.append(result.as_message())
        calls = [c for c in result.tool_calls if c.name == TOOL_NAME]
        if not calls:
            break
        call = calls[0]
        if call.arguments is None:
            feedback = call.feedback()
        else:
            feedback = box.call(call.name, call.arguments).output
        messages.append({"role": "tool", "tool_call_id": call.id, "content": feedback})
        if tool.checked is not None and not tool.checked.dropped:
            break
        messages.append(
            {"role": "user", "content": "Correct the request and call fill_request once more."}
        )
    outcome.calls = tool.calls
    if tool.checked is None:
        if tool.calls == 0:
            yield Warning_(message=say("llm.request_unusable", reason=say("llm.request_no_call")))
        return
    outcome.from_model = tool.checked.request
    outcome.dropped = list(tool.checked.dropped)
    outcome.request = merge_requests(code, tool.checked.request)
    if outcome.dropped:
        items = "; ".join(f"{d.what} ({d.why})" for d in outcome.dropped[:5])
        yield Warning_(message=say("llm.request_dropped", count=len(outcome.dropped), items=items))
    yield Step(
        stage="request",
        message=say(
            "llm.request_read",
            asked=len(outcome.request.asked),
            bindings=len(outcome.request.bindings),
        ),
    )
