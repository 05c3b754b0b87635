"""A series of files of the same shape (runs, sweeps, repeats).

Two hundred `run_NNN.csv` files are one experiment, not two hundred: they
are analysed together. Files belong to one series when their tables have the
same column names and their file names differ only in a number. The number
in the name is the run's parameter; when the name shows a quantity
(`T300K`, `v_2.5V`, `L050`) that is said, otherwise it is the run number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from labwright.ingest.types import Dataset

MIN_FILES = 5
_NUMBER = re.compile(r"(\d+(?:[._p]\d+)?)")


@dataclass
class FileSeries:
    pattern: str  # file name with the number replaced by "#"
    datasets: list[Dataset]  # ordered by parameter
    parameters: list[float]
    parameter_name: str  # "run number", or the letters around the number ("T", "L")
    parameter_unit: str | None


def _split_name(source: str) -> tuple[str, float, str, str | None] | None:
    """(pattern, value, prefix letters, unit letters) of the last number in a file name."""
    name = PurePosixPath(source).name
    stem, dot, ext = name.rpartition(".")
    base = stem if dot else name
    matches = list(_NUMBER.finditer(base))
    if not matches:
        return None
    m = matches[-1]
    text = m.group(1).replace("p", ".").replace("_", ".")
    try:
        value = float(text)
    except ValueError:
        return None
    pattern = base[: m.start()] + "#" + base[m.end() :] + (("." + ext) if dot else "")
    prefix = re.sub(r"[^A-Za-z]+$", "", base[: m.start()])
    prefix_word = re.findall(r"[A-Za-z]+", prefix)
    unit = re.match(r"[A-Za-zµ°Ω]+", base[m.end() :])
    return pattern, value, prefix_word[-1] if prefix_word else "", unit.group(0) if unit else None


_RUN_WORDS = {
    "run",
    "trial",
    "rep",
    "repeat",
    "shot",
    "file",
    "data",
    "measurement",
    "scan",
    "sample",
    "n",
}


def find_series(datasets: list[Dataset]) -> list[FileSeries]:
    """Groups of at least `MIN_FILES` same-shaped tables named by a number."""
    groups: dict[
        tuple[str, str, tuple[str, ...]], list[tuple[float, Dataset, str, str | None]]
    ] = {}
    for ds in datasets:
        if ds.kind != "table":
            continue
        split = _split_name(ds.source)
        if split is None:
            continue
        pattern, value, prefix, unit = split
        folder = str(PurePosixPath(ds.source).parent)
        key = (folder, pattern, tuple(c.name for c in ds.columns))
        groups.setdefault(key, []).append((value, ds, prefix, unit))
    out: list[FileSeries] = []
    for (folder, pattern, _cols), members in groups.items():
        if len(members) < MIN_FILES:
            continue
        members.sort(key=lambda m: m[0])
        prefix, unit = members[0][2], members[0][3]
        is_run = prefix.lower() in _RUN_WORDS or not prefix
        out.append(
            FileSeries(
                pattern=(folder + "/" if folder not in ("", ".") else "") + pattern,
                datasets=[m[1] for m in members],
                parameters=[m[0] for m in members],
                parameter_name="run number" if is_run else prefix,
                parameter_unit=None if is_run else unit,
            )
        )
    return out
