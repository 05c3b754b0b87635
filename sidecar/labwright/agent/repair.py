"""Compile, and on failure let the model repair the document: at most two rounds.

The model sees a minimal context (the current draft, the extracted errors, the
format rules), never the exploration transcript. The loop stops at once when
the first error's fingerprint repeats (no progress), when the rounds are spent
or when the wall-clock budget is gone; the best draft compiled is kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from labwright.agent.compile_repair import error_fingerprint, extract_errors
from labwright.agent.events import Event, GateDecision, Step
from labwright.agent.markup import draft_problems, extract_document
from labwright.latex.compile import CompileResult, compile_source
from labwright.llm.model import ChatModel, Messages
from labwright.messages import say

MAX_ROUNDS = 2
WALL_BUDGET_S = 600.0


@dataclass
class RepairOutcome:
    draft: str = ""
    result: CompileResult | None = None
    rounds: int = 0


def _rank(result: CompileResult) -> tuple[int, int]:
    """Lower is better: a PDF first, then fewer errors."""
    return (0 if result.pdf is not None else 1, result.diagnostics.error_count)


def compile_and_repair(
    draft: str,
    files: Mapping[str, Path | bytes],
    build_root: Path,
    outcome: RepairOutcome,
    *,
    client: ChatModel | None = None,
    messages_for: Callable[[str, str], Messages] | None = None,
    max_rounds: int = MAX_ROUNDS,
    wall_budget_s: float = WALL_BUDGET_S,
    cancel: threading.Event | None = None,
    gate: Callable[[str], str] | None = None,
) -> Iterator[Event]:
    """`gate`: applied to every repaired document before it is compiled (the
    number-tag gate: a repair may not make a number look traced)."""
    started = time.monotonic()
    result = compile_source(draft, files=files, build_root=build_root)
    best_draft, best = draft, result
    yield Step(
        stage="compile",
        message=say(
            "llm.repair_first",
            passes=len(result.passes),
            errors=result.diagnostics.error_count,
        ),
    )
    last_fingerprint: str | None = None
    current = draft
    while not result.ok and client is not None and messages_for is not None:
        if outcome.rounds >= max_rounds:
            break
        if time.monotonic() - started >= wall_budget_s:
            yield GateDecision(
                gate="repair", accepted=False, reasons=["the compile time budget is spent"]
            )
            break
        if cancel is not None and cancel.is_set():
            break
        errors = extract_errors(result.log_text)
        fingerprint = error_fingerprint(errors)
        if fingerprint == last_fingerprint:
            yield GateDecision(
                gate="repair", accepted=False, reasons=[f"no progress on: {fingerprint}"]
            )
            break
        last_fingerprint = fingerprint
        outcome.rounds += 1
        answer = client.chat(
            messages_for(current, errors), tier="main", cancel=cancel, step="repair"
        )
        problems = draft_problems(answer.content or "")
        if problems:
            yield GateDecision(gate="repair", accepted=False, reasons=problems)
            continue
        current = extract_document(answer.content or "")
        if gate is not None:
            current = gate(current)
        result = compile_source(current, files=files, build_root=build_root)
        yield Step(
            stage="compile",
            message=say(
                "llm.repair_round", round=outcome.rounds, errors=result.diagnostics.error_count
            ),
        )
        if _rank(result) <= _rank(best):
            best_draft, best = current, result
        if not result.ok and error_fingerprint(extract_errors(result.log_text)) == fingerprint:
            yield GateDecision(
                gate="repair", accepted=False, reasons=[f"no progress on: {fingerprint}"]
            )
            break
    outcome.draft, outcome.result = best_draft, best
