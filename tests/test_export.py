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
from labwright.export import (
    LATEXMKRC,
    ExportError,
    check_exportable,
    export_overleaf_zip,
    members_of,
)
from labwright.latex.compile import COMPILE_RECORD
from labwright.latex.engine import resolve_engine
from tests.server.conftest import (  # noqa: F401 - the API fixtures, used by name
    auth,
    data_folder,
    make_client,
    memory_keyring,
    seed_world,
    token,
)

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
    # The numbers' appendix: the class reads it by name, main.tex never says it.
    assert "labwright-numbers.tex" in names
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


def _tiny_build(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}x\\end{document}\n", encoding="utf-8"
    )
    return root / "main.tex"


def test_the_compendium_goes_in_with_the_raw_files_own_names(tmp_path: Path) -> None:
    tex = _tiny_build(tmp_path / "build")
    data = tmp_path / "build" / "analysis" / "data"
    (data / "as-read").mkdir(parents=True)
    (tmp_path / "build" / "analysis" / "analysis.py").write_text("print(1)\n", encoding="utf-8")
    (data / "株高 第1组.csv").write_text("a\n1\n", encoding="utf-8")
    (data / "as-read" / "run.csv").write_text("a\n1\n", encoding="utf-8")
    names = zipfile.ZipFile(export_overleaf_zip(tex, tmp_path / "r.zip")).namelist()
    assert [n for n in names if n.startswith("analysis/")] == [
        "analysis/analysis.py",
        "analysis/data/as-read/run.csv",
        "analysis/data/株高 第1组.csv",
    ]


def test_a_build_without_a_compendium_has_no_analysis_members(build: Path) -> None:
    assert not [m for m in members_of(build) if m.arcname.startswith("analysis/")]


@pytest.mark.parametrize("bad", ["a\x01b.csv", "a:b.csv", " lead.csv", "back\\slash.csv"])
def test_a_raw_name_that_cannot_extract_everywhere_is_refused(tmp_path: Path, bad: str) -> None:
    tex = _tiny_build(tmp_path / "build")
    data = tmp_path / "build" / "analysis" / "data"
    data.mkdir(parents=True)
    (data / bad).write_text("a\n", encoding="utf-8")
    with pytest.raises(ExportError):
        export_overleaf_zip(tex, tmp_path / "r.zip")
    assert not (tmp_path / "r.zip").exists()


def test_a_symlink_in_the_compendium_is_refused(tmp_path: Path) -> None:
    tex = _tiny_build(tmp_path / "build")
    secret = tmp_path / "secret.csv"
    secret.write_text("SECRET\n", encoding="utf-8")
    (tmp_path / "build" / "analysis" / "data").mkdir(parents=True)
    os.symlink(secret, tmp_path / "build" / "analysis" / "data" / "x.csv")
    with pytest.raises(ExportError):
        export_overleaf_zip(tex, tmp_path / "r.zip")


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


# --- a build that overwrote its own inputs is never exported -------------------

needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="needs XeLaTeX")


@needs_tex
def test_a_build_that_overwrote_its_bib_is_refused_with_the_compilers_sentence(
    tmp_path: Path,
) -> None:
    from labwright.latex.compile import compile_source
    from labwright.latex.diagnose import humanize

    body = (
        "\\newwrite\\w\\immediate\\openout\\w=refs.bib \\immediate\\write\\w{evil}"
        "\\immediate\\closeout\\w done"
    )
    doc = f"\\documentclass{{article}}\\begin{{document}}{body}\\bibliography{{refs}}\\end{{document}}\n"
    result = compile_source(doc, files={"refs.bib": b"@misc{a, title={A}}\n"}, build_root=tmp_path)
    assert result.modified_inputs == ["refs.bib"] and result.pdf is not None
    said = [m for m in humanize(result.diagnostics) if "overwrote" in m]
    assert len(said) == 1  # the pipelines show humanize(); the warning is in it
    with pytest.raises(ExportError) as err:
        export_overleaf_zip(result.build_dir / "main.tex", tmp_path / "r.zip")
    assert str(err.value) == said[0]
    assert not (tmp_path / "r.zip").exists() and not list(tmp_path.glob("*.part"))


def test_no_record_means_nothing_was_compiled_and_export_goes_on(tmp_path: Path) -> None:
    check_exportable(tmp_path)


@pytest.mark.parametrize("record", ["{", "[]", '{"modified_inputs": "x"}', None])
def test_an_unreadable_record_refuses(tmp_path: Path, record: str | None) -> None:
    if record is None:
        (tmp_path / COMPILE_RECORD).mkdir()
    else:
        (tmp_path / COMPILE_RECORD).write_text(record, encoding="utf-8")
    with pytest.raises(ExportError, match="unreadable"):
        check_exportable(tmp_path)


def test_the_api_refuses_both_exports_and_shows_the_message(
    make_client: object,  # noqa: F811 - fixtures imported from tests.server.conftest
    auth: dict[str, str],  # noqa: F811
    data_folder: Path,  # noqa: F811
) -> None:
    import json

    from labwright.store.artifacts import run_dir

    app, client = make_client()  # type: ignore[operator]
    world = seed_world(app, data_folder)
    build = run_dir(app.state.ctx.data, world.session_id, world.run_id)
    base = f"/api/sessions/{world.session_id}/versions/1"
    message = "The document overwrote its own input files (refs.bib), so this build must not be exported or reused; regenerate the report."
    (build / COMPILE_RECORD).write_text(
        json.dumps({"status": "degraded", "modified_inputs": ["refs.bib"], "messages": [message]}),
        encoding="utf-8",
    )
    for what in ("pdf", "zip"):
        response = client.get(f"{base}/export/{what}", headers=auth)
        assert response.status_code == 409
        assert message in response.json()["detail"]
        assert not response.content.startswith((b"%PDF", b"PK"))
    (build / COMPILE_RECORD).write_text(
        json.dumps({"status": "clean", "modified_inputs": [], "messages": []}), encoding="utf-8"
    )
    assert client.get(f"{base}/export/pdf", headers=auth).status_code == 200
    assert client.get(f"{base}/export/zip", headers=auth).status_code == 200


def test_our_class_is_shipped_even_when_the_run_folder_has_no_copy(tmp_path: Path) -> None:
    """A model-backed run keeps main.tex, figures and the .bib in its folder
    (it compiles in builds/build-*): the zip still carries the class."""
    from labwright.latex.template import template_files

    (tmp_path / "main.tex").write_text(
        "\\documentclass[en]{labwright-report}\\begin{document}x\\end{document}\n",
        encoding="utf-8",
    )
    zpath = export_overleaf_zip(tmp_path / "main.tex", tmp_path / "r.zip")
    with zipfile.ZipFile(zpath) as zf:
        assert zf.namelist()[:2] == ["main.tex", "labwright-report.cls"]
        assert zf.read("labwright-report.cls") == template_files("en")[0].read_bytes()
