"""A law measured the other way round: the notes step the law's response
("每隔 0.5 V 记录一次电流") and the other quantity is read. The stepped
column is a setting, and a law with an inverse in the catalogue is fitted
solved for the reading, so the scatter is in the fitted response."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.analyses.fit import FitOutcome
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import FolderAnalysis, analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.request_rules.steps import stated_steps, stepped_by
from labwright.ingest.types import Column, Provenance

from .tables import folder, table

R_TRUE = 47.3


def _ohm(notes: str, columns: dict[str, np.ndarray]) -> FolderAnalysis:
    read = folder(notes, table("iv.csv", columns))
    return analyse_folder(read, read_request(read, catalogue()))


def _fit(fa: FolderAnalysis) -> FitOutcome:
    (a,) = [a for a in fa.analyses if a.kind == "fit"]
    assert isinstance(a.result, FitOutcome)
    return a.result


def _resistance(fa: FolderAnalysis) -> tuple[float, float]:
    (ans,) = [a for a in fa.sheet.answers if a.quantity == "R"]
    assert ans.se is not None
    return ans.value, ans.se


def test_a_stepped_voltage_is_the_setting_and_the_current_the_fitted_reading() -> None:
    rng = np.random.default_rng(11)
    u = np.arange(0.0, 5.01, 0.5)
    i_ma = np.round(u / R_TRUE * 1000 + rng.normal(0, 0.04, u.size), 2)
    notes = "伏安法测电阻\n每隔 0.5 V 记录一次电流。\n欧姆定律 U = IR\n要求：求电阻值 R。\n"
    fa = _ohm(notes, {"U/V": u, "I/mA": i_ma})
    out = _fit(fa)
    assert out.binding.entry.is_inverted
    assert out.binding.response.name == "I"
    (a,) = [a for a in fa.analyses if a.kind == "fit"]
    assert [c.name for c in a.uses.x] == ["U"]  # the set voltage is never the response
    value, se = _resistance(fa)
    assert abs(value - R_TRUE) <= 3 * se


def test_a_stepped_current_leaves_the_law_as_written() -> None:
    rng = np.random.default_rng(12)
    i_ma = np.arange(10.0, 101.0, 10.0)
    u = np.round(i_ma / 1000 * R_TRUE + rng.normal(0, 0.005, i_ma.size), 3)
    notes = "Ohm's law, U = R I.\nThe current was set every 10 mA and the voltage read.\n" \
            "Find the resistance R.\n"  # fmt: skip
    fa = _ohm(notes, {"I (mA)": i_ma, "U (V)": u})
    out = _fit(fa)
    assert not out.binding.entry.is_inverted and out.binding.response.name == "U"
    value, se = _resistance(fa)
    assert abs(value - R_TRUE) <= 3 * se


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("每隔 0.5 V 记录一次电流", (0.5, "V")),
        ("the bath was raised in steps of 5 °C", (5.0, "°C")),
        ("readings every 10 s", (10.0, "s")),
        ("we used 2 mm increments", (2.0, "mm")),
        ("步长为 0.2 mm", (0.2, "mm")),
    ],
)
def test_steps_are_read_in_both_languages(text: str, step: tuple[float, str]) -> None:
    assert step in stated_steps(text)


def test_only_a_column_that_climbs_by_the_step_is_stepped_by_it() -> None:
    prov = Provenance(file="iv.csv")
    steps = stated_steps("每隔 0.5 V 记录一次电流")
    stepped = Column(
        name="U", values=np.array([0.0, 0.5, 1.0, 1.5, 2.0]), unit="V", provenance=prov
    )
    read = Column(
        name="U", values=np.array([0.0, 0.52, 1.07, 1.49, 2.11]), unit="V", provenance=prov
    )
    assert stepped_by(stepped, "V", steps) == "0.5 V"
    assert stepped_by(stepped, "mV", steps) is None  # 0.5 V is 500 mV, not 0.5 mV
    assert stepped_by(read, "V", steps) is None
    assert stepped_by(stepped, "V", stated_steps("每隔 0.5 s 记录一次")) is None
