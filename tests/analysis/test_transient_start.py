"""A law that starts at t = 0 (an exponential in time) is fitted from t = 0
on: an oscilloscope's pre-trigger samples, where the capacitor still sat at
its charged voltage, are left out, in the report and in its compendium."""

from __future__ import annotations

import numpy as np

from labwright.analysis.analyses.fit import FitOutcome
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.analysis.transient import before_start, transient_time
from tests.analysis.request.tables import folder, table
from tests.analysis.test_fit_kind import _recomputes

TAU = 0.452


def _capture() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(5)
    t = np.arange(-0.1, 2.4, 0.005)
    u = np.where(t < 0, 4.96, 4.96 * np.exp(-np.clip(t, 0, None) / TAU))
    return {"t (s)": t, "u (V)": np.round((u + rng.normal(0, 0.015, t.size)) / 0.02) * 0.02}


def test_pre_trigger_samples_are_left_out_of_a_discharge() -> None:
    notes = "RC discharge, trigger at t = 0.\nU = U0·e^(−t/RC)\nFind the time constant τ.\n"
    read = folder(notes, table("capture.csv", _capture()))
    fa = analyse_folder(read, read_request(read, catalogue()))
    (a,) = [a for a in fa.analyses if a.kind == "fit"]
    assert isinstance(a.result, FitOutcome)
    assert any("before t = 0" in n.en for n in a.result.binding.prepared.notes)
    (tau,) = [x for x in fa.sheet.answers if x.quantity == "tau"]
    assert tau.se is not None and abs(tau.value - TAU) <= 3 * tau.se
    _recomputes(read, fa)  # the compendium leaves the same samples out


def test_only_laws_that_start_at_zero_drop_earlier_samples() -> None:
    entries = catalogue()
    assert transient_time(entries["rc_discharge"]) == "t"
    assert transient_time(entries["radioactive_decay"]) == "t"
    assert transient_time(entries["ohm"]) is None
    assert transient_time(entries["uniform_acceleration"]) is None
    t = np.array([-0.2, -0.1, 0.0, 0.1, 0.2])
    early = before_start(t, 3)
    assert early is not None and early.tolist() == [True, True, False, False, False]
    assert before_start(t, 4) is None  # too few left from t = 0 on
    assert before_start(np.abs(t), 3) is None  # nothing before t = 0
