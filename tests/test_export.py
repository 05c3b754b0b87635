"""The Overleaf zip: only our files, names we generate, and it compiles with latexmk as it is."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline
from labwright.export import LATEXMKRC, ExportError, export_overleaf_zip, members_of
from labwright.latex.engine import resolve_engine

needs_latexmk = pytest.mark.skipif(
    not resolve_engine().available or shutil.which("latexmk") is None,
    reason="needs XeLaTeX and latexmk (see labwright doctor)",
)


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Chinese example, built without compiling: the zip must stand on its own."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    out = tmp_path_factory.mktemp("export-build")
    events = list(build_offline(examples / "spectrum", out, tex_available=False))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path
    return Path(done.tex_path)


def test_zip_holds_exactly_the_document_and_its_inputs(build: Path, tmp_path: Path) -> None:
    zpath = export_overleaf_zip(build, tmp_path / "r.zip")
    with zipfile.ZipFile(zpath) as zf:
        names = zf.namelist()
        assert zf.read("latexmkrc").decode() == LATEXMKRC
    assert names[0] == "main.tex" and "labwright-report.cls" in names and "latexmkrc" in names
    figures = [n for n in names if n.startswith("figures/")]
    assert figures == sorted(figures) and len(figures) == 3
    assert "provenance.json" not in names and not any(n.endswith((".log", ".aux")) for n in names)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_zip_is_deterministic(build: Path, tmp_path: Path) -> None:
    a = export_overleaf_zip(build, tmp_path / "a.zip").read_bytes()
    b = export_overleaf_zip(build, tmp_path / "b.zip").read_bytes()
    assert a == b


def test_symlinked_figure_is_refused_and_no_zip_is_written(tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\nSECRET")
    build = tmp_path / "build"
    (build / "figures").mkdir(parents=True)
    (build / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\\includegraphics{figures/fig01.png}\\end{document}\n",
        encoding="utf-8",
    )
    os.symlink(secret, build / "figures" / "fig01.png")
    with pytest.raises(ExportError):
        export_overleaf_zip(build / "main.tex", tmp_path / "r.zip")
    assert not (tmp_path / "r.zip").exists()
    assert not (tmp_path / "r.zip.part").exists()


def test_symlinked_directory_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "fig01.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    build = tmp_path / "build"
    build.mkdir()
    os.symlink(elsewhere, build / "figures")
    (build / "main.tex").write_text("\\includegraphics{figures/fig01.png}\n", encoding="utf-8")
    with pytest.raises(ExportError):
        members_of(build / "main.tex")


@pytest.mark.parametrize(
    "name", ["../outside.png", "/etc/passwd", "figures/a b.png", ".hidden.png"]
)
def test_names_we_do_not_generate_are_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / "main.tex").write_text(f"\\includegraphics{{{name}}}\n", encoding="utf-8")
    with pytest.raises(ExportError):
        export_overleaf_zip(tmp_path / "main.tex", tmp_path / "r.zip")
    assert not (tmp_path / "r.zip").exists()


@needs_latexmk
@pytest.mark.smoke
def test_unpacked_zip_compiles_with_latexmk_in_an_empty_dir(build: Path, tmp_path: Path) -> None:
    zpath = export_overleaf_zip(build, tmp_path / "report.zip")
    work = tmp_path / "overleaf"
    work.mkdir()
    with zipfile.ZipFile(zpath) as zf:
        zf.extractall(work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXINPUTS", "TEXMF"))}
    proc = subprocess.run(
        ["latexmk", "-interaction=nonstopmode", "-halt-on-error"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (work / "main.pdf").read_bytes()[:5] == b"%PDF-"
    log = (work / "main.log").read_text(encoding="utf-8", errors="replace")
    assert "! " not in log and "XeTeX" in log
