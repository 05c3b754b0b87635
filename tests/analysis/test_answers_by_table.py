"""Answers of one quantity from several tables name their table: a
workbook's sheets (one per herbicide) or files (one per spring)."""

from __future__ import annotations

from labwright.analysis.catalogue.schema import Text
from labwright.analysis.plan import _told_apart_by_table
from labwright.analysis.results import Answer
from labwright.ingest.types import Provenance


def _answer(file: str, sheet: str | None, quantity: str = "EC50") -> Answer:
    return Answer(
        quantity, Text("half-maximal concentration", "半数效应浓度"), "EC_{50}", 1.0, 0.1,
        "g/ha", Text("fit", "拟合"), "dose_response",
        sources=(Provenance(file, sheet, None, "dose"),),
    )  # fmt: skip


def test_two_sheets_name_their_answers_by_sheet() -> None:
    out = _told_apart_by_table([_answer("h.xlsx", "草甘膦"), _answer("h.xlsx", "灭草松")])
    assert [a.label.zh for a in out] == ["半数效应浓度（草甘膦）", "半数效应浓度（灭草松）"]
    assert [a.label.en for a in out] == [
        "half-maximal concentration (草甘膦)", "half-maximal concentration (灭草松)"
    ]  # fmt: skip
    # The record keeps the table apart from the label: "EC50 (草甘膦)" is found
    # by the quantity's name and the sheet's.
    assert [a.record()["part"] for a in out] == ["草甘膦", "灭草松"]
    assert {a.record()["quantity"] for a in out} == {"EC50"}


def test_sheets_of_one_file_beside_another_file() -> None:
    out = _told_apart_by_table(
        [_answer("d.xlsx", "R10k"), _answer("d.xlsx", "R22k"), _answer("scope.mat", None)]
    )
    assert [a.label.en.rsplit(" ", 1)[-1] for a in out] == ["(R10k)", "(R22k)", "(scope)"]


def test_two_files_name_their_answers_by_file_and_one_table_keeps_its_names() -> None:
    out = _told_apart_by_table([_answer("runs/spring_A.csv", None), _answer("spring_B.csv", None)])
    assert [a.label.en for a in out] == [
        "half-maximal concentration (spring_A)", "half-maximal concentration (spring_B)"
    ]  # fmt: skip
    same = [_answer("a.csv", None), _answer("a.csv", None)]  # two peaks of one table
    assert _told_apart_by_table(same) == same
    alone = [_answer("a.csv", None), _answer("b.csv", None, quantity="h")]
    assert _told_apart_by_table(alone) == alone
