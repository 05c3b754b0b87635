"""Build a pruned TeX tree: only the files that compiling every example
report (English and Chinese) actually reads, plus the programs, the format
and the configuration XeTeX needs. The desktop app ships this tree.

    python build_scripts/prune_tex.py --out build/tex-pruned [--source ROOT]

--source: a TeX Live tree such as TinyTeX (bin/<platform>/, texmf-dist/,
texmf-var/); without it, the system's TeX Live (Debian's, found on PATH).

How the list is made: each example under examples/ is built with the full
TeX into an Overleaf zip (`labwright build --zip`), then that project is
compiled again by the full engine under `strace -f` with `-recorder` (the
`.fls` lists what XeTeX reads through kpathsea; strace adds what it and
xdvipdfmx open directly: OpenType fonts found through fontconfig, font maps,
CMaps). Every file read under a TeX root is copied to the same relative
place in the new tree; system fonts go under texmf-dist/fonts/.

The tree carries its own texmf.cnf (roots relative to the programs), a
fonts.conf (only the tree's fonts; cache in the user's cache directory) and
the prebuilt xelatex format. `verify` compiles every example again with
kpathsea and fontconfig pointed only at the tree and fails when any file is
read from the system's TeX or font directories.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ("xetex", "xdvipdfmx", "bibtex", "kpsewhich")
LANGS = ("en", "zh")
#: Where a system TeX Live keeps files (Debian's layout first), and where in
#: the pruned tree each goes. A TinyTeX source adds its own root first.
SYSTEM_ROOTS: list[tuple[str, str]] = [
    ("/usr/share/texlive/texmf-dist", "texmf-dist"),
    ("/usr/share/texmf", "texmf-dist"),
    ("/var/lib/texmf", "texmf-var"),
    ("/etc/texmf", "texmf-dist"),
    ("/usr/local/share/fonts", "texmf-dist/fonts/system"),
    ("/usr/share/fonts", "texmf-dist/fonts/system"),
]
#: Read anywhere under these during `verify` means the tree is incomplete.
FORBIDDEN_ROOTS = (
    "/usr/share/texlive",
    "/usr/share/texmf",
    "/var/lib/texmf",
    "/etc/texmf",
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "/etc/fonts",
    "/usr/local/texlive",
)

TEXMF_CNF = """\
% Labwright's pruned TeX tree. Read before texmf-dist/web2c/texmf.cnf, so
% these values win; roots are relative to the programs (bin/<platform>/).
TEXMFROOT = $SELFAUTOPARENT
TEXMFDIST = $TEXMFROOT/texmf-dist
TEXMFMAIN = $TEXMFDIST
TEXMFSYSVAR = $TEXMFROOT/texmf-var
TEXMFSYSCONFIG = $TEXMFROOT/texmf-config
% Nothing is generated at run time (formats are prebuilt, mktex* is off), so
% the per-user trees point back into the read-only tree.
TEXMFVAR = $TEXMFSYSVAR
TEXMFCONFIG = $TEXMFSYSCONFIG
TEXMFHOME = $TEXMFDIST
TEXMFLOCAL = $TEXMFDIST
TEXMFAUXTREES =
TEXMF = {$TEXMFSYSVAR,$TEXMFDIST}
TEXMFDBS = {$TEXMFSYSVAR,$TEXMFDIST}
VARTEXFONTS = $TEXMFSYSVAR/fonts
OSFONTDIR =
TEXMFCNF = {$SELFAUTOPARENT,$SELFAUTOPARENT/texmf-dist/web2c}
MKTEXTFM = 0
MKTEXPK = 0
MKTEXTEX = 0
MKTEXFMT = 0
"""

FONTS_CONF = """\
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Labwright's pruned TeX tree: only its own fonts; the cache goes to the
     user's cache directory (the tree itself is read-only once installed). -->
<fontconfig>
  <dir prefix="relative">texmf-dist/fonts</dir>
  <cachedir prefix="xdg">labwright-fontconfig</cachedir>
</fontconfig>
"""


_T = TypeVar("_T")
_R = TypeVar("_R")
_STARTED = time.monotonic()


def _say(msg: str) -> None:
    print(f"[prune-tex +{time.monotonic() - _STARTED:.0f}s] {msg}", file=sys.stderr, flush=True)


def default_jobs() -> int:
    """The CPUs this process may use (the affinity mask, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux (the release workflow also runs on macOS/Windows)
        return os.cpu_count() or 1


def parallel_map(fn: Callable[[_T], _R], items: Sequence[_T], jobs: int) -> list[_R]:
    """`fn` over `items` in threads, results in the order of `items`.

    Threads suffice: the work is subprocesses (xelatex under strace), so the
    GIL is released while they run. Every `fn` here writes only below its own
    per-project directories, so the outcome does not depend on scheduling.
    """
    if jobs <= 1 or len(items) <= 1:
        return [fn(item) for item in items]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            return list(pool.map(fn, items))
        except BaseException:
            # One project failed (sys.exit in a worker arrives here): do not
            # wait for the queued ones before reporting it.
            pool.shutdown(wait=True, cancel_futures=True)
            raise


@dataclass(frozen=True)
class Source:
    """The full TeX used to find out what is read."""

    bin_dir: Path
    roots: list[tuple[str, str]]

    @classmethod
    def find(cls, tree: Path | None) -> Source:
        if tree is None:
            xelatex = shutil.which("xelatex")
            if not xelatex:
                sys.exit("No xelatex on PATH and no --source tree.")
            return cls(Path(xelatex).parent, list(SYSTEM_ROOTS))
        tree = tree.resolve()
        bins = sorted(p.parent for p in tree.glob("bin/*/xelatex"))
        if not bins:
            sys.exit(f"No bin/<platform>/xelatex under {tree}.")
        roots = [(str(tree / "texmf-dist"), "texmf-dist"), (str(tree / "texmf-var"), "texmf-var")]
        return cls(bins[0], roots + list(SYSTEM_ROOTS))


def build_projects(work: Path, source: Source, jobs: int = 1) -> list[Path]:
    """Each example in each language as an Overleaf project directory.

    Each build gets its own LABWRIGHT_HOME: builds write caches there (the
    matplotlib font list under cache/), and concurrent builds must not write
    one cache together. The first build runs alone and its cache/ seeds the
    others, so they do not each pay for building the font list; it also warms
    the caches under the inherited HOME (fontconfig) before anything runs
    concurrently.
    """
    names = [
        (example, f"{example.name}-{lang}", lang)
        for example in sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir())
        if not example.name.startswith(("_", "."))
        for lang in LANGS
    ]
    if not names:
        sys.exit(f"No examples under {ROOT / 'examples'}.")
    homes = work / "homes"

    def build(item: tuple[Path, str, str]) -> Path:
        example, name, lang = item
        home = homes / name
        seed = homes / names[0][1] / "cache"
        if name != names[0][1] and seed.is_dir() and not home.exists():
            shutil.copytree(seed, home / "cache")
        env = {**os.environ, "LABWRIGHT_TEX": str(source.bin_dir / "xelatex")}
        env["LABWRIGHT_HOME"] = str(home)
        zip_path = work / f"{name}.zip"
        cmd = [sys.executable, "-m", "labwright", "build", str(example), "--lang", lang,
               "-o", str(work / f"{name}.pdf"), "--zip", str(zip_path)]  # fmt: skip
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        if not zip_path.is_file():
            sys.exit(f"Building {name} made no zip:\n{done.stderr[-3000:]}")
        project = work / "projects" / name
        with zipfile.ZipFile(zip_path) as zf:
            zf.extractall(project)
        return project

    first = build(names[0])
    return [first, *parallel_map(build, names[1:], jobs)]


def compile_project(
    project: Path, bin_dir: Path, env: dict[str, str], trace: Path | None
) -> subprocess.CompletedProcess[str]:
    """xelatex (no PDF) -> bibtex when needed -> xelatex x2 -> xdvipdfmx, like
    latex/compile.py, each under strace when `trace` is given."""

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        full = argv
        if trace is not None:
            full = ["strace", *strace_speedup(), "-f", "-qq", "-e", "trace=open,openat,execve",
                    "-o", f"{trace}.{len(list(trace.parent.glob(trace.name + '.*')))}"] + argv  # fmt: skip
        return subprocess.run(
            full, cwd=project, env=env, capture_output=True, text=True, check=False, timeout=600
        )

    xelatex = [str(bin_dir / "xelatex"), "-recorder", "-no-pdf", "-interaction=nonstopmode",
               "-halt-on-error", "main.tex"]  # fmt: skip
    result = run(xelatex)
    aux = project / "main.aux"
    if aux.is_file() and "\\bibdata" in aux.read_text(encoding="utf-8", errors="replace"):
        run([str(bin_dir / "bibtex"), "main"])
    for _ in range(2):
        result = run(xelatex)
    if result.returncode != 0:
        return result
    return run([str(bin_dir / "xdvipdfmx"), "-q", "-o", "main.pdf", "main.xdv"])


@functools.cache
def strace_speedup() -> tuple[str, ...]:
    """`--seccomp-bpf` when this strace has it (5.3 and later), else nothing.

    Without it the kernel stops the traced TeX at every system call (the
    many stat/readdir calls of a kpathsea search included) and strace drops
    the ones not asked for; with it only open/openat/execve stop. The trace
    holds the same lines either way, about three times faster.
    """
    probe = ["strace", "--seccomp-bpf", "-f", "-qq", "-e", "trace=execve", "-o", os.devnull,
             sys.executable, "-c", ""]  # fmt: skip
    done = subprocess.run(probe, capture_output=True, check=False)
    return ("--seccomp-bpf",) if done.returncode == 0 else ()


def _empty_dir(path: Path) -> Path:
    """`path` as a new, empty directory: with a reused --work, stale traces
    would count as reads."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def opened_files(project: Path, traces: Iterable[Path]) -> set[str]:
    """Absolute paths read: the .fls INPUT lines plus strace's successful opens."""
    found: set[str] = set()
    for fls in project.glob("*.fls"):
        pwd = project
        for line in fls.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("PWD "):
                pwd = Path(line[4:])
            elif line.startswith("INPUT "):
                p = Path(line[6:])
                found.add(os.path.normpath(p if p.is_absolute() else pwd / p))
    for trace in traces:
        for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
            if "= -1" in line or '"' not in line:
                continue
            if "open" not in line and "execve" not in line:
                continue
            found.add(os.path.normpath(line.split('"', 2)[1]))
    return {p for p in found if os.path.isabs(p)}


def map_to_tree(path: str, roots: Sequence[tuple[str, str]]) -> str | None:
    """Relative destination of a read file in the pruned tree, or None."""
    real = os.path.realpath(path)
    for candidate in (path, real):
        for root, dest in roots:
            if candidate.startswith(root.rstrip("/") + "/"):
                return os.path.join(dest, candidate[len(root.rstrip("/")) + 1 :])
    return None


def assemble(out: Path, source: Source, files: set[str]) -> dict[str, int]:
    if out.exists():
        shutil.rmtree(out)
    platform = _platform()
    bin_out = out / "bin" / platform
    bin_out.mkdir(parents=True)
    copied = 0
    for path in sorted(files):
        if not os.path.isfile(path):
            continue
        rel = map_to_tree(path, source.roots)
        if rel is None or rel.endswith((".fmt", "ls-R")) or "/web2c/texmf.cnf" in "/" + rel:
            continue
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists():
            shutil.copy2(os.path.realpath(path), dest)
            copied += 1
    for name in PROGRAMS:
        found = shutil.which(name, path=str(source.bin_dir)) or shutil.which(name)
        if not found:
            sys.exit(f"{name} is missing from the source TeX.")
        shutil.copy2(os.path.realpath(found), bin_out / name)
    os.symlink("xetex", bin_out / "xelatex")
    # The format and the stock texmf.cnf (memory sizes the format was made with).
    fmt = _kpse(source, "-engine=xetex", "-progname=xelatex", "xelatex.fmt")
    (out / "texmf-var/web2c/xetex").mkdir(parents=True, exist_ok=True)
    shutil.copy2(fmt, out / "texmf-var/web2c/xetex/xelatex.fmt")
    stock_cnf = _stock_texmf_cnf(source)
    (out / "texmf-dist/web2c").mkdir(parents=True, exist_ok=True)
    shutil.copy2(stock_cnf, out / "texmf-dist/web2c/texmf.cnf")
    (out / "texmf.cnf").write_text(TEXMF_CNF, encoding="utf-8")
    (out / "fonts.conf").write_text(FONTS_CONF, encoding="utf-8")
    return {"files": copied, "bytes": tree_size(out)}


def _platform() -> str:
    machine = os.uname().machine
    return {"x86_64": "x86_64-linux", "aarch64": "aarch64-linux"}.get(machine, machine + "-linux")


def _kpse(source: Source, *args: str) -> str:
    kpsewhich = shutil.which("kpsewhich", path=str(source.bin_dir)) or "kpsewhich"
    out = subprocess.run([kpsewhich, *args], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _stock_texmf_cnf(source: Source) -> str:
    """The distribution's main texmf.cnf (TeX Live's, not Debian's /etc stub)."""
    for root, dest in source.roots:
        if dest == "texmf-dist" and Path(root, "web2c/texmf.cnf").is_file():
            return str(Path(root, "web2c/texmf.cnf"))
    return _kpse(source, "texmf.cnf")


def tree_size(path: Path) -> int:
    total = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            total += p.stat().st_size
    return total


def pruned_env(tree: Path, home: Path) -> dict[str, str]:
    """An environment in which kpathsea and fontconfig see only `tree`."""
    bin_dir = next(tree.glob("bin/*"))
    return {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / "cache"),
        "TEXMFCNF": f"{tree}:{tree}/texmf-dist/web2c",
        "FONTCONFIG_FILE": str(tree / "fonts.conf"),
        "LANG": "C.UTF-8",
    }


def forbidden_reads(traces: Iterable[Path]) -> list[str]:
    bad = set()
    for path in opened_files(Path("/nonexistent"), traces):
        if path.startswith(FORBIDDEN_ROOTS):
            bad.add(path)
    return sorted(bad)


def verify(tree: Path, projects: Sequence[Path], work: Path, jobs: int = 1) -> list[str]:
    """Compile every project with only the tree; return problems (empty: fine)."""
    bin_dir = next(tree.glob("bin/*"))

    def check(project: Path) -> str | None:
        fresh = work / "verify" / project.name
        if fresh.exists():
            shutil.rmtree(fresh)
        shutil.copytree(project, fresh)
        for leftover in fresh.glob("main.*"):
            if leftover.suffix != ".tex":
                leftover.unlink()
        trace_dir = _empty_dir(work / "verify-traces" / project.name)
        # Its own HOME: the tree's fontconfig cache (cachedir prefix="xdg") is
        # built by this project's first pass alone, never by two at once.
        env = pruned_env(tree, work / "verify-home" / project.name)
        result = compile_project(fresh, bin_dir, env, trace_dir / "t")
        pdf = fresh / "main.pdf"
        if result.returncode != 0 or not pdf.is_file() or pdf.stat().st_size < 1000:
            return f"{project.name}: no PDF ({result.stdout[-1500:]}{result.stderr[-500:]})"
        bad = forbidden_reads(trace_dir.glob("t.*"))
        if bad:
            return f"{project.name}: read outside the tree: {bad[:10]}"
        return None

    return [p for p in parallel_map(check, projects, jobs) if p is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the pruned tree to create")
    parser.add_argument("--source", type=Path, default=None, help="a TeX Live/TinyTeX tree")
    parser.add_argument("--work", type=Path, default=None, help="keep intermediate files here")
    parser.add_argument("--no-verify", action="store_true")
    parser.add_argument("--report", type=Path, default=None, help="write sizes as JSON here")
    parser.add_argument(
        "--write-list", type=Path, default=None, help="save the tree-relative file list here"
    )
    parser.add_argument(
        "--from-list",
        type=Path,
        default=None,
        help="prune --source by a list saved on another OS (no recording, no strace)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        help="compile this many projects at once (default: the CPU count)",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.work is not None:
        return _run(args, args.work)
    work = Path(tempfile.mkdtemp(prefix="lw-prune-"))
    try:
        return _run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def record(project: Path, source: Source, work: Path) -> set[str]:
    """Compile `project` with the full TeX under strace; the files it read.

    Its own HOME and cache directory (fontconfig's user cache, kpathsea's
    TEXMFVAR): concurrent compiles write no cache together, and what one
    project reads does not depend on which project ran before it.
    """
    home = work / "full-home" / project.name
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    trace_dir = _empty_dir(work / "traces" / project.name)
    result = compile_project(project, source.bin_dir, env, trace_dir / "t")
    if result.returncode != 0:
        sys.exit(f"{project.name} does not compile with the full TeX:\n{result.stdout[-3000:]}")
    return opened_files(project, trace_dir.glob("t.*"))


def _run(args: argparse.Namespace, work: Path) -> int:
    source = Source.find(args.source)
    work.mkdir(parents=True, exist_ok=True)
    if args.from_list:
        # Same TeX Live year on every OS: the relative paths carry over.
        rel = [r for r in args.from_list.read_text(encoding="utf-8").splitlines() if r]
        files = {str(Path(root) / r[len(dest) + 1 :]) for r in rel for root, dest in source.roots
                 if r.startswith(dest + "/") and (Path(root) / r[len(dest) + 1 :]).is_file()}  # fmt: skip
        stats = assemble(args.out.resolve(), source, files)
        report = {"tree": str(args.out), **stats}
        if args.report:
            args.report.write_text(json.dumps(report), encoding="utf-8")
        print(json.dumps(report))
        return 0
    if shutil.which("strace") is None:
        sys.exit("strace is needed to record what TeX reads (apt-get install strace).")
    _say(f"strace {' '.join(strace_speedup()) or 'without --seccomp-bpf (an old strace)'}")
    _say(f"building the examples with {source.bin_dir}")
    projects = build_projects(work, source, args.jobs)
    _say(f"recording what {len(projects)} projects read ({args.jobs} at a time)")
    files = set()
    for read in parallel_map(lambda project: record(project, source, work), projects, args.jobs):
        files |= read
    _say(f"{len(files)} files read; assembling {args.out}")
    stats = assemble(args.out.resolve(), source, files)
    if args.write_list:
        listed = sorted(
            {r for f in files if (r := map_to_tree(f, source.roots)) and os.path.isfile(f)}
        )
        args.write_list.write_text("\n".join(listed) + "\n", encoding="utf-8")
    report: dict[str, object] = {"tree": str(args.out), **stats, "projects": len(projects)}
    if not args.no_verify:
        _say(f"verifying {len(projects)} projects with only the tree ({args.jobs} at a time)")
        problems = verify(args.out.resolve(), projects, work, args.jobs)
        report["verified"] = not problems
        for p in problems:
            _say(p)
        if problems:
            print(json.dumps(report))
            return 1
    _say(f"{stats['files']} files, {stats['bytes'] / 1e6:.1f} MB")
    if args.report:
        args.report.write_text(json.dumps(report), encoding="utf-8")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
