"""Gap check: exact deterministic gaps, and the metamorphic relation on deleting data."""

import numpy as np

from labwright.agent.gaps import deterministic_gaps, parse_model_gaps
from labwright.ingest.types import (
    Column,
    Dataset,
    DocumentText,
    FileEntry,
    Inventory,
    Provenance,
    ReadResult,
)


def _material(with_data: bool) -> tuple[Inventory, ReadResult]:
    files = [FileEntry("notes.md", 10, None, "documents")]
    datasets = []
    if with_data:
        files.append(FileEntry("pendulum.csv", 10, None, "data"))
        prov = Provenance("pendulum.csv", column="L (m)")
        datasets.append(
            Dataset(
                "pendulum", "pendulum.csv", "table", [Column("L", np.array([1.0, 2.0]), prov, "m")]
            )
        )
    docs = [DocumentText("notes.md", "Aim: measure g. The data are in pendulum.csv.")]
    return Inventory(files=files), ReadResult(datasets=datasets, documents=docs)


def test_gaps_for_a_plotted_folder_with_notes() -> None:
    inventory, material = _material(with_data=True)
    kinds = [g.kind for g in deterministic_gaps(inventory, material, {"pendulum.csv"})]
    assert kinds == ["no_requirements"]


def test_unplotted_data_and_orphan_figures_are_gaps() -> None:
    inventory, material = _material(with_data=True)
    kinds = [g.kind for g in deterministic_gaps(inventory, material, {"gone.csv"})]
    assert "data_without_figure" in kinds and "figure_without_data" in kinds


def test_metamorphic_deleting_a_data_file_increases_the_gaps() -> None:
    with_data = deterministic_gaps(*_material(with_data=True), {"pendulum.csv"})
    without = deterministic_gaps(*_material(with_data=False), {"pendulum.csv"})
    assert len(without) > len(with_data)
    assert {"no_data", "missing_file"} <= {g.kind for g in without}


def test_requirements_file_removes_that_gap() -> None:
    inventory, material = _material(with_data=True)
    material.documents.append(DocumentText("assignment.pdf", "Write a report."))
    kinds = [g.kind for g in deterministic_gaps(inventory, material, {"pendulum.csv"})]
    assert "no_requirements" not in kinds


def test_model_gaps_are_parsed_or_ignored() -> None:
    assert [g.message for g in parse_model_gaps('{"gaps": ["no calibration data"]}')] == [
        "no calibration data"
    ]
    assert parse_model_gaps("not json") == []
    assert parse_model_gaps('{"gaps": "x"}') == []
