"""`labwright build` / `doctor` from the command line: exit codes, outputs, read-only input."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from labwright.cli import COMMANDS, EXIT_BAD_INPUT, EXIT_OK, build_parser, main
from labwright.latex.engine import resolve_engine

needs_tex = pytest.mark.skipif(
    not resolve_engine().available, reason="needs XeLaTeX (see labwright doctor)"
)


def _hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_missing_path_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", str(tmp_path / "nowhere")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "does not exist" in err


def test_empty_folder_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / ".DS_Store").write_bytes(b"\0\0")  # junk does not count
    monkeypatch.chdir(tmp_path)
    assert main(["build", "empty"]) == EXIT_BAD_INPUT
    assert "empty" in capsys.readouterr().err
    assert not (tmp_path / "empty-report.pdf").exists()


def test_folder_without_readable_data_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "junk"
    folder.mkdir()
    (folder / "values.csv").write_bytes(os.urandom(4096))
    (folder / "notes.md").write_text("Aim: nothing to see.\n", encoding="utf-8")
    before = _hashes(folder)
    monkeypatch.chdir(tmp_path)
    assert main(["build", "junk"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    # One sentence that names the file and why, once (issue 21).
    assert err.count("values.csv") == 1 and "not a text file" in err
    assert _hashes(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk"]


def test_output_inside_the_input_folder_is_refused(tmp_path: Path, examples_dir: Path) -> None:
    folder = examples_dir / "pendulum"
    before = _listing(folder)
    assert main(["build", str(folder), "-o", str(folder / "r.pdf")]) == EXIT_BAD_INPUT
    assert main(["build", str(folder), "--zip", str(folder / "r.zip")]) == EXIT_BAD_INPUT
    assert _listing(folder) == before


def test_unknown_language_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["build", str(tmp_path), "--lang", "fr"])
    assert exc.value.code == 2


def test_subcommands_are_registered_in_one_table() -> None:
    assert {"build", "doctor"} <= set(COMMANDS)
    help_text = build_parser().format_help()
    assert "build" in help_text and "doctor" in help_text
    assert "_plot-worker" not in help_text


@needs_tex
@pytest.mark.smoke
def test_build_writes_pdf_and_provenance_in_cwd_and_leaves_input_untouched(
    tmp_path: Path,
    examples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = examples_dir / "pendulum"
    before = _hashes(folder)
    listing = _listing(folder)
    monkeypatch.chdir(tmp_path)
    assert main(["build", str(folder)]) == EXIT_OK
    assert (tmp_path / "pendulum-report.pdf").read_bytes()[:5] == b"%PDF-"
    assert (tmp_path / "pendulum-report.provenance.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "pendulum-report.pdf",
        "pendulum-report.provenance.json",
    ]
    assert _hashes(folder) == before and _listing(folder) == listing
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("[")]
    assert lines[0] == "[1/5] Reading the folder"  # plain lines, total known up front
    assert lines[-1].startswith("[5/5]")


@needs_tex
@pytest.mark.smoke
def test_console_entry_point_builds_with_zip(tmp_path: Path, examples_dir: Path) -> None:
    """The real process, as scripts/demo.sh runs it."""
    folder = examples_dir / "rc-discharge"
    before = _hashes(folder)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "labwright",
            "build",
            str(folder),
            "-o",
            "out/rc.pdf",
            "--zip",
            "rc.zip",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == EXIT_OK, proc.stderr
    assert (tmp_path / "out" / "rc.pdf").is_file() and (tmp_path / "rc.zip").is_file()
    assert "[6/6] Writing the Overleaf zip" in proc.stderr
    assert _hashes(folder) == before


def test_doctor_quick_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", "--quick"])
    out = capsys.readouterr().out
    assert "TeX engine" in out
    assert code == (EXIT_OK if resolve_engine().available and "!!" not in out else 1)


def test_without_tex_the_zip_is_still_written_and_the_exit_code_is_one(
    tmp_path: Path,
    examples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No TeX on the machine: the Overleaf zip is the way out; no PDF is claimed."""
    monkeypatch.setenv("LABWRIGHT_TEX", str(tmp_path / "no-tex-here"))
    monkeypatch.chdir(tmp_path)
    code = main(["build", str(examples_dir / "pendulum"), "--zip", "p.zip"])
    err = capsys.readouterr().err
    assert code == 1
    assert (tmp_path / "p.zip").is_file() and not (tmp_path / "pendulum-report.pdf").exists()
    assert "No PDF was produced." in err and "labwright doctor" in err


def test_progress_rewrites_one_line_on_a_terminal_and_prints_lines_otherwise() -> None:
    import io

    from labwright.cli import _Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    p = _Progress(lambda: 3, tty)
    p.milestone("Reading the folder")
    p.milestone("Drawing figures")
    p.note("  warning: x")
    p.milestone("Compiling the PDF")
    p.finish()
    text = tty.getvalue()
    assert text.count("\r\033[K") == 3 and "[3/3] Compiling the PDF\n" in text
    assert "[2/3] Drawing figures\n  warning: x\n" in text

    plain = io.StringIO()
    q = _Progress(lambda: 2, plain)
    q.milestone("a")
    q.milestone("b")
    q.finish()
    assert plain.getvalue() == "[1/2] a\n[2/2] b\n"


def test_doctor_reports_the_sandbox(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main(["doctor", "--quick"])
    assert "Sandbox for model-written figures" in capsys.readouterr().out
    monkeypatch.setattr("labwright.sandbox.confinement_available", lambda: (False, "no Landlock"))
    main(["doctor", "--quick"])
    out = capsys.readouterr().out
    assert "Sandbox unavailable (no Landlock)" in out and "offline figures still work" in out


@pytest.mark.skipif(not resolve_engine().available, reason="XeLaTeX is not installed")
def test_fast_exit_after_a_build_still_runs_exit_handlers(
    tmp_path: Path, examples_dir: Path
) -> None:
    """`entry` skips the interpreter's teardown after a build, but not atexit:
    temporary directories registered there (the TeX launcher's) are removed."""
    import os
    import subprocess
    import sys

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "labwright",
            "build",
            str(examples_dir / "pendulum"),
            "-o",
            str(tmp_path / "r.pdf"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert (tmp_path / "r.pdf").stat().st_size > 0
    assert "Report:" in done.stderr  # output flushed before the fast exit
    assert list(tmp.iterdir()) == []
