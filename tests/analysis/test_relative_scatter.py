"""A fit without stated uncertainties whose scatter grows with the value (a
meter's % of reading, a diode's current over decades) is refitted with
relative weights; constant scatter is never reweighted."""

from __future__ import annotations

import numpy as np

from labwright.analysis.analyses.fit import FitOutcome
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.scatter import relative_scatter
from tests.analysis.request.tables import folder, table
from tests.analysis.test_fit_kind import _recomputes


def test_relative_scatter_is_told_from_constant_scatter() -> None:
    x = np.linspace(1.0, 10.0, 20)
    fitted = 3.0 * np.exp(0.5 * x)  # spans a factor of ninety
    told = 0
    for seed in range(50):
        rng = np.random.default_rng(seed)
        constant = rng.normal(0, 0.02 * fitted.mean(), x.size)
        assert relative_scatter(fitted, constant, 2) is None
        rel = relative_scatter(fitted, fitted * rng.normal(0, 0.02, x.size), 2)
        if rel is not None:
            told += 1
            assert 0.01 < rel < 0.035
    assert told >= 45
    # Too narrow a range of values, or too few points, cannot tell them apart.
    narrow = np.linspace(10.0, 20.0, 20)
    assert relative_scatter(narrow, narrow * 0.02 * np.resize([1, -1], 20), 2) is None
    assert relative_scatter(fitted[:6], fitted[:6] * 0.02, 2) is None
    # Residuals that run in long stretches of one sign follow a misfit, not the noise.
    grows = fitted * np.random.default_rng(1).normal(0, 0.02, x.size)
    assert relative_scatter(fitted, grows, 2, runs_p=0.5) is not None
    assert relative_scatter(fitted, grows, 2, runs_p=0.001) is None


def test_a_diode_read_over_decades_is_fitted_with_relative_weights() -> None:
    rng = np.random.default_rng(3)
    n_true, i_s, vt = 1.85, 2.0e-9, 0.025422
    v = np.round(np.arange(0.300, 0.751, 0.025), 3)
    i_ma = i_s * np.expm1(v / (n_true * vt)) * 1000 * (1 + rng.normal(0, 0.015, v.size))
    notes = "Diode I-V, forward bias.\nShockley: I = I_s [exp(eV / (n k_B T)) − 1]\n" \
            "T = 295 K\nQ: what are the ideality factor n and the saturation current I_s?\n"  # fmt: skip
    read = folder(
        notes, table("sweep.csv", {"V_D (V)": v, "I_D (mA)": [float(f"{x:.4g}") for x in i_ma]})
    )
    fa = analyse_folder(read, read_request(read, catalogue()))
    (a,) = [a for a in fa.analyses if a.kind == "fit"]
    assert isinstance(a.result, FitOutcome) and a.result.relative is not None
    assert 0.01 < a.result.relative < 0.03
    (n,) = [x for x in fa.sheet.answers if x.quantity == "n"]
    assert n.se is not None and abs(n.value - n_true) <= 3 * n.se
    _recomputes(read, fa)  # the compendium reweights as the report did
