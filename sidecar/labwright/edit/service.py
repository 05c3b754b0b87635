"""One chat turn: the person's request in, a reply and pending proposals out, as events.

Order of the turn (each step deterministic unless it says otherwise):

1. record the user's message; the latest version is the base of every proposal;
2. a request code can do (rename, title, language switch, remove a figure,
   a unit in a named table) becomes a change with no model at all;
3. otherwise the router picks the target (zero tokens when the request
   names it; one cheap routing call when not);
4. the target's edit path asks the model for the smallest fragment, and its
   gate either yields changes or one sentence saying why not;
5. each change passes the number-tag gate (verify/tags.py: a tag survives
   only as a true trace of the base's record; a tag the change dropped is
   put back on its unchanged number), then becomes a pending proposal on
   the base; the reply is recorded as the assistant's message, and `Done`
   ends the turn.

The events are the same kinds a run yields, so the server stores and streams
them like a run's (resumable), and the CLI prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from labwright.agent.events import Done, Event, GateDecision, ProposalMade, Reply, Routed
from labwright.edit.change import EditOutcome
from labwright.edit.citations import Check, complete_citations
from labwright.edit.deterministic import deterministic_edit, needs_model
from labwright.edit.locate import document_language
from labwright.edit.model import EditModel
from labwright.edit.model_edits import edit_bibliography, edit_block, edit_section, edit_whole
from labwright.edit.router import Route, Target, route
from labwright.edit.say import reply_lang, say
from labwright.latex.sectionizer import sectionize
from labwright.llm.errors import LLMCancelled, LLMError
from labwright.llm.model import Message
from labwright.llm.prompts import Lang
from labwright.store import Store
from labwright.store.models import Version
from labwright.verify import tags

#: Messages of earlier turns re-sent with an edit (folded by the LLM layer).
HISTORY_TURNS = 12


@dataclass
class ChatTurn:
    store: Store
    session_id: int
    message: str
    model: EditModel | None = None
    #: The session's material digest, computed only when an edit needs it.
    digest: Callable[[], str] | None = None
    #: The number record (provenance.json) that speaks for a version, if any.
    record: Callable[[Version], Mapping[str, Any] | None] | None = None
    #: Checks references against Crossref/OpenAlex (verify.resolve); None: cannot check,
    #: so a citation the edit adds is not added (the reply says so).
    check_references: Check | None = None


def _lang(content: str, fallback: str) -> Lang:
    found = document_language(content) or fallback
    return "zh" if found == "zh" else "en"


def _history(turn: ChatTurn) -> list[Message]:
    messages = turn.store.list_messages(turn.session_id, last=HISTORY_TURNS + 1)[:-1]
    out: list[Message] = []
    for m in messages:
        if m.role == "user":
            out.append({"role": "user", "content": m.content})
        elif m.role == "assistant":
            out.append({"role": "assistant", "content": m.content})
    return out


def _model_edit(turn: ChatTurn, target: Target, content: str, lang: Lang) -> EditOutcome:
    model = turn.model
    assert model is not None
    if target.kind == "bibliography":
        return edit_bibliography(model, turn.message, content, lang=lang)
    if target.kind in ("abstract", "keywords", "title"):
        return edit_block(model, turn.message, content, target.kind, lang=lang)
    digest = turn.digest() if turn.digest is not None else ""
    history = _history(turn)
    if target.kind == "whole":
        return edit_whole(model, turn.message, content, digest=digest, history=history, lang=lang)
    node = sectionize(content).by_anchor(target.anchor)
    if node is None:  # the router read this same content: cannot happen
        return EditOutcome(reply=say(reply_lang(turn.message), "section_gone"))
    return edit_section(
        model, turn.message, content, node, digest=digest, history=history, lang=lang
    )


def _gate_numbers(
    turn: ChatTurn, base: Version, outcome: EditOutcome
) -> tuple[EditOutcome, list[str]]:
    """Every change through the number-tag gate, against the base's record
    (and the base's own tags, which were gated when it was made)."""
    known = tags.known_from_text(base.content)
    record = turn.record(base) if turn.record is not None else None
    known.update(tags.known_from_record(record))
    notes: list[str] = []
    changes = []
    for change in outcome.changes:
        if change.scope == "bib":  # a .bib entry prints no numbers of ours
            changes.append(change)
            continue
        gated = tags.gate(change.new_text, known, replaced=base.content[change.start : change.end])
        notes += gated.notes()
        changes.append(replace(change, new_text=gated.text))
    return replace(outcome, changes=tuple(changes)), notes


def _routed(decision: Route) -> Routed:
    t = decision.target
    return Routed(
        target=t.ref if t else "",
        label=t.label if t else "",
        by=decision.by,
        used_tokens=decision.used_tokens,
    )


def chat_turn(turn: ChatTurn) -> Iterator[Event]:
    """Run one chat turn; every path ends with a `Reply` and a `Done`."""
    store, sid = turn.store, turn.session_id
    base = store.latest_version(sid)
    store.add_message(sid, "user", turn.message, version_id=base.id if base else None)
    if base is None:
        no_version = say(reply_lang(turn.message), "no_version")
        store.add_message(sid, "assistant", no_version)
        yield Reply(text=no_version)
        yield Done(ok=False, problems=[no_version])
        return
    content = base.content
    lang = _lang(content, store.get_session(sid).language)
    outcome = deterministic_edit(turn.message, content)
    bibliography: str | None = None
    carrier = -1
    try:
        if outcome is not None:
            yield Routed(target="", label="", by="deterministic", used_tokens=False)
        else:
            model = turn.model
            ask = None
            if model is not None:
                ask = lambda messages: model.ask(messages, tier="cheap", step="route")  # noqa: E731
            decision = route(turn.message, content, ask)
            if model is not None:
                yield from model.drain_usage()
            yield _routed(decision)
            if decision.target is None:
                outcome = EditOutcome(reply=decision.reason)
            elif model is None:
                outcome = EditOutcome(reply=needs_model(turn.message))
            else:
                outcome = _model_edit(turn, decision.target, content, lang)
                yield from model.drain_usage()
                completed = complete_citations(
                    outcome,
                    content,
                    base.bibliography or "",
                    model,
                    turn.check_references,
                    turn.message,
                )
                outcome, bibliography, carrier = (
                    completed.outcome,
                    completed.bibliography,
                    completed.carrier,
                )
                yield from model.drain_usage()
    except LLMCancelled:
        outcome = EditOutcome(reply=say(reply_lang(turn.message), "cancelled"))
    except LLMError as exc:
        if turn.model is not None:
            yield from turn.model.drain_usage()
        outcome = EditOutcome(
            reply=say(reply_lang(turn.message), "model_failed", error=type(exc).__name__)
        )
    if outcome.problems:
        yield GateDecision(gate="edit_fragment", accepted=False, reasons=list(outcome.problems))
    outcome, number_notes = _gate_numbers(turn, base, outcome)
    if number_notes:
        yield GateDecision(gate="number_tags", accepted=True, reasons=number_notes)
    first_id: int | None = None
    for n, change in enumerate(outcome.changes):
        proposal = store.propose_edit(
            sid,
            base.id,
            change.start,
            change.end,
            change.new_text,
            scope=change.scope,
            target=change.target,
            summary=change.summary,
            # The new entries travel with the change that cites them: one proposal.
            bibliography=bibliography if n == carrier else None,
        )
        first_id = first_id or proposal.id
        yield ProposalMade(
            proposal_id=proposal.id,
            scope=proposal.scope,
            target=proposal.target,
            summary=proposal.summary,
        )
    reply = outcome.reply or needs_model(turn.message)
    store.add_message(sid, "assistant", reply, version_id=base.id, proposal_id=first_id)
    yield Reply(text=reply)
    yield Done(
        ok=bool(outcome.changes),
        version_no=base.version_no,
        problems=[] if outcome.changes else [reply],
    )
