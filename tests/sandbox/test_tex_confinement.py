"""XeTeX under the sandbox: outside reads, outside writes and commands fail,
while normal documents still compile.

Each attack runs twice: once as a plain process (the control: the effect
*happens*, so the check is live) and once through `latex.compile._spawn_tex`,
which now confines TeX. The attacks also weaken kpathsea's settings
(openin_any/openout_any=a, shell escape on) so that only the OS layer stands
in the way; `\\includegraphics{/abs/path}` needs no weakening at all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.errors import PdfStreamError

from labwright.sandbox import confinement_available

pytestmark = [
    pytest.mark.smoke,
    pytest.mark.skipif(shutil.which("xelatex") is None, reason="XeLaTeX is not installed"),
    pytest.mark.skipif(not confinement_available()[0], reason="no OS confinement here"),
]

CANARY = "TEXSECRETCANARY"


@pytest.fixture
def engine():  # type: ignore[no-untyped-def]
    from labwright.latex.engine import resolve_engine

    eng = resolve_engine()
    if eng.xelatex is None:
        pytest.skip("no XeLaTeX engine resolved")
    return eng


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    d = tmp_path / "outside"
    d.mkdir()
    Image.new("RGB", (32, 32), (200, 20, 40)).save(d / "secret.png")
    (d / "secret.tex").write_text(CANARY + "\n", encoding="utf-8")
    return d


def _doc(body: str) -> str:
    return (
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        f"Start.\n{body}\nEnd.\n\\end{{document}}\n"
    )


def _run(engine, build: Path, body: str, *, confined: bool | str, weaken: bool):  # type: ignore[no-untyped-def]
    from labwright.latex.compile import _spawn_tex, _xelatex_argv, paranoid_env

    build.mkdir(parents=True, exist_ok=True)
    (build / "doc.tex").write_text(_doc(body), encoding="utf-8")
    env = paranoid_env(engine)
    argv = _xelatex_argv(engine, "doc.tex")
    if weaken:
        env.update(openin_any="a", openout_any="a", shell_escape="t")
        argv = [argv[0], "-shell-escape", *argv[2:]]
    if confined == "held":  # started ahead, let go later (texrun.HeldTex)
        from labwright.latex.texrun import HeldTex

        HeldTex(argv, build, env).run(180)
    elif confined:
        _spawn_tex(argv, build, env, 180)
    else:
        subprocess.run(
            argv, cwd=build, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=180
        )
    pdf = build / "doc.pdf"
    return pdf if pdf.exists() else None


def _images(pdf: Path | None) -> int:
    """Images embedded in the PDF; a PDF the driver left truncated (it stops
    at the image it may not read) holds none."""
    if pdf is None:
        return 0
    try:
        return sum(len(page.images) for page in PdfReader(pdf).pages)
    except PdfStreamError:
        return 0


def _fonts(pdf: Path) -> str:
    names = []
    for page in PdfReader(pdf).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        names += [str(f.get_object().get("/BaseFont")) for f in fonts.values()]
    return " ".join(names)


def _text(pdf: Path | None) -> str:
    if pdf is None:
        return ""
    return "".join(page.extract_text() or "" for page in PdfReader(pdf).pages)


@pytest.mark.parametrize("confined", [False, True, "held"], ids=["control", "confined", "held"])
def test_includegraphics_absolute_path(
    engine, outside: Path, tmp_path: Path, confined: bool
) -> None:  # type: ignore[no-untyped-def]
    body = f"\\includegraphics{{{(outside / 'secret.png').as_posix()}}}"
    pdf = _run(engine, tmp_path / "b", body, confined=confined, weaken=False)
    assert _images(pdf) == (0 if confined else 1)


@pytest.mark.parametrize("confined", [False, True, "held"], ids=["control", "confined", "held"])
def test_input_absolute_text_file(engine, outside: Path, tmp_path: Path, confined: bool) -> None:  # type: ignore[no-untyped-def]
    body = f"\\input{{{(outside / 'secret.tex').as_posix()}}}"
    pdf = _run(engine, tmp_path / "b", body, confined=confined, weaken=True)
    assert (CANARY in _text(pdf)) is (not confined)
    assert not any(
        CANARY in p.read_text("latin-1")
        for p in (tmp_path / "b").iterdir()
        if confined and p.suffix != ".tex"
    )


@pytest.mark.parametrize("confined", [False, True, "held"], ids=["control", "confined", "held"])
def test_write_outside_build_dir(engine, outside: Path, tmp_path: Path, confined: bool) -> None:  # type: ignore[no-untyped-def]
    target = (outside / "written.txt").as_posix()
    body = f"\\immediate\\openout5={target}\\immediate\\write5{{x}}\\immediate\\closeout5"
    _run(engine, tmp_path / "b", body, confined=confined, weaken=True)
    assert (outside / "written.txt").exists() is (not confined)


@pytest.mark.parametrize("confined", [False, True, "held"], ids=["control", "confined", "held"])
def test_running_a_command(engine, tmp_path: Path, confined: bool) -> None:  # type: ignore[no-untyped-def]
    # The marker would land inside the build dir (writable): only the exec
    # restriction can stop it.
    body = "\\immediate\\write18{touch cmd_marker}"
    _run(engine, tmp_path / "b", body, confined=confined, weaken=True)
    assert (tmp_path / "b" / "cmd_marker").exists() is (not confined)


def test_normal_documents_still_compile(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A figure from the build dir, maths, and Chinese text through ctex/Fandol,
    through the real compile pipeline (which now confines every pass)."""
    from labwright.latex.compile import compile_source

    png = tmp_path / "fig.png"
    Image.new("RGB", (64, 48), (10, 120, 200)).save(png)
    doc = (
        "\\documentclass{ctexart}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "实验报告 $E = mc^2$\n\n\\includegraphics[width=3cm]{fig.png}\n\\end{document}\n"
    )
    result = compile_source(
        doc, files={"fig.png": png}, build_root=tmp_path / "builds", engine=engine
    )
    assert result.pdf is not None, result.log_text[-2000:]
    assert result.status == "clean", result.log_text[-2000:]
    assert _images(result.pdf) == 1
    assert "Fandol" in _fonts(result.pdf)  # the CJK font was read from the TeX tree


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_tex_program_dies_with_a_killed_backend(tmp_path: Path) -> None:
    """XeLaTeX waiting to open a named pipe that a killed backend would have
    written (a streamed main.tex): the launcher's death signal ends it."""
    import signal
    import subprocess
    import textwrap
    import time

    from labwright.latex.engine import resolve_engine

    engine = resolve_engine()
    if engine.xelatex is None:
        pytest.skip("needs XeLaTeX")
    os.mkfifo(tmp_path / "main.tex")
    backend = textwrap.dedent(
        f"""
        import threading, time
        from pathlib import Path
        from labwright.latex.texrun import spawn_tex
        args = ([{str(engine.xelatex)!r}, "-no-parse-first-line", "-interaction=nonstopmode",
                 "main.tex"], Path({str(tmp_path)!r}), {{"PATH": "/usr/bin:/bin"}}, 300.0)
        threading.Thread(target=spawn_tex, args=args, daemon=True).start()
        time.sleep(300)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", backend])
    deadline = time.monotonic() + 30
    tex = []
    while time.monotonic() < deadline and not tex:
        time.sleep(0.1)
        tex = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _cwd_is(p, tmp_path)]
    assert tex, "XeLaTeX never started"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_cwd_is(p, tmp_path) for p in tex):
        time.sleep(0.1)
    assert not any(_cwd_is(p, tmp_path) for p in tex), "XeLaTeX outlived its killed backend"


def _cwd_is(proc_dir: Path, folder: Path) -> bool:
    try:
        return os.readlink(proc_dir / "cwd") == str(folder.resolve())
    except OSError:
        return False


def _held_doc(engine, build: Path):  # type: ignore[no-untyped-def]
    from labwright.latex.compile import _xelatex_argv, paranoid_env
    from labwright.latex.texrun import HeldTex

    build.mkdir(parents=True, exist_ok=True)
    (build / "doc.tex").write_text(_doc("Held."), encoding="utf-8")
    return HeldTex(_xelatex_argv(engine, "doc.tex"), build, paranoid_env(engine))


def _launchers_in(folder: Path) -> list[Path]:
    return [p for p in Path("/proc").iterdir() if p.name.isdigit() and _cwd_is(p, folder)]


def test_a_held_program_runs_only_when_let_go(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The launcher starts (and confines itself) at once; TeX runs on `run`."""
    import time

    build = tmp_path / "b"
    held = _held_doc(engine, build)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not _launchers_in(build):
        time.sleep(0.05)
    assert _launchers_in(build), "the launcher was not started ahead"
    time.sleep(0.5)
    assert not (build / "doc.log").exists()  # nothing of TeX ran yet
    result = held.run(180)
    assert result.returncode == 0, result.output[-2000:]
    assert "Held." in _text(build / "doc.pdf")


def test_a_cancelled_held_program_never_runs(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    build = tmp_path / "b"
    held = _held_doc(engine, build)
    held.cancel()
    assert not _launchers_in(build)
    assert not (build / "doc.log").exists() and not (build / "doc.pdf").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_held_launcher_dies_with_a_killed_backend_and_runs_nothing(
    engine, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    import signal
    import textwrap
    import time

    build = tmp_path / "b"
    build.mkdir()
    (build / "doc.tex").write_text(_doc("Held."), encoding="utf-8")
    backend = textwrap.dedent(
        f"""
        import time
        from pathlib import Path
        from labwright.latex.texrun import HeldTex
        held = HeldTex([{str(engine.xelatex)!r}, "-interaction=nonstopmode", "doc.tex"],
                       Path({str(build)!r}), {{"PATH": "/usr/bin:/bin"}})
        time.sleep(300)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", backend])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not _launchers_in(build):
        time.sleep(0.05)
    assert _launchers_in(build), "the launcher was not started"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _launchers_in(build):
        time.sleep(0.05)
    assert not _launchers_in(build), "the held launcher outlived its killed backend"
    assert not (build / "doc.log").exists()
