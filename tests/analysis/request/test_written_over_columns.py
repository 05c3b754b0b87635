"""Laws the notes write over what the columns hold: a difference of two
columns, a product, headerless columns named by position, a field held fixed."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.quantities import dimensionality
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.cues import asks
from labwright.analysis.request_rules.text import clauses_of
from labwright.ingest.types import Column, Dataset, Provenance, ReadResult

from .tables import folder as notes_folder
from .tables import table


def _answers(folder: ReadResult) -> dict[str, dict]:
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    return {a["quantity"]: a for a in fa.record()["answers"]}


def test_a_law_over_the_difference_of_two_columns_binds_the_difference() -> None:
    rng = np.random.default_rng(4)
    th = np.linspace(30, 300, 12)
    tc = np.full(12, 0.1) + rng.normal(0, 0.05, 12)
    e = 0.0407 * (th - tc) + rng.normal(0, 0.01, 12)
    folder = notes_folder(
        "Thermocouple calibration.\nE = S (Th - Tc)\nDetermine the Seebeck coefficient S "
        "in µV/K. Reference tables give about 41 µV/K near room temperature.",
        table("thermo.csv", {"Th (°C)": th, "Tc (°C)": tc, "E (mV)": e}),
        source="notes.txt",
    )
    req = read_request(folder, catalogue())
    assert [d.name for d in req.derived] == ["ΔT"]
    assert {a.quantity for a in req.asked} == {"S"}  # "tables give" asks for nothing
    s = _answers(folder)["S"]
    assert abs(s["value"] - 40.7) < 3 * s["se"] + 0.05


def test_what_someone_gives_is_no_request() -> None:
    [c] = clauses_of("n", "Reference tables give about 41 µV/K near room temperature.")
    assert asks(c) is None
    [c] = clauses_of("n", "Give the room temperature.")
    assert asks(c) is not None


def test_amps_are_amperes() -> None:
    assert dimensionality("amps") == dimensionality("A")


def test_headerless_columns_take_the_symbols_the_notes_give_them() -> None:
    rng = np.random.default_rng(2)
    t = np.linspace(1200, 2400, 9)
    p = 0.5 * (t / 1000) ** 3.9 * (1 + rng.normal(0, 0.005, t.size))
    v = np.sqrt(p * 3.0)
    i = p / v
    cols = [
        Column(f"col{k}", np.round(x, 4), Provenance("lamp.dat", None, None, f"col{k}"))
        for k, x in enumerate((v, i, np.round(t)), start=1)
    ]
    ds = Dataset("lamp.dat", "lamp.dat", "table", cols, provenance=Provenance("lamp.dat"))
    folder = notes_folder(
        "lamp.dat has no header: column 1 = V in volts, column 2 = I in amps, column 3 = "
        "T in kelvin.\nRadiated power P = VI ∝ T^n.\nFind the exponent n from a log-log "
        "plot. Stefan-Boltzmann predicts n = 4.",
        ds,
        source="notes.txt",
    )
    req = read_request(folder, catalogue())
    assert [d.written for d in req.derived] == ["P = VI"]
    bound = {b.variable: b.column for b in req.bindings if b.model == "stefan_boltzmann"}
    assert bound == {"T": "col3", "P": "P"}
    n = _answers(folder)["n"]
    assert abs(n["value"] - 3.9) < 3 * n["se"]


def test_the_hall_law_at_a_fixed_field_is_fitted_against_the_current() -> None:
    rng = np.random.default_rng(6)
    current = np.arange(1.0, 11.0)  # mA
    r_h, b, d = 6.24e-4, 0.4, 1.0e-3  # m³/C, T, m
    u = r_h * current * 1e-3 * b / d * 1e3 + rng.normal(0, 0.002, current.size)  # mV
    folder = notes_folder(
        "霍尔效应实验\n样品厚度 d = 1.00 mm，磁感应强度 B = 0.400 T。\nU_H = R_H·I_s·B/d\n"
        "求霍尔系数 R_H 以及载流子浓度 n。",
        table("hall.csv", {"I_s (mA)": current, "U_H (mV)": u}),
        source="notes.txt",
    )
    got = _answers(folder)
    assert got["R_H"]["model"] == "hall_effect_current"
    assert abs(got["R_H"]["value"] - 624.0) < 3 * got["R_H"]["se"]  # cm³/C


def test_symbols_with_chinese_qualifiers_name_the_columns_that_carry_them() -> None:
    # Newton's rings read as left and right positions: D_m = |x左 − x右|.
    rng = np.random.default_rng(6)
    m = np.arange(25, 5, -1).astype(float)
    radius, lam = 0.865, 589.3e-9
    d = np.sqrt(4 * m * radius * lam + 2e-6) * 1e3  # mm, with a dust offset
    centre = 25.4 + rng.normal(0, 0.002, m.size)
    left, right = centre + d / 2, centre - d / 2
    folder = notes_folder(
        "用牛顿环测平凸透镜的曲率半径\n钠光灯 λ = 589.3 nm。\n"
        "D_m = |x左 − x右|，D_m² − D_n² = 4(m − n)Rλ\n求透镜的曲率半径 R。",
        table("rings.csv", {"环数 m": m, "左侧读数 (mm)": left, "右侧读数 (mm)": right}),
        source="说明.txt",
    )
    req = read_request(folder, catalogue())
    (derived,) = req.derived
    assert sorted(dict(derived.columns).values()) == ["右侧读数", "左侧读数"]
    bound = {b.variable: b.column for b in req.bindings if b.model == "newton_rings"}
    assert bound["D"] == derived.name
    r = _answers(folder)["R_c"]
    assert abs(r["value"] - radius) <= 3 * r["se"]


def test_a_qualifier_is_no_prose_and_prose_is_no_qualifier() -> None:
    from labwright.analysis.request_rules.equations import find_equations

    def found(text: str) -> list[str]:
        return [w.text for c in clauses_of("n", text) for w in find_equations(c)]

    assert found("D = |x左 − x右|") == ["D = |x左 - x右|"]
    assert found("k = F/x时，求 k") == ["k = F/x"]  # 时 begins the prose
    # The next line's equation is not the end of this one's right side; a
    # sum on the left is the left side (a balance), not its last symbol.
    assert found("L2 + e = 3λ/4,   v = fλ\ne = end correction") == ["L2 + e = 3λ/4", "v = fλ"]
    assert found("F = m a = 5 N") == ["F = m a"]  # a value after a chain of equalities


def test_a_prism_s_dispersion_from_its_minimum_deviation() -> None:
    # n from the minimum deviation and the apex angle written in degrees and
    # minutes, then Cauchy's formula over the lines of a mercury lamp.
    rng = np.random.default_rng(9)
    lam = np.array([404.7, 435.8, 491.6, 546.1, 577.0, 579.1, 623.4, 690.7])
    apex = 60 + 2 / 60
    n = 1.5046 + 4200 / lam**2 + rng.normal(0, 2e-5, lam.size)
    d_min = 2 * np.degrees(np.arcsin(n * np.sin(np.radians(apex / 2)))) - apex
    folder = notes_folder(
        "Dispersion of a glass prism by minimum deviation.\nApex angle measured A = 60°02′.\n"
        "n = sin((A + D_min)/2) / sin(A/2)\nCauchy: n(λ) = A_c + B/λ²\n"
        "Find the Cauchy constants A_c and B (B in nm²).",
        table("deviation.csv", {"lambda (nm)": lam, "D_min (deg)": d_min}),
        source="notes.txt",
    )
    req = read_request(folder, catalogue())
    (d,) = req.derived
    assert d.constants == (("A", apex, "deg"),)  # 60°02′ is 60.033°
    got = _answers(folder)
    assert abs(got["A_c"]["value"] - 1.5046) <= 3 * got["A_c"]["se"]
    assert abs(got["B"]["value"] - 4200) <= 3 * got["B"]["se"]


def _gas_against_temperature(asked: str) -> ReadResult:
    """Whiteside's kind of folder: gas used against the outside temperature."""
    temp = np.linspace(-1, 10, 12)
    return notes_folder(
        f"Consumption falls linearly with the outside temperature: Gas = a + b*Temp.\n{asked}",
        table("gas.csv", {"Temp (°C)": temp, "Gas (1000 ft³)": 6.85 - 0.39 * temp}),
        source="README.md",
    )


def test_a_formula_over_named_columns_keeps_their_names_whole() -> None:
    """ "Gas = a + b*Temp" over the columns Gas and Temp: not G·a·s (symbols
    of the catalogue), and "(Gas = 0, T = -a/b)" is a condition on the
    column, no constant."""
    folder = _gas_against_temperature(
        "Report the slope b, and the temperature at which no heating is needed (Gas = 0, T = -a/b)."
    )
    req = read_request(folder, catalogue())
    formulas = [m.formula for m in req.models if m.how == "formula"]
    assert any(f and f.replace(" ", "") == "Gas=a+b*Temp" for f in formulas), req.models
    assert "Gas" not in {c.symbol for c in req.constants}
    assert {b.column for b in req.bindings} >= {"Gas", "Temp"}


def test_a_straight_line_over_other_quantities_is_the_line_the_notes_write() -> None:
    """A line is the shape of many laws (a thermocouple, a calibration):
    "Gas = a + b*Temp" is fitted as written, with no law's words, standards
    or limits of detection; "V = I R" in the law's own letters stays Ohm's."""
    req = read_request(_gas_against_temperature("Report the slope b."), catalogue())
    assert [(m.key, m.how) for m in req.models] == [(None, "formula")], req.models
    current = np.linspace(0.1, 1.0, 8)
    ohm = notes_folder(
        "Ohm's law: V = I R. Find R.",
        table("iv.csv", {"I (A)": current, "V (V)": 47.0 * current}),
        source="notes.txt",
    )
    assert [m.key for m in read_request(ohm, catalogue()).models if m.key] == ["ohm"]
