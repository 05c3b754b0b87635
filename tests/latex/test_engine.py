"""Engine resolution order: LABWRIGHT_TEX -> bundled tinytex/ -> PATH."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from labwright.latex.engine import resolve_engine

EXE = ".exe" if sys.platform == "win32" else ""


def _fake_bin(bin_dir: Path, tools: tuple[str, ...] = ("xelatex", "bibtex", "kpsewhich")) -> Path:
    """A TeX bin directory with executable files (the resolver only looks at files)."""
    bin_dir.mkdir(parents=True)
    for tool in tools:
        p = bin_dir / (tool + EXE)
        p.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        p.chmod(0o755)
    return bin_dir


@pytest.fixture
def no_tex_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-path"))
    monkeypatch.delenv("LABWRIGHT_TEX", raising=False)
    monkeypatch.setenv("LABWRIGHT_RESOURCES", str(tmp_path / "resources-without-tinytex"))


def test_env_var_pointing_at_a_texlive_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = _fake_bin(tmp_path / "texlive" / "bin" / "x86_64-linux")
    monkeypatch.setenv("LABWRIGHT_TEX", str(tmp_path / "texlive"))
    engine = resolve_engine()
    assert engine.source == "env"
    assert engine.xelatex == bin_dir / ("xelatex" + EXE)
    assert engine.bibtex == bin_dir / ("bibtex" + EXE)
    assert engine.bin_dir == bin_dir


def test_env_var_pointing_at_xelatex_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = _fake_bin(tmp_path / "bin", ("xelatex",))
    monkeypatch.setenv("LABWRIGHT_TEX", str(bin_dir / ("xelatex" + EXE)))
    engine = resolve_engine()
    assert engine.source == "env" and engine.xelatex == bin_dir / ("xelatex" + EXE)
    assert engine.bibtex is None  # absent tools are None, not guessed


def test_env_var_wins_over_bundle_and_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_bin(tmp_path / "res" / "tinytex" / "bin" / "x86_64-linux")
    env_bin = _fake_bin(tmp_path / "mine")
    monkeypatch.setenv("LABWRIGHT_RESOURCES", str(tmp_path / "res"))
    monkeypatch.setenv("LABWRIGHT_TEX", str(env_bin))
    assert resolve_engine().bin_dir == env_bin


def test_unusable_env_var_is_reported_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABWRIGHT_TEX", str(tmp_path / "does-not-exist"))
    engine = resolve_engine()
    assert engine.source == "env" and not engine.available


def test_bundled_tinytex_wins_over_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = _fake_bin(tmp_path / "res" / "tinytex" / "TinyTeX" / "bin" / "x86_64-linux")
    monkeypatch.delenv("LABWRIGHT_TEX", raising=False)
    monkeypatch.setenv("LABWRIGHT_RESOURCES", str(tmp_path / "res"))
    engine = resolve_engine()
    assert engine.source == "bundled" and engine.bin_dir == bin_dir


def test_empty_bundle_dir_falls_through_to_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "res" / "tinytex").mkdir(parents=True)  # manifest only, no tree
    path_bin = _fake_bin(tmp_path / "usr-bin")
    monkeypatch.delenv("LABWRIGHT_TEX", raising=False)
    monkeypatch.setenv("LABWRIGHT_RESOURCES", str(tmp_path / "res"))
    monkeypatch.setenv("PATH", str(path_bin))
    engine = resolve_engine()
    assert engine.source == "path" and engine.xelatex == path_bin / ("xelatex" + EXE)


@pytest.mark.usefixtures("no_tex_path")
def test_nothing_found() -> None:
    engine = resolve_engine()
    assert engine.source == "none" and not engine.available
    assert engine.xelatex is None and engine.bibtex is None


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_non_executable_file_is_not_an_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "xelatex").write_text("not a program", encoding="utf-8")
    monkeypatch.setenv("LABWRIGHT_TEX", str(bin_dir))
    assert not resolve_engine().available


def test_this_machine_resolves_a_real_engine() -> None:
    """Smoke: the checkout's default resolution finds a runnable XeLaTeX
    (CI installs one); skipped where none exists."""
    engine = resolve_engine()
    if not engine.available:
        pytest.skip("no XeLaTeX here")
    assert engine.xelatex is not None and os.access(engine.xelatex, os.X_OK)
