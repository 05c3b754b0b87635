"""A law of two independent variables measured one file per value of the
second is fitted once over all the runs, the file names' value a column."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.stacked_runs import is_stacked, stack_runs
from labwright.ingest.types import DocumentText, ReadResult

from .tables import table

VMAX, KM, KI = 40.0, 0.8, 12.0
NOTES = (
    "Inhibition of the enzyme by a competitive inhibitor. One file per inhibitor "
    "concentration; the concentration is in the file name.\n"
    "Competitive: v = Vmax·[S] / (Km·(1 + [I]/Ki) + [S])\n"
    "Determine Km, Vmax and the inhibition constant Ki."
)


def _runs(seed: int, names: tuple[str, ...] = ("I_0uM.csv", "I_10uM.csv", "I_30uM.csv")):
    rng = np.random.default_rng(seed)
    s = np.geomspace(0.1, 6.0, 8)
    out = []
    for name, inhibitor in zip(names, (0.0, 10.0, 30.0), strict=True):
        v = VMAX * s / (KM * (1 + inhibitor / KI) + s)
        v = v + rng.normal(0, 0.3, s.size)
        out.append(table(name, {"[S] (mM)": s, "v (nmol/min)": v}))
    return out


def _folder(datasets: list, notes: str = NOTES) -> ReadResult:
    return ReadResult(datasets=datasets, documents=[DocumentText("notes.txt", notes)])


def test_the_runs_stack_with_the_file_names_value_as_a_column() -> None:
    folder = _folder(_runs(1))
    req = read_request(folder, catalogue())
    stacked = stack_runs(folder.datasets, req.files)
    assert stacked is not None and is_stacked(stacked)
    inhibitor = stacked.column("I")
    assert inhibitor.unit == "uM"
    assert sorted(set(inhibitor.values.tolist())) == [0.0, 10.0, 30.0]
    assert len(stacked.column("v").values) == 24
    assert not any(is_stacked(ds) for ds in folder.datasets)  # the read is left alone


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_inhibition_constant_is_fitted_over_all_runs(seed: int) -> None:
    folder = _folder(_runs(seed))
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    answers = {a["quantity"]: a for a in fa.record()["answers"]}
    for key, truth in (("Km", KM), ("Vmax", VMAX), ("Ki", KI)):
        a = answers[key]
        assert a["model"] == "competitive_inhibition"
        assert abs(a["value"] - truth) < 3 * a["se"] + 1e-12, (key, a["value"], a["se"])
    # The run files are the global fit's: none is fitted on its own.
    fits = [a for a in fa.analyses if a.kind in ("fit", "xy")]
    assert len(fits) == 1


def test_runs_numbered_only_are_not_a_variable() -> None:
    folder = _folder(_runs(1, ("run_1.csv", "run_2.csv", "run_3.csv")))
    req = read_request(folder, catalogue())
    assert stack_runs(folder.datasets, req.files) is None
    assert not any(b.file.endswith("all runs") for b in req.bindings)


def test_runs_whose_columns_differ_are_not_stacked() -> None:
    runs = _runs(1)
    s = runs[2].column("[S]").values
    runs[2] = table("I_30uM.csv", {"[S] (mM)": s, "rate (nmol/min)": s})
    folder = _folder(runs)
    assert stack_runs(folder.datasets, read_request(folder, catalogue()).files) is None
