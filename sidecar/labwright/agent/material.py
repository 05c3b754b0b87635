"""The deterministic material given to the model before it writes a word.

The zero-LLM scan and the readers' datasets become a per-file text digest
(names, columns with units, first rows, notes), and the offline writer's
computed values (fits, summaries) become one more "file" of the digest, so
the model quotes computed numbers instead of redoing arithmetic. The same
values feed number provenance afterwards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from labwright.ingest.types import Dataset, Inventory, ReadResult
from labwright.verify.numbers import numbers_in_text

PREVIEW_ROWS = 8


def _format_value(value: object) -> str:
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return str(value)


def dataset_text(dataset: Dataset) -> str:
    lines = [f"dataset {dataset.name} ({dataset.kind}) from {dataset.source}"]
    if dataset.labels:
        lines.append("labels: " + ", ".join(f"{k}={v}" for k, v in dataset.labels.items()))
    if dataset.columns:
        lines.append(
            f"{dataset.n_rows} rows; columns: " + ", ".join(c.label for c in dataset.columns)
        )
        for row in range(min(PREVIEW_ROWS, dataset.n_rows)):
            lines.append(
                "  "
                + ", ".join(
                    _format_value(c.values[row]) for c in dataset.columns if row < len(c.values)
                )
            )
        if dataset.n_rows > PREVIEW_ROWS:
            lines.append(f"  ... {dataset.n_rows - PREVIEW_ROWS} more rows")
    if dataset.matrix is not None:
        lines.append(f"matrix of shape {dataset.matrix.shape}")
    lines += dataset.notes
    return "\n".join(lines)


@dataclass
class Material:
    """Everything the model may base a claim on, and every value a number may come from."""

    files: dict[str, str] = field(default_factory=dict)
    values: list[float] = field(default_factory=list)
    text: str = ""

    def add(self, name: str, text: str) -> None:
        self.files[name] = (self.files.get(name, "") + "\n" + text).strip()


def collect_material(
    inventory: Inventory, read: ReadResult, provenance_json: Path | None = None
) -> Material:
    material = Material()
    listing = [f"{e.path} ({e.size} bytes, {e.bucket})" for e in inventory.files]
    material.add("_folder_listing", "\n".join(listing) or "(empty)")
    for document in read.documents:
        material.add(document.source, document.text)
    for dataset in read.datasets:
        material.add(dataset.source, dataset_text(dataset))
        for column in dataset.numeric_columns:
            finite = column.values[np.isfinite(column.values.astype(float))]
            material.values.extend(float(v) for v in finite[:100_000])
        if dataset.matrix is not None and dataset.matrix.dtype.kind in "biuf":
            material.values.extend(float(v) for v in np.ravel(dataset.matrix)[:100_000])
    for skipped in read.skipped:
        material.add(skipped.source, f"(not readable: {skipped.reason})")
    material.text = "\n".join(material.files.values())
    material.values.extend(numbers_in_text(material.text))
    if provenance_json is not None and provenance_json.is_file():
        entries = json.loads(provenance_json.read_text(encoding="utf-8")).get("numbers", [])
        add_computed(material, entries)
    return material


def add_computed(material: Material, entries: list[dict[str, object]]) -> None:
    """Add the offline writer's computed values (its provenance entries) as one more "file".

    Added to the material collected before, so the folder's digest is not built twice.
    """
    computed = [f"{e['printed']} = {e['computation']} ({e.get('file', '')})" for e in entries]
    text = "Values computed from the data by code:\n" + "\n".join(computed)
    material.add("_computed_results", text)
    for entry in entries:
        try:
            material.values.append(float(entry["value"]))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue  # "nan"/"inf" were stored as strings
    material.text = "\n".join(material.files.values())
    material.values.extend(numbers_in_text(text))
