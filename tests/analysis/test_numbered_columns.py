"""Numbered columns whose number is the law's count (L1, L2 of a resonance
tube; θ1, θ2 of a grating's orders) are read long, one point per reading at
its own count; an input the table holds per row (one tuning fork per row) is
a variable of the fit; a relation written inside the named law ("λ = v/f")
is not fitted on its own; a theory value of an asked quantity is not given."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.numbered_columns import numbered_group, unpivot
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request import Evidence, NumberedReadings
from labwright.analysis.request_rules import read_request
from tests.analysis.request.tables import folder, table
from tests.analysis.test_fit_kind import _recomputes

WHY = Evidence(source="t", phrase="t", reason="t")
V, E = 344.0, 1.1  # m/s, cm


def _tube(seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    f = np.array([256, 288, 320, 341.3, 384, 426.7, 480, 512])

    def length(n: int) -> np.ndarray:
        return (2 * n - 1) * V * 100 / (4 * f) - E + rng.normal(0, 0.12, f.size)

    return {"f (Hz)": f, "L1 (cm)": length(1), "L2 (cm)": length(2)}


def _answer(fa, quantity: str):  # type: ignore[no-untyped-def]
    (a,) = [x for x in fa.sheet.answers if x.quantity == quantity]
    return a


def test_resonance_lengths_side_by_side_are_the_law_at_each_resonance() -> None:
    notes = (
        "Speed of sound with a resonance tube.\n"
        "Closed pipe: L_n + e = (2n - 1) λ/4 with λ = v/f, e = end correction.\n"
        "Find v and the end correction e. Theory says e ≈ 0.3 D.\n"
    )
    read = folder(notes, table("tube.csv", _tube()))
    request = read_request(read, catalogue())
    # The request reads L1, L2 long, takes f per row, and fits no "λ = v/f".
    (spec,) = request.numbered
    assert spec.columns == ("L1", "L2") and spec.numbers == (1, 2)
    bound = {b.variable: b.column for b in request.bindings if b.model == "resonance_tube"}
    assert bound == {"n": "n", "L": "L", "f": "f"}
    assert all(m.key is not None for m in request.models)
    assert not [c for c in request.constants if c.symbol == "e"]  # asked, not given
    assert not [u for u in request.unanswered if "frequency" in u.why]
    fa = analyse_folder(read, request)
    v, e = _answer(fa, "v"), _answer(fa, "dL_end")
    assert v.se is not None and abs(v.value - V) <= 3 * v.se
    assert e.se is not None and abs(e.value - E) <= 3 * e.se  # in the lengths' cm
    _recomputes(read, fa)  # the compendium reads the same long table


def test_orders_of_a_grating_in_numbered_columns() -> None:
    rng = np.random.default_rng(8)
    d, lam = 1e-3 / 600, 546.1e-9
    theta = {m: np.degrees(np.arcsin(m * lam / d)) + rng.normal(0, 0.02, 5) for m in (1, 2)}
    notes = "Diffraction grating, 600 lines per mm: d = 1.6667 um. Find the wavelength λ.\n"
    read = folder(notes, table("angles.csv", {"theta1 (deg)": theta[1], "theta2 (deg)": theta[2]}))
    request = read_request(read, catalogue())
    assert [s.numbers for s in request.numbered] == [(1, 2)]
    fa = analyse_folder(read, request)
    got = _answer(fa, "lam")
    assert got.se is not None and abs(got.value - 546.1) <= 3 * got.se  # nm


def test_repeats_are_no_count_where_the_law_has_none() -> None:
    # Michaelis-Menten has no count: v1, v2, v3 stay replicate readings.
    s = np.geomspace(0.1, 5.0, 8)
    v = 12.0 * s / (0.8 + s)
    notes = "Michaelis-Menten kinetics, v = Vmax [S]/(Km + [S]). Find Km and Vmax.\n"
    read = folder(notes, table("mm.csv", {"S (mM)": s, "v1": v, "v2": v * 1.01, "v3": v * 0.99}))
    assert read_request(read, catalogue()).numbered == ()


def test_numbered_group_and_the_long_table() -> None:
    ds = table(
        "t.csv", {"f (Hz)": [256.0, 288.0], "L2 (cm)": [99.0, 88.0], "L1 (cm)": [32.0, 29.0]}
    )
    assert numbered_group(ds, "L1") == (["L1", "L2"], [1, 2])
    assert numbered_group(ds, "f") is None
    assert numbered_group(table("y.csv", {"x2019": [1.0], "x2020": [2.0]}), "x2019") is None
    spec = NumberedReadings(file="t.csv", columns=("L1", "L2"), numbers=(1, 2),
                            response="L", count="n", evidence=WHY)  # fmt: skip
    long = unpivot(ds, spec)
    assert long is not None and long.source != ds.source
    cols = {c.name: c.values.tolist() for c in long.columns}
    assert cols == {
        "f": [256.0, 288.0, 256.0, 288.0],
        "n": [1.0, 1.0, 2.0, 2.0],
        "L": [32.0, 29.0, 99.0, 88.0],
    }
    assert long.column("L").unit == "cm"
    assert not any(ch in long.source for ch in "*?[")  # never read as a file pattern
