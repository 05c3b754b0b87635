"""Child process for test_crash.py: append versions and events until killed.

Usage: python _crash_child.py HOME SESSION_ID SEED
Prints "ready RUN_ID" once its run exists, then writes as fast as it can.
Every version's content ends with a checksum of the rest, so the parent can
tell a whole version from a torn one without trusting the store's own check.
"""

from __future__ import annotations

import hashlib
import random
import sys

from labwright.store import Store


def make_content(rng: random.Random, i: int) -> str:
    alphabet = "abcdefghij klmnop\\{}$%\n误差分析"
    body = f"% version {i}\n" + "".join(rng.choices(alphabet, k=rng.randint(500, 40_000)))
    return body + "\n%sha256=" + hashlib.sha256(body.encode("utf-8")).hexdigest() + "\n"


def main() -> None:
    home, session_id, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    store = Store.open(home)
    run = store.start_run(session_id, plan=[{"stage": "crash"}])
    print(f"ready {run.id}", flush=True)
    i = 0
    while True:
        i += 1
        store.append_event(
            run.id, {"type": "milestone", "index": i, "total": 10**9, "stage": "crash", "label": ""}
        )
        version = store.add_version(
            session_id, make_content(rng, i), summary=f"step {i}", run_id=run.id
        )
        store.append_event(run.id, {"type": "draft_chunk", "text": "x" * rng.randint(1, 5000)})
        store.append_event(
            run.id, {"type": "step", "stage": "crash", "message": f"v{version.version_no}"}
        )


if __name__ == "__main__":
    main()
