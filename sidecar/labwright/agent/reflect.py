"""Reflection ×N: an edit plan, scoped splices, and the regression gate.

Each round runs on a fresh minimal context (system, material digest, current
draft). The reviewer returns a JSON edit plan; section items are applied one
by one through scoped editing on the *current* text (re-sectionized after every
splice, because offsets move); a fragment that fails its health check or
changes the heading count is skipped, never spliced. Whole-document items, and
drafts that cannot be sectioned, get one minimal whole-document revision.
Then the zero-token regression gate decides: kept, reverted (and stop) or
converged (stop).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from labwright.agent.edit_plan import EditItem, parse_edit_plan
from labwright.agent.events import Event, GateDecision, Step
from labwright.agent.markup import draft_problems, extract_document
from labwright.agent.regression_gate import GateResult, regression_check
from labwright.latex.resolve import resolve
from labwright.latex.sectionizer import sectionize
from labwright.latex.splice import apply_fragment
from labwright.llm.model import ChatModel, Messages
from labwright.messages import say


@dataclass
class ReflectPrompts:
    """Builds the messages of each call; the pipeline supplies the real prompts."""

    review: Callable[[str, str], Messages]  # (draft, outline) -> messages
    scoped: Callable[[str, EditItem], Messages]  # (section text, item) -> messages
    whole: Callable[[str, list[EditItem]], Messages]  # (draft, items) -> messages


@dataclass
class RoundResult:
    draft: str
    gate: GateResult | None = None
    plan: list[EditItem] | None = None

    @property
    def stop(self) -> bool:
        return self.gate is None or self.gate.outcome != "kept"


def outline(draft: str) -> str:
    sectioning = sectionize(draft)
    if not sectioning.editable:
        return "(the draft cannot be divided into sections)"
    return "\n".join(
        f"{n.anchor}: {'  ' * max(0, (n.level or 1) - 1)}{n.title}" for n in sectioning.all_nodes()
    )


def _apply_scoped(
    client: ChatModel,
    prompts: ReflectPrompts,
    text: str,
    item: EditItem,
    cancel: threading.Event | None,
) -> tuple[str, list[str]]:
    sectioning = sectionize(text)
    target = resolve(sectioning, item.section).node if sectioning.editable else None
    if target is None:
        return text, [f"no section matches '{item.section}'"]
    span = text[target.char_start : target.char_end]
    answer = client.chat(prompts.scoped(span, item), tier="main", cancel=cancel, step="reflect")
    result = apply_fragment(text, target, answer.content or "", top_level=sectioning.top_level)
    if not result.ok:
        return text, list(result.problems)
    return result.content, []


def reflect_round(
    client: ChatModel,
    prompts: ReflectPrompts,
    draft: str,
    outcome: RoundResult,
    *,
    round_no: int,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """One round; the (possibly unchanged) draft and the gate land in `outcome`."""
    outcome.draft = draft
    review = client.chat(
        prompts.review(draft, outline(draft)), tier="main", cancel=cancel, step="reflect"
    )
    plan = parse_edit_plan(review.content)
    outcome.plan = plan
    yield Step(stage="reflect", message=say("llm.reflect_round", round=round_no, count=len(plan)))
    if not plan:
        outcome.gate = GateResult("converged", ["the reviewer proposed no changes"])
        yield GateDecision(gate="reflect", accepted=False, reasons=outcome.gate.reasons)
        return
    editable = sectionize(draft).editable
    whole_items = [item for item in plan if item.is_whole or not editable]
    text = draft
    for item in plan:
        if item in whole_items:
            continue
        text, problems = _apply_scoped(client, prompts, text, item, cancel)
        yield GateDecision(
            gate="scoped_fragment",
            accepted=not problems,
            reasons=[f"{item.section}: {p}" for p in problems],
        )
    if whole_items:
        answer = client.chat(
            prompts.whole(text, whole_items), tier="main", cancel=cancel, step="reflect"
        )
        revised = answer.content or ""
        problems = draft_problems(revised)
        yield GateDecision(gate="whole_revision", accepted=not problems, reasons=problems)
        if not problems:
            text = extract_document(revised)
    gate = regression_check(draft, text, bib=None)
    outcome.gate = gate
    yield GateDecision(
        gate="regression", accepted=gate.accepted, reasons=gate.reasons or [gate.outcome]
    )
    outcome.draft = text if gate.accepted else draft
