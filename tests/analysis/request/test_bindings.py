"""Variables bound to columns: by symbol, words, unit and the notes' words;
never an index, never a set-point as the response; the same binding for any
column order and any usual spelling of the headers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from labwright.analysis.request import AnalysisRequest

from .conftest import Read
from .tables import mm_values, table


def _bound(req: AnalysisRequest, model: str) -> dict[str, str]:
    return {b.variable: b.column for b in req.bindings if b.model == model}


def test_symbols_and_units_bind_and_the_index_is_skipped(read: Read) -> None:
    s, v = mm_values()
    data = table("kinetics.csv", {"No.": np.arange(1, 9), "[S] (mM)": s, "rate (uM/min)": v})
    req = read("Fit the Michaelis-Menten equation; find Km and Vmax.", data)
    assert _bound(req, "michaelis_menten") == {"S": "[S]", "v": "rate"}
    unit = {b.variable: b.unit for b in req.bindings}
    assert unit == {"S": "mM", "v": "uM/min"}
    assert all(b.evidence.reason for b in req.bindings)


def test_a_set_point_is_never_the_response(read: Read) -> None:
    t = np.linspace(0, 900, 10)
    data = table(
        "cooling.csv",
        {
            "time (s)": t,
            "T_set (°C)": np.full(10, 20.0) + np.arange(10) % 2,
            "T_sample (°C)": 20 + 60 * np.exp(-t / 200),
        },
    )
    req = read("Newton cooling: find the time constant.", data)
    assert _bound(req, "newton_cooling") == {"t": "time", "T": "T_sample"}


def test_a_unit_that_contradicts_the_variable_rules_the_column_out(read: Read) -> None:
    length = np.linspace(0.2, 1.0, 5)
    data = table(
        "pendulum.csv",
        {
            "L (m)": length,
            "T (°C)": [20, 21, 20, 22, 21],
            "period (s)": 2 * np.pi * np.sqrt(length / 9.81),
        },
    )
    req = read("Find g from the pendulum.", data)
    assert _bound(req, "pendulum") == {"L": "L", "T": "period"}


def test_a_headerless_table_binds_by_the_notes_words_with_their_units(read: Read) -> None:
    t = np.linspace(0, 600, 12)
    data = table("scope.csv", {"col1": t, "col2": 5 * np.exp(-t / 100)})
    notes = "The first column is the time in s, the second the capacitor voltage in V. Find the time constant of the RC discharge."
    req = read(notes, data)
    assert _bound(req, "rc_discharge") == {"t": "col1", "V": "col2"}
    assert {b.variable: b.unit for b in req.bindings} == {"t": "s", "V": "V"}


def test_a_column_described_in_the_notes_binds_by_those_words(read: Read) -> None:
    s, v = mm_values()
    data = table("enzyme.csv", {"x": s, "y": v})
    notes = "x: substrate concentration in mM\ny: initial rate in uM/min\nDetermine Km and Vmax."
    req = read(notes, data)
    assert _bound(req, "michaelis_menten") == {"S": "x", "v": "y"}
    assert {b.variable: b.unit for b in req.bindings} == {"S": "mM", "v": "uM/min"}


def test_runs_bind_the_law_across_their_file_names(read: Read) -> None:
    t = np.linspace(0, 600, 10)
    runs = [
        table(f"run_T{T}C.csv", {"t (s)": t, "A": np.exp(-0.001 * T * t)}) for T in (25, 35, 45, 55)
    ]
    req = read(
        "Find the activation energy from the rate constants at four bath temperatures.", *runs
    )
    across = {b.variable: b for b in req.bindings if b.model == "arrhenius"}
    assert across["T"].source == "file_names" and across["T"].unit == "°C"
    assert across["k"].source == "per_run" and across["k"].column == "first_order.k"
    assert _bound(req, "first_order") == {"t": "t", "c": "A"}
    assert req.procedure == "run_series"
    assert {f.value for f in req.files if f.role == "run"} == {25.0, 35.0, 45.0, 55.0}


def test_a_law_with_no_column_for_its_variable_is_unanswered_with_why(read: Read) -> None:
    data = table("data.csv", {"t (s)": np.linspace(0, 10, 8), "V (V)": np.linspace(5, 1, 8)})
    req = read("Find Km and Vmax of the Michaelis-Menten law.", data)
    assert not _bound(req, "michaelis_menten")
    assert any("substrate" in u.why for u in req.unanswered)


# -- property: column order and header spelling do not change the binding -----------

_S_HEADERS = [
    "[S] (mM)",
    "S/mM",
    "c_S [mM]",
    "substrate (mM)",
    "Substrate concentration (mM)",
    "[S] mM".replace(" mM", " (mM)"),
]
_V_HEADERS = [
    "v (uM/min)",
    "rate (µM/min)",
    "v0 [uM/min]",
    "initial rate (uM/min)",
    "Rate/uM/min".replace("/uM/min", " (uM/min)"),
    "V0 (µM/min)",
]
_OTHER = {"No.": np.arange(1, 9), "Temperature set (°C)": np.full(8, 25.0) + np.arange(8) % 2}


@settings(max_examples=40, deadline=None)
@given(
    s_header=st.sampled_from(_S_HEADERS),
    v_header=st.sampled_from(_V_HEADERS),
    order=st.permutations(["S", "v", "No.", "Temperature set (°C)"]),
)
def test_any_column_order_and_header_spelling_binds_the_same(
    s_header: str, v_header: str, order: list[str]
) -> None:
    from labwright.analysis.request_rules import read_request
    from labwright.ingest.types import DocumentText, ReadResult

    from .catalogue_fixture import CATALOGUE

    s, v = mm_values()
    values = {"S": (s_header, s), "v": (v_header, v)}
    columns = {}
    for key in order:
        header, vals = values.get(key, (key, _OTHER.get(key)))
        columns[header] = vals
    folder = ReadResult(
        datasets=[table("enzyme.csv", columns)],
        documents=[DocumentText("README.md", "Michaelis-Menten kinetics: find Km and Vmax.")],
    )
    req = read_request(folder, CATALOGUE)
    bound = {b.variable: b for b in req.bindings if b.model == "michaelis_menten"}
    assert set(bound) == {"S", "v"}
    assert bound["S"].column == table("x", {s_header: s}).columns[0].name
    assert bound["v"].column == table("x", {v_header: v}).columns[0].name
    assert bound["S"].unit == "mM" and bound["v"].unit in {"uM/min", "µM/min"}


def test_a_named_column_in_foreign_units_binds_where_the_law_holds_in_any_unit() -> None:
    # Real enzyme data in ppm and counts/min^2: Michaelis-Menten holds in any
    # unit of S and v (Km and Vmax take theirs), so "[S] (ppm)" and
    # "v (counts/min^2)" are its variables, and the reason says why.
    from labwright.analysis.catalogue.load import catalogue as load_catalogue
    from labwright.analysis.quantities import dimensionality as dimension
    from labwright.analysis.quantities import is_proxy
    from labwright.analysis.request_rules.bindings import score
    from labwright.analysis.request_rules.columns import FolderColumn

    def column(name: str, unit: str) -> FolderColumn:
        return FolderColumn(
            file="d.csv", sheet=None, table="d", name=name, position=1, unit=unit,
            unit_from="the header", dimension=dimension(unit), role="measurement",
            role_reason="", set_point=None, described="", numeric=True, increasing=False,
        )  # fmt: skip

    entries = load_catalogue()
    mm = entries["michaelis_menten"]
    s_var = next(v for v in mm.variables if v.name == "S")
    v_var = next(v for v in mm.variables if v.name == "v")
    bound_s = score(s_var, column("[S]", "ppm"), mm)
    bound_v = score(v_var, column("v", "counts/min^2"), mm)
    assert bound_s is not None and bound_v is not None
    assert "any unit" in bound_s.reasons[-1]
    # Without the law to check, or in a physical unit of another dimension, no.
    assert score(s_var, column("[S]", "ppm")) is None
    assert score(s_var, column("[S]", "kg"), mm) is None
    assert is_proxy("counts/min") and is_proxy("%") and not is_proxy("kg") and not is_proxy("degC")
    pendulum = entries["pendulum_small_angle"]
    t_var = next(v for v in pendulum.variables if v.name == "T")
    assert score(t_var, column("T", "degC"), pendulum) is None


def _real_read(notes: str, *datasets: object) -> AnalysisRequest:
    from labwright.analysis.catalogue.load import catalogue as load_catalogue
    from labwright.analysis.request_rules import read_request
    from labwright.ingest.types import DocumentText, ReadResult

    folder = ReadResult(datasets=list(datasets), documents=[DocumentText("notes.md", notes)])  # type: ignore[arg-type]
    return read_request(folder, load_catalogue())


def test_a_count_the_law_uses_binds_though_it_steps_like_a_row_counter() -> None:
    n = np.array([3.0, 4.0, 5.0, 6.0])
    lam = 1e9 / (1.0968e7 * (0.25 - 1 / n**2))
    data = table("lines.json", {"n": n, "wavelength (nm)": lam})
    req = _real_read(
        "Balmer lines measured with a grating spectrometer (upper level n and wavelength "
        "in nm). Find the Rydberg constant R.",
        data,
    )
    assert _bound(req, "rydberg") == {"n": "n", "lam": "wavelength"}
    # The spectrometer is the instrument, not the grating equation.
    assert [m.key for m in req.models] == ["rydberg"]


def test_a_row_counter_is_never_a_response_nor_bound_by_words() -> None:
    from labwright.analysis.catalogue.load import catalogue as load_catalogue
    from labwright.analysis.request_rules.bindings import score
    from labwright.analysis.request_rules.columns import FolderColumn

    def counter(name: str) -> FolderColumn:
        return FolderColumn(
            file="d.csv", sheet=None, table="d", name=name, position=1, unit=None,
            unit_from="", dimension=None, role="index", role_reason="a row counter",
            set_point=None, described="", numeric=True, increasing=True,
        )  # fmt: skip

    rydberg = load_catalogue()["rydberg"]
    n_var = next(v for v in rydberg.variables if v.name == "n")
    lam_var = next(v for v in rydberg.variables if v.name == "lam")
    assert score(n_var, counter("n")) is not None
    assert score(n_var, counter("No.")) is None
    assert score(lam_var, counter("lam")) is None


def test_units_the_notes_write_as_a_header_does() -> None:
    from labwright.analysis.request_rules.columns import table_columns
    from labwright.analysis.request_rules.text import read_notes
    from labwright.ingest.types import DocumentText

    t = np.linspace(0, 0.1, 50)
    data = table("波形.mat", {"t": t, "u": 3.2 * np.sin(2 * np.pi * 50 * t)})
    for text in (
        "示波器记录的信号（波形.mat：变量 t 为时间/s，u 为电压/V）。",
        "The trace (wave.mat: t is the time in s, u is the voltage in V).",
    ):
        cols = table_columns(data, read_notes([DocumentText("n.txt", text)]))
        assert {c.name: c.unit for c in cols} == {"t": "s", "u": "V"}, text
        assert "u" not in cols[0].described


def test_an_ac_voltage_in_chinese_names_the_sinusoid() -> None:
    t = np.linspace(0, 0.1, 200)
    data = table("波形.mat", {"t (s)": t, "u (V)": 3.2 * np.sin(2 * np.pi * 50 * t)})
    req = _real_read("示波器记录的交流电压信号。要求：求信号的频率和振幅。", data)
    assert {(a.model, a.quantity) for a in req.asked} == {("sinusoid", "f"), ("sinusoid", "A")}
    assert _bound(req, "sinusoid") == {"t": "t", "y": "u"}


def test_camel_case_names_are_words() -> None:
    from labwright.analysis.request_rules.columns import table_columns
    from labwright.analysis.request_rules.text import read_notes

    from .tables import table as make_table

    ds = make_table("c.csv", {"BodySize (g)": [1.0, 2.0], "pH": [7.0, 7.1], "dT (K)": [1.0, 2.0]})
    words = {c.name: c.words for c in table_columns(ds, read_notes([]))}
    assert words == {"BodySize": "Body Size", "pH": "pH", "dT": "dT"}  # symbols stay whole
