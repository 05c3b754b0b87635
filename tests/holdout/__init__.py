"""A hold-out set of lab folders, written apart from the analyst's tuning.

The labelled set (tests/labset) and the real folders (tests/realdata) were
read while the analyst's rules were written; this set was written afterwards
by someone who had not read those folders' notes, in the phrasing of other
handouts and notebooks and with file shapes the labelled set does not use
(a units row under the header, a meter's headerless file, an oscilloscope
export, repeat columns, GBK notes). It measures whether the rules generalise;
a fix must be a rule over a class of inputs, never a match for these folders.
`benchmarks/analyst_eval.py --set holdout` prints the figures,
`tests/analysis/test_holdout.py` holds them to floors.
"""

from __future__ import annotations

import zlib

import numpy as np

from tests.holdout import chemistry_biology, electricity_optics, mechanics_thermal, modern_honesty
from tests.labset.folder import LabFolder

_MODULES = (mechanics_thermal, electricity_optics, chemistry_biology, modern_honesty)


def holdout_folders() -> list[LabFolder]:
    out = []
    for module in _MODULES:
        for make in module.FOLDERS:
            seed = zlib.crc32(b"holdout:" + make.__name__.encode())
            out.append(make(np.random.default_rng(seed)))
    names = [f.name for f in out]
    assert len(names) == len(set(names)), "folder names must be unique"
    return out
