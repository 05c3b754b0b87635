"""Run ownership: recovery interrupts runs of dead processes only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from labwright.store import Store, owner

CHILD = Path(__file__).with_name("_crash_child.py")


def test_runs_of_a_live_process_survive_open_and_recover_after_its_death(
    home: Path, tmp_path: Path
) -> None:
    with Store.open(home) as store:
        session_id = store.create_session(tmp_path).id
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(home), str(session_id), "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("ready "), line
        run_id = int(line.split()[1])
        with Store.open(home) as store:
            assert store.get_run(run_id).status == "running"
            assert store.recover_interrupted() == []
            proc.kill()
            proc.wait(timeout=30)
            assert store.recover_interrupted() == [run_id]
            assert store.get_run(run_id).status == "interrupted"
            assert store.recover_interrupted() == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    # The dead owner's lock file is litter and gets swept.
    assert list((home / "locks").glob("*.lock")) == []


def test_close_releases_the_lock_file(home: Path) -> None:
    store = Store.open(home)
    assert len(list((home / "locks").glob("*.lock"))) == 1
    store.close()
    assert list((home / "locks").glob("*.lock")) == []


def test_without_file_locks_recovery_assumes_one_process(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_locks(handle: object) -> bool:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(owner, "_try_lock", no_locks)
    store = Store.open(home)
    run = store.start_run(store.create_session(tmp_path).id)
    store.close()
    with Store.open(home) as reopened:
        assert reopened.get_run(run.id).status == "interrupted"


def test_foreign_or_empty_owner_tokens_count_as_dead(home: Path) -> None:
    with Store.open(home) as store:
        assert store._owner.owner_is_alive(store._owner.token)
        assert not store._owner.owner_is_alive("")
        assert not store._owner.owner_is_alive("../../etc/passwd")
        assert not store._owner.owner_is_alive("deadbeef")  # no such lock file
