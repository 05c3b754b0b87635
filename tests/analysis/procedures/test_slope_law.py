"""A law's parameter off a calibration slope (procedures/slope_law.py):
ε = b/l from the catalogue's Beer–Lambert entry in the units the columns
and the notes use, and laws whose slope is not the parameter times given
values are not read so."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labwright.analysis.catalogue.load import catalogue, parse_text
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.procedures.slope_law import slope_answer
from labwright.analysis.request import AnalysisRequest, Evidence, GivenConstant
from labwright.ingest.types import Column, Provenance

EV = Evidence(source="notes.md", phrase="-", reason="test")


def _col(name: str, unit: str | None) -> Column:
    return Column(name, np.arange(5.0), Provenance("std.csv", column=name), unit)


def _given(*values: tuple[str, float, float | None, str]) -> AnalysisRequest:
    return AnalysisRequest(
        constants=tuple(
            GivenConstant(symbol=s, value=v, uncertainty=u, unit=unit, evidence=EV)
            for s, v, u, unit in values
        )
    )


def _beer() -> ModelEntry:
    return next(e for e in catalogue() if e.key == "beer_lambert_path")


def test_the_molar_absorptivity_is_the_slope_over_the_path_length_in_its_own_unit() -> None:
    # b = 0.0119 per µM over l = 0.500 cm: ε = 0.0119e6 / 0.5 L/(mol cm).
    b, se_b = 0.0119, 3.4e-5
    got = slope_answer(_beer(), "eps", _given(("l", 0.5, None, "cm")),
                       _col("c", "uM"), _col("A", None), b, se_b)  # fmt: skip
    assert got is not None
    assert got.unit == "L/(mol*cm)"
    assert math.isclose(got.value, b * 1e6 / 0.5, rel_tol=1e-9)
    assert math.isclose(got.se, se_b * 1e6 / 0.5, rel_tol=1e-9)
    assert math.isclose(got.value, b * got.per_slope, rel_tol=1e-12)
    assert [g.symbol for g in got.given] == ["l"]
    # The path length's own uncertainty joins the slope's, relatively.
    unsure = slope_answer(_beer(), "eps", _given(("l", 0.5, 0.005, "cm")),
                          _col("c", "uM"), _col("A", None), b, se_b)  # fmt: skip
    assert unsure is not None
    rel = math.hypot(se_b / b, 0.01)
    assert math.isclose(unsure.se, unsure.value * rel, rel_tol=1e-6)
    assert math.isclose(unsure.given_rel, 0.01, rel_tol=1e-6)


def test_without_the_path_length_or_with_other_columns_nothing_is_read() -> None:
    assert slope_answer(_beer(), "eps", AnalysisRequest(), _col("c", "uM"), _col("A", None),
                        0.0119, 3e-5) is None  # fmt: skip
    # The response column is not the law's response.
    assert slope_answer(_beer(), "eps", _given(("l", 1.0, None, "cm")), _col("c", "uM"),
                        _col("T", "K"), 0.0119, 3e-5) is None  # fmt: skip
    # The blank absorbance is no parameter of the slope.
    assert slope_answer(_beer(), "A0", _given(("l", 1.0, None, "cm")), _col("c", "uM"),
                        _col("A", None), 0.0119, 3e-5) is None  # fmt: skip


_LAWS = """
[[model]]
key = "{key}"
area = "mechanics"
name = {{ en = "test law", zh = "测试定律" }}
asks = {{ en = ["test law"], zh = ["测试定律"] }}
formula = "{formula}"
latex = 'y'

[model.variables.x]
role = "independent"
name = {{ en = "length", zh = "长度" }}
symbols = ["x"]
unit = "m"

[model.variables.y]
role = "response"
name = {{ en = "time", zh = "时间" }}
symbols = ["y"]
unit = "s"

[model.parameters.q]
name = {{ en = "slowness", zh = "慢度" }}
latex = "q"
unit = "{q_unit}"
start = "1"
asks = {{ en = ["slowness"], zh = ["慢度"] }}

[model.parameters.r]
name = {{ en = "offset", zh = "偏移" }}
latex = "r"
unit = "{r_unit}"
start = "1"
asks = {{ en = ["offset"], zh = ["偏移"] }}
"""


@pytest.mark.parametrize(
    ("formula", "q_unit", "r_unit", "read"),
    [
        ("y = q*x + r", "s/m", "s", True),  # an offset drops out of the slope
        ("y = q*x**2 + r", "s/m**2", "s", False),  # not linear in x
        ("y = q*r*x", "s/m", "1", False),  # the slope holds another fitted parameter
        ("y = x/q + r", "m/s", "s", False),  # not proportional to q
    ],
)
def test_only_a_slope_proportional_to_the_parameter_is_read(
    formula: str, q_unit: str, r_unit: str, read: bool
) -> None:
    text = _LAWS.format(key="t", formula=formula, q_unit=q_unit, r_unit=r_unit)
    entries, problems = parse_text(text, "t.toml")
    assert entries, problems
    got = slope_answer(entries[0], "q", AnalysisRequest(), _col("x", "cm"), _col("y", "ms"),
                       2.0, 0.1)  # fmt: skip
    assert (got is not None) == read
    if got is not None:
        # 2 ms/cm is 0.2 s/m.
        assert math.isclose(got.value, 0.2, rel_tol=1e-9)
