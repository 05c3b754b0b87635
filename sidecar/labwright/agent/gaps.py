"""The gap check: what the material lacks, decided by code first.

Deterministic checks answer most of it (data without a figure, a figure
without its data, no notes, no assignment requirements, files the notes name
that are not in the folder). One cheap model call may add gaps a reader would
see; its JSON is parsed or ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from labwright.ingest.types import Inventory, ReadResult

_FILE_MENTION = re.compile(
    r"[\w\-.]+\.(?:csv|tsv|txt|dat|xlsx|xls|json|mat|fig|npy|npz|png|jpe?g)\b"
)
_REQUIREMENT_NAMES = re.compile(
    r"(assignment|requirement|instruction|task|handout|要求|任务|说明)", re.I
)


@dataclass(frozen=True)
class Gap:
    kind: str
    message: str


def deterministic_gaps(
    inventory: Inventory,
    material: ReadResult,
    figure_sources: Iterable[str] = (),
) -> list[Gap]:
    """Gaps that code can see. `figure_sources`: the data file behind each figure."""
    gaps: list[Gap] = []
    present = {entry.path for entry in inventory.files}
    present_names = {PurePosixPath(p).name.lower() for p in present}
    plotted = set(figure_sources)
    data_files = sorted({d.source for d in material.datasets})
    if not data_files:
        gaps.append(Gap("no_data", "The folder has no readable data file."))
    for source in data_files:
        if source not in plotted:
            gaps.append(Gap("data_without_figure", f"{source} has no figure or table yet."))
    for source in sorted(plotted):
        if source and source not in present:
            gaps.append(
                Gap(
                    "figure_without_data",
                    f"A figure is drawn from {source}, which is not in the folder.",
                )
            )
    if not material.documents:
        gaps.append(Gap("no_notes", "There are no notes describing the aim or the method."))
    if not any(_REQUIREMENT_NAMES.search(PurePosixPath(d.source).stem) for d in material.documents):
        gaps.append(Gap("no_requirements", "No assignment or requirements file was found."))
    mentioned: set[str] = set()
    for document in material.documents:
        mentioned.update(m.group(0) for m in _FILE_MENTION.finditer(document.text))
    for name in sorted(mentioned):
        if name.lower() not in present_names:
            gaps.append(
                Gap("missing_file", f"The notes mention {name}, which is not in the folder.")
            )
    return gaps


def parse_model_gaps(text: str | None, limit: int = 8) -> list[Gap]:
    """The cheap model's answer: `{"gaps": ["...", ...]}`; anything else is ignored."""
    try:
        data = json.loads((text or "").strip().removeprefix("```json").removesuffix("```"))
    except ValueError:
        return []
    items = data.get("gaps") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [Gap("model", str(item).strip()[:300]) for item in items[:limit] if str(item).strip()]
