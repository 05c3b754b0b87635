"""One labelled lab folder: its files, and the truth its notes ask for.

The folders are generated, never committed as data: each experiment is a
function of a seeded random generator, so the truth is known exactly (the
parameters the data were drawn from) and the set can be regenerated on any
machine. They were written by someone who did not write the analyst's rules,
from what teaching labs hand out, not from the analyst's code: a rule that
recognises only these folders would still fail the real ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Truth:
    """One quantity the notes ask for, with the value the data were made from.

    `names` are the ways a report may name it (a catalogue key, a symbol, the
    words): an answer matches when its key or its label normalises to one of
    them. `unit` is the truth's unit; an answer in another unit of the same
    dimension is converted before it is compared.
    """

    names: tuple[str, ...]
    value: float
    unit: str = ""
    answerable: bool = True  # False: the right answer is to say it cannot be given


@dataclass(frozen=True)
class LabFolder:
    name: str  # folder name, unique in the set
    experiment: str  # what kind of experiment (several folders may share one)
    lang: str  # language of the notes: en | zh
    files: dict[str, bytes]  # relative path -> content
    truths: tuple[Truth, ...]
    # Columns that must never be a fitted response or summarised as a
    # measurement (set-points, controlled variables, row indexes), as
    # "file: column".
    controlled: tuple[str, ...] = ()
    shapes: tuple[str, ...] = field(default=())  # file shapes used (for coverage counts)

    def write(self, root: Path) -> Path:
        folder = root / self.name
        for rel, data in self.files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return folder
