import pytest

from labwright.ingest.units import (
    looks_like_unit,
    split_suffix_unit,
    split_suffix_units,
    split_unit,
)


@pytest.mark.parametrize(
    ("header", "name", "unit"),
    [
        ("t (s)", "t", "s"),
        ("U/mV", "U", "mV"),
        ("U / mV", "U", "mV"),
        ("I [A]", "I", "A"),
        ("温度 (°C)", "温度", "°C"),
        ("温度（°C）", "温度", "°C"),
        ("B {mT}", "B", "mT"),
        ("Frequency (Hz)", "Frequency", "Hz"),
        ("  Voltage   (V) ", "Voltage", "V"),
        ("a (m/s^2)", "a", "m/s^2"),
        ("time", "time", None),
        ("Trial (2)", "Trial (2)", None),
        # A force in newtons is a unit; a count "(n)" is not.
        ("F (N)", "F", "N"),
        ("Force [N]", "Force", "N"),
        ("Trial (n)", "Trial (n)", None),
        ("x/y ratio of the two", "x/y ratio of the two", None),
        ("", "", None),
        # A temperature written by its scale's letter is in degrees, not coulombs.
        ("T/C", "T", "°C"),
        ("T_bath (C)", "T_bath", "°C"),
        ("water temperature [F]", "water temperature", "°F"),
        ("T (deg C)", "T", "°C"),
        ("Q (C)", "Q", "C"),  # a charge stays in coulombs
        ("C (F)", "C", "F"),  # a capacitance stays in farads
        # The Celsius sign after a slash, as Chinese tables write it.
        ("t/℃", "t", "℃"),
        ("水温/℃", "水温", "℃"),
        # A compound unit in brackets after the slash (quantity calculus).
        ("k/(L·mol⁻¹·min⁻¹)", "k", "L·mol⁻¹·min⁻¹"),
        ("κ/(μS·cm⁻¹)", "κ", "μS·cm⁻¹"),
        ("入射角 i/(°)", "入射角 i", "°"),
        ("含量 c/(mg/mL)", "含量 c", "mg/mL"),
    ],
)
def test_split_unit(header: str, name: str, unit: str | None) -> None:
    assert split_unit(header) == (name, unit)


@pytest.mark.parametrize(
    "cell", ["s", "mV", "°C", "(A)", "[Hz]", "m/s", "µA", "%", "m/s^2", "kΩ", "m s-1"]
)
def test_units_row_cells(cell: str) -> None:
    assert looks_like_unit(cell)


@pytest.mark.parametrize(
    "cell", ["t", "x", "time", "Voltage", "12", "a long label", "run 3", "", "(2)"]
)
def test_not_unit_cells(cell: str) -> None:
    assert not looks_like_unit(cell)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("time_s", ("time", "s")),
        ("voltage_mV", ("voltage", "mV")),
        ("freq_kHz", ("freq", "kHz")),
        ("U_C", ("U_C", None)),  # a subscript, not coulombs
        ("t_10", ("t_10", None)),
        ("data_1", ("data_1", None)),
        ("T_amb", ("T_amb", None)),
        ("time", ("time", None)),
        # A symbol with a unit suffix, and a rate written with "per".
        ("S_mM", ("S", "mM")),
        ("I_mA", ("I", "mA")),
        ("v0_uM_per_min", ("v0", "uM/min")),
        ("rate_mmol_per_s", ("rate", "mmol/s")),
        ("T_min", ("T_min", None)),  # a minimum, not minutes
        ("I_ph", ("I_ph", None)),  # a photocurrent
        ("m_s", ("m_s", None)),  # the spring's mass, not seconds
        ("k_B", ("k_B", None)),
    ],
)
def test_split_suffix_unit(name: str, expected: tuple[str, str | None]) -> None:
    assert split_suffix_unit(name) == expected


def test_suffix_units_only_where_names_stay_unique() -> None:
    assert split_suffix_units(["sample_A", "sample_V", "time_s"]) == [
        ("sample_A", None),
        ("sample_V", None),
        ("time", "s"),
    ]
    assert split_suffix_units(["time", "time_s"]) == [("time", None), ("time_s", None)]
