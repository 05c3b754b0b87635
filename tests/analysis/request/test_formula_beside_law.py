"""A law written out beside a catalogue law the notes name in passing:
"After an IV bolus a two-compartment model gives C(t) = A1 exp(−k1 t) +
A2 exp(−k2 t)" over the columns `time` and `conc`. The one-compartment law
("IV bolus") binds the same columns by name with the same symbols, which is
agreement, not a column borrowed: the written formula is fitted and the
half-lives the notes define from it (t1/2 = ln 2 / k, one per phase) are
answered. Before, the formula's bindings were dropped as borrowed and the
named law as said in passing: nothing was fitted."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder

NOTES = """# Plasma kinetics after an IV bolus

After an IV bolus a two-compartment model gives a biexponential decline,

    C(t) = A1 exp(-k1 t) + A2 exp(-k2 t)

with a fast phase k1 and a slow phase k2. Fit it and report the half-lives
of both phases, t1/2 = ln 2 / k, with their standard errors.
"""


def test_the_written_formula_is_fitted_beside_the_law_named_in_passing(tmp_path: Path) -> None:
    t = np.array([0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8])
    rng = np.random.default_rng(11)
    c = (2.0 * np.exp(-1.8 * t) + 0.2 * np.exp(-0.17 * t)) * (1 + rng.normal(0, 0.02, t.size))
    rows = "\n".join(f"{a},{b:.4f}" for a, b in zip(t, c, strict=True))
    (tmp_path / "plasma.csv").write_text(f"time,conc\nh,ug/mL\n{rows}\n", "utf-8")
    (tmp_path / "README.md").write_text(NOTES, "utf-8")
    read = read_folder(tmp_path)
    request = read_request(read, catalogue())
    assert {b.variable: b.column for b in request.bindings if b.model == "formula"} == {
        "C": "conc",
        "t": "time",
    }
    kinds = {(a["kind"], a["source"]) for a in analyse_folder(read, request).record()["analyses"]}
    assert ("fit", "plasma.csv") in kinds
    # The half-lives asked are defined from the formula's k1 and k2, one each.
    assert {d.name: d.asked for d in request.defined} == {"t_half_k1": True, "t_half_k2": True}
