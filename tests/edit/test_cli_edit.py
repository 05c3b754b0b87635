"""`labwright edit SESSION "request"`: diff, confirm (or --yes), a new version in the store."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from labwright.cli import main
from labwright.store import Store
from tests.edit.docs import EN


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("LABWRIGHT_HOME", str(home))
    return home


def _seed(home: Path, tmp_path: Path) -> int:
    folder = tmp_path / "data"
    folder.mkdir()
    store = Store.open(home)
    try:
        sid = store.create_session(folder).id
        store.add_version(sid, EN, summary="first draft")
        return sid
    finally:
        store.close()


def _versions(home: Path, sid: int) -> list[str]:
    store = Store.open(home)
    try:
        return [store.get_version(v.id).content for v in store.list_versions(sid)]
    finally:
        store.close()


def test_yes_accepts_and_prints_the_diff(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = _seed(home, tmp_path)
    code = main(["edit", str(sid), "Rename section 2 to Theory.", "--yes", "--offline"])
    out = capsys.readouterr().out
    assert code == 0
    assert "-\\section{Principle}" not in out  # the diff is of the title text itself
    assert "-Principle" in out and "+Theory" in out and "Accepted as version 2." in out
    assert _versions(home, sid)[-1] == EN.replace("\\section{Principle}", "\\section{Theory}")


def test_declining_rejects_and_changes_nothing(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = _seed(home, tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    code = main(["edit", str(sid), "Remove Figure 1.", "--offline"])
    out = capsys.readouterr().out
    assert code == 1 and "Accept this change? [y/N]" in out and "Rejected" in out
    assert "-\\begin{figure}" in out
    assert _versions(home, sid) == [EN]


def test_confirming_with_y_accepts(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = _seed(home, tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["edit", str(sid), "把标题改为“单摆”", "--offline"]) == 0
    assert "\\title{单摆}" in _versions(home, sid)[-1]


def test_request_needing_a_model_offline_says_so(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = _seed(home, tmp_path)
    assert main(["edit", str(sid), "Make the discussion more specific.", "--offline"]) == 1
    assert "model" in capsys.readouterr().out


def test_unknown_session_is_bad_input(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(home, tmp_path)
    assert main(["edit", "99", "Shorten the abstract.", "--offline"]) == 2
    assert "no session 99" in capsys.readouterr().out
