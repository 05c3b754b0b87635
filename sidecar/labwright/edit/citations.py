"""A chat request that cites a work: the ``\\cite`` and its .bib entry, one proposal.

An edit path (a section, the whole report) may add citations. Here, code finds
the keys it added that the version's bibliography lacks; the model writes an
entry for each (the smallest fragment: BibTeX for those keys only); the
resolver checks each against Crossref and OpenAlex. A trusted entry (verified,
or corrected: the index's record) is written from the index's record, keeping
the key, into the proposal's bibliography; any other is not added, its
``\\cite`` leaves the edit, and the reply says so in one sentence. Nothing
unverified reaches the bibliography, offline included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from labwright.edit.change import Change, EditOutcome
from labwright.edit.model import EditModel
from labwright.edit.say import reply_lang, say
from labwright.llm.knowledge import read_knowledge
from labwright.llm.model import Messages
from labwright.verify.bibtex import BibEntry, parse_bib, write_entry
from labwright.verify.citations import bib_keys, cite_keys, remove_citations
from labwright.verify.verdict import Verdict

Check = Callable[[Sequence[BibEntry]], list[Verdict]]
#: Characters of the edit's text around a new key that the model sees.
_CONTEXT = 400


@dataclass(frozen=True)
class Completed:
    outcome: EditOutcome
    #: The bibliography the proposal leaves (None: no citation was added).
    bibliography: str | None
    #: The change that carries it (its index in `outcome.changes`).
    carrier: int = -1


def new_keys(change: Change, content: str, bibliography: str) -> list[str]:
    """Keys `change` cites that neither the replaced text nor the bibliography has."""
    before = set(cite_keys(content[change.start : change.end]))
    known = bib_keys(bibliography) if bibliography.strip() else set()
    return [k for k in cite_keys(change.new_text) if k not in before and k not in known]


def entry_messages(keys: list[str], text: str) -> Messages:
    task = read_knowledge("agent/cite_entries.md").strip()
    places = []
    for key in keys:
        at = text.find(key)
        start = max(0, at - _CONTEXT // 2)
        places.append(f"- {key}: …{text[start : start + _CONTEXT]}…")
    body = task + "\n\n## Keys\n" + "\n".join(places)
    return [{"role": "user", "content": body}]


def complete_citations(
    outcome: EditOutcome,
    content: str,
    bibliography: str,
    model: EditModel,
    check: Check | None,
    request: str,
) -> Completed:
    """The outcome with every new citation either backed by a checked entry or removed."""
    wanted = [(i, new_keys(c, content, bibliography)) for i, c in enumerate(outcome.changes)]
    wanted = [(i, keys) for i, keys in wanted if keys]
    if not wanted:
        return Completed(outcome, None)
    keys = [k for _, ks in wanted for k in ks]
    text = "\n".join(outcome.changes[i].new_text for i, _ in wanted)
    answer = model.ask(entry_messages(keys, text), tier="cheap", step="citation")
    offered = {e.key: e for e in parse_bib(answer).entries if e.key in keys}
    verdicts: dict[str, Verdict] = {}
    if check is not None and offered:
        for checked in check([offered[k] for k in keys if k in offered]):
            verdicts[checked.key] = checked
    written: list[str] = []
    left_out: list[str] = []
    unchecked = check is None
    for key in keys:
        found = verdicts.get(key)
        record = found.extra.get("record") if found is not None else None
        if found is not None and found.trusted and record is not None:
            written.append(write_entry(key, record.bibtex_type(), record.bibtex_fields()))
        else:
            left_out.append(key)
            unchecked = unchecked or (found is not None and found.verdict == "unverifiable")
    changes = list(outcome.changes)
    if left_out:
        for i, _ in wanted:
            changes[i] = replace(
                changes[i], new_text=remove_citations(changes[i].new_text, set(left_out))
            )
    changes_kept = [c for c in changes if c.new_text != content[c.start : c.end]]
    reply = outcome.reply
    if left_out:
        reply = (reply + " " + _left_out_sentence(left_out, unchecked, request)).strip()
    if not written:
        return Completed(replace(outcome, changes=tuple(changes_kept), reply=reply), None)
    kept_keys = [k for k in keys if k not in left_out]
    reply = (
        reply + " " + say(reply_lang(request), "cite_added", keys=", ".join(kept_keys))
    ).strip()
    added = (
        bibliography.rstrip("\n")
        + ("\n\n" if bibliography.strip() else "")
        + "\n\n".join(written)
        + "\n"
    )
    carrier = next(
        (
            n
            for n, c in enumerate(changes_kept)
            if set(cite_keys(c.new_text)) & {k for k in keys if k not in left_out}
        ),
        0,
    )
    return Completed(replace(outcome, changes=tuple(changes_kept), reply=reply), added, carrier)


def _left_out_sentence(keys: list[str], unchecked: bool, request: str) -> str:
    return say(
        reply_lang(request),
        "cite_unchecked" if unchecked else "cite_not_found",
        keys=", ".join(keys),
    )


#: How long a chat turn waits for the indexes (a person is waiting for the reply).
CHECK_DEADLINE_S = 8.0


def resolver_check(data_root: Path | None) -> Check:
    """Checks with the user's citation settings and the cache in the data directory."""

    def check(entries: Sequence[BibEntry]) -> list[Verdict]:
        from labwright.verify.resolve import Resolver
        from labwright.verify.settings import load_citation_settings

        resolver = Resolver.from_settings(load_citation_settings(), data_root)
        try:
            return resolver.check(list(entries), deadline_s=CHECK_DEADLINE_S, origin="model")
        finally:
            resolver.close()

    return check
