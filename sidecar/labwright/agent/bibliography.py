"""The bibliography step: the folder's own .bib first, the model only for what is left.

Generated entries are never passed off as checked: each gets
`note = {Unverified: written by the language model}`, which the bibliography
style prints, and the step reports which keys it generated. Citation closure
is then checked: every \\cite key resolves or is reported.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from labwright.agent.events import Event, Step, Warning_
from labwright.llm.model import ChatModel, Messages
from labwright.messages import say
from labwright.verify.citations import bib_keys, citation_closure, cite_keys

UNVERIFIED_NOTE = "Unverified: written by the language model"
_ENTRY_START = re.compile(r"@\s*([a-zA-Z]+)\s*\{\s*([^,\s]+)\s*,")


@dataclass
class BibOutcome:
    bib: str = ""
    generated: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def split_entries(bib: str) -> dict[str, str]:
    """Entries by key, each with balanced braces; malformed tails are dropped."""
    entries: dict[str, str] = {}
    for match in _ENTRY_START.finditer(bib):
        if match.group(1).lower() in ("comment", "string", "preamble"):
            continue
        depth, i = 0, match.end() - 1
        for i in range(bib.index("{", match.start()), len(bib)):
            depth += {"{": 1, "}": -1}.get(bib[i], 0)
            if depth == 0:
                entries[match.group(2)] = bib[match.start() : i + 1]
                break
    return entries


def mark_unverified(entry: str) -> str:
    body = entry.rstrip()[:-1].rstrip().rstrip(",")
    return f"{body},\n  note = {{{UNVERIFIED_NOTE}}}\n}}"


def build_bibliography(
    draft: str,
    folder_bibs: list[str],
    ask_model: Callable[[list[str]], str] | None,
    outcome: BibOutcome,
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """`ask_model(keys) -> BibTeX text`, or None without a model."""
    cited = cite_keys(draft)
    bib = "\n\n".join(b.strip() for b in folder_bibs if b.strip())
    missing = [k for k in cited if k not in bib_keys(bib)]
    if folder_bibs:
        yield Step(stage="bibliography", message=say("llm.bib_files", count=len(folder_bibs)))
    if missing and ask_model is not None and not (cancel and cancel.is_set()):
        answer = split_entries(ask_model(missing))
        generated = [mark_unverified(answer[k]) for k in missing if k in answer]
        outcome.generated = [k for k in missing if k in answer]
        if generated:
            bib = (bib + "\n\n" + "\n\n".join(generated)).strip()
            yield Warning_(
                message=say(
                    "llm.bib_generated", count=len(generated), keys=", ".join(outcome.generated)
                )
            )
    outcome.bib = bib + ("\n" if bib else "")
    outcome.missing = citation_closure(draft, outcome.bib).missing
    if outcome.missing:
        yield Warning_(message=say("llm.bib_missing", keys=", ".join(outcome.missing)))


def ask_model_for_bib(
    client: ChatModel,
    messages_for: Callable[[list[str]], Messages],
    cancel: threading.Event | None = None,
) -> Callable[[list[str]], str]:
    def ask(keys: list[str]) -> str:
        return (
            client.chat(
                messages_for(keys), tier="cheap", cancel=cancel, step="bibliography"
            ).content
            or ""
        )

    return ask
