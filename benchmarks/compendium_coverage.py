"""How much of each example's report its compendium recomputes (issue 23).

Per example folder and language: `export_compendium` (the report's record
from a fresh offline write, as the CLI export does), then

- numbers: ledger ids the script states through a report() line, out of
  those plus the ids it lists as not recomputed (reporting floors, which
  are settings and not results, are in neither count);
- figures: figures the script redraws, out of the report's figures.

With --run, the exported script is run too (this interpreter, the
compendium moved away from the data folder) and the numbers count only
when it prints them "ok" (a DIFFERS is listed under --missing).

With --floor FILE (with --run), the counts reached are written to FILE as
the floor tests/agent/test_compendium_coverage.py holds every example to.

With --labset, the folders of tests/labset (generated from their seeds
into a temporary folder) instead of examples/: kinds no example uses.

With --missing, the computations of the numbers not recomputed and the keys
of the figures not redrawn, one line each. In-process (no fresh venv): the
round trip (tests/test_compendium_roundtrip.py) checks that the stated
numbers print "ok"; this counts what is stated.

Run: .venv/bin/python benchmarks/compendium_coverage.py [--run] [--missing] [--floor FILE] [--labset] [--lang en|zh] [folder ...]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT / "sidecar"))
sys.path.insert(0, str(ROOT))  # tests.labset, for --labset
#: A line of the script's comparison: "<printed>  <value> ok  <computation> [<id>]".
_SAID = re.compile(r"\s(ok|DIFFERS)\s\s.*\[([0-9a-f]{10}(?:-[0-9]+)?)\]\s*$")


def _run(folder: Path) -> dict[str, str]:
    """Ledger id -> "ok" or "DIFFERS" as the script prints them."""
    moved = folder.parent / "moved"
    shutil.move(str(folder), str(moved))
    done = subprocess.run(
        [sys.executable, "analysis.py"], cwd=moved, capture_output=True, text=True,
        env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "HOME": str(moved.parent)},
    )  # fmt: skip
    said = {}
    for line in done.stdout.splitlines():
        m = _SAID.search(line)
        if m:
            said[m.group(2)] = m.group(1)
    return said


def main() -> int:
    from labwright.agent.offline.compendium import export_compendium

    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="*")
    ap.add_argument("--missing", action="store_true")
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--floor", type=Path)
    ap.add_argument("--labset", action="store_true")
    ap.add_argument("--lang", choices=["en", "zh"], action="append")
    args = ap.parse_args()
    labset = tempfile.TemporaryDirectory() if args.labset else None
    if labset is not None:
        from tests.labset import all_folders

        folders = {f.name: f.write(Path(labset.name)) for f in all_folders()}
    else:
        folders = {
            p.name: p
            for p in sorted(EXAMPLES.iterdir())
            if p.is_dir() and not p.name.startswith("_")
        }
    names = args.folders or list(folders)
    langs = args.lang or ["en", "zh"]
    floor: dict[str, dict[str, dict[str, object]]] = {}
    print("| example | lang | numbers recomputed | figures redrawn |")
    print("|---|---|---|---|")
    for name in names:
        for lang in langs:
            with tempfile.TemporaryDirectory() as tmp:
                comp, _ = export_compendium(folders[name], Path(tmp) / "c", lang=lang)
                said = _run(Path(tmp) / "c") if args.run else None
            done, missing = len(comp.lines), len(comp.not_recomputed)
            wrong = [i for i in comp.lines if said is not None and said.get(i) != "ok"]
            done -= len(wrong)
            figs = len(comp.figures) + len(comp.not_redrawn)
            good = sum(1 for v in comp.figures.values() if not v)
            print(f"| {name} | {lang} | {done}/{done + missing} | {good}/{figs} |", flush=True)
            floor.setdefault(name, {})[lang] = {
                "numbers": done,
                "not_recomputed": missing + len(wrong),
                "figures": sorted(k for k, v in comp.figures.items() if not v),
            }
            if args.missing:
                for i in wrong:
                    print(f"    - [{i}] printed {said.get(i) if said else None} by the script")
                for _id, printed, computation, _why in comp.not_recomputed:
                    print(f"    - [{_id}] {printed}: {computation}")
                for key in comp.not_redrawn:
                    print(f"    - figure {key} not redrawn")
                for key, diff in comp.figures.items():
                    if diff:
                        print(f"    - figure {key} differs: {'; '.join(diff)}")
    if args.floor:
        if not args.run:
            ap.error("--floor needs --run: the floor counts numbers the script prints ok")
        args.floor.write_text(json.dumps(floor, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
