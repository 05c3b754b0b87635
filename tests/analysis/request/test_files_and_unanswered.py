"""Roles of files, how replicates are used, the procedure, and what cannot be
answered with why."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.request_rules.files import run_value

from .conftest import Read
from .tables import table

T = np.linspace(0, 300, 8)


@pytest.mark.parametrize(
    ("name", "parameter", "value", "unit"),
    [
        ("run_T25C.csv", "T", 25.0, "°C"),
        ("T=300K.txt", "T", 300.0, "K"),
        ("L=0.50m.csv", "L", 0.5, "m"),
        ("m_200g.csv", "m", 200.0, "g"),
        ("pendulum_L_0p75m.csv", "L", 0.75, "m"),
        ("c0.5mM.csv", "c", 0.5, "mM"),
    ],
)
def test_a_file_name_gives_the_runs_parameter_with_its_unit(
    name: str, parameter: str, value: float, unit: str
) -> None:
    v = run_value(name)
    assert v is not None and (v.parameter, v.value, v.unit) == (parameter, value, unit)


@pytest.mark.parametrize("name", ["data_3.csv", "scan1.txt", "run_012.csv", "results.csv"])
def test_a_number_without_a_quantity_is_no_parameter(name: str) -> None:
    assert run_value(name) is None


def test_background_standards_and_unknowns_by_name(read: Read) -> None:
    req = read(
        "Counts of the source and the background.",
        table("source.csv", {"t (s)": T, "N": T}),
        table("background.csv", {"t (s)": T, "N": T}),
        table("cal.xlsx", {"c (mg/L)": T, "A": T}, sheet="Standards"),
        table("cal.xlsx", {"A": T}, sheet="Unknowns"),
    )
    roles = {(f.file, f.sheet): f.role for f in req.files}
    assert roles == {
        ("background.csv", None): "background",
        ("cal.xlsx", "Standards"): "standards",
        ("cal.xlsx", "Unknowns"): "unknowns",
    }


def test_a_role_the_notes_give_a_file(read: Read) -> None:
    req = read(
        "b.csv holds the counts without the source (background).",
        table("a.csv", {"t (s)": T, "N": T}),
        table("b.csv", {"t (s)": T, "N": T}),
    )
    assert [(f.file, f.role) for f in req.files] == [("b.csv", "background")]


def test_repeat_scans(read: Read) -> None:
    scans = [table(f"scan{i}.txt", {"wavelength (nm)": T, "I": T}) for i in (1, 2, 3)]
    req = read("Three repeat scans of the same sample; average them.", *scans)
    assert [f.role for f in req.files] == ["repeat"] * 3
    assert req.replicates == "average"


def test_samples_alone_are_data_not_unknowns(read: Read) -> None:
    req = read("Measurements.", table("sample1.csv", {"x": T, "y": T}))
    assert req.files == ()


@pytest.mark.parametrize(
    ("notes", "how"),
    [
        ("Fit all replicates together.", "together"),
        ("Use the mean of the replicates at each concentration.", "average"),
        ("三次重复测量取平均。", "average"),
        ("把三组数据一起拟合。", "together"),
    ],
)
def test_replicates(read: Read, notes: str, how: str) -> None:
    assert read(notes).replicates == how


def test_an_input_the_notes_do_not_give_is_unanswered(read: Read) -> None:
    req = read("Michaelis-Menten: find Km, Vmax and the turnover number kcat.")
    (u,) = [u for u in req.unanswered if "kcat" in u.what]
    assert "enzyme concentration" in u.why


def test_a_quantity_the_catalogue_does_not_know_is_unanswered(read: Read) -> None:
    req = read("Determine the Young's modulus of the wire and the period of the pendulum.")
    assert [u.what for u in req.unanswered if "catalogue" in u.why] == ["Young's modulus"]
    req = read("求金属丝的杨氏模量。")
    assert [u.what for u in req.unanswered] == ["杨氏模量"]


@pytest.mark.parametrize(
    "notes",
    ["Find the mean and the uncertainty.", "Determine the best fit line.", "Plot the data."],
)
def test_generic_requests_are_not_unknown_quantities(read: Read, notes: str) -> None:
    assert read(notes).unanswered == ()


def test_the_procedure_follows_the_law_and_the_notes(read: Read) -> None:
    assert read("Find the equivalence volume of the titration.").procedure == "titration"
    assert read("A two-factor experiment: test the interaction.").procedure == "factorial"
    assert read("Nothing in particular.").procedure is None
