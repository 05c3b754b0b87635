"""Compile a .tex document with XeLaTeX: safely, in as few passes as it needs.

Decisions (each one has a reason):

* Every compile gets its own build directory and runs with it as the working
  directory and the document named relatively: two runs sharing a directory
  overwrite each other's sources and logs, and kpathsea's paranoid mode
  refuses absolute paths, so everything the document reads must sit inside.
* Never shell escape (`-no-shell-escape` and `shell_escape=f` in the env),
  and `openin_any=p`/`openout_any=p`: the document cannot read or write
  outside its directory (no absolute paths, no `..`), whatever the sanitizer
  missed. TEXMFOUTPUT and every other TeX variable from the caller's
  environment are dropped, because they widen what paranoid mode allows.
* `-interaction=nonstopmode` without `-halt-on-error`: a missing figure or a
  typo should still give the user a PDF to look at. The price is that a PDF
  may be degraded, so `CompileResult.status` says "degraded" whenever the log
  shows errors, missing figures, or undefined citations or references.
* Adaptive passes. The seed system always ran xelatex, bibtex, xelatex,
  xelatex. Here: one xelatex pass; bibtex only when the .aux has citations
  and a \\bibdata whose .bib exists; another xelatex pass only while the log
  asks for it, a list file (.toc/.lof/.lot/.out) changed, or the .aux read
  at the start of the pass differs from the one written at its end. A hard
  cap on xelatex passes and a wall-clock budget bound the worst case.
* All process launching goes through `_spawn_tex` (latex/texrun.py): OS
  confinement in one place, and TeX's terminal output drained to a capped
  file instead of memory; logs are diagnosed streamed, in linear time,
  within what is left of the wall budget (issue 11: a 1.4 MB log once took
  25 s and one pass held 631 MiB).
* Always XeLaTeX -> .xdv -> allow-list gate (latex/specials.py) -> one
  xdvipdfmx run. No driver, no compile: XeLaTeX driving itself skips the gate.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from labwright.latex.diagnose import DIAGNOSE_BUDGET_S, Diagnostics, diagnose_file, humanize
from labwright.latex.engine import TexEngine, resolve_engine
from labwright.latex.sanitize import EXEC_RULES, PITFALL_RULES, Change, sanitize, strip_exec
from labwright.latex.specials import refused_specials
from labwright.latex.texrun import HeldTex, SpawnResult, spawn_tex

__all__ = ["SpawnResult", "refused_specials"]

MAX_XELATEX_PASSES = 4
WALL_BUDGET_S = 600.0
PASS_TIMEOUT_S = 180.0

_LIST_SUFFIXES = (".toc", ".lof", ".lot", ".out")
_ENV_KEEP = (
    "PATH", "HOME", "USERPROFILE", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TEMP", "TMP",
    "SYSTEMROOT", "SystemRoot", "WINDIR", "PATHEXT", "FONTCONFIG_FILE", "FONTCONFIG_PATH",
    "XDG_CACHE_HOME",
)  # fmt: skip

#: kpathsea reads these from the environment before texmf.cnf.
PARANOID_SETTINGS: dict[str, str] = {
    "openin_any": "p",
    "openout_any": "p",
    "shell_escape": "f",
    "shell_escape_commands": "",
    # One error or warning per log line: diagnose() depends on it.
    "max_print_line": "10000",
    "error_line": "254",
    "half_error_line": "238",
}


class EngineNotFound(RuntimeError):
    """No XeLaTeX could be found (see `labwright doctor`)."""


@dataclass(frozen=True)
class PassRecord:
    name: Literal["xelatex", "bibtex", "xdvipdfmx"]
    reason: str
    returncode: int | None
    elapsed_s: float
    timed_out: bool = False


Status = Literal["clean", "degraded", "failed"]


@dataclass
class CompileResult:
    """`ok` means a PDF exists and the log has no errors. `status` is the
    honest summary: "clean" only when nothing degraded the PDF."""

    ok: bool
    pdf: Path | None
    build_dir: Path
    passes: list[PassRecord]
    elapsed_s: float
    log_text: str
    diagnostics: Diagnostics
    sanitized: list[Change] = field(default_factory=list)
    stopped_by: Literal["cap", "budget", "timeout", "fatal"] | None = None
    #: Input files (present before the first pass) whose bytes the document
    #: changed with \\openout -- e.g. overwriting the class or the .bib that an
    #: export would then ship. Paranoid mode allows writes inside the build dir.
    modified_inputs: list[str] = field(default_factory=list)
    #: The one xdvipdfmx run after the last pass (None when XeLaTeX drove
    #: itself, or the gate refused the .xdv). Not counted in `passes`.
    driver: PassRecord | None = None

    @property
    def pass_names(self) -> list[str]:
        return [p.name for p in self.passes]

    @property
    def status(self) -> Status:
        if self.pdf is None:
            return "failed"
        if (
            not self.ok
            or self.diagnostics.degraded
            or self.modified_inputs
            or self.stopped_by in ("budget", "timeout")
        ):
            return "degraded"
        return "clean"

    def messages(self) -> list[str]:
        """Everything the user should know, one sentence plus one action each:
        the same list humanize(self.diagnostics) gives, because compile
        copies what it knows about the build (inputs overwritten, how it
        stopped, what the sanitizer changed) into the diagnostics."""
        return humanize(self.diagnostics)


def paranoid_env(engine: TexEngine, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The child's environment: a short allowlist of the parent's variables,
    the engine's bin dir first on PATH (xelatex runs xdvipdfmx from there),
    and kpathsea's paranoid settings. TEXMFOUTPUT, TEXINPUTS etc. never pass."""
    src = os.environ if base is None else base
    env = {k: src[k] for k in _ENV_KEEP if k in src}
    if engine.bin_dir is not None:
        env["PATH"] = os.pathsep.join(p for p in (str(engine.bin_dir), env.get("PATH", "")) if p)
    env.update(PARANOID_SETTINGS)
    return env


def _spawn_tex(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    *,
    output_file: Path | None = None,
) -> SpawnResult:
    """Run one TeX program (latex/texrun.py): with the held driver of an
    early compile (texrun.HeldTex), the ONLY place latex/ starts a process,
    confined by sandbox/tex.py, its terminal output bounded."""
    return spawn_tex(argv, cwd, env, timeout_s, output_file=output_file)


def _xelatex_argv(engine: TexEngine, tex_name: str, *, xdv: bool = False) -> list[str]:
    assert engine.xelatex is not None
    # -no-parse-first-line: a document's "%&" first line may not choose the
    # format, and the main file is opened once (it may be a pipe, see
    # agent/offline/early.py).
    argv = [
        str(engine.xelatex),
        "-no-shell-escape",
        "-no-parse-first-line",
        "-interaction=nonstopmode",
        "-file-line-error",
    ]
    if xdv:
        argv.append("-no-pdf")
    return [*argv, tex_name]


# --- the driver gate ---------------------------------------------------------
# kpathsea's paranoid mode guards TeX's own file access only; xdvipdfmx reads
# whatever the .xdv's specials name. XeLaTeX writes the .xdv (-no-pdf), the
# allow-list gate (latex/specials.py) reads it, and only then does xdvipdfmx
# run -- once, after the last pass, which also spares the driver on
# intermediate passes. Without a driver nothing is compiled: XeLaTeX
# driving itself would skip the gate.

#: Terminal output of the last TeX run (capped); a dot name, so the document
#: itself cannot write it (paranoid openout refuses dot files).
TERMINAL_LOG = ".tex-terminal.log"
#: What compile knows about a build, for export (export.py) to refuse one
#: whose inputs were overwritten. Written last, after TeX has exited.
COMPILE_RECORD = ".labwright-compile.json"
_LOG_EXCERPT = 256 << 10


def new_build_dir(root: Path | None = None) -> Path:
    """A fresh, empty directory for one compile (under `root`, else the temp dir)."""
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="build-", dir=root))


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def _read_log(path: Path, limit: int = _LOG_EXCERPT) -> str:
    """The log's text, or its first and last `limit` bytes when longer (a
    document can write a 100 MB log; the whole is never held in memory)."""
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size <= 2 * limit:
                return handle.read().decode("utf-8", errors="replace")
            head = handle.read(limit)
            handle.seek(size - limit)
            tail = handle.read(limit)
    except FileNotFoundError:
        return ""
    return (
        head.decode("utf-8", errors="replace")
        + f"\n[... {size - 2 * limit} bytes of the log not shown; open the file ...]\n"
        + tail.decode("utf-8", errors="replace")
    )


def write_record(result: CompileResult, folder: Path) -> None:
    """Record the build's status next to its PDF, for export to check."""
    record = {
        "status": result.status,
        "modified_inputs": result.modified_inputs,
        "messages": result.messages(),
    }
    (folder / COMPILE_RECORD).write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")


_OUTPUT_SUFFIXES = frozenset(
    {".aux", ".log", ".pdf", ".xdv", ".bbl", ".blg", ".toc", ".lof", ".lot", ".out", ".fls"}
)


def snapshot_inputs(build_dir: Path, stem: str) -> dict[str, str]:
    """sha256 of every regular file already in the build directory (minus
    this job's own outputs from an earlier run): what the modified-inputs
    check compares against after the compile."""
    snap: dict[str, str] = {}
    for path in build_dir.rglob("*"):
        if path.is_symlink() or not path.is_file():
            continue
        if path.parent == build_dir and path.stem == stem and path.suffix in _OUTPUT_SUFFIXES:
            continue
        if path.parent == build_dir and path.name in (TERMINAL_LOG, COMPILE_RECORD):
            continue
        digest = _digest(path)
        if digest is not None:
            snap[path.relative_to(build_dir).as_posix()] = digest
    return snap


def _bib_needed(build_dir: Path, stem: str) -> bool:
    """Citations in the .aux and at least one of its \\bibdata files present
    (relative names only: bibtex runs paranoid and could not read others)."""
    aux = _read_log(build_dir / f"{stem}.aux")
    if "\\citation{" not in aux:
        return False
    for line in aux.splitlines():
        if line.startswith("\\bibdata{"):
            for name in line[len("\\bibdata{") :].rstrip("}").split(","):
                rel = Path(name.strip())
                if rel.is_absolute() or ".." in rel.parts or not name.strip():
                    continue
                if (build_dir / f"{rel}.bib").is_file() or (build_dir / rel).is_file():
                    return True
    return False


def _check_bbl(bbl: Path) -> list[Change]:
    """A .bbl is built from a .bib that may come from the data folder, so it
    is model-grade text: the sanitizer's exec/file rules run over it before
    any pass reads it, and what they strip is reported."""
    try:
        text = bbl.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    cleaned = strip_exec(text)
    if cleaned.changes:
        bbl.write_text(cleaned.text, encoding="utf-8")
    return [Change(c.rule, f"{bbl.name}: {c.detail}", c.line) for c in cleaned.changes]


def compile_tex(
    main_tex: Path,
    *,
    engine: TexEngine | None = None,
    max_passes: int = MAX_XELATEX_PASSES,
    wall_budget_s: float = WALL_BUDGET_S,
    pass_timeout_s: float = PASS_TIMEOUT_S,
    placeholder_figures: Sequence[str] = (),
    before_driver: Callable[[], Iterable[str]] | None = None,
    inputs: Mapping[str, str] | None = None,
) -> CompileResult:
    """Compile `main_tex` in its own directory (which should hold nothing but
    this document and its inputs). Raises EngineNotFound without XeLaTeX or
    without its PDF driver.

    `before_driver` runs after the last XeLaTeX pass and before the driver
    gate: the offline writer's early compile (agent/offline/early.py) waits
    there for the figures that were drawn during the passes. It returns the
    inputs (names relative to the build folder) it replaced meanwhile, whose
    new contents are what the modified-inputs check then compares against,
    or raises, which ends the compile there: nothing is converted or recorded.

    `inputs` is a `snapshot_inputs` the caller took before starting this
    compile in a thread and writing beside it: a snapshot taken here, while
    the caller writes, could hash a half-written file and then report it as
    overwritten by the document."""
    engine = engine or resolve_engine()
    if engine.xelatex is None:
        raise EngineNotFound("No XeLaTeX found. Run `labwright doctor` to see how to install one.")
    if engine.xdvipdfmx is None:
        raise EngineNotFound(
            "No PDF driver (xdvipdfmx) was found beside XeLaTeX, so nothing is compiled; "
            "install it with XeTeX (Debian: texlive-binaries) and run `labwright doctor`."
        )
    build_dir = main_tex.parent.resolve()
    stem = main_tex.stem
    inputs = dict(inputs) if inputs is not None else snapshot_inputs(build_dir, stem)
    env = paranoid_env(engine)
    start = time.monotonic()
    passes: list[PassRecord] = []
    stopped: Literal["cap", "budget", "timeout", "fatal"] | None = None
    pdf_path = build_dir / f"{stem}.pdf"
    xdv_path = build_dir / f"{stem}.xdv"
    log_path = build_dir / f"{stem}.log"
    terminal = build_dir / TERMINAL_LOG
    xelatex_argv = _xelatex_argv(engine, main_tex.name, xdv=True)
    driver: PassRecord | None = None
    blocked: list[str] = []
    bbl_changes: list[Change] = []
    diag = Diagnostics()

    def remaining() -> float:
        return wall_budget_s - (time.monotonic() - start)

    def read_diagnosis() -> Diagnostics:
        # Streamed, linear-time, and inside the wall budget (a small floor
        # so a pass that used the whole budget still gets a partial read).
        budget = max(min(remaining(), DIAGNOSE_BUDGET_S), 0.25)
        source = log_path if log_path.exists() else terminal
        return diagnose_file(source, placeholder_figures=placeholder_figures, budget_s=budget)

    def run_xelatex(reason: str) -> tuple[str | None, bool]:
        """One pass; returns (why another pass is needed or None, fatal)."""
        nonlocal diag
        before = {s: _digest(build_dir / f"{stem}{s}") for s in (".aux", *_LIST_SUFFIXES)}
        xdv_path.unlink(missing_ok=True)  # what we convert is always the last pass's
        pdf_path.unlink(missing_ok=True)
        bbl_changes.extend(_check_bbl(build_dir / f"{stem}.bbl"))
        res = _spawn_tex(
            xelatex_argv, build_dir, env, min(pass_timeout_s, remaining()), output_file=terminal
        )
        passes.append(PassRecord("xelatex", reason, res.returncode, res.elapsed_s, res.timed_out))
        diag = read_diagnosis()
        if res.timed_out:
            return None, True
        if diag.fatal or diag.driver_failed or not xdv_path.exists():
            return None, True
        after = {s: _digest(build_dir / f"{stem}{s}") for s in before}
        if diag.rerun_requested:
            return "the log asked for a rerun", False
        changed = [s for s in _LIST_SUFFIXES if before[s] != after[s]]
        if changed:
            return f"{', '.join(changed)} changed", False
        if before[".aux"] is not None and before[".aux"] != after[".aux"]:
            return ".aux changed", False
        return None, False

    rerun, fatal = run_xelatex("first pass")
    if fatal:
        stopped = "timeout" if passes[-1].timed_out else "fatal"
    elif _bib_needed(build_dir, stem) and engine.bibtex is not None and remaining() > 0:
        res = _spawn_tex(
            [str(engine.bibtex), stem],
            build_dir,
            env,
            min(pass_timeout_s, remaining()),
            output_file=terminal,
        )
        passes.append(
            PassRecord(
                "bibtex",
                "citations and a .bib present",
                res.returncode,
                res.elapsed_s,
                res.timed_out,
            )
        )
        if (build_dir / f"{stem}.bbl").exists():
            rerun = "bibliography"
    while rerun and stopped is None:
        if sum(p.name == "xelatex" for p in passes) >= max_passes:
            stopped = "cap"
            break
        if remaining() <= 0:
            stopped = "budget"
            break
        rerun, fatal = run_xelatex(rerun)
        if fatal:
            stopped = "timeout" if passes[-1].timed_out else "fatal"
    driver_argv = [str(engine.xdvipdfmx), "-q", "-E", "-o", pdf_path.name, xdv_path.name]
    converts = xdv_path.exists() and stopped not in ("timeout", "fatal")
    held: HeldTex | None = None
    if before_driver is not None and converts:
        # The caller waits in `before_driver` (for figures being drawn): the
        # driver's confined launcher starts meanwhile, and is let go below.
        held = HeldTex(driver_argv, build_dir, env)
    try:
        if before_driver is not None:
            for rel in before_driver():
                digest = _digest(build_dir / rel)
                if digest is not None:
                    inputs[rel] = digest
        log_text = _read_log(log_path) or _read_log(terminal)
        if converts:
            blocked = refused_specials(xdv_path, build_dir)
            timeout = min(pass_timeout_s, max(remaining(), 1.0))
            if not blocked:
                res = (
                    held.run(timeout)
                    if held is not None
                    else _spawn_tex(driver_argv, build_dir, env, timeout)
                )
                driver = PassRecord(
                    "xdvipdfmx",
                    "convert the last pass",
                    res.returncode,
                    res.elapsed_s,
                    res.timed_out,
                )
                if res.output.strip():
                    log_text += "\n--- xdvipdfmx ---\n" + res.output
    finally:
        if held is not None:
            held.cancel()  # unless it ran: abandoned, or the document was refused
    diagnostics = diag
    diagnostics.blocked_reads = blocked
    if driver is not None and (driver.returncode != 0 or driver.timed_out):
        diagnostics.driver_failed = True
    modified = sorted(rel for rel, digest in inputs.items() if _digest(build_dir / rel) != digest)
    diagnostics.modified_inputs = modified
    diagnostics.stopped_by = stopped if stopped != "fatal" else None
    diagnostics.xelatex_passes = sum(p.name == "xelatex" for p in passes)
    # A PDF the driver reported as failed is not handed out (it is left on
    # disk for inspection): "compiled" must never cover a damaged file.
    valid = pdf_path.exists() and pdf_path.stat().st_size > 0 and not diagnostics.driver_failed
    pdf = pdf_path if valid else None
    ok = pdf is not None and diagnostics.error_count == 0 and not diagnostics.fatal
    result = CompileResult(
        ok=ok,
        pdf=pdf,
        build_dir=build_dir,
        passes=passes,
        elapsed_s=time.monotonic() - start,
        log_text=log_text,
        diagnostics=diagnostics,
        sanitized=bbl_changes,
        stopped_by=stopped,
        modified_inputs=modified,
        driver=driver,
    )
    write_record(result, build_dir)
    return result


def compile_source(
    source: str,
    *,
    files: Mapping[str, Path | bytes] | None = None,
    build_root: Path | None = None,
    apply_sanitizer: bool = True,
    engine: TexEngine | None = None,
    max_passes: int = MAX_XELATEX_PASSES,
    wall_budget_s: float = WALL_BUDGET_S,
    pass_timeout_s: float = PASS_TIMEOUT_S,
) -> CompileResult:
    """Write `source` as main.tex into a fresh build directory, copy `files`
    (relative name -> source path or bytes: the class file, figures, .bib),
    sanitize against what is actually there, and compile.

    Relative names must stay inside the directory; an absolute name or one
    with `..` raises ValueError."""
    build_dir = new_build_dir(build_root)
    for rel, content in (files or {}).items():
        rel_path = Path(rel)
        if rel_path.is_absolute() or ".." in rel_path.parts:
            raise ValueError(
                f"Build file name {rel!r} must be relative and stay inside the build directory."
            )
        dest = build_dir / rel_path
        dest.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            dest.write_bytes(content)
        else:
            shutil.copyfile(content, dest)
    changes: list[Change] = []
    if apply_sanitizer:
        cleaned = sanitize(source, graphics_root=build_dir)
        source, changes = cleaned.text, cleaned.changes
    main = build_dir / "main.tex"
    main.write_text(source, encoding="utf-8")
    placeholders = [c.detail for c in changes if c.rule == "missing-figure"]
    result = compile_tex(
        main,
        engine=engine,
        max_passes=max_passes,
        wall_budget_s=wall_budget_s,
        pass_timeout_s=pass_timeout_s,
        placeholder_figures=placeholders,
    )
    result.sanitized = changes + result.sanitized
    result.diagnostics.removed_commands = sum(c.rule in EXEC_RULES for c in result.sanitized)
    result.diagnostics.fixed_pitfalls = sum(c.rule in PITFALL_RULES for c in result.sanitized)
    return result


def run_fixed_sequence(
    main_tex: Path,
    sequence: Sequence[Literal["xelatex", "bibtex"]] = ("xelatex", "bibtex", "xelatex", "xelatex"),
    *,
    engine: TexEngine | None = None,
    pass_timeout_s: float = PASS_TIMEOUT_S,
) -> list[PassRecord]:
    """Run a fixed pass sequence (the seed system's baseline), for benchmarks.
    Like the seed system, every xelatex pass makes a PDF -- but through the
    gate: XeLaTeX writes the .xdv and xdvipdfmx runs only on an accepted one."""
    engine = engine or resolve_engine()
    if engine.xelatex is None or engine.xdvipdfmx is None:
        raise EngineNotFound("No XeLaTeX with its PDF driver found. Run `labwright doctor`.")
    build_dir = main_tex.parent.resolve()
    env = paranoid_env(engine)
    terminal = build_dir / TERMINAL_LOG
    records: list[PassRecord] = []
    for name in sequence:
        if name == "xelatex":
            argv = _xelatex_argv(engine, main_tex.name, xdv=True)
        else:
            if engine.bibtex is None:
                continue
            argv = [str(engine.bibtex), main_tex.stem]
        res = _spawn_tex(argv, build_dir, env, pass_timeout_s, output_file=terminal)
        elapsed = res.elapsed_s
        xdv = build_dir / f"{main_tex.stem}.xdv"
        if name == "xelatex" and xdv.exists() and not refused_specials(xdv, build_dir):
            out = f"{main_tex.stem}.pdf"
            drv = _spawn_tex([str(engine.xdvipdfmx), "-q", "-E", "-o", out, xdv.name], build_dir,
                             env, pass_timeout_s)  # fmt: skip
            elapsed += drv.elapsed_s
        records.append(PassRecord(name, "fixed sequence", res.returncode, elapsed, res.timed_out))
    return records
