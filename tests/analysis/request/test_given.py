"""Values the notes give: inputs and constants of the law, values to compare
with, and the units they are given in."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.text import clauses_of
from labwright.analysis.request_rules.values import statements, values_before_nouns
from labwright.ingest.types import DocumentText, ReadResult

from .conftest import Read
from .tables import table


@pytest.mark.parametrize(
    ("text", "subject", "value", "unit", "unc"),
    [
        ("m = 0.250 kg", "m", 0.25, "kg", None),
        ("R = 8.314 J/(mol K)", "R", 8.314, "J/(mol K)", None),
        ("the spring's mass is 12 g", "spring's mass", 12.0, "g", None),
        ("E0 = 10 nM", "E0", 10.0, "nM", None),
        ("Km for this enzyme is reported as 2.5 mM", "Km for this enzyme", 2.5, "mM", None),
        ("弹簧质量为 12 g", "弹簧质量", 12.0, "g", None),
        ("k = (2.5 ± 0.1)×10^-3 s^-1", "k", 2.5e-3, "s^-1", 1e-4),
        ("L = 0.500 ± 0.002 m", "L", 0.5, "m", 0.002),
        ("a total enzyme concentration of 10 nM", "total enzyme concentration", 10.0, "nM", None),
        ("C = 100 µF (tolerance 20 %)", "C", 100.0, "µF", 20.0 / math.sqrt(3.0)),
    ],
)
def test_values_with_units_and_their_subject(
    text: str, subject: str, value: float, unit: str, unc: float | None
) -> None:
    (st,) = statements(clauses_of("n.md", text)[0])
    assert st.subject == subject
    assert st.measured.value == pytest.approx(value)
    assert st.measured.unit == unit
    if unc is None:
        assert st.measured.uncertainty is None
    else:
        assert st.measured.uncertainty == pytest.approx(unc)


@pytest.mark.parametrize(
    "text",
    [
        "Data in L=0.50m.csv and run_T25C.csv.",
        "x = 2 y + 1",
        "Room 4, Tuesday.",
        "Plot ln k ~ 1/T and read the slope.",  # against 1/T: no value, no tesla
        "Filled ~300 mL of water into the beaker.",  # ~ means about: "Filled" is no symbol
        "thermal voltage kT/e = 25.42 mV",  # the value of kT/e, not of e
    ],
)
def test_file_names_and_algebra_are_not_values(text: str) -> None:
    assert statements(clauses_of("n.md", text)[0]) == []


def test_an_input_of_the_law_is_a_given_constant(read: Read) -> None:
    req = read("Mass on a spring: find the spring constant. The spring's mass is 12 g.")
    (c,) = req.constants
    assert (c.symbol, c.value, c.unit) == ("m_s", 12.0, "g")


@pytest.mark.parametrize(
    "notes",
    [
        "Forward I-V curve of a silicon diode at 295 K. Fit the Shockley equation.",
        "在 295 K 下测量硅二极管的正向伏安特性，用肖克利方程拟合。",
    ],
)
def test_the_one_value_in_an_inputs_dimension_is_that_input(notes: str) -> None:
    # The junction temperature has a default (room temperature): the notes'
    # one temperature replaces it.
    v = np.linspace(0.3, 0.6, 8)
    iv = table("iv.csv", {"V (V)": v, "I (A)": 1e-9 * np.exp(v / 0.048)})
    req = read_request(
        ReadResult(datasets=[iv], documents=[DocumentText("n.md", notes)]), catalogue()
    )
    assert [(c.symbol, c.value, c.unit) for c in req.constants] == [("T", 295.0, "K")]


def test_a_parameter_with_a_value_is_an_expected_value_and_asked(read: Read) -> None:
    req = read("Fit the Michaelis-Menten law. Km for this enzyme is reported as 2.5 mM.")
    (e,) = req.expected
    assert (e.quantity, e.model, e.value, e.unit) == ("Km", "michaelis_menten", 2.5, "mM")
    assert ("michaelis_menten", "Km") in {(a.model, a.quantity) for a in req.asked}
    assert req.constants == ()


def test_a_constant_of_the_law_given_in_the_notes(read: Read) -> None:
    req = read("Find the activation energy (Arrhenius). Use R = 8.314 J/(mol K).")
    assert [(c.symbol, c.value) for c in req.constants] == [("R", 8.314)]
    assert req.expected == ()


def test_a_value_whose_unit_contradicts_the_term_is_not_its_value(read: Read) -> None:
    # R of Ohm's law is a resistance; 8.314 J/(mol K) is not one.
    req = read("Ohm's law: find R. The gas constant is R = 8.314 J/(mol K).")
    assert all(e.quantity != "R" for e in req.expected)


def test_compare_with_a_product_of_given_values(read: Read) -> None:
    t = np.linspace(0, 5, 10)
    data = table("discharge.csv", {"t (s)": t, "V (V)": 5 * np.exp(-t)})
    req = read(
        "RC discharge through R = 10 kΩ with C = 100 µF (tolerance 20 %). "
        "Find the time constant and compare it with RC.",
        data,
    )
    (e,) = req.expected
    assert e.quantity == "tau" and e.unit == "s"
    assert e.value == pytest.approx(1.0)
    assert e.uncertainty == pytest.approx(0.2 / math.sqrt(3.0))


def test_notes_in_chinese_give_constants_and_literature_values(read: Read) -> None:
    req = read("用米氏方程拟合。酶浓度 E0 = 10 nM。米氏常数的文献值为 2.5 mM。")
    assert [(c.symbol, c.unit) for c in req.constants] == [("E0", "nM")]
    assert [(e.quantity, e.value) for e in req.expected] == [("Km", 2.5)]


def test_a_fraction_is_a_value() -> None:
    (st,) = statements(clauses_of("n.md", "光栅常数 d = 1/600 mm。")[0])
    assert (st.subject, st.measured.unit) == ("d", "mm")
    assert st.measured.value == pytest.approx(1 / 600)


@pytest.mark.parametrize(
    ("text", "noun", "value", "unit"),
    [
        ("The acid was titrated with 0.1000 mol/L NaOH.", "NaOH", 0.1, "mol/L"),
        ("25.00 mL of acetic acid solution was titrated.", "of acetic acid solution", 25.0, "mL"),
        ("The capacitor discharges through a 10 kΩ resistor.", "resistor", 10.0, "kΩ"),
        ("移取 20.00 mL 待测盐酸。", "待测盐酸", 20.0, "mL"),
        ("用 0.1000 mol/L NaOH 标准溶液滴定。", "NaOH 标准溶液滴定", 0.1, "mol/L"),
    ],
)
def test_a_value_written_before_its_noun(text: str, noun: str, value: float, unit: str) -> None:
    (st,) = values_before_nouns(clauses_of("n.md", text)[0], [])
    assert st.subject == noun
    assert (st.measured.value, st.measured.unit) == (pytest.approx(value), unit)
    assert noun in st.quote


@pytest.mark.parametrize(
    "text",
    [
        "NaOH was added in 0.50 mL steps.",
        "The pH was read every 30 s after each addition.",
        "The reading took 5 min.",
    ],
)
def test_steps_and_intervals_are_not_amounts(text: str) -> None:
    assert values_before_nouns(clauses_of("n.md", text)[0], []) == []


@pytest.mark.parametrize(
    "notes",
    [
        "Titration of acetic acid\n\n25.00 mL of acetic acid solution was titrated with "
        "0.1000 mol/L NaOH. Find the equivalence point.",
        "酸碱滴定\n\n移取 20.00 mL 待测盐酸，用 0.1000 mol/L NaOH 标准溶液滴定。要求：确定滴定终点。",
    ],
)
def test_the_titrations_amounts_are_its_inputs(read: Read, notes: str) -> None:
    req = read(notes)
    given = {c.symbol: (c.value, c.unit) for c in req.constants}
    assert given["c_titrant"] == (pytest.approx(0.1), "mol/L")
    assert given["V_sample"][0] in (pytest.approx(25.0), pytest.approx(20.0))
    assert given["V_sample"][1] == "mL"


def test_a_written_laws_variable_held_at_a_value_is_a_given_constant() -> None:
    # The real catalogue's Beer–Lambert entry has the path length as its
    # variable: a calibration against c holds it at the cuvette's 1.00 cm,
    # which the slope needs (ε = b/l); the law unwritten, the value stays a
    # condition of the measurement.
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.request_rules import read_request
    from labwright.ingest.types import DocumentText, ReadResult

    def constants(notes: str) -> list[tuple[str, float, str | None]]:
        folder = ReadResult(datasets=[], documents=[DocumentText("README.md", notes)])
        return [(c.symbol, c.value, c.unit) for c in read_request(folder, catalogue()).constants]

    said = "Standards were measured at 510 nm in a 1.00 cm cuvette. "
    assert constants(said + "Fit the calibration line A = ε l c and give ε.") == [("l", 1.0, "cm")]
    assert constants(said + "Give the molar absorptivity from the calibration line.") == []


def test_the_ideal_value_is_no_value_to_compare_with() -> None:
    notes = (
        "Diode I-V. Shockley: I = I_s [exp(eV / (n k_B T)) − 1]\n"
        "Q: what are the ideality factor n and the saturation current I_s?\n"
        "(an ideal diode has n = 1; small-signal silicon diodes are usually 1.5–2)\n"
    )
    v = np.linspace(0.3, 0.6, 8)
    iv = table("iv.csv", {"V (V)": v, "I (A)": 1e-9 * np.exp(v / 0.048)})
    req = read_request(
        ReadResult(datasets=[iv], documents=[DocumentText("n.md", notes)]), catalogue()
    )
    assert all(e.quantity != "n" for e in req.expected)
    assert all(c.symbol != "n" for c in req.constants)
    # The ideal gas's constant is still a constant.
    gas = read_request(
        ReadResult(
            datasets=[],
            documents=[
                DocumentText("n.md", "Arrhenius; the ideal gas constant R = 8.314 J/(mol K).")
            ],
        ),
        catalogue(),
    )
    assert [(c.symbol, c.value) for c in gas.constants] == [("R", 8.314)]
