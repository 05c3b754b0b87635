"""The analyst on labelled lab folders with known truth (issue 20).

Generates every folder of `tests/labset` (each from its own seed: the true
parameters are the ones the data were drawn from), runs the offline build on
it as a user would (read, analyse, write, compile), reads the build's
provenance record and prints, per folder and in all:

- the share of asked quantities in the report within 3 standard errors of
  the truth (goal >= 95%);
- the share of the notes' requests answered (an unanswerable request counts
  as answered when the report says it cannot be answered; goal >= 95%);
- the number of harmful analyses (a fit or summary of a controlled variable
  or an index; goal 0);
- the time per folder.

    python benchmarks/analyst_eval.py
        [--set labset|real|holdout|holdout2|holdout3|realholdout|realholdout2] [--no-tex]
        [--keep DIR] [--json OUT] [NAME ...]

`--set real` runs the same scoring on real public data handed in as a
student would (tests/realdata: R's data sets with published estimates);
`--set holdout` on folders written apart from the rules (tests/holdout);
`--set holdout2` on a second such set, written blind after the analyst had
been tuned on the first (tests/holdout2); `--set holdout3` on a third,
written blind after the analyst had been tuned on both (tests/holdout3);
`--set realholdout` on real public data the analyst was never tuned on,
written blind to its code (tests/realdata_holdout); `--set realholdout2` on a second such set of twelve
other real data sets (tests/realdata_holdout2).

Exit status 0 when every goal is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_WITHIN = 0.95
GOAL_ANSWERED = 0.95


def build(folder_dir: Path, out_dir: Path, tex: bool) -> tuple[dict[str, object], float, str]:
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline

    start = time.perf_counter()
    try:
        events = list(build_offline(folder_dir, out_dir, tex_available=None if tex else False))
    except Exception as exc:  # noqa: BLE001 - a crash is a result to report, not to hide
        return {}, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
    done = events[-1]
    error = "" if isinstance(done, Done) and done.tex_path else f"no report: {done}"
    prov = out_dir / "provenance.json"
    record = (
        json.loads(prov.read_text(encoding="utf-8")).get("analysis", {}) if prov.is_file() else {}
    )
    return record, seconds, error


def main(argv: list[str] | None = None) -> int:
    from tests.labset import all_folders, score

    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("names", nargs="*", help="only these folders")
    ap.add_argument(
        "--no-tex", action="store_true", help="skip the compile (analysis and writing only)"
    )
    ap.add_argument("--keep", type=Path, help="keep the folders and builds here")
    ap.add_argument("--json", type=Path, help="write the per-folder scores here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every truth")
    ap.add_argument(
        "--set",
        choices=("labset", "real", "holdout", "holdout2", "holdout3", "realholdout", "realholdout2"),
        default="labset",
        help="the generated labelled set (default), the real public data (tests/realdata), "
             "the hold-out set written apart from the rules (tests/holdout), the second "
             "and third, blind ones (tests/holdout2, tests/holdout3) or real data written "
             "blind to the analyst (tests/realdata_holdout, and a second set in "
             "tests/realdata_holdout2)",
    )  # fmt: skip
    args = ap.parse_args(argv)

    if args.set == "real":
        from tests.realdata import real_folders

        candidates = real_folders()
    elif args.set == "holdout":
        from tests.holdout import holdout_folders

        candidates = holdout_folders()
    elif args.set == "holdout2":
        from tests.holdout2 import all_folders as holdout2_folders

        candidates = holdout2_folders()
    elif args.set == "holdout3":
        from tests.holdout3 import all_folders as holdout3_folders

        candidates = holdout3_folders()
    elif args.set == "realholdout":
        from tests.realdata_holdout import realholdout_folders

        candidates = realholdout_folders()
    elif args.set == "realholdout2":
        from tests.realdata_holdout2 import realholdout2_folders

        candidates = realholdout2_folders()
    else:
        candidates = all_folders()
    folders = [f for f in candidates if not args.names or f.name in args.names]
    experiments = {f.experiment for f in folders}
    shapes = Counter(s for f in folders for s in f.shapes)
    print(f"{len(folders)} folders, {len(experiments)} experiments, "
          f"{sum(f.lang == 'zh' for f in folders)} with Chinese notes")  # fmt: skip
    print("file shapes: " + ", ".join(f"{k} {v}" for k, v in sorted(shapes.items())))
    work = args.keep or Path(tempfile.mkdtemp(prefix="labset-"))
    scores = []
    for folder in folders:
        data = folder.write(work / "data")
        record, seconds, error = build(data, work / "builds" / folder.name, not args.no_tex)
        fs = score(folder, record)
        fs.seconds, fs.error = seconds, error
        scores.append(fs)
        within = sum(t.within for t in fs.truths if t.truth.answerable)
        asked = sum(t.truth.answerable for t in fs.truths)
        answered = sum(t.answered for t in fs.truths)
        flag = "" if within == asked and answered == len(fs.truths) and not fs.harmful else "  <--"
        print(f"{folder.name:32s} {folder.lang}  within {within}/{asked}  answered "
              f"{answered}/{len(fs.truths)}  harmful {len(fs.harmful)}  {seconds:5.1f} s"
              f"{'  ' + error if error else ''}{flag}")  # fmt: skip
        if args.verbose or flag:
            for t in fs.truths:
                got = (
                    "-"
                    if t.value is None
                    else f"{t.value:.6g} ± {t.se if t.se is not None else '?'}"
                )
                print(f"    {t.truth.names[0]:>14s}: true {t.truth.value:.6g} {t.truth.unit}, "
                      f"got {got}  {t.note}")  # fmt: skip
            for h in fs.harmful:
                print(f"    harmful: {h}")

    truths = [t for fs in scores for t in fs.truths]
    answerable = [t for t in truths if t.truth.answerable]
    within = sum(t.within for t in answerable) / max(len(answerable), 1)
    answered = sum(t.answered for t in truths) / max(len(truths), 1)
    harmful = sum(len(fs.harmful) for fs in scores)
    unknown = sum(fs.unknown_columns for fs in scores)
    times = [fs.seconds for fs in scores]
    print()
    print(f"asked quantities within 3 SE of the truth: {within:.1%} ({sum(t.within for t in answerable)}"
          f"/{len(answerable)}; goal >= {GOAL_WITHIN:.0%})")  # fmt: skip
    print(f"requests answered: {answered:.1%} ({sum(t.answered for t in truths)}/{len(truths)}; "
          f"goal >= {GOAL_ANSWERED:.0%})")  # fmt: skip
    print(f"harmful analyses: {harmful} (goal 0)"
          + (f"; {unknown} analyses did not record their columns" if unknown else ""))  # fmt: skip
    print(f"time per folder: median {statistics.median(times):.1f} s, max {max(times):.1f} s")
    if args.json:
        args.json.write_text(json.dumps([
            {"folder": fs.folder.name, "seconds": fs.seconds, "error": fs.error, "harmful": fs.harmful,
             "truths": [{"name": t.truth.names[0], "answered": t.answered, "within": t.within,
                         "value": t.value, "se": t.se, "note": t.note} for t in fs.truths]}
            for fs in scores
        ], indent=1, ensure_ascii=False), encoding="utf-8")  # fmt: skip
    met = within >= GOAL_WITHIN and answered >= GOAL_ANSWERED and harmful == 0 and unknown == 0
    print("all goals met" if met else "goals not met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
