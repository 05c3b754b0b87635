"""Quantal dose-response: counts responding of a number tested, fitted by
binomial maximum likelihood; the doses the notes ask for (LC50, LD90)."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.writers import quantal as writer
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.quantal import fit_quantal
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import Column, DocumentText, Provenance, ReadResult
from tests.analysis.request.tables import table

# Martin (1942), rotenone on Macrosiphoniella sanborni: Finney's worked
# example (drc's finney71). drc's log-logistic fit (LL.2, binomial) gives
# LC50 = 4.8289 with SE 0.2496.
DOSE = [0.0, 2.6, 3.8, 5.1, 7.7, 10.2]
TESTED = [49, 50, 48, 46, 49, 50]
AFFECTED = [0, 6, 16, 24, 42, 44]


def _analyse(notes: str, columns: dict[str, list[float]]) -> tuple[list[dict], list[dict]]:
    folder = ReadResult(
        datasets=[table("bioassay.csv", columns)], documents=[DocumentText("notes.md", notes)]
    )
    fa = analyse_folder(folder, read_request(folder, catalogue()))
    record = fa.record()
    return record["answers"], record["analyses"]


def _col(name: str, values: list[float]) -> Column:
    return Column(name, np.asarray(values, dtype=float), Provenance("bioassay.csv"))


def test_finneys_rotenone_assay_gives_drcs_lc50_and_lc90() -> None:
    notes = (
        "Fit a log-logistic dose-response curve to the proportion affected. Report LC50 and LC90."
    )
    answers, analyses = _analyse(
        notes, {"concentration (mg/L)": DOSE, "n tested": TESTED, "affected": AFFECTED}
    )
    assert [a["kind"] for a in analyses] == ["quantal"]
    by = {a["quantity"]: a for a in answers}
    assert by["LC50"]["value"] == pytest.approx(4.8289, rel=2e-4)
    assert by["LC50"]["se"] == pytest.approx(0.2496, rel=1e-2)
    assert by["LC50"]["unit"] == "mg/L"
    assert by["LC90"]["value"] == pytest.approx(9.8021, rel=2e-4)
    # The number tested weights the fit; it is never a response or summarised.
    used = analyses[0]["columns"]
    assert not any("n tested" in ref for use in ("y", "summarised") for ref in used.get(use) or [])


def test_a_chinese_request_for_the_median_lethal_dose() -> None:
    notes = "小鼠急性毒性试验：按对数剂量拟合死亡率，求半数致死剂量及其标准误差。"
    answers, analyses = _analyse(
        notes, {"剂量 (mg/kg)": [10, 15, 22, 33, 50], "供试鼠数": [10] * 5,
                "死亡数": [1, 3, 5, 8, 9]},
    )  # fmt: skip
    assert [a["kind"] for a in analyses] == ["quantal"]
    [ld50] = [a for a in answers if a["quantity"] == "LD50"]
    assert 15 < ld50["value"] < 33 and ld50["se"] > 0 and ld50["unit"] == "mg/kg"


def test_counts_without_an_asked_dose_are_not_a_bioassay() -> None:
    _, analyses = _analyse(
        "Plot the counts.", {"concentration (mg/L)": DOSE, "n tested": TESTED, "affected": AFFECTED}
    )
    assert "quantal" not in [a["kind"] for a in analyses]


def test_the_lc50_is_within_three_standard_errors_in_95_of_100_assays() -> None:
    rng = np.random.default_rng(20261205)
    doses = np.array([1.0, 2.0, 3.5, 5.0, 7.0, 10.0, 15.0])
    true_lc50, slope, n = 5.0, 3.0, 40
    share = 1 / (1 + np.exp(-slope * (np.log(doses) - np.log(true_lc50))))
    hits = 0
    for _ in range(100):
        dead = rng.binomial(n, share).astype(float)
        r = fit_quantal(_col("dose", list(doses)), _col("dead", list(dead)),
                        _col("n", [n] * doses.size), prefix="LC", percents=(50,), unit=None)  # fmt: skip
        assert r is not None
        value, se = r.dose_for(50)
        hits += abs(value - true_lc50) <= 3 * se
    assert hits >= 95


def test_overdispersed_counts_widen_the_standard_error() -> None:
    dead = [2, 18, 9, 30, 22, 38]
    args = (_col("dose", [1, 2, 3, 5, 8, 13]), _col("dead", dead), _col("n", [40] * 6))
    r = fit_quantal(*args, prefix="LD", percents=(50,), unit="mg")
    assert r is not None and r.scaled and r.heterogeneity_p < 0.05
    assert r.cov[1][1] == pytest.approx(r.deviance / r.df * _unscaled_var_b1(*args))


def _unscaled_var_b1(dose: Column, dead: Column, n: Column) -> float:
    import statsmodels.api as sm

    y = np.column_stack([dead.values, n.values - dead.values])
    res = sm.GLM(y, sm.add_constant(np.log(dose.values)), family=sm.families.Binomial()).fit()
    return float(np.asarray(res.cov_params())[1, 1])


@pytest.mark.parametrize(("lang", "words"), [("en", "Abbott"), ("zh", "Abbott")])
def test_a_control_with_responders_is_said_to_need_abbotts_correction(
    lang: str, words: str
) -> None:
    from labwright.analysis.analyses.quantal import QUANTAL
    from labwright.analysis.jobs import Analysis, Job, Uses

    ds = table("bioassay.csv", {"dose": DOSE, "n": TESTED, "dead": [3, 6, 16, 24, 42, 44]})
    from labwright.analysis.analyses.quantal import QuantalBinding

    b = QuantalBinding(ds, ds.column("dose"), ds.column("dead"), ds.column("n"), "LC", (50,))
    job = Job("quantal", ds.source, "test", b, (ds,))
    result = QUANTAL.compute(job)
    assert result is not None and result.control_responders == 3
    text = writer.text(Analysis(job, result, [], Uses()), Ledger(), lang)
    assert words in text


def test_every_number_of_the_text_has_a_chinese_computation() -> None:
    from labwright.agent.offline.computation_words import covered
    from labwright.analysis.analyses.quantal import QUANTAL, QuantalBinding
    from labwright.analysis.jobs import Analysis, Job, Uses

    ds = table("bioassay.csv", {"dose": DOSE, "n": TESTED, "dead": AFFECTED})
    b = QuantalBinding(ds, ds.column("dose"), ds.column("dead"), ds.column("n"), "LC", (50, 90))
    job = Job("quantal", ds.source, "test", b, (ds,))
    result = QUANTAL.compute(job)
    assert result is not None
    ledger = Ledger()
    writer.text(Analysis(job, result, [], Uses()), ledger, "zh")
    computations = {e.computation for e in ledger.entries}
    assert computations and all(covered(c) for c in computations), computations
