"""`labwright` on the command line: build, doctor (and serve, registered by the server).

Subcommands are registered in `COMMANDS`: name -> (help, "module:configure").
`configure(parser)` adds the arguments and sets `parser.set_defaults(run=...)`;
it is imported only when the command line is parsed, and must itself import
nothing heavy (the handler imports what it needs), so `labwright --help`
stays fast. Adding a subcommand is one line in `COMMANDS`.

Exit codes: 0 done, 1 report produced with problems, 2 bad input.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import TextIO

from labwright.safety import is_inside

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_BAD_INPUT = 2

COMMANDS: dict[str, tuple[str, str]] = {
    "build": (
        "Turn a folder of experiment data into a PDF report.",
        "labwright.cli:configure_build",
    ),
    "doctor": ("Check the TeX engine, fonts and packages.", "labwright.cli:configure_doctor"),
    "serve": (
        "Run the local API for the Labwright window.",
        "labwright.server.cli:configure_serve",
    ),
    "edit": ("Ask for a change to a session's report.", "labwright.edit.cli:configure_edit"),
    "export": (
        "Write the compendium: a script and a notebook that recompute the report's numbers.",
        "labwright.cli:configure_export",
    ),
}

# --- build ---------------------------------------------------------------------


def configure_build(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, help="the folder that holds the experiment's files")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help="the PDF to write (default: ./<folder-name>-report.pdf in the current directory)",
    )
    parser.add_argument(
        "--zip", type=Path, default=None, help="also write an Overleaf-ready zip here"
    )
    parser.add_argument(
        "--lang",
        choices=("auto", "en", "zh"),
        default="auto",
        help="report language (default auto: from the notes, then the file and column names)",
    )
    parser.add_argument(
        "--keep-build", action="store_true", help="keep the build folder (main.tex, log) afterwards"
    )
    from labwright.agent.llm_build import add_llm_arguments

    add_llm_arguments(parser)
    parser.set_defaults(run=run_build)


class _Progress:
    """Milestones as `[i/N] label`: one rewritten line on a terminal, plain
    lines otherwise (logs, CI, pipes)."""

    def __init__(self, total: Callable[[], int], stream: TextIO) -> None:
        # Asked at the first milestone: a model-backed choice knows its stages
        # only once its provider has answered, and the run does its offline
        # work meanwhile (agent/choose.py).
        self._total = total
        self.total = 0
        self.stream = stream
        self.tty = stream.isatty()
        self.index = 0
        self._open = False

    def milestone(self, label: str) -> None:
        if self.index == 0:
            self.total = self._total()
        self.index += 1
        text = f"[{self.index}/{self.total}] {label}"
        if self.tty:
            self.stream.write("\r\033[K" + text)
            self._open = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        if self._open:
            self.stream.write("\n")
            self._open = False
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self._open:
            self.stream.write("\n")
            self._open = False


def _new_build_dir() -> Path:
    """A fresh folder under the per-user data dir's builds/: kept there when a
    build has problems, so the user can open main.log; removed otherwise."""
    from labwright.config import data_dir

    builds = data_dir().root / "builds"
    builds.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="build-", dir=builds))


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def run_build(args: argparse.Namespace) -> int:
    from labwright.agent.offline.render import discard_worker, prestart_worker

    if args.folder.is_dir():
        # First, before the heavy imports below: the plot worker's matplotlib
        # import then runs alongside them (see benchmarks/main_job.py).
        prestart_worker(args.folder)
    try:
        return _run_build(args)
    finally:
        discard_worker()


def _run_build(args: argparse.Namespace) -> int:
    from labwright.agent.events import Done, Error, Milestone, Warning_
    from labwright.agent.run import check_folder

    folder: Path = args.folder
    problem = check_folder(folder)
    if problem:
        _say(problem)
        return EXIT_BAD_INPUT
    output: Path = args.output or Path.cwd() / f"{folder.resolve().name}-report.pdf"
    for target in (output, args.zip):
        if target is not None and is_inside(target, folder):
            _say(
                f"{target} lies inside the data folder, which Labwright never writes to; "
                "choose an output path outside it."
            )
            return EXIT_BAD_INPUT
    if output.suffix.lower() != ".pdf":
        _say(f"{output} does not end in .pdf; give the PDF's file name with -o.")
        return EXIT_BAD_INPUT

    from labwright.agent.choose import RunRequest, choose_pipeline
    from labwright.agent.llm_build import endpoint_for_args
    from labwright.latex.engine import resolve_engine

    tex = resolve_engine().available
    wanted = endpoint_for_args(args)
    if wanted.note:
        _say(wanted.note)
    choice = choose_pipeline("auto", wanted.endpoint)
    reflect = max(0, getattr(args, "reflect", 2))
    zip_step = 1 if args.zip else 0
    progress = _Progress(
        lambda: len(choice.plan(tex_available=tex, reflect_rounds=reflect)) + zip_step, sys.stderr
    )
    build_dir = Path(tempfile.mkdtemp(prefix="labwright-build-"))
    done: Done | None = None
    try:
        request = RunRequest(
            folder,
            build_dir,
            lang=None if args.lang == "auto" else args.lang,
            tex_available=tex,
            reflect_rounds=reflect,
            compendium=args.zip is not None,
        )
        events = choice.run(request)
        for event in events:
            if isinstance(event, Milestone):
                progress.milestone(event.label)
            elif isinstance(event, Warning_):
                progress.note(f"  warning: {event.message}")
            elif isinstance(event, Error):
                progress.note(f"  error: {event.message}")
            elif isinstance(event, Done):
                done = event
        progress.finish()
        if done is None or done.tex_path is None:
            # build_offline already said why, in one sentence.
            return EXIT_BAD_INPUT
        return _deliver(done, folder, build_dir, output, args.zip, progress)
    finally:
        keep = args.keep_build or done is None or not done.ok
        if keep and done is not None and done.tex_path is not None:
            _say(f"Build folder (main.tex, main.log): {build_dir}")
        else:
            shutil.rmtree(build_dir, ignore_errors=True)


def _exportable(build: Path) -> bool:
    """False (and says why) when the build overwrote its own inputs."""
    from labwright.export import ExportError, check_exportable

    try:
        check_exportable(build)
    except ExportError as exc:
        _say(f"The PDF was not written: {exc}")
        return False
    return True


def _with_compendium(folder: Path, tex_path: Path, record: Path) -> str | None:
    """The compendium (analysis/) beside the document. The offline writer
    wrote it before its compile (RunRequest.compendium), so nothing is left
    to do; otherwise (a model-backed run) write it now and compile again, so
    the appendix of both the PDF and the zip names each number's script
    line. Returns the problem, if any, in one sentence; the zip is written
    without the compendium then."""
    from labwright.agent.offline.compendium_build import attach_compendium, has_compendium
    from labwright.latex.compile import compile_tex

    if has_compendium(tex_path.parent):
        return None

    try:
        attach_compendium(folder, tex_path, record)
    except Exception as exc:  # noqa: BLE001 - the report must still be delivered
        shutil.rmtree(tex_path.parent / "analysis", ignore_errors=True)
        return f"The analysis compendium could not be written ({exc}); the zip has none."
    result = compile_tex(tex_path)
    if not result.ok:
        return "The report did not compile again with the compendium's script lines."
    return None


def _deliver(
    done: object,
    folder: Path,
    build_dir: Path,
    output: Path,
    zip_path: Path | None,
    progress: _Progress,
) -> int:
    from labwright.agent.events import Done
    from labwright.agent.offline.build import PROVENANCE_JSON

    assert isinstance(done, Done) and done.tex_path is not None
    code = EXIT_OK if done.ok else EXIT_PROBLEMS
    if zip_path is not None:
        from labwright.export import ExportError, export_overleaf_zip

        progress.milestone("Writing the Overleaf zip")
        progress.finish()
        problem = _with_compendium(folder, Path(done.tex_path), build_dir / PROVENANCE_JSON)
        if problem:
            _say(problem)
            code = EXIT_PROBLEMS
        try:
            zip_path.parent.mkdir(parents=True, exist_ok=True)
            export_overleaf_zip(Path(done.tex_path), zip_path)
            _say(f"Overleaf zip: {zip_path}")
        except (ExportError, OSError) as exc:
            _say(f"The Overleaf zip could not be written: {exc}")
            code = EXIT_PROBLEMS
    provenance = output.with_name(output.stem + ".provenance.json")
    if done.pdf_path and _exportable(Path(done.pdf_path).parent):
        output.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(done.pdf_path, output)
        shutil.copyfile(build_dir / PROVENANCE_JSON, provenance)
        _say(f"Report: {output}")
        _say(f"Number provenance: {provenance}")
    else:
        _say("No PDF was produced.")
    for p in done.problems:
        _say(f"Problem: {p}")
    return code


# --- export --------------------------------------------------------------------


def configure_export(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, help="the folder that holds the experiment's files")
    parser.add_argument(
        "--compendium",
        type=Path,
        required=True,
        metavar="DIR",
        help="write analysis.py, analysis.ipynb, requirements.txt and data/ into DIR",
    )
    parser.add_argument(
        "--provenance",
        type=Path,
        default=None,
        help="the report's provenance.json to compare with (default: the numbers a build prints)",
    )
    parser.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    import json

    from labwright.agent.offline.compendium import SCRIPT, export_compendium

    folder: Path = args.folder
    if not folder.is_dir():
        _say(f"{folder} is not a folder; give the folder of the experiment's files.")
        return EXIT_BAD_INPUT
    record = None
    if args.provenance is not None:
        try:
            record = json.loads(args.provenance.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _say(
                f"{args.provenance} is not a readable provenance record; give the report's provenance.json."
            )
            return EXIT_BAD_INPUT
    comp, shipped = export_compendium(folder, args.compendium, record=record)
    _say(f"Compendium: {args.compendium / SCRIPT} ({len(comp.lines)} numbers recomputed)")
    if comp.not_recomputed:
        _say(
            f"{len(comp.not_recomputed)} numbers are not recomputed; the script lists them at its end."
        )
    for file, why in shipped.left_out:
        _say(f"Left out of data/: {file} ({why})")
    return EXIT_OK


# --- doctor --------------------------------------------------------------------


def configure_doctor(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick", action="store_true", help="skip the two test compiles (English and Chinese)"
    )
    parser.set_defaults(run=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    """Exit 0 when everything a build needs is there, 1 otherwise."""
    from labwright.latex.doctor import run_doctor as doctor
    from labwright.sandbox import confinement_available

    report = doctor(probe=not args.quick)
    for line in report.lines():
        print(line)
    # The sandbox is not needed for an offline build, so it never fails doctor:
    # without it only model-written figures are refused.
    confined, how = confinement_available()
    if confined:
        print(f"ok Sandbox for model-written figures: {how}")
    else:
        print(
            f"-- Sandbox unavailable ({how}): figures a model writes are refused; "
            "offline figures still work. Use a Linux kernel with Landlock, or macOS."
        )
    return EXIT_OK if report.ok else EXIT_PROBLEMS


# --- entry ---------------------------------------------------------------------


def _resolve(spec: str) -> object:
    module, _, attr = spec.partition(":")
    return getattr(import_module(module), attr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="labwright", description="Turn a folder of raw experiment data into a LaTeX report."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, spec) in COMMANDS.items():
        configure = _resolve(spec)
        configure(sub.add_parser(name, help=help_text, description=help_text))  # type: ignore[operator]
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        _say("Stopped.")
        return 130


def entry() -> None:
    """The console script and `python -m labwright`: run, then exit.

    After a build the process holds pandas, scipy and matplotlib, whose
    teardown costs ~0.15 s that the user would wait for with the report
    already written. So a finished build leaves with `os._exit` after running
    the exit handlers (logging, temporary directories) and flushing its
    output. Other commands (serve has worker threads to wait for) exit normally.
    """
    argv = sys.argv[1:]
    code = main(argv)
    if argv[:1] != ["build"]:
        sys.exit(code)
    import atexit
    import os

    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    entry()
