"""knowledge/ is found the same way from a checkout and from a frozen bundle."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from labwright.resources import knowledge_path, resource_root


def test_checkout_finds_the_repository_knowledge(
    repo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LABWRIGHT_RESOURCES", raising=False)
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    assert resource_root() == repo_root
    assert knowledge_path("templates", "report_en.tex").is_file()


def test_frozen_bundle_uses_meipass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyInstaller unpacks data next to the executable and sets sys._MEIPASS."""
    monkeypatch.delenv("LABWRIGHT_RESOURCES", raising=False)
    (tmp_path / "knowledge" / "templates").mkdir(parents=True)
    (tmp_path / "knowledge" / "templates" / "report_en.tex").write_text(
        "% bundled", encoding="utf-8"
    )
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resource_root() == tmp_path
    assert knowledge_path("templates", "report_en.tex").read_text(encoding="utf-8") == "% bundled"


def test_environment_override_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "_MEIPASS", "/nonexistent", raising=False)
    monkeypatch.setenv("LABWRIGHT_RESOURCES", str(tmp_path))
    assert resource_root() == tmp_path
