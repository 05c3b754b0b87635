"""Columns the notes define from other columns and given values."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import DocumentText, ReadResult
from tests.analysis.request.tables import table


def _folder(notes: str, data: object) -> ReadResult:
    return ReadResult(datasets=[data], documents=[DocumentText("notes.md", notes)])  # type: ignore[list-item]


def test_a_load_written_as_m_g_is_made_a_force_column() -> None:
    rng = np.random.default_rng(4)
    mass = np.arange(1, 9) * 50.0  # g
    ext = mass / 1000 * 9.8 / 30.0 * 100 + rng.normal(0, 0.02, mass.size)  # cm
    folder = _folder(
        "Masses were hung on the spring; g = 9.8 m/s^2 and the load is F = m g. "
        "Find the spring constant k of F = k x.",
        table("loads.csv", {"m (g)": mass, "x (cm)": ext}),
    )
    req = read_request(folder, catalogue())
    (d,) = req.derived
    assert d.name == "F" and d.columns == (("m", "m"),) and d.constants[0][:2] == ("g", 9.8)
    fa = analyse_folder(folder, req)
    (f_col,) = [c for c in folder.datasets[0].columns if c.name == "F"]
    assert f_col.unit == "N" and np.allclose(f_col.values, mass / 1000 * 9.8)
    assert "from m" in (f_col.provenance.column or "")
    k = next(a for a in fa.sheet.answers if a.quantity == "k")
    assert k.se is not None and abs(
        k.value * (100 if k.unit == "N/cm" else 1) - 30.0
    ) < 3 * k.se * (100 if k.unit == "N/cm" else 1)


def test_a_length_made_of_a_column_and_a_given_value() -> None:
    """ "L = l + d/2" under a Chinese header "摆线长 l": the bob's radius added."""
    rng = np.random.default_rng(3)
    thread = np.linspace(40.0, 110.0, 8)  # cm
    d = 2.0  # cm
    period = 2 * np.pi * np.sqrt((thread + d / 2) / 100 / 9.79) * (1 + rng.normal(0, 0.001, 8))
    folder = _folder(
        "单摆。小球直径 d 为 2.000 cm，摆长 L = l + d/2。T = 2π√(L/g)，求重力加速度 g。",
        table("单摆.csv", {"摆线长 l (cm)": thread, "周期 T (s)": period}),
    )
    req = read_request(folder, catalogue())
    assert [x.name for x in req.derived] == ["L"]
    fa = analyse_folder(folder, req)
    g = next(a for a in fa.sheet.answers if a.quantity == "g")
    scale = 0.01 if g.unit == "cm/s²" else 1.0
    assert g.se is not None and abs(g.value * scale - 9.79) < 3 * g.se * scale


def test_a_law_of_the_data_is_no_definition() -> None:
    """ "T = 2π√(L/g)": g is no column and no given value, so T is the law."""
    length = np.array([0.4, 0.6, 0.8, 1.0])
    folder = _folder(
        "T = 2π√(L/g). Find g.",
        table("p.csv", {"L (m)": length, "T (s)": 2 * np.pi * np.sqrt(length / 9.8)}),
    )
    assert read_request(folder, catalogue()).derived == ()


def test_a_quantity_the_notes_define_from_the_fit_is_computed() -> None:
    """ "MRT = 1/k" of a first-order elimination in hours: computed from the
    fitted k with its SE, in hours, and asked."""
    rng = np.random.default_rng(2)
    t = np.arange(0, 12.1, 1.0)
    c = 5 * np.exp(-0.35 * t) + rng.normal(0, 0.03, t.size)
    folder = _folder(
        "Drug elimination, first order: c = c0 exp(-k t). The mean residence time is "
        "MRT = 1/k. Find MRT.",
        table("elim.csv", {"t (h)": t, "c (mg/L)": c}),
    )
    req = read_request(folder, catalogue())
    (d,) = req.defined
    assert d.name == "MRT" and d.asked
    fa = analyse_folder(folder, req)
    answers = {a.quantity: a for a in fa.sheet.answers}
    k, mrt = answers["k"], answers["MRT"]
    assert mrt.unit == "h" and mrt.asked
    assert abs(mrt.value - 1 / k.value) < 1e-9 * mrt.value
    assert mrt.se is not None and abs(mrt.se - k.se / k.value**2) < 1e-6 * mrt.se  # type: ignore[operator]
    assert abs(mrt.value - 1 / 0.35) < 3 * mrt.se
