"""Values the notes give as repeated readings, and remarks after a unit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.text import clauses_of
from labwright.analysis.request_rules.values import measured_at, statements
from labwright.ingest.types import DocumentText, ReadResult

from .tables import table


def test_repeated_readings_give_their_mean_and_its_standard_error() -> None:
    text = "0.498, 0.501, 0.500, 0.502, 0.499 mm"
    m = measured_at(text, 0)
    assert m is not None and m.unit == "mm"
    readings = [0.498, 0.501, 0.500, 0.502, 0.499]
    assert m.value == pytest.approx(np.mean(readings))
    assert m.uncertainty == pytest.approx(np.std(readings, ddof=1) / math.sqrt(5))


@pytest.mark.parametrize("text", ["0.1, 0.2, 0.4 mM", "10, 20 g", "1, 2, 3"])
def test_levels_or_short_lists_are_not_readings(text: str) -> None:
    m = measured_at(text, 0)
    assert m is None or m.uncertainty is None


def test_a_remark_in_brackets_after_a_unit_leaves_the_unit() -> None:
    [c, *_] = clauses_of("n", "钢丝原长 L = 105.2 cm（米尺测量）；")
    [st] = statements(c)
    assert (st.subject, st.measured.value, st.measured.unit) == ("L", 105.2, "cm")


def test_readings_under_the_line_that_names_them_are_that_quantity() -> None:
    clauses = clauses_of(
        "n", "直径用千分尺在不同位置测了 5 次：\n0.498, 0.501, 0.500, 0.502, 0.499 mm"
    )
    said = [st for c in clauses for st in statements(c)]
    assert len(said) == 1 and "直径" in said[0].subject
    assert said[0].measured.value == pytest.approx(0.5)


def _wire(d_text: str) -> ReadResult:
    rng = np.random.default_rng(3)
    m = np.arange(1.0, 9.0)
    e, length, d, g = 2.0e11, 1.052, 0.5e-3, 9.80
    ext = g * length * m / (e * math.pi * d**2 / 4) * 1e3 + 0.36 + rng.normal(0, 0.002, m.size)
    notes = (
        "拉伸法测定金属丝的杨氏模量\n钢丝原长 L = 105.2 cm（米尺测量）；"
        + d_text
        + "\ng=9.80 m/s²\n"
        "E = F·L / (S·ΔL)，其中 S = πd²/4\n用作图法求钢丝的杨氏模量 E。"
    )
    return ReadResult(
        datasets=[table("yangs.csv", {"荷重 m (kg)": m, "读数 x (mm)": ext})],
        documents=[DocumentText("notes.txt", notes)],
    )


def test_the_uncertainty_of_a_given_input_reaches_the_fitted_parameter() -> None:
    """E ∝ 1/d²: the diameter's relative uncertainty, twice, adds to E's."""
    exact = _wire("直径 d = 0.500 mm")
    measured = _wire("直径用千分尺在不同位置测了 5 次：\n0.496, 0.501, 0.500, 0.504, 0.499 mm")
    answers = []
    for folder in (exact, measured):
        fa = analyse_folder(folder, read_request(folder, catalogue()))
        answers.append(next(a for a in fa.record()["answers"] if a["quantity"] == "E"))
    (plain, with_d) = answers
    d_sem = np.std([0.496, 0.501, 0.500, 0.504, 0.499], ddof=1) / math.sqrt(5)
    from_d = with_d["value"] * 2 * d_sem / 0.5
    assert with_d["se"] == pytest.approx(math.hypot(plain["se"], from_d), rel=0.05)
