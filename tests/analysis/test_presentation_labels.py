"""Axis labels: powers as superscripts, never a caret, and no math parser
for the common case (analysis/presentation.py)."""

from __future__ import annotations

import pytest

from labwright.analysis.presentation import axis_label, unit_mathtext


@pytest.mark.parametrize(
    ("unit", "shown"),
    [
        ("m^3/s", "m³/s"),
        ("s^-1", "s⁻¹"),
        ("m^{2}", "m²"),
        ("kg m^-3", "kg m⁻³"),
        ("L^0.5", "L$^{0.5}$"),
        ("µm", "µm"),
        ("US$", "US\\$"),
    ],
)
def test_powers_are_superscripts(unit: str, shown: str) -> None:
    assert unit_mathtext(unit) == shown


def test_a_power_in_the_name_and_the_unit() -> None:
    assert axis_label("T^2", "s^2") == "T² (s²)"


def test_labels_of_integer_powers_need_no_math_parser() -> None:
    """The label draws as plain text: matplotlib finds no math in it."""
    from matplotlib.text import Text

    label = axis_label("flow", "m^3/s")
    assert "^" not in label
    assert not Text(text=label)._preprocess_math(label)[1]
