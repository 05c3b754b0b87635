"""config: where the per-user data directory is and what it contains."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import platformdirs
import pytest

from labwright import config


def test_labwright_home_overrides_platform_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(config.HOME_ENV, str(tmp_path / "home"))
    home = config.data_dir()
    assert home.root == (tmp_path / "home").resolve()
    assert home.db_path == home.root / "labwright.db"
    for sub in (home.sessions_dir, home.overlay_dir, home.logs_dir):
        assert sub.is_dir() and sub.parent == home.root
    assert {p.name for p in (home.sessions_dir, home.overlay_dir, home.logs_dir)} == {
        "sessions",
        "overlay",
        "logs",
    }


def test_explicit_directory_beats_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(config.HOME_ENV, str(tmp_path / "from-env"))
    home = config.data_dir(tmp_path / "from-shell")
    assert home.root == (tmp_path / "from-shell").resolve()
    assert not (tmp_path / "from-env").exists()


def test_platformdirs_used_without_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(config.HOME_ENV, raising=False)
    home = config.data_dir(create=False)  # never create the developer's real directory
    expected = Path(platformdirs.user_data_dir("Labwright", appauthor=False)).expanduser().resolve()
    assert home.root == expected
    assert home.root.name == "Labwright"


def test_blank_environment_value_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(config.HOME_ENV, "   ")
    assert config.data_dir(create=False).root == config.default_root().expanduser().resolve()


def test_relative_home_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.HOME_ENV, "rel-home")
    home = config.data_dir()
    assert home.root.is_absolute()
    assert home.root == (tmp_path / "rel-home").resolve()


def test_session_paths_layout(tmp_path: Path) -> None:
    home = config.data_dir(tmp_path)
    paths = home.session_paths(7, create=True)
    assert paths.root == home.sessions_dir / "7"
    assert [p.name for p in (paths.figures, paths.builds, paths.exports)] == [
        "figures",
        "builds",
        "exports",
    ]
    assert all(p.is_dir() for p in (paths.figures, paths.builds, paths.exports))


@pytest.mark.parametrize("bad", [0, -1, True, "1", "../x", 1.0, None])
def test_session_dir_rejects_anything_but_positive_int(tmp_path: Path, bad: object) -> None:
    home = config.data_dir(tmp_path)
    with pytest.raises(ValueError):
        home.session_dir(bad)  # type: ignore[arg-type]
    assert list(home.sessions_dir.iterdir()) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_new_root_is_private_existing_one_untouched(tmp_path: Path) -> None:
    fresh = config.data_dir(tmp_path / "a" / "fresh")
    assert stat.S_IMODE(fresh.root.stat().st_mode) == 0o700
    existing = tmp_path / "existing"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    config.data_dir(existing)
    assert stat.S_IMODE(existing.stat().st_mode) == 0o755
