"""The question: goals read from notes in English and Chinese, markup stripped."""

from __future__ import annotations

import pytest

from labwright.analysis.notes import strip_markup
from labwright.analysis.question import read_question

CASES = [
    ("What is the growth rate per year, and the seasonal cycle?", {"trend", "seasonal"}),
    ("Compare the three classes; is there a difference between groups?", {"groups"}),
    (
        "Fit a model of stack loss as a function of the operating variables and discuss outliers.",
        {"dependence", "outliers"},
    ),
    ("Verify that T^2 ∝ L and estimate the uncertainty of g.", {"law", "error"}),
    ("Was the mean flow different before and after 1898?", {"change"}),
    ("求二氧化碳浓度的年增长率和季节变化。", {"trend", "seasonal"}),
    ("比较各组的株高，并分析异常值。", {"groups", "outliers"}),
    ("重复测量 20 次，计算平均值和不确定度。", {"error"}),
    ("研究流量在 1898 年之后是否突变。", {"change"}),
    ("Plot each run individually; put the individual runs in an appendix.", {"appendix"}),
    ("把每个文件的曲线放在附录中。", {"appendix"}),
]


@pytest.mark.parametrize(("text", "goals"), CASES)
def test_goals(text: str, goals: set[str]) -> None:
    q = read_question(text)
    assert goals <= set(q.goals), (q.goals, goals)


def test_named_point_and_response() -> None:
    q = read_question("Was the mean flow different before and after 1898?")
    assert q.change_at == 1898.0
    assert read_question("We want a model of STACKLOSS on the others.").response == "STACKLOSS"
    assert read_question("研究流量在 1898 年之后是否突变。").change_at == 1898.0
    (law,) = read_question("verify T^2 ∝ L").laws
    assert (law.left, law.left_power, law.right, law.right_power) == ("T", 2.0, "L", 1.0)


def test_plain_notes_ask_nothing() -> None:
    assert read_question("Data taken on Tuesday in room 4.").goals == {}


def test_rst_markup_is_stripped() -> None:
    text = ".. _co2:\n\nMauna Loa CO2\n=============\n\n:Source: NOAA\n\nThe ``co2`` column is in ppm, see `NOAA <https://x>`_.\n"
    plain = strip_markup(text)
    assert ".. _co2" not in plain and "====" not in plain
    assert "# Mauna Loa CO2" in plain and "``" not in plain
