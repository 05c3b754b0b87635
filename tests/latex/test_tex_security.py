"""A document must not read outside its build directory, write outside it,
or run a command -- with the sanitizer and, more importantly, without it
(the engine's environment alone must hold). Each test asserts the effect did
not happen: no marker file, no byte of the secret in the PDF text or the log."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labwright.latex.compile import CompileResult, compile_source
from labwright.latex.engine import TexEngine
from tests.latex.conftest import minimal_doc, pdf_bytes, pdf_text

PASSWD = Path("/etc/passwd")


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every build directory with a recognisable content."""
    path = tmp_path / "secret.txt"
    path.write_text("TOPSECRET-7f3a9c\n", encoding="utf-8")
    return path


def _compile(tmp_path: Path, engine: TexEngine, body: str, sanitize: bool) -> CompileResult:
    return compile_source(
        minimal_doc(body),
        build_root=tmp_path / "builds",
        apply_sanitizer=sanitize,
        engine=engine,
        max_passes=1,
        wall_budget_s=120,
    )


def _all_text(result: CompileResult) -> str:
    """Log, PDF text layer and every (decompressed) PDF stream."""
    text = result.log_text
    if result.pdf is not None:
        text += pdf_text(result.pdf)
        text += pdf_bytes(result.pdf).decode("latin-1")
    return text


def _assert_no_marker_anywhere(result: CompileResult, marker: bytes) -> None:
    """No file the build left behind (a PDF on disk even when not handed out,
    its decompressed streams) holds the marker."""
    for path in result.build_dir.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if path.suffix == ".pdf" and data:
                data += pdf_bytes(path)
            assert marker not in data, path


def _passwd_leaks(text: str) -> bool:
    lines = [
        ln for ln in PASSWD.read_text(encoding="utf-8", errors="replace").splitlines() if ":" in ln
    ]
    # Any full line of /etc/passwd (e.g. "root:x:0:0:root:/root:/bin/bash").
    return any(ln in text for ln in lines[:5]) or "root:x:0:0" in text


both = pytest.mark.parametrize("sanitize", [False, True], ids=["raw", "sanitized"])


@pytest.mark.skipif(not PASSWD.is_file(), reason="no /etc/passwd on this OS")
@both
def test_input_etc_passwd_is_not_read(
    tmp_path: Path, tex_engine: TexEngine, sanitize: bool
) -> None:
    body = "\\IfFileExists{/etc/passwd}{\\input{/etc/passwd}}{NOTREAD}"
    result = _compile(tmp_path, tex_engine, body, sanitize)
    assert result.pdf is not None
    text = _all_text(result)
    assert "NOTREAD" in pdf_text(result.pdf)
    assert not _passwd_leaks(text)


@pytest.mark.skipif(not PASSWD.is_file(), reason="no /etc/passwd on this OS")
@both
def test_plain_input_of_etc_passwd_fails_without_leaking(
    tmp_path: Path, tex_engine: TexEngine, sanitize: bool
) -> None:
    result = _compile(tmp_path, tex_engine, "before \\input{/etc/passwd} after", sanitize)
    assert not _passwd_leaks(_all_text(result))
    assert result.status != "clean"


@both
def test_openin_absolute_and_parent_paths_are_refused(
    tmp_path: Path, tex_engine: TexEngine, secret: Path, sanitize: bool
) -> None:
    # The build dir is tmp/builds/build-*, so ../../secret.txt is the secret too.
    body = (
        "\\newread\\r\n"
        f"\\openin\\r={secret.as_posix()} \\ifeof\\r ABSNOPEN\\else\\read\\r to\\x LEAK\\x\\fi\\closein\\r\n"
        "\\openin\\r=../../secret.txt \\ifeof\\r RELNOPEN\\else\\read\\r to\\y LEAK\\y\\fi\\closein\\r\n"
    )
    result = _compile(tmp_path, tex_engine, body, sanitize)
    assert result.pdf is not None
    shown = pdf_text(result.pdf)
    assert "ABSNOPEN" in shown and "RELNOPEN" in shown
    assert "TOPSECRET" not in _all_text(result)


@both
def test_openout_outside_build_dir_writes_nothing(
    tmp_path: Path, tex_engine: TexEngine, sanitize: bool
) -> None:
    outside = tmp_path / "abs-escape.txt"
    body = (
        "\\newwrite\\w\n"
        "\\immediate\\openout\\w=../escape.txt \\immediate\\write\\w{pwned}\\immediate\\closeout\\w\n"
        f"\\immediate\\openout\\w={outside.as_posix()} \\immediate\\write\\w{{pwned}}\\immediate\\closeout\\w\n"
        "done"
    )
    result = _compile(tmp_path, tex_engine, body, sanitize)
    assert not (tmp_path / "builds" / "escape.txt").exists()
    assert not (tmp_path / "escape.txt").exists()
    assert not outside.exists()
    # Nothing at all appeared beside the build directory.
    assert sorted(p.name for p in (tmp_path / "builds").iterdir()) == [result.build_dir.name]


@both
def test_write18_runs_nothing(tmp_path: Path, tex_engine: TexEngine, sanitize: bool) -> None:
    marker = tmp_path / "marker"
    body = (
        f"\\immediate\\write18{{touch {marker.as_posix()}}}\n"
        "\\immediate\\write18{touch local-marker}\n"
        f"\\write18{{touch {marker.as_posix()}}}\n"
        "text"
    )
    result = _compile(tmp_path, tex_engine, body, sanitize)
    assert result.pdf is not None
    assert not marker.exists()
    assert not (result.build_dir / "local-marker").exists()
    if sanitize:
        assert any(c.rule == "exec-primitive" for c in result.sanitized)


@both
def test_piped_input_runs_nothing(tmp_path: Path, tex_engine: TexEngine, sanitize: bool) -> None:
    marker = tmp_path / "pipe-marker"
    body = f'\\input{{|"touch {marker.as_posix()}"}}\n\\input|"touch {marker.as_posix()}" \ntext'
    result = _compile(tmp_path, tex_engine, body, sanitize)
    assert not marker.exists()
    if sanitize:
        assert result.pdf is not None


@both
def test_catcode_disguised_write18_runs_nothing(
    tmp_path: Path, tex_engine: TexEngine, sanitize: bool
) -> None:
    marker = tmp_path / "catcode-marker"
    body = f"{{\\catcode`\\|=0 |immediate|write18{{touch {marker.as_posix()}}}}}\n^^5cimmediate^^5cwrite18{{touch {marker.as_posix()}}}\ntext"
    _compile(tmp_path, tex_engine, body, sanitize)
    assert not marker.exists()


@pytest.mark.skipif(not PASSWD.is_file(), reason="no /etc/passwd on this OS")
def test_permissive_parent_environment_does_not_widen_access(
    tmp_path: Path, tex_engine: TexEngine, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings in the caller's environment that would open the door
    (TEXMFOUTPUT=/, openin_any=a, shell_escape=t, TEXINPUTS) never reach the child."""
    marker = tmp_path / "env-marker"
    monkeypatch.setenv("TEXMFOUTPUT", "/")
    monkeypatch.setenv("openin_any", "a")
    monkeypatch.setenv("openout_any", "a")
    monkeypatch.setenv("shell_escape", "t")
    monkeypatch.setenv("TEXINPUTS", f"{secret.parent}{os.pathsep}")
    body = (
        "\\IfFileExists{/etc/passwd}{\\input{/etc/passwd}}{NOTREAD}\n"
        "\\IfFileExists{secret.txt}{\\input{secret.txt}}{NOSECRET}\n"
        f"\\immediate\\write18{{touch {marker.as_posix()}}}\n"
    )
    result = _compile(tmp_path, tex_engine, body, sanitize=False)
    assert result.pdf is not None
    text = _all_text(result)
    assert "NOTREAD" in text and "NOSECRET" in text
    assert "TOPSECRET" not in text and not _passwd_leaks(text)
    assert not marker.exists()


# --- output-driver reads: kpathsea does not see them --------------------------
#
# xdvipdfmx opens files named in \\special{pdf:fstream ...} and pictures
# (`pdf:image`) without kpathsea's openin_any check: measured on TeX Live
# 2022, an unguarded document embeds /etc/passwd into the PDF this way. Three
# layers stop it: the sanitizer strips the primitives, compile's driver gate
# reads the .xdv and refuses to run the driver, and (where available) OS
# confinement. The raw tests below do not depend on the last one.


def _fstream_body(secret: Path) -> str:
    return (
        f"X\\special{{pdf:fstream @leak ({secret.as_posix()})}}"
        "\\special{pdf:put @catalog << /Leak @leak >>}Y"
    )


def _image_body(image: Path) -> str:
    return f'A\\XeTeXpicfile "{image.as_posix()}" B\\includegraphics{{{image.as_posix()}}}C'


def _secret_image(tmp_path: Path) -> Path:
    from PIL import Image

    path = tmp_path / "private.png"
    Image.new("RGB", (8, 8), (255, 0, 0)).save(path)
    return path


def _image_count(pdf: Path) -> int:
    from pypdf import PdfReader

    return sum(len(page.images) for page in PdfReader(pdf).pages)


def test_special_fstream_is_stripped(tmp_path: Path, tex_engine: TexEngine, secret: Path) -> None:
    result = _compile(tmp_path, tex_engine, _fstream_body(secret), sanitize=True)
    assert result.pdf is not None
    assert "TOPSECRET" not in _all_text(result)
    assert any(c.rule == "file-primitive" for c in result.sanitized)


def test_special_fstream_raw_is_stopped_by_the_driver_gate(
    tmp_path: Path, tex_engine: TexEngine, secret: Path
) -> None:
    result = _compile(tmp_path, tex_engine, _fstream_body(secret), sanitize=False)
    assert "TOPSECRET" not in _all_text(result)
    assert [b[:11] for b in result.diagnostics.blocked_reads] == ["pdf:fstream", "pdf:put @ca"]
    assert result.pdf is None and result.status == "failed" and result.driver is None
    assert any("does not allow" in m for m in result.messages())


@both
def test_obfuscated_special_is_caught_by_the_sanitizer_and_by_the_gate(
    tmp_path: Path, tex_engine: TexEngine, secret: Path, sanitize: bool
) -> None:
    """`\\csname sp\\empty ecial\\endcsname` spells \\special only after expansion.
    The sanitizer removes a built \\csname (the early, friendly error); raw,
    the bytes in the .xdv are what the gate refuses."""
    body = (
        f"X\\csname sp\\empty ecial\\endcsname{{pdf:fstream @leak (\\string\\/{secret.as_posix()[1:]})}}"
        "\\csname sp\\empty ecial\\endcsname{pdf:put @catalog << /Leak @leak >>}Y"
    )
    result = _compile(tmp_path, tex_engine, body, sanitize=sanitize)
    assert "TOPSECRET" not in _all_text(result)
    _assert_no_marker_anywhere(result, b"TOPSECRET")
    if sanitize:
        assert result.diagnostics.removed_commands == 2 and not result.diagnostics.blocked_reads
    else:
        assert result.diagnostics.blocked_reads and result.pdf is None


def test_image_outside_build_dir_is_not_embedded(tmp_path: Path, tex_engine: TexEngine) -> None:
    image = _secret_image(tmp_path)
    doc = minimal_doc(_image_body(image), "\\usepackage{graphicx}")
    result = compile_source(doc, build_root=tmp_path / "builds", engine=tex_engine, max_passes=1)
    assert result.pdf is not None
    assert _image_count(result.pdf) == 0
    assert result.diagnostics.missing_figures == [image.as_posix()]


def test_image_outside_build_dir_raw_is_stopped_by_the_driver_gate(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    image = _secret_image(tmp_path)
    doc = minimal_doc(_image_body(image), "\\usepackage{graphicx}")
    result = compile_source(
        doc, build_root=tmp_path / "builds", engine=tex_engine, max_passes=1, apply_sanitizer=False
    )
    assert result.pdf is None
    assert image.as_posix() in result.diagnostics.blocked_reads


def test_images_inside_the_build_dir_are_embedded(tmp_path: Path, tex_engine: TexEngine) -> None:
    """Control for the gate: a figure in the build directory goes through."""
    from PIL import Image

    fig = tmp_path / "fig.png"
    Image.new("RGB", (8, 8), (0, 0, 255)).save(fig)
    doc = minimal_doc("A\\includegraphics{figures/fig.png}B", "\\usepackage{graphicx}")
    result = compile_source(
        doc, files={"figures/fig.png": fig}, build_root=tmp_path / "b", engine=tex_engine
    )
    assert result.status == "clean" and result.pdf is not None
    assert _image_count(result.pdf) == 1
    assert result.driver is not None and result.driver.returncode == 0


def test_overwriting_an_input_file_is_flagged(tmp_path: Path, tex_engine: TexEngine) -> None:
    """Paranoid mode allows writes inside the build dir; a document that
    rewrites its class or .bib (which an export would ship) must not pass as clean."""
    body = "\\newwrite\\w\\immediate\\openout\\w=refs.bib \\immediate\\write\\w{evil}\\immediate\\closeout\\w done"
    result = compile_source(
        minimal_doc(body),
        files={"refs.bib": b"@misc{a, title={A}}\n", "figs/a.txt": b"untouched"},
        build_root=tmp_path,
        engine=tex_engine,
    )
    assert result.pdf is not None and result.ok
    assert result.modified_inputs == ["refs.bib"]
    assert result.status == "degraded"
    assert any("overwrote its own input files" in m for m in result.messages())


def test_sanitizer_removals_are_told_to_the_user(tmp_path: Path, tex_engine: TexEngine) -> None:
    result = _compile(tmp_path, tex_engine, "\\immediate\\write18{ls} text", sanitize=True)
    assert result.status == "clean" and result.modified_inputs == []
    messages = result.messages()
    assert len(messages) == 1 and "removed before compiling" in messages[0]
