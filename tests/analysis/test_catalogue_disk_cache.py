"""The parsed built-in catalogue kept on disk between processes
(analysis/catalogue/disk_cache.py): the same catalogue as a parse, a new key
for any changed file, and a file that is not ours is parsed over, never run."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from labwright.analysis.catalogue import disk_cache
from labwright.analysis.catalogue import load as catalogue_load
from labwright.analysis.catalogue.load import _files, builtin_dir, load_files


def _builtin_copy(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "models"
    shutil.copytree(builtin_dir(), folder)
    return _files(folder)


def test_a_cached_catalogue_equals_the_parsed_one(tmp_path: Path) -> None:
    builtin = _files(builtin_dir())
    cache = tmp_path / "cache"
    parsed = load_files(builtin, {}, check_builtin=False)
    first = load_files(builtin, {}, check_builtin=False, cache_dir=cache)  # writes
    assert len(list(cache.glob("*.pickle"))) == 1
    second = load_files(builtin, {}, check_builtin=False, cache_dir=cache)  # reads
    assert parsed == first == second
    assert [e.key for e in second] == [e.key for e in parsed]


def test_the_cache_is_read_instead_of_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builtin = _files(builtin_dir())
    cache = tmp_path / "cache"
    load_files(builtin, {}, check_builtin=False, cache_dir=cache)

    def no_parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed although the cache holds these files")

    monkeypatch.setattr(catalogue_load, "_parse_builtin", no_parse)
    assert load_files(builtin, {}, check_builtin=False, cache_dir=cache).entries


def test_a_changed_file_is_another_key(tmp_path: Path) -> None:
    builtin = _builtin_copy(tmp_path)
    cache = tmp_path / "cache"
    before = load_files(builtin, {}, check_builtin=False, cache_dir=cache)
    path = builtin["mechanics.toml"]
    text = path.read_text(encoding="utf-8")
    assert 'name = { en = "' in text
    # Rename the first entry's display name: the cached entry must not be served.
    path.write_text(text.replace('name = { en = "', 'name = { en = "Renamed ', 1), encoding="utf-8")
    after = load_files(builtin, {}, check_builtin=False, cache_dir=cache)
    assert after == load_files(builtin, {}, check_builtin=False)
    assert after != before
    assert len(list(cache.glob("*.pickle"))) == 2


def test_checking_the_builtin_files_never_uses_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    builtin = _files(builtin_dir())
    monkeypatch.setattr(disk_cache, "read", lambda *a: pytest.fail("cache read"))
    monkeypatch.setattr(disk_cache, "write", lambda *a: pytest.fail("cache written"))
    load_files(builtin, {}, check_builtin=True, cache_dir=cache)


class _NotOurs:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("ran",))


@pytest.mark.parametrize(
    "content",
    [
        b"garbage",
        disk_cache.FORMAT + b"not a pickle",
        disk_cache.FORMAT + pickle.dumps(_NotOurs()),
        disk_cache.FORMAT + pickle.dumps(({"x": 1}, [])),  # the right classes only
    ],
)
def test_a_file_that_is_not_ours_is_parsed_over(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    builtin = _files(builtin_dir())
    cache = tmp_path / "cache"
    cache.mkdir()
    digest = disk_cache.key({name: path.read_bytes() for name, path in builtin.items()})
    (cache / f"{digest}.pickle").write_bytes(content)
    loaded = load_files(builtin, {}, check_builtin=False, cache_dir=cache)
    assert loaded == load_files(builtin, {}, check_builtin=False)
    assert "ran" not in capsys.readouterr().out
    # ...and the good value replaced it.
    assert disk_cache.read(cache, digest) is not None


def test_only_the_newest_files_are_kept(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for i in range(disk_cache.KEEP + 3):
        disk_cache.write(cache, f"{i:064x}", ({}, []))
    assert len(list(cache.glob("*.pickle"))) == disk_cache.KEEP


def test_the_process_catalogue_uses_the_users_cache_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(catalogue_load, "_cache", None)
    first = catalogue_load.catalogue()
    folder = catalogue_load._disk_cache_dir()
    assert folder is not None and list(folder.glob("*.pickle"))
    monkeypatch.setattr(catalogue_load, "_cache", None)
    assert catalogue_load.catalogue() == first


def test_no_key_means_no_cache_not_a_failed_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(texts: dict[str, bytes]) -> str:
        raise OSError("no executable to stat")

    monkeypatch.setattr(disk_cache, "key", broken)
    builtin = _files(builtin_dir())
    loaded = load_files(builtin, {}, check_builtin=False, cache_dir=tmp_path / "cache")
    assert loaded == load_files(builtin, {}, check_builtin=False)
    assert not (tmp_path / "cache").exists()
