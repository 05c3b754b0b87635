"""`labwright edit SESSION "request"`: the chat edit for people who live in a terminal.

Runs one chat turn on the session's latest version (the same service the
window uses, so the same proposals and messages land in the store), prints
each proposal as a unified diff and asks before accepting it (`--yes`
accepts without asking). `-o out.pdf` also compiles the accepted version.

Exit codes: 0 accepted (or nothing left to decide), 1 nothing proposed or
everything declined, 2 bad input (no such session).
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

EXIT_OK, EXIT_NOTHING, EXIT_BAD_INPUT = 0, 1, 2


def configure_edit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", type=int, help="the session id (shown in the window)")
    parser.add_argument("request", help='what to change, e.g. "shorten the abstract"')
    parser.add_argument(
        "-y", "--yes", action="store_true", help="accept every proposal without asking"
    )
    parser.add_argument("--offline", action="store_true", help="do not use a language model")
    parser.add_argument(
        "-o", "--output", type=Path, default=None, help="compile the accepted version to this PDF"
    )
    parser.set_defaults(run=run_edit)


def proposal_diff(old: str, new: str, label: str) -> str:
    """A unified line diff of one proposal, with three lines of context."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{label} (now)",
        tofile=f"{label} (proposed)",
    )
    text = "".join(lines)
    return text if text.endswith("\n") else text + "\n"


def _confirm(out: TextIO, stdin: TextIO) -> bool:
    out.write("Accept this change? [y/N] ")
    out.flush()
    answer = stdin.readline()
    return answer.strip().lower() in ("y", "yes", "是", "好")


def run_edit(
    args: argparse.Namespace, *, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    from labwright.agent.events import Error, ProposalMade, Reply, UsageRecorded
    from labwright.config import data_dir
    from labwright.edit.citations import resolver_check
    from labwright.edit.material import folder_digest
    from labwright.edit.model import ClientModel
    from labwright.edit.service import ChatTurn, chat_turn
    from labwright.store import Store
    from labwright.store.artifacts import record_for
    from labwright.store.errors import ConflictError, NotFoundError
    from labwright.store.models import Version

    out = out or sys.stdout
    stdin = stdin or sys.stdin
    store = Store.open()
    try:
        try:
            session = store.get_session(args.session)
        except NotFoundError:
            known = ", ".join(str(s.id) for s in store.list_sessions()[-10:]) or "none yet"
            out.write(f"There is no session {args.session}; pick one of: {known}.\n")
            return EXIT_BAD_INPUT
        client = None
        if not args.offline:
            from labwright.llm import client_from_settings

            client = client_from_settings()
        model = ClientModel(client) if client is not None else None
        data = data_dir()

        def record(version: Version) -> dict[str, Any] | None:
            found = record_for(store, data, version)
            return found.data if found is not None else None

        turn = ChatTurn(
            store,
            session.id,
            args.request,
            model,
            digest=lambda: folder_digest(Path(session.source_path)),
            record=record,
            check_references=None if args.offline else resolver_check(data_dir().root),
        )
        proposals: list[int] = []
        try:
            for event in chat_turn(turn):
                if isinstance(event, ProposalMade):
                    proposals.append(event.proposal_id)
                elif isinstance(event, Reply):
                    out.write(event.text + "\n")
                elif isinstance(event, Error):
                    out.write(f"{event.message} {event.action}\n")
                elif isinstance(event, UsageRecorded):
                    store.record_usage(
                        session.id,
                        model=event.model,
                        prompt_tokens=event.prompt_tokens,
                        cached_tokens=event.cached_tokens,
                        completion_tokens=event.completion_tokens,
                        cost=event.cost,
                        step=event.step,
                    )
        finally:
            if client is not None:
                client.close()
        accepted = None
        for pid in proposals:
            p = store.get_proposal(pid)
            out.write(f"\n[{p.scope}] {p.target}: {p.summary}\n")
            out.write(proposal_diff(p.old_text, p.new_text, p.target or p.scope))
            if not (args.yes or _confirm(out, stdin)):
                store.reject_proposal(pid)
                out.write("Rejected; nothing changed.\n")
                continue
            try:
                accepted = store.accept_proposal(pid)
            except ConflictError as exc:
                out.write(f"{exc}\n")
                continue
            out.write(f"Accepted as version {accepted.version_no}.\n")
        if accepted is None:
            return EXIT_NOTHING
        if args.output is not None:
            return _compile(store, accepted, args.output, out)
        return EXIT_OK
    finally:
        store.close()


def _compile(store: object, version: object, output: Path, out: TextIO) -> int:
    """Compile the accepted version with its ancestor's inputs into `output`."""
    import shutil

    from labwright.agent.events import Done, Warning_
    from labwright.config import data_dir
    from labwright.edit.locate import document_language
    from labwright.edit.recompile import compile_build, prepare_build
    from labwright.store.artifacts import build_dir_for, record_for

    content: str = version.content  # type: ignore[attr-defined]
    ancestor = build_dir_for(store, data_dir(), version)  # type: ignore[arg-type]
    record = record_for(store, data_dir(), version)  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory(prefix="labwright-edit-") as tmp:
        main = prepare_build(
            content,
            ancestor,
            Path(tmp),
            document_language(content) or "en",
            record=record.path if record else None,
            bibliography=getattr(version, "bibliography", None),
        )
        published: list[Path] = []

        def publish(pdf: Path) -> Path:
            output.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pdf, output)
            published.append(output)
            return output

        for event in compile_build(main, version.version_no, publish):  # type: ignore[attr-defined]
            if isinstance(event, Warning_):
                out.write(f"warning: {event.message}\n")
            elif isinstance(event, Done) and not event.ok:
                out.write(" ".join(event.problems[:1]) + "\n")
    if published:
        out.write(f"PDF written to {output}.\n")
        return EXIT_OK
    return EXIT_NOTHING
