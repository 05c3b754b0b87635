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
* All process launching goes through `_spawn_tex`, so OS-level confinement
  can later be added in exactly one place.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from labwright.latex.diagnose import Diagnostics, diagnose, humanize
from labwright.latex.engine import TexEngine, resolve_engine
from labwright.latex.sanitize import Change, sanitize

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
class SpawnResult:
    returncode: int | None
    output: str
    elapsed_s: float
    timed_out: bool


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
        how the compile stopped, what the sanitizer changed, what the log says."""
        out: list[str] = []
        if self.stopped_by == "timeout":
            out.append(
                "LaTeX ran past its time limit and was stopped. Simplify the document or raise the limit."
            )
        elif self.stopped_by == "budget":
            out.append(
                "The compile used up its time budget before finishing. Compile again or simplify the document."
            )
        elif self.stopped_by == "cap":
            out.append(
                f"LaTeX still asked for another run after {sum(p.name == 'xelatex' for p in self.passes)} passes. "
                "Check cross-references in the PDF."
            )
        if self.modified_inputs:
            out.append(
                f"The document overwrote its own input files ({', '.join(self.modified_inputs)}). "
                "Do not export or reuse this build; regenerate it."
            )
        stripped = [c for c in self.sanitized if c.rule in ("exec-primitive", "file-primitive")]
        if stripped:
            out.append(
                f"{len(stripped)} command(s) that run programs or read outside files were removed before compiling. "
                "Review the source if you wrote them on purpose."
            )
        fixed = [
            c for c in self.sanitized if c.rule in ("def-comment", "bold-math", "bold-in-accent")
        ]
        if fixed:
            out.append(
                f"{len(fixed)} known LaTeX pitfall(s) were corrected automatically. See the build log for the list."
            )
        return out + humanize(self.diagnostics)


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
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout_s: float
) -> SpawnResult:
    """Run one TeX program and collect its output. The ONLY place that starts
    a process in latex/ (confinement hooks in here later).

    The child gets its own process group so a timeout kills xdvipdfmx too;
    stdin is closed so TeX can never wait for terminal input."""
    # OS confinement (sandbox/tex.py): reads only the TeX tree, fonts and the
    # build dir, writes only the build dir, no network, no other programs.
    from labwright.sandbox.tex import confine_tex_command

    argv, env = confine_tex_command(argv, cwd, env)
    start = time.monotonic()
    kwargs: dict[str, object] = {}
    if sys.platform == "win32":
        kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
    else:
        kwargs["start_new_session"] = True
    proc = subprocess.Popen(  # noqa: S603 - argv is built by us, never a shell
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        **kwargs,  # type: ignore[call-overload]
    )
    timed_out = False
    try:
        out, _ = proc.communicate(timeout=max(timeout_s, 0.1))
    except subprocess.TimeoutExpired:
        timed_out = True
        if sys.platform == "win32":
            proc.kill()
        else:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        out, _ = proc.communicate()
    text = out.decode("utf-8", errors="replace") if out else ""
    return SpawnResult(
        None if timed_out else proc.returncode, text, time.monotonic() - start, timed_out
    )


def _xelatex_argv(engine: TexEngine, tex_name: str, *, xdv: bool = False) -> list[str]:
    assert engine.xelatex is not None
    argv = [str(engine.xelatex), "-no-shell-escape", "-interaction=nonstopmode", "-file-line-error"]
    if xdv:
        argv.append("-no-pdf")
    return [*argv, tex_name]


# --- the driver gate ---------------------------------------------------------
# kpathsea's paranoid mode guards TeX's own file access only. xdvipdfmx reads
# whatever the .xdv's specials name: every picture arrives as
# `pdf:image ... (fig.png)` (XeTeX, TeX Live 2022), and a document can emit
# `pdf:fstream @x (/etc/passwd)` (measured: the file ends up in the PDF).
# Specials sit verbatim in the .xdv, so however TeX-level trickery built
# them, these bytes are what the driver will act on: XeLaTeX writes the .xdv
# (-no-pdf), this gate reads it, and only then does xdvipdfmx run -- once,
# after the last pass, which also spares the driver on intermediate passes.
_FILE_SPECIAL = re.compile(rb"pdf:\s*(?:image|img|epdf|fstream)(?![A-Za-z])")
_BLOCKED_SPECIAL = re.compile(
    rb"(?:PSfile|psfile)\s*=|ps:\s*plotfile|html:\s*<img|postscriptbox|"
    rb"(?:pdf|x):\s*(?:fontmap|map)(?:file|line)"
)
_PDF_STRING = re.compile(rb"\((?P<lit>(?:\\.|[^\\()])*)\)|<(?P<hex>[0-9A-Fa-f\s]*)>")
_PDF_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _pdf_literal(raw: bytes) -> bytes:
    """Decode a PDF literal string body (octal and character escapes)."""
    out = bytearray()
    i = 0
    while i < len(raw):
        c = raw[i : i + 1]
        if c != b"\\" or i + 1 >= len(raw):
            out += c
            i += 1
            continue
        nxt = raw[i + 1 : i + 2]
        octal = re.match(rb"[0-7]{1,3}", raw[i + 1 : i + 4])
        if octal:
            out.append(int(octal.group(0), 8) & 0xFF)
            i += 1 + len(octal.group(0))
        elif nxt in (b"\n", b"\r"):
            i += 2  # line continuation
        else:
            out += _PDF_ESCAPES.get(nxt, nxt)
            i += 2
    return bytes(out)


def _special_file(data: bytes, start: int) -> str | None:
    """The file a file-reading special names: the first PDF string after the
    command, decoded. None when it cannot be read unambiguously."""
    window = data[start : start + 1024]
    first = re.search(rb"\(|<(?!<)", window)
    if first is None:
        return None
    m = _PDF_STRING.match(window, first.start())
    if m is None:
        return None
    if m.group("lit") is not None:
        raw = _pdf_literal(m.group("lit"))
    else:
        hexdigits = re.sub(rb"\s", b"", m.group("hex"))
        raw = bytes.fromhex((hexdigits + b"0" * (len(hexdigits) % 2)).decode("ascii"))
    return raw.decode("utf-8", errors="replace")


def driver_reads_outside(xdv: Path, build_dir: Path) -> list[str]:
    """Files outside `build_dir` the driver would read for this .xdv (or a
    description of a special that cannot be checked). Empty means safe."""
    data = xdv.read_bytes()
    bad: list[str] = []
    for m in _BLOCKED_SPECIAL.finditer(data):
        bad.append(f"special {m.group(0).decode('latin-1').strip()}")
    root = build_dir.resolve()
    for m in _FILE_SPECIAL.finditer(data):
        name = _special_file(data, m.end())
        if name is None:
            bad.append(f"special {m.group(0).decode('latin-1')} with an unreadable file name")
            continue
        rel = Path(name.strip())
        if not name.strip():
            continue
        if (
            rel.is_absolute()
            or ".." in rel.parts
            or not (root / rel).resolve().is_relative_to(root)
        ):
            bad.append(name)
    return list(dict.fromkeys(bad))


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


def _read_log(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ""


_OUTPUT_SUFFIXES = frozenset(
    {".aux", ".log", ".pdf", ".xdv", ".bbl", ".blg", ".toc", ".lof", ".lot", ".out", ".fls"}
)


def _snapshot_inputs(build_dir: Path, stem: str) -> dict[str, str]:
    """sha256 of every regular file already in the build directory (minus
    this job's own outputs from an earlier run)."""
    snap: dict[str, str] = {}
    for path in build_dir.rglob("*"):
        if path.is_symlink() or not path.is_file():
            continue
        if path.parent == build_dir and path.stem == stem and path.suffix in _OUTPUT_SUFFIXES:
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


def compile_tex(
    main_tex: Path,
    *,
    engine: TexEngine | None = None,
    max_passes: int = MAX_XELATEX_PASSES,
    wall_budget_s: float = WALL_BUDGET_S,
    pass_timeout_s: float = PASS_TIMEOUT_S,
    placeholder_figures: Sequence[str] = (),
) -> CompileResult:
    """Compile `main_tex` in its own directory (which should hold nothing but
    this document and its inputs). Raises EngineNotFound without XeLaTeX."""
    engine = engine or resolve_engine()
    if engine.xelatex is None:
        raise EngineNotFound("No XeLaTeX found. Run `labwright doctor` to see how to install one.")
    build_dir = main_tex.parent.resolve()
    stem = main_tex.stem
    inputs = _snapshot_inputs(build_dir, stem)
    env = paranoid_env(engine)
    start = time.monotonic()
    passes: list[PassRecord] = []
    stopped: Literal["cap", "budget", "timeout", "fatal"] | None = None
    log_text = ""
    pdf_path = build_dir / f"{stem}.pdf"
    # With a known driver: passes write .xdv, the gate checks it, the driver
    # runs once. Without one (an engine described by hand), XeLaTeX drives.
    via_xdv = engine.xdvipdfmx is not None
    out_path = build_dir / f"{stem}.xdv" if via_xdv else pdf_path
    xelatex_argv = _xelatex_argv(engine, main_tex.name, xdv=via_xdv)
    driver: PassRecord | None = None
    blocked: list[str] = []

    def remaining() -> float:
        return wall_budget_s - (time.monotonic() - start)

    def run_xelatex(reason: str) -> tuple[str | None, bool]:
        """One pass; returns (why another pass is needed or None, fatal)."""
        nonlocal log_text
        before = {s: _digest(build_dir / f"{stem}{s}") for s in (".aux", *_LIST_SUFFIXES)}
        out_path.unlink(missing_ok=True)  # what we convert is always the last pass's
        pdf_path.unlink(missing_ok=True)
        res = _spawn_tex(xelatex_argv, build_dir, env, min(pass_timeout_s, remaining()))
        passes.append(PassRecord("xelatex", reason, res.returncode, res.elapsed_s, res.timed_out))
        log_text = _read_log(build_dir / f"{stem}.log") or res.output
        if res.timed_out:
            return None, True
        diag = diagnose(log_text)
        if diag.fatal or diag.driver_failed or not out_path.exists():
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
            [str(engine.bibtex), stem], build_dir, env, min(pass_timeout_s, remaining())
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
    if via_xdv and out_path.exists() and stopped not in ("timeout", "fatal"):
        blocked = driver_reads_outside(out_path, build_dir)
        if not blocked:
            assert engine.xdvipdfmx is not None
            res = _spawn_tex(
                [str(engine.xdvipdfmx), "-q", "-E", "-o", pdf_path.name, out_path.name],
                build_dir,
                env,
                min(pass_timeout_s, max(remaining(), 1.0)),
            )
            driver = PassRecord(
                "xdvipdfmx", "convert the last pass", res.returncode, res.elapsed_s, res.timed_out
            )
            if res.output.strip():
                log_text += "\n--- xdvipdfmx ---\n" + res.output
    diagnostics = diagnose(log_text, placeholder_figures=placeholder_figures)
    diagnostics.blocked_reads = blocked
    if driver is not None and (driver.returncode != 0 or driver.timed_out):
        diagnostics.driver_failed = True
    modified = sorted(rel for rel, digest in inputs.items() if _digest(build_dir / rel) != digest)
    # A PDF the driver reported as failed is not handed out (it is left on
    # disk for inspection): "compiled" must never cover a damaged file.
    valid = pdf_path.exists() and pdf_path.stat().st_size > 0 and not diagnostics.driver_failed
    pdf = pdf_path if valid else None
    ok = pdf is not None and diagnostics.error_count == 0 and not diagnostics.fatal
    return CompileResult(
        ok=ok,
        pdf=pdf,
        build_dir=build_dir,
        passes=passes,
        elapsed_s=time.monotonic() - start,
        log_text=log_text,
        diagnostics=diagnostics,
        stopped_by=stopped,
        modified_inputs=modified,
        driver=driver,
    )


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
    result.sanitized = changes
    return result


def run_fixed_sequence(
    main_tex: Path,
    sequence: Sequence[Literal["xelatex", "bibtex"]] = ("xelatex", "bibtex", "xelatex", "xelatex"),
    *,
    engine: TexEngine | None = None,
    pass_timeout_s: float = PASS_TIMEOUT_S,
) -> list[PassRecord]:
    """Run a fixed pass sequence (the seed system's baseline), for benchmarks."""
    engine = engine or resolve_engine()
    if engine.xelatex is None:
        raise EngineNotFound("No XeLaTeX found. Run `labwright doctor` to see how to install one.")
    build_dir = main_tex.parent.resolve()
    env = paranoid_env(engine)
    records: list[PassRecord] = []
    for name in sequence:
        if name == "xelatex":
            argv = _xelatex_argv(engine, main_tex.name)
        else:
            if engine.bibtex is None:
                continue
            argv = [str(engine.bibtex), main_tex.stem]
        res = _spawn_tex(argv, build_dir, env, pass_timeout_s)
        records.append(
            PassRecord(name, "fixed sequence", res.returncode, res.elapsed_s, res.timed_out)
        )
    return records
