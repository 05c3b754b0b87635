"""The exploration tools the model may call, and their schemas.

Every tool returns a string (the tool result the model reads); nothing here
raises on bad input. Paths pass the guard first: an escape, a missing file or
an unreadable one becomes a sentence the model can act on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labwright.agent.path_guard import PathEscape, resolve_inside

READ_CHARS = 7000
MAX_LIST_ENTRIES = 200
_TEXT_SUFFIXES = {
    ".txt",
    ".md",
    ".csv",
    ".tsv",
    ".dat",
    ".json",
    ".tex",
    ".bib",
    ".m",
    ".py",
    ".log",
    ".ini",
    ".yaml",
    ".yml",
}

TOOL_SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "list_dir",
            "description": "List the files and folders at a path inside the data folder.",
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "Relative path; '.' for the top."}
                },
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": (
                f"Read a text or data file (at most {READ_CHARS} characters per call). "
                "Use offset/limit (in lines) to continue a long file."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "offset": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "First line, from 0.",
                    },
                    "limit": {"type": "integer", "minimum": 1, "description": "Number of lines."},
                },
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_image",
            "description": "Describe an image in the folder (readings, axes, labels).",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "make_figure",
            "description": (
                "Run matplotlib code in a sandbox to draw one figure. Read data with "
                "srcpath('file.csv'), listdir() or walkfiles(); save with plt.savefig(OUT). "
                "No os/sys/subprocess, no open/eval/exec, no names starting with '_'."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Short file-name-safe figure name."},
                    "code": {"type": "string"},
                    "caption": {"type": "string"},
                    "source": {"type": "string", "description": "The data file the figure shows."},
                },
                "required": ["name", "code"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish_exploration",
            "description": "Call once you understand the experiment; this ends exploration.",
            "parameters": {
                "type": "object",
                "properties": {
                    "experiment": {"type": "string"},
                    "goal": {"type": "string"},
                    "key_findings": {"type": "array", "items": {"type": "string"}},
                    "assignment_requirements": {"type": "string"},
                    "method_notes": {"type": "string"},
                    "reference_report": {"type": "string"},
                },
                "required": ["experiment", "goal", "key_findings"],
            },
        },
    },
]


@dataclass
class Exploration:
    """What exploration produced: the model's summary and what it read."""

    finished: bool = False
    summary: dict[str, Any] = field(default_factory=dict)
    reads: dict[str, str] = field(default_factory=dict)
    figures: list[dict[str, str]] = field(default_factory=list)
    broke_loop: bool = False


DescribeImage = Callable[[Path], str]
MakeFigure = Callable[[str, str], str | Path]


@dataclass
class ExploreTools:
    root: Path
    exploration: Exploration = field(default_factory=Exploration)
    describe_image: DescribeImage | None = None
    make_figure: MakeFigure | None = None

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        handler = getattr(self, f"_tool_{name}", None)
        if handler is None:
            return f"There is no tool named {name}; use one of list_dir, read_file, read_image, make_figure, finish_exploration."
        try:
            return str(handler(**arguments))
        except PathEscape as escape:
            return str(escape)
        except TypeError as bad_args:
            return f"The arguments for {name} were not right ({bad_args}); check the tool's parameters."

    def _tool_list_dir(self, path: str = ".") -> str:
        target = resolve_inside(self.root, path)
        if not target.is_dir():
            return f"'{path}' is not a folder in the data folder."
        lines = []
        for child in sorted(target.iterdir(), key=lambda p: (p.is_file(), p.name.lower())):
            if child.name.startswith("."):
                continue
            rel = (
                child.relative_to(self.root.resolve())
                if child.resolve().is_relative_to(self.root.resolve())
                else child.name
            )
            if child.is_symlink() and not child.resolve().is_relative_to(self.root.resolve()):
                lines.append(f"{rel} (link to outside the folder; not readable)")
            elif child.is_dir():
                lines.append(f"{rel}/")
            else:
                lines.append(f"{rel} ({child.stat().st_size} bytes)")
            if len(lines) >= MAX_LIST_ENTRIES:
                lines.append("... more entries not shown")
                break
        return "\n".join(lines) or "(empty folder)"

    def _tool_read_file(self, path: str, offset: int = 0, limit: int | None = None) -> str:
        target = resolve_inside(self.root, path)
        if not target.is_file():
            return (
                f"'{path}' does not exist in the data folder; call list_dir to see what is there."
            )
        text = self._as_text(target)
        lines = text.splitlines()
        offset = max(0, int(offset))
        chosen = lines[offset : offset + int(limit)] if limit else lines[offset:]
        out = "\n".join(chosen)
        self.exploration.reads[f"{path}@{offset}"] = out[:READ_CHARS]
        if len(out) > READ_CHARS:
            shown = out[:READ_CHARS]
            next_line = offset + shown.count("\n") + 1
            return (
                shown + f"\n[truncated: continue with read_file(path='{path}', offset={next_line})]"
            )
        return out or "(empty file)"

    def _as_text(self, target: Path) -> str:
        if target.suffix.lower() in _TEXT_SUFFIXES:
            from labwright.ingest.encoding import decode_text  # local: ingest is heavier

            decoded = decode_text(target.read_bytes())
            return (
                decoded.text
                if decoded is not None
                else "The file is not text; it could not be decoded."
            )
        return _describe_with_readers(self.root, target)

    def _tool_read_image(self, path: str) -> str:
        target = resolve_inside(self.root, path)
        if not target.is_file():
            return f"'{path}' does not exist in the data folder."
        if self.describe_image is not None:
            return self.describe_image(target)
        from labwright.ingest.base import ReadError
        from labwright.ingest.read_image import image_facts

        try:  # decoded in the folder's confined worker, never here
            image = image_facts(target, self.root)
        except ReadError:
            return f"{path} could not be opened as an image."
        return (
            f"{path}: {image.format} image, {image.width}x{image.height} pixels, mode {image.mode}. "
            "No vision model is configured, so its content cannot be read; describe it from the notes."
        )

    def _tool_make_figure(self, name: str, code: str, caption: str = "", source: str = "") -> str:
        if self.make_figure is None:
            return "Figures cannot be drawn in this run; describe the data in words instead."
        result = self.make_figure(name, code)
        if isinstance(result, Path):
            self.exploration.figures.append(
                {"name": name, "path": str(result), "caption": caption, "source": source}
            )
            return f"Saved figure '{name}'. Reference it as \\includegraphics{{figures/{result.name}}}."
        return str(result)

    def _tool_finish_exploration(self, **summary: Any) -> str:
        self.exploration.finished = True
        self.exploration.summary = summary
        return "Exploration finished."


def _describe_with_readers(root: Path, target: Path) -> str:
    """A text view of a binary data file through the ingest readers."""
    from labwright.ingest.read import read_file  # local: readers import pandas and friends
    from labwright.ingest.types import Dataset, DocumentText, Skipped

    rel = target.relative_to(root.resolve()).as_posix()
    items = read_file(target, rel)
    parts: list[str] = []
    for dataset in (i for i in items if isinstance(i, Dataset)):
        parts.append(f"dataset {dataset.name} ({dataset.kind}, {dataset.n_rows} rows)")
        for column in dataset.columns[:20]:
            values = ", ".join(str(v) for v in column.values[:8].tolist())
            parts.append(f"  {column.label}: {values}{' ...' if len(column.values) > 8 else ''}")
        if dataset.matrix is not None:
            parts.append(f"  matrix {dataset.matrix.shape}")
    for document in (i for i in items if isinstance(i, DocumentText)):
        parts.append(document.text)
    for skipped in (i for i in items if isinstance(i, Skipped)):
        parts.append(skipped.reason)
    return "\n".join(parts) or "The file has no readable content."


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any] | str:
    """Tool arguments as a dict, or an instructional error string."""
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return "Your tool arguments were not valid JSON; call the tool again with a JSON object."
    return value if isinstance(value, dict) else "Tool arguments must be a JSON object."
