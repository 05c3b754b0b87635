"""The labelled lab folders the analyst is judged on (issue 20).

`all_folders()` generates every folder from its own seed; `score()` compares
a build's provenance record with the truth. `benchmarks/analyst_eval.py`
prints the figures, `tests/analysis/test_labset.py` holds them to goldens.
"""

from __future__ import annotations

import zlib

import numpy as np

from tests.labset import (
    biology,
    chemistry,
    electricity,
    honesty,
    mechanics,
    optics,
    spectra,
    thermal,
)
from tests.labset.folder import LabFolder, Truth
from tests.labset.score import FolderScore, score

_MODULES = (mechanics, thermal, electricity, optics, chemistry, biology, spectra, honesty)

__all__ = ["FolderScore", "LabFolder", "Truth", "all_folders", "score"]


def all_folders() -> list[LabFolder]:
    out = []
    for module in _MODULES:
        for make in module.FOLDERS:
            seed = zlib.crc32(make.__name__.encode())  # stable across runs and machines
            out.append(make(np.random.default_rng(seed)))
    names = [f.name for f in out]
    assert len(names) == len(set(names)), "folder names must be unique"
    return out
