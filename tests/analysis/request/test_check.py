"""The gate: every item of a request checked against the catalogue and the
folder; what fails is dropped with why; merging keeps what code read."""

from __future__ import annotations

import numpy as np

from labwright.analysis.request import AnalysisRequest, Binding, Evidence, GivenConstant
from labwright.analysis.request_check import merge_requests, validate_request
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import DocumentText, ReadResult

from .catalogue_fixture import CATALOGUE
from .tables import table

EV = Evidence(source="README.md", phrase="x", reason="r")
T = np.linspace(0, 900, 10)


def _folder(notes: str = "Newton cooling; find the time constant. T_room = 21.5 °C.") -> ReadResult:
    data = table(
        "cool.csv",
        {"n": np.arange(1, 11), "t (s)": T, "T_set (°C)": np.full(10, 20.0) + np.arange(10) % 2,
         "T_sample (°C)": 20 + 60 * np.exp(-T / 200)},
    )  # fmt: skip
    return ReadResult(datasets=[data], documents=[DocumentText("README.md", notes)])


def _binding(variable: str, column: str, unit: str | None = None) -> Binding:
    return Binding(
        model="newton_cooling",
        variable=variable,
        file="cool.csv",
        column=column,
        unit=unit,
        evidence=EV,
    )


def test_bindings_the_folder_cannot_hold_are_dropped_with_why() -> None:
    req = AnalysisRequest(
        bindings=(
            _binding("t", "t", "s"),
            _binding("T", "T_set"),  # a set-point as the response
            _binding("T", "T_missing"),  # no such column
            _binding("t", "n"),  # a row counter
            _binding("q", "t"),  # no such variable
        )
    )
    checked = validate_request(req, CATALOGUE, _folder())
    assert [(b.variable, b.column) for b in checked.request.bindings] == [("t", "t")]
    whys = " | ".join(d.why for d in checked.dropped)
    assert "set-point" in whys and "no column 'T_missing'" in whys and "index" in whys
    assert "no variable" in whys


def test_the_header_unit_wins_and_a_contradicting_unit_is_refused() -> None:
    req = AnalysisRequest(bindings=(_binding("t", "t", "min"), _binding("T", "T_sample", "s")))
    checked = validate_request(req, CATALOGUE, _folder())
    units = {b.variable: b.unit for b in checked.request.bindings}
    assert units == {"t": "s", "T": "°C"}


def test_numbers_must_be_written_in_the_notes() -> None:
    req = AnalysisRequest(
        models=(),
        constants=(GivenConstant(symbol="m_s", value=0.0215, unit="kg", evidence=EV),),
    )
    folder = _folder("Mass on a spring; find k. The spring's mass is 21.5 g.")
    from labwright.analysis.request import NamedModel

    req = req.model_copy(update={"models": (NamedModel(key="spring_mass", evidence=EV),)})
    assert validate_request(req, CATALOGUE, folder).request.constants  # 21.5 g is 0.0215 kg
    invented = req.model_copy(
        update={"constants": (GivenConstant(symbol="m_s", value=0.0300, unit="kg", evidence=EV),)}
    )
    checked = validate_request(invented, CATALOGUE, folder)
    assert checked.request.constants == () and "do not give" in checked.dropped[0].why


def test_merging_keeps_codes_bindings_and_adds_what_code_lacked() -> None:
    folder = _folder()
    code = read_request(folder, CATALOGUE)
    other = AnalysisRequest(bindings=(_binding("t", "T_sample"),))
    merged = merge_requests(code, validate_request(other, CATALOGUE, folder).request)
    assert {b.variable: b.column for b in merged.bindings} == {
        b.variable: b.column for b in code.bindings
    }
