"""The bibliography step: the folder's own .bib first, the model only for what is left.

The folder's entries are cited as the person wrote them (their check runs
in the background and only informs the trust panel). For keys they lack, the
model writes BibTeX; each of its entries is then looked up (verify/resolve.py)
and cited only when an index holds the work, in the index's own words. An
entry that no index holds is dropped with its citations, with one sentence
in the diagnostics; one that could not be checked (offline, checks turned
off) is dropped the same way, since nothing vouches for it. Citation closure
is then checked: every \\cite key resolves or is reported.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from labwright.agent.citation_check import CitationCheck, FolderBib
from labwright.agent.events import Event, Step, Warning_
from labwright.llm.model import ChatModel, Messages
from labwright.messages import say
from labwright.verify.citations import citation_closure, cite_keys, remove_citations
from labwright.verify.verdict import NOT_CHECKED_IN_TIME, Verdict

#: Written into entries by the bibliography step before citations were checked
#: (builds made then still carry it; the trust panel still lists them).
UNVERIFIED_NOTE = "Unverified: written by the language model"


@dataclass
class BibOutcome:
    bib: str = ""
    #: Model entries that are cited (an index holds the work).
    generated: list[str] = field(default_factory=list)
    #: Model entries left out, and why (not found, or not checked).
    dropped: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    #: The draft without the dropped entries' citations (None: unchanged).
    draft: str | None = None
    verdicts: list[Verdict] = field(default_factory=list)


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def build_bibliography(
    draft: str,
    folder_bibs: Sequence[FolderBib],
    ask_model: Callable[[list[str]], str] | None,
    outcome: BibOutcome,
    *,
    check: CitationCheck | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """`ask_model(keys) -> BibTeX text`, or None without a model."""
    from labwright.verify.bibtex import parse_bib, write_entry  # bibtexparser: 0.2 s to import

    cited = cite_keys(draft)
    user_keys = {key for bib in folder_bibs for key in bib.parsed.keys}
    bib = "\n\n".join(b.text.strip() for b in folder_bibs if b.text.strip())
    missing = [k for k in cited if k not in user_keys]
    if folder_bibs:
        yield Step(stage="bibliography", message=say("llm.bib_files", count=len(folder_bibs)))
    if missing and ask_model is not None and not (cancel and cancel.is_set()):
        answer = parse_bib(ask_model(missing)).by_key()
        asked = [answer[k] for k in missing if k in answer]
        verdicts = (check or CitationCheck()).check_model(asked) if asked else []
        written: list[str] = []
        for entry, verdict in zip(asked, verdicts, strict=True):
            record = verdict.extra.get("record")
            if verdict.trusted and record is not None:
                written.append(write_entry(entry.key, record.bibtex_type(), record.bibtex_fields()))
                outcome.generated.append(entry.key)
            else:
                late = verdict.reason == NOT_CHECKED_IN_TIME
                outcome.dropped[entry.key] = "late" if late else verdict.verdict
        outcome.verdicts = [replace(v, cited=v.key in outcome.generated) for v in verdicts]
        if check is not None:
            check.record_model(outcome.verdicts)
        if written:
            bib = (bib + "\n\n" + "\n\n".join(written)).strip()
        yield from _report_model_entries(outcome, verdicts)
        if outcome.dropped:
            outcome.draft = remove_citations(draft, set(outcome.dropped))
            draft = outcome.draft
    outcome.bib = bib + ("\n" if bib else "")
    outcome.missing = citation_closure(draft, outcome.bib).missing
    if outcome.missing:
        yield Warning_(message=say("llm.bib_missing", keys=", ".join(outcome.missing)))


def _report_model_entries(outcome: BibOutcome, verdicts: list[Verdict]) -> Iterator[Event]:
    if outcome.generated:
        corrected = [v.key for v in verdicts if v.verdict == "corrected"]
        note = f" ({len(corrected)} corrected from the index's record)" if corrected else ""
        yield Step(
            stage="bibliography",
            message=f"{len(outcome.generated)} reference(s) suggested by the model were found "
            f"in Crossref or OpenAlex and are cited{note}.",
        )
    invented = [k for k, v in outcome.dropped.items() if v == "not_found"]
    late = [k for k, v in outcome.dropped.items() if v == "late"]
    unchecked = [k for k, v in outcome.dropped.items() if v not in ("not_found", "late")]
    if invented:
        yield Warning_(
            message=f"{len(invented)} {_plural(len(invented), 'reference', 'references')} the model "
            "suggested could not be found in Crossref or OpenAlex and "
            f"{_plural(len(invented), 'was', 'were')} left out: " + ", ".join(invented)
        )
    if unchecked:
        yield Warning_(
            message=f"{len(unchecked)} {_plural(len(unchecked), 'reference', 'references')} the model "
            "suggested could not be checked (no network or checks turned off) and "
            f"{_plural(len(unchecked), 'was', 'were')} left out: " + ", ".join(unchecked)
        )
    if late:
        yield Warning_(
            message=f"{len(late)} {_plural(len(late), 'reference', 'references')} the model "
            "suggested could not be checked in the time the build allows and "
            f"{_plural(len(late), 'was', 'were')} left out; the next build checks them again: "
            + ", ".join(late)
        )


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
