"""Numbered repeat columns read as one quantity, and a time over several
periods read as that many periods: both bind the law's variable."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.analysis.cycles import cycles_in, cycles_timed_in_notes
from labwright.analysis.replicates import replicate_stems
from labwright.analysis.request import AnalysisRequest

from .conftest import Read
from .tables import mm_values, table


def _bound(req: AnalysisRequest, model: str) -> dict[str, tuple[str, int]]:
    return {b.variable: (b.column, b.per) for b in req.bindings if b.model == model}


@pytest.mark.parametrize(
    ("names", "stems"),
    [
        (["S", "v1", "v2", "v3"], {"v1": "v", "v2": "v", "v3": "v"}),
        (["m", "t trial 1", "t trial 2"], {"t trial 1": "t", "t trial 2": "t"}),
        (["x", "A_run1", "A_run2", "B"], {"A_run1": "A", "A_run2": "A"}),
        # Chinese counts with their measure word: flasks, times, tubes.
        (["时间", "OD600 第1瓶", "OD600 第2瓶"], {"OD600 第1瓶": "OD600", "OD600 第2瓶": "OD600"}),
        (["c", "A 第1次", "A 第2次"], {"A 第1次": "A", "A 第2次": "A"}),
        (["t", "v0"], {}),  # a lone numbered name is a name
        (["x1", "y"], {}),
    ],
)
def test_replicate_stems(names: list[str], stems: dict[str, str]) -> None:
    assert replicate_stems(names) == stems


@pytest.mark.parametrize(
    ("name", "said", "n"),
    [
        ("10T", "", 10),
        ("20T trial 2", "", 20),
        ("20 periods", "", 20),
        ("30次全振动时间", "", 30),
        ("t_10", "the time of 10 swings", 10),
        ("t_10", "", None),  # no word says what it counts
        ("T", "", None),
        ("Trial 10", "", None),
        ("10 Temp", "", None),
    ],
)
def test_cycles_in(name: str, said: str, n: int | None) -> None:
    assert cycles_in(name, said) == n


def test_numbered_repeats_of_the_rate_bind_the_rate(read: Read) -> None:
    s, v = mm_values()
    data = table("enzyme.csv", {"S (mM)": s, "v1 (uM/min)": v, "v2 (uM/min)": v * 1.02,
                                "v3 (uM/min)": v * 0.98})  # fmt: skip
    req = read("Michaelis-Menten kinetics: find Km and Vmax.", data)
    assert _bound(req, "michaelis_menten") == {"S": ("S", 1), "v": ("v1", 1)}


def test_a_time_over_twenty_swings_is_twenty_periods(read: Read) -> None:
    length = np.linspace(0.3, 1.2, 6)
    data = table("swings.csv", {"L (m)": length, "20T (s)": 40 * np.pi * np.sqrt(length / 9.8)})
    req = read("Simple pendulum: determine g.", data)
    assert _bound(req, "pendulum") == {"L": ("L", 1), "T": ("20T", 20)}


def test_the_divided_time_gives_the_law_its_period() -> None:
    """End to end through the real catalogue and the fit: g from a column
    timed over 10 swings."""
    from labwright.analysis.catalogue.load import catalogue
    from labwright.analysis.plan import analyse_folder
    from labwright.analysis.request_rules import read_request
    from labwright.ingest.types import DocumentText, ReadResult

    rng = np.random.default_rng(5)
    length = np.linspace(0.3, 1.2, 8)
    t10 = 20 * np.pi * np.sqrt(length / 9.79) * (1 + rng.normal(0, 0.002, length.size))
    data = table("swings.csv", {"L (m)": length, "10T (s)": t10})
    folder = ReadResult(
        datasets=[data], documents=[DocumentText("notes.md", "Simple pendulum: determine g.")]
    )
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    g = next(a for a in fa.record()["answers"] if a["quantity"] == "g")
    assert abs(g["value"] - 9.79) < 3 * g["se"]


@pytest.mark.parametrize(
    ("notes", "n"),
    [
        ("Timed 20 full oscillations for each string length, three times each.", 20),
        ("We recorded the time for 10 swings with a stopwatch.", 10),
        ("For each mass, 25 oscillations were timed.", 25),
        ("用秒表记录摆动 30 次全振动的时间，每个摆长测两次。", 30),
        ("Timed 10 swings for the short lengths and 20 swings for the long ones.", None),
        ("The pendulum made 20 oscillations before it stopped.", None),  # no timing
        ("Timed 1 oscillation.", None),
    ],
)
def test_a_count_the_notes_time_is_read_once(notes: str, n: int | None) -> None:
    assert cycles_timed_in_notes(notes) == n


def test_the_notes_count_divides_the_time_readings_not_a_period_column(read: Read) -> None:
    length = np.linspace(0.4, 1.1, 6)
    t = 40 * np.pi * np.sqrt(length / 9.8)
    timed = table("t.csv", {"L (cm)": 100 * length, "t1 (s)": t, "t2 (s)": t * 1.001})
    req = read("Simple pendulum. Timed 20 full oscillations for each length. Find g.", timed)
    assert _bound(req, "pendulum")["T"] == ("t1", 20)
    period = table("p.csv", {"L (cm)": 100 * length, "T (s)": t / 20})
    req = read("Simple pendulum. Timed 20 full oscillations, then divided by 20. Find g.", period)
    assert _bound(req, "pendulum")["T"] == ("T", 1)
