"""Units of the analysis (analysis/quantities.py): the spellings lab headers
use, conversions the laws need and the printed form of a result's unit."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis import quantities
from labwright.analysis.quantities import (
    display,
    factor,
    normalise_unit,
    parse_unit,
    same_dimension,
    to_absolute,
)


@pytest.mark.parametrize(
    ("header", "same_as"),
    [
        ("°C", "degC"), ("℃", "degC"), ("（℃）", "degC"), ("(°C)", "degC"), ("摄氏度", "degC"),
        ("K", "kelvin"),
        ("µS/cm", "microsiemens/centimeter"), ("μS/cm", "microsiemens/centimeter"),
        ("uS/cm", "microsiemens/centimeter"), ("mS·cm⁻¹", "millisiemens/centimeter"),
        ("µA", "microampere"), ("μA", "microampere"), ("uA", "microampere"),
        ("Ω", "ohm"), ("Ohm", "ohm"), ("kOhm", "kiloohm"), ("kΩ", "kiloohm"), ("MΩ", "megaohm"),
        ("mΩ", "milliohm"),
        ("mL", "milliliter"), ("ml", "milliliter"), ("µL", "microliter"), ("毫升", "milliliter"),
        ("mM", "millimolar"), ("M", "molar"), ("mol/L", "mol/L"), ("mol·L⁻¹", "mol/L"),
        ("mol L-1", "mol/L"), ("mol/dm3", "mol/L"), ("mmol/L", "millimolar"),
        ("counts", "count"), ("Counts", "count"), ("cps", "count/second"),
        ("counts/s", "count/second"), ("cpm", "count/minute"), ("计数", "count"),
        ("a.u.", "dimensionless"), ("arb. units", "dimensionless"), ("AU", "dimensionless"),
        ("Abs", "dimensionless"), ("%", "percent"),
        ("s^-1", "1/second"), ("s-1", "1/second"), ("s⁻¹", "1/second"), ("1/s", "1/second"),
        ("/s", "1/second"), ("min", "minute"), ("h", "hour"), ("hr", "hour"), ("秒", "second"),
        ("分钟", "minute"),
        ("nm", "nanometer"), ("Å", "angstrom"), ("eV", "electron_volt"),
        ("kJ/mol", "kJ/mol"), ("kJ mol-1", "kJ/mol"), ("kJ·mol⁻¹", "kJ/mol"),
        ("J/(mol K)", "J/(mol*K)"), ("J mol^-1 K^-1", "J/(mol*K)"),
        ("m/s²", "m/s^2"), ("m s^-2", "m/s^2"), ("N/m", "N/m"), ("N m^-1", "N/m"),
        ("M^-1 s^-1", "1/(molar*second)"), ("L/(mol·cm)", "L/(mol*cm)"), ("cm-1", "1/cm"),
        ("deg", "degree"), ("°", "degree"), ("rad", "radian"), ("Hz", "hertz"),
        ("mmHg", "mmHg"), ("Torr", "torr"), ("kPa", "kPa"), ("atm", "atm"),
        ("G", "1e-4*tesla"), ("mT", "millitesla"), ("g/mL", "g/mL"), ("μg/mL", "ug/mL"),
        ("V", "volt"), ("mV", "millivolt"), ("伏", "volt"), ("µF", "microfarad"),
    ],
)  # fmt: skip
def test_header_spellings_are_read(header: str, same_as: str) -> None:
    unit = parse_unit(header)
    assert unit is not None, header
    reg = quantities.registry()
    expected = reg.Quantity(1.0, reg.parse_units(same_as) if same_as != "1e-4*tesla" else "tesla")
    scale = 1e-4 if same_as == "1e-4*tesla" else 1.0
    one = reg.Quantity(1.0, unit)
    if one._is_multiplicative:
        assert one.to(expected.units).magnitude == pytest.approx(scale)
    else:
        assert unit == reg.parse_units(same_as)


@pytest.mark.parametrize(
    "text",
    # A scale written as a number is not a unit: the e of "1e3" had been read
    # as the elementary charge ("1e3 N" -> e³·N).
    ["", None, "bananas", "counts/bin", "run 2", "xyz/qq", "1e3 N", "1e-3", "2.5E2 Pa", "(1e3 kg)"],
)
def test_what_is_not_a_unit_is_none(text: str | None) -> None:
    assert normalise_unit(text) is None and parse_unit(text) is None


def test_temperatures_on_an_absolute_scale_and_as_differences() -> None:
    kelvin = to_absolute(np.array([0.0, 25.0, 100.0]), "℃")
    assert kelvin is not None
    assert np.allclose(kelvin[0], [273.15, 298.15, 373.15]) and kelvin[1] == "K"
    assert to_absolute(np.array([1.0]), "mm") is None
    # A slope in °C per watt is a slope in K per watt.
    assert factor("°C/W", "K/W") == pytest.approx(1.0)
    assert factor("°C", "K") == pytest.approx(1.0)  # a difference of temperatures
    assert same_dimension("°C", "K")


def test_conversions_the_laws_need() -> None:
    assert factor("mM", "mol/L") == pytest.approx(1e-3)
    assert factor("kJ/mol", "J/mol") == pytest.approx(1e3)
    assert factor("min", "s") == pytest.approx(60.0)
    assert factor("µS/cm", "S/m") == pytest.approx(1e-4)
    assert factor("mL", "L") == pytest.approx(1e-3)
    assert factor("s", "m") is None


@pytest.mark.parametrize(
    ("unit", "shown"),
    [
        ("kJ/mol", "kJ/mol"), ("J/(mol*K)", "J/(mol·K)"), ("1/s", "s⁻¹"), ("M^-1 s^-1", "M⁻¹·s⁻¹"),
        ("m/s^2", "m/s²"), ("µS/cm", "µS/cm"), ("mL", "mL"), ("uM/min", "µM/min"), ("°C", "°C"),
        ("ohm", "Ω"), ("count/s", "counts/s"), ("dimensionless", ""), ("L/(mol*cm)", "L/(mol·cm)"),
        ("degree", "°"),
    ],
)  # fmt: skip
def test_units_print_as_a_lab_report_writes_them(unit: str, shown: str) -> None:
    assert display(unit) == shown


def test_a_long_product_of_units_is_put_in_the_named_unit() -> None:
    reg = quantities.registry()
    q = quantities.readable(reg.Quantity(2.0, "kg*m**2/s**2"))
    assert q.units == reg.joule and q.magnitude == pytest.approx(2.0)
    mixed = quantities.readable(reg.Quantity(3.0, "mM/M"))
    assert mixed.dimensionless and mixed.to("").magnitude == pytest.approx(3e-3)


def test_units_of_one_dimension_on_both_sides_are_cancelled() -> None:
    # ft/mph is a time, mph²/ft an acceleration: told in s and m/s². Units
    # whose cancelling leaves no shorter name (N/cm, V/cm) stay as written.
    reg = quantities.registry()
    t = quantities.readable(reg.Quantity(1.0, "ft/mph"))
    assert t.units == reg.second and t.magnitude == pytest.approx(0.3048 / 0.44704)
    a = quantities.readable(reg.Quantity(1.0, "mph**2/ft"))
    assert a.units == reg.parse_units("m/s**2")
    assert a.magnitude == pytest.approx(0.44704**2 / 0.3048)
    for kept in ("N/cm", "V/cm", "mg/L", "kJ/mol", "ppm/yr"):
        assert quantities.readable(reg.Quantity(1.0, kept)).units == reg.parse_units(kept)


def test_compatibility_characters_are_folded() -> None:
    """The ohm sign (U+2126), the kelvin sign (U+212A), the angstrom sign
    (U+212B) and full-width forms are the units they look like."""
    reg = quantities.registry()
    assert parse_unit("k\u2126") == reg.kiloohm
    assert parse_unit("\u212a") == reg.kelvin
    assert parse_unit("\u212b") == reg.angstrom
    assert parse_unit("ｍＶ") == reg.millivolt


def test_a_year_is_printed_yr_not_annum() -> None:
    assert quantities.latex("year") == r"\mathrm{yr}"
    assert quantities.latex("1/year") == r"\mathrm{yr^{-1}}"
