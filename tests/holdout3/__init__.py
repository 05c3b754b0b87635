"""The third hold-out set: 28 teaching-lab folders written blind.

Written on 2026-12-05 by an outside examiner who read neither the analyst's
code (`sidecar/labwright/analysis`, `agent/offline`), its catalogue of laws
(`knowledge/models`), the folders it was tuned on (`tests/labset`'s
experiments, `tests/realdata`, and the two earlier hold-out sets
`tests/holdout` and `tests/holdout2`, which the analyst has since been tuned
on), nor the reviews of them. The notes are written the way handouts and
students' notebooks are; the truths are the parameters the data were drawn
from.

`all_folders()` generates every folder from its own seed, as the labset does;
`benchmarks/analyst_eval.py --set holdout3` prints the figures and
`tests/analysis/test_holdout3.py` holds them to floors. Do not tune the
analyst to these folders: fix the class of input a folder exposes, and judge
the fix on a set it has not seen.
"""

from __future__ import annotations

import zlib

import numpy as np

from tests.holdout3 import biology, chemistry, electricity, mechanics, optics_modern, thermal
from tests.labset.folder import LabFolder

_MODULES = (mechanics, thermal, electricity, optics_modern, chemistry, biology)

__all__ = ["all_folders"]


def all_folders() -> list[LabFolder]:
    out = []
    for module in _MODULES:
        for make in module.FOLDERS:
            seed = zlib.crc32(("holdout3/" + make.__name__).encode())  # stable everywhere
            out.append(make(np.random.default_rng(seed)))
    names = [f.name for f in out]
    assert len(names) == len(set(names)), "folder names must be unique"
    return out
