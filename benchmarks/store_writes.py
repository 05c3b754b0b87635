"""Store write cost against bare sqlite3, and what compressing versions would buy.

Prints ratios measured in the same run (no absolute thresholds):
- add_version through the Store vs a bare INSERT with the same pragmas,
- append_event through the Store vs a bare INSERT,
- zlib on a realistic LaTeX document: size ratio and read-time ratio.

Run: .venv/bin/python benchmarks/store_writes.py
"""

from __future__ import annotations

import random
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from labwright.store import Store
from labwright.store.db import connect

VERSIONS = 200
EVENTS = 2000
READS = 2000


def _document() -> str:
    """About 30 kB of varied LaTeX prose with numbers (repeated text would flatter zlib)."""
    rng = random.Random(7)
    words = (
        "the pendulum period damping measured amplitude decay frequency uncertainty fit"
        " residual sample mean deviation temperature sensor voltage current resistance"
        " 误差 测量 结果 分析 实验"
    ).split()
    lines = ["\\documentclass{article}", "\\begin{document}"]
    while sum(len(line) for line in lines) < 30_000:
        if rng.random() < 0.05:
            lines.append(f"\\section{{{rng.choice(words).title()} {rng.randint(1, 99)}}}")
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 18)))
        lines.append(
            f"{sentence.capitalize()} was ${rng.uniform(0, 100):.3f}\\pm{rng.uniform(0, 1):.3f}$."
        )
    lines.append("\\end{document}")
    return "\n".join(lines)


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    doc = _document()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "store")
        session = store.create_session(tmp)
        run = store.start_run(session.id)
        t_store_v = _timed(
            lambda: [store.add_version(session.id, doc + str(i)) for i in range(VERSIONS)]
        )
        t_store_e = _timed(
            lambda: [
                store.append_event(
                    run.id, {"type": "step", "stage": "draft", "message": f"chunk {i}"}
                )
                for i in range(EVENTS)
            ]
        )
        store.close()

        raw = connect(Path(tmp) / "bare.db")
        raw.execute(
            "CREATE TABLE v (id INTEGER PRIMARY KEY, session_id INT, version_no INT, content TEXT)"
        )
        raw.execute("CREATE TABLE e (run_id INT, seq INT, payload TEXT, PRIMARY KEY (run_id, seq))")

        def bare_versions() -> None:
            for i in range(VERSIONS):
                raw.execute("BEGIN IMMEDIATE")
                raw.execute(
                    "INSERT INTO v (session_id, version_no, content) VALUES (1, ?, ?)",
                    (i, doc + str(i)),
                )
                raw.execute("COMMIT")

        def bare_events() -> None:
            for i in range(EVENTS):
                raw.execute("BEGIN IMMEDIATE")
                raw.execute("INSERT INTO e VALUES (1, ?, ?)", (i, f'{{"message": "chunk {i}"}}'))
                raw.execute("COMMIT")

        t_bare_v = _timed(bare_versions)
        t_bare_e = _timed(bare_events)

        # Reading one version back: TEXT as stored now vs a zlib-compressed BLOB.
        packed = zlib.compress(doc.encode("utf-8"), 6)
        raw.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, content TEXT, packed BLOB)")
        raw.execute("INSERT INTO t VALUES (1, ?, ?)", (doc, packed))
        t_plain = _timed(
            lambda: [
                raw.execute("SELECT content FROM t WHERE id = 1").fetchone()[0]
                for _ in range(READS)
            ]
        )
        t_unzip = _timed(
            lambda: [
                zlib.decompress(
                    raw.execute("SELECT packed FROM t WHERE id = 1").fetchone()[0]
                ).decode("utf-8")
                for _ in range(READS)
            ]
        )
        raw.close()

    size = len(doc.encode("utf-8"))
    print(
        f"add_version  store/bare time ratio: {t_store_v / t_bare_v:5.2f}  ({VERSIONS} x {size} bytes, {t_store_v / VERSIONS * 1e3:.2f} ms each)"
    )
    print(
        f"append_event store/bare time ratio: {t_store_e / t_bare_e:5.2f}  ({EVENTS} events, {t_store_e / EVENTS * 1e3:.2f} ms each)"
    )
    print(f"zlib size ratio (compressed/plain): {len(packed) / size:5.2f}")
    print(f"zlib read time ratio (unzip/plain): {t_unzip / t_plain:5.2f}")


if __name__ == "__main__":
    main()
