"""Crash safety: a writer killed at random moments never leaves a torn database.

A child process appends versions and events in a loop and is killed (SIGKILL on
POSIX, TerminateProcess on Windows) at a random moment, twenty times. After each
kill the database must pass PRAGMA integrity_check, every version must be whole,
version numbers and event sequence numbers must have no gaps, and reopening the
store must mark the killed run as interrupted.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labwright.agent.events import event_from_dict
from labwright.store import Store

CHILD = Path(__file__).with_name("_crash_child.py")
KILLS = 20


def _whole(content: str) -> bool:
    body, sep, tail = content.rpartition("\n%sha256=")
    return bool(sep) and tail == hashlib.sha256(body.encode("utf-8")).hexdigest() + "\n"


def _start_child(home: Path, session_id: int, seed: int) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(home), str(session_id), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("ready "):
        proc.kill()
        _, err = proc.communicate(timeout=30)
        pytest.fail(f"crash child did not start: {line!r} {err}")
    return proc, int(line.split()[1])


def _check_database(store: Store, session_id: int, killed_run: int) -> int:
    raw = sqlite3.connect(store.db_path)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        raw.close()

    infos = store.list_versions(session_id)
    assert [v.version_no for v in infos] == list(range(1, len(infos) + 1))
    for info in infos:
        content = store.get_version(info.id).content  # also verifies the stored sha256
        assert _whole(content), f"version {info.version_no} is torn"

    for run in store.list_runs(session_id):
        events = store.events_after(run.id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        for e in events:
            event_from_dict(e.payload)  # every stored payload is a valid event
        assert run.status == "interrupted", (run.id, run.status)
        assert [e.type for e in events[-2:]] == ["error", "done"]
    assert store.get_run(killed_run).status == "interrupted"
    return len(infos)


@pytest.mark.smoke
def test_sigkill_at_random_moments_never_tears_anything(home: Path, tmp_path: Path) -> None:
    rng = random.Random(20261129)
    with Store.open(home) as store:
        session_id = store.create_session(tmp_path).id

    versions_seen = 0
    for kill_no in range(KILLS):
        proc, run_id = _start_child(home, session_id, seed=kill_no)
        time.sleep(rng.uniform(0.0, 0.4))
        proc.kill()
        proc.communicate(timeout=30)
        assert proc.returncode != 0

        with Store.open(home) as store:
            versions = _check_database(store, session_id, run_id)
        assert versions >= versions_seen  # nothing committed is ever lost
        versions_seen = versions

    with Store.open(home) as store:
        runs = store.list_runs(session_id)
        assert len(runs) == KILLS
        assert {r.status for r in runs} == {"interrupted"}
    # The children really wrote under way, so kills landed mid-stream.
    assert versions_seen > 0
