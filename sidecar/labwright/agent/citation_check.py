"""The run's citation check: the folder's references in the background, the model's on demand.

The folder's .bib entries are the person's own: they are always cited as
written, and checking them only informs the trust panel. So that check starts
as soon as the folder is read and runs beside exploration and drafting; the
build never waits for it except for a short grace at the very end (what is
not done by then is recorded as not checked). The model's entries decide
what is cited, so the bibliography stage waits for them, under a deadline.

Without network (checks off, or the indexes unreachable) the resolver answers
from the cache at once: an offline build pays nothing.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from labwright.verify.verdict import Verdict

if TYPE_CHECKING:  # bibtexparser and httpx load when a check runs, not with the server
    from labwright.verify.bibtex import BibEntry, BibFile
    from labwright.verify.resolve import Resolver

log = logging.getLogger(__name__)

CITATIONS_JSON = "citations.json"
#: How long the bibliography step waits for the model's entries: one that is
#: still undecided then is left out as not checked (never cited unchecked).
MODEL_BUDGET_S = 1.7
#: Longest the model's entries' lookups go on (after the budget, in the
#: background: their answers reach the cache, so the next build cites them).
MODEL_DEADLINE_S = 8.0
#: Longest the folder's entries may take in the background.
USER_DEADLINE_S = 60.0
#: How long the probe of the indexes may take (it runs while the model works).
PROBE_TIMEOUT_S = 4.0
#: How long the end of a build waits for the background check.
FINISH_GRACE_S = 1.0

ResolverFactory = Callable[[], "Resolver"]


def default_resolver() -> Resolver:
    from labwright.config import data_dir
    from labwright.verify.resolve import Resolver
    from labwright.verify.settings import load_citation_settings

    return Resolver.from_settings(load_citation_settings(), data_dir().root)


@dataclass
class FolderBib:
    """One .bib file of the folder: its path relative to the folder, and its text."""

    name: str
    text: str
    parsed: BibFile = field(init=False)

    def __post_init__(self) -> None:
        from labwright.verify.bibtex import parse_bib

        self.parsed = parse_bib(self.text)


class CitationCheck:
    def __init__(self, make_resolver: ResolverFactory = default_resolver) -> None:
        self._make_resolver = make_resolver
        self._resolver: Resolver | None = None
        self._lock = threading.Lock()
        self._user: list[Verdict] = []
        self._user_pending: list[tuple[BibEntry, str]] = []
        self._model: list[Verdict] = []
        self._thread: threading.Thread | None = None
        self._probe: threading.Thread | None = None
        self.failed = ""

    def resolver(self) -> Resolver | None:
        with self._lock:
            if self._resolver is None and not self.failed:
                try:
                    self._resolver = self._make_resolver()
                except Exception as error:  # noqa: BLE001 - a check must never stop a build
                    log.exception("the citation check could not start")
                    self.failed = f"the citation check could not start ({type(error).__name__})"
            return self._resolver

    def start_probe(self) -> None:
        """Find out, in the background, whether the indexes answer (model-backed runs)."""
        if self._probe is not None:
            return

        def run() -> None:
            from labwright.verify.match import plain

            plain(r"{\"o}")  # the LaTeX decoder's tables load here, not in the bibliography step
            resolver = self.resolver()
            if resolver is not None and resolver.indexes.crossref is not None:
                try:
                    resolver.probe(PROBE_TIMEOUT_S)
                except Exception:  # noqa: BLE001
                    log.exception("the network probe failed")

        self._probe = threading.Thread(target=run, name="citation-probe", daemon=True)
        self._probe.start()

    def start_folder(self, bibs: Sequence[FolderBib]) -> None:
        """Check the folder's entries in a background thread (first file wins a key)."""
        seen: set[str] = set()
        pending = []
        for bib in bibs:
            for entry in bib.parsed.entries:
                if entry.key not in seen:
                    seen.add(entry.key)
                    pending.append((entry, bib.name))
        if not pending:
            return
        self._user_pending = pending
        by_name = {b.name: b.parsed for b in bibs}

        def run() -> None:
            resolver = self.resolver()
            if resolver is None:
                return
            for name, parsed in by_name.items():
                entries = [e for e, n in pending if n == name]
                try:
                    verdicts = resolver.check(
                        entries, deadline_s=USER_DEADLINE_S, origin="user", source=parsed, file=name
                    )
                except Exception:  # noqa: BLE001
                    log.exception("checking %s failed", name)
                    continue
                with self._lock:
                    self._user += verdicts

        self._thread = threading.Thread(target=run, name="citation-check", daemon=True)
        self._thread.start()

    def check_model(self, entries: Sequence[BibEntry]) -> list[Verdict]:
        """Verdicts for the model's entries, now (every entry gets one, also on failure)."""
        if self._probe is not None:
            self._probe.join(timeout=PROBE_TIMEOUT_S)  # long done, unless the run was short
        resolver = self.resolver()
        if resolver is None:
            verdicts = [
                Verdict(e.key, "unverifiable", f"It could not be checked: {self.failed}.", "model")
                for e in entries
            ]
        else:
            try:
                verdicts = resolver.check(
                    entries, deadline_s=MODEL_DEADLINE_S, budget_s=MODEL_BUDGET_S, origin="model"
                )
            except Exception:  # noqa: BLE001
                log.exception("checking the model's references failed")
                verdicts = [
                    Verdict(
                        e.key,
                        "unverifiable",
                        "It could not be checked (an internal error).",
                        "model",
                    )
                    for e in entries
                ]
        with self._lock:
            self._model += verdicts
        return verdicts

    def record_model(self, verdicts: Sequence[Verdict]) -> None:
        with self._lock:
            keys = {v.key for v in verdicts}
            self._model = [v for v in self._model if v.key not in keys] + list(verdicts)

    def verdicts(self, wait_s: float = FINISH_GRACE_S) -> list[Verdict]:
        """Every verdict so far; the folder's entries not checked by now say so."""
        if self._thread is not None:
            self._thread.join(timeout=wait_s)
        with self._lock:
            done = {v.key for v in self._user}
            late = [
                Verdict(
                    e.key,
                    "unverifiable",
                    "It was not checked before the build finished; the next build will.",
                    "user",
                    name,
                )
                for e, name in self._user_pending
                if e.key not in done
            ]
            return [*self._user, *late, *self._model]

    def write(self, out_dir: Path, wait_s: float = FINISH_GRACE_S) -> list[Verdict]:
        verdicts = self.verdicts(wait_s)
        resolver = self._resolver
        record = {
            "network": "on" if resolver is not None and resolver.online else "off",
            "verdicts": [v.to_json() for v in verdicts],
        }
        if verdicts:
            (out_dir / CITATIONS_JSON).write_text(
                json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8"
            )
        return verdicts

    def close(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return  # a daemon thread still using it; the process reclaims it
        with self._lock:
            if self._resolver is not None:
                # Lookups past the model's budget still fill the cache for the next build.
                self._resolver.close_when_idle(MODEL_DEADLINE_S)
                self._resolver = None
