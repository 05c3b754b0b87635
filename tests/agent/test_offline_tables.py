"""Summary tables: the statistics are right, recorded, and names are escaped."""

from __future__ import annotations

import numpy as np

from labwright.agent.offline.provenance import Ledger, unsourced_numbers
from labwright.agent.offline.tables import stats, summary_table
from labwright.ingest.types import Column, Dataset, Provenance
from labwright.verify.tags import untag


def _ds(name: str, values: np.ndarray, unit: str | None = "s") -> Dataset:
    col = Column(name, values, Provenance(file="r_1.csv", column=name), unit)
    return Dataset(name="r_1", source="r_1.csv", kind="table", columns=[col])


def test_stats_match_numpy_and_skip_nan() -> None:
    v = np.array([1.0, 2.0, np.nan, 4.0])
    st = stats(v)
    assert st is not None
    assert st.n == 3
    assert st.mean == np.nanmean(v)
    assert st.std == np.std([1.0, 2.0, 4.0], ddof=1)
    assert (st.min, st.max) == (1.0, 4.0)
    assert stats(np.array([np.nan])) is None


def test_table_numbers_are_in_the_ledger_with_the_column_provenance() -> None:
    ledger = Ledger()
    tex = summary_table(_ds("t_10", np.array([14.1, 14.3, 14.2])), ledger, "en")
    assert "\\begin{table}[H]" in tex and "\\toprule" in tex
    assert "$14.20$" in untag(tex)  # the mean, 4 significant figures
    means = [e for e in ledger.entries if e.computation == "mean"]
    assert means and means[0].file == "r_1.csv" and means[0].column == "t_10"
    doc = "\\begin{document}\n" + tex
    assert unsourced_numbers(doc, ledger.to_dict()) == []


def test_names_from_files_are_escaped() -> None:
    ledger = Ledger()
    tex = summary_table(_ds("50% & $x_1#", np.array([1.0, 2.0])), ledger, "en")
    assert "\\lwtext{50\\% \\& \\$x\\_1\\#}" in tex


def test_single_value_has_no_standard_deviation() -> None:
    tex = summary_table(_ds("x", np.array([3.0])), Ledger(), "en")
    assert " -- " in tex


def test_text_only_dataset_gets_a_preview_table() -> None:
    col = Column("sample", np.array(["A1", "B2"], dtype=object), Provenance(file="s.csv"))
    ds = Dataset(name="s", source="s.csv", kind="table", columns=[col])
    tex = summary_table(ds, Ledger(), "zh")
    assert "\\lwtext{A1}" in tex and "数据概要" in tex


def test_matrix_row() -> None:
    ds = Dataset(name="m", source="m.npy", kind="matrix", matrix=np.arange(6.0).reshape(2, 3))
    ledger = Ledger()
    tex = summary_table(ds, ledger, "en")
    assert "all elements" in tex
    assert {e.printed for e in ledger.entries} >= {"6", "2.5", "1.9", "0", "5.000"}


def test_caret_powers_in_headers_become_superscripts() -> None:
    from labwright.agent.offline.tables import src_text

    assert src_text("T^2 (s^2)") == "\\lwtext{T\\textsuperscript{2} (s\\textsuperscript{2})}"
    assert src_text("v (m s^-1)") == "\\lwtext{v (m s\\textsuperscript{-1})}"
    assert src_text("a^b") == "\\lwtext{a\\textasciicircum{}b}"


def test_counter_column_is_not_summarised_and_mean_follows_the_spread() -> None:
    trial = Column("trial", np.arange(1, 21), Provenance(file="r.csv", column="trial"))
    t10 = Column(
        "t_10", 14.19 + np.linspace(-0.1, 0.1, 20), Provenance(file="r.csv", column="t_10"), "s"
    )
    ds = Dataset(name="r", source="r.csv", kind="table", columns=[trial, t10])
    ledger = Ledger()
    tex = summary_table(ds, ledger, "en")
    assert "\\lwtext{trial}" not in tex
    mean = next(e for e in ledger.entries if e.computation == "mean")
    std = next(e for e in ledger.entries if e.computation.startswith("sample standard deviation"))
    assert std.printed == "0.062" and mean.printed == "14.190"
