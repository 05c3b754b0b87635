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

from pydantic import Field

from labwright.agent.tools import AnyTool, Tool, ToolArguments, ToolBox, ToolRefusal
from labwright.llm.model import JsonObject, JsonValue, ToolSchema
from labwright.safety import PathEscape, resolve_inside

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


class ListDirArgs(ToolArguments):
    path: str = Field(".", description="Relative path; '.' for the top.")


class ReadFileArgs(ToolArguments):
    path: str
    offset: int = Field(0, ge=0, description="First line, from 0.")
    limit: int | None = Field(None, ge=1, description="Number of lines.")


class ReadImageArgs(ToolArguments):
    path: str


class MakeFigureArgs(ToolArguments):
    name: str = Field(description="Short file-name-safe figure name.")
    code: str
    caption: str = ""
    source: str = Field("", description="The data file the figure shows.")


class FinishArgs(ToolArguments):
    experiment: str
    goal: str
    key_findings: list[str]
    assignment_requirements: str = ""
    method_notes: str = ""
    reference_report: str = ""


_DESCRIPTIONS = {
    "list_dir": "List the files and folders at a path inside the data folder.",
    "read_file": (
        f"Read a text or data file (at most {READ_CHARS} characters per call). "
        "Use offset/limit (in lines) to continue a long file."
    ),
    "read_image": "Describe an image in the folder (readings, axes, labels).",
    "make_figure": (
        "Run matplotlib code in a sandbox to draw one figure. Read data with "
        "srcpath('file.csv'), listdir() or walkfiles(); save with plt.savefig(OUT). "
        "No os/sys/subprocess, no open/eval/exec, no names starting with '_'."
    ),
    "finish_exploration": "Call once you understand the experiment; this ends exploration.",
}


@dataclass
class Exploration:
    """What exploration produced: the model's summary and what it read."""

    finished: bool = False
    summary: JsonObject = field(default_factory=dict)
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
    #: The run's reference lookup (agent/reference_tool.py), offered when given.
    extra_tools: tuple[AnyTool, ...] = ()

    def toolbox(self) -> ToolBox:
        return ToolBox(
            (
                Tool("list_dir", _DESCRIPTIONS["list_dir"], ListDirArgs, self._list_dir),
                Tool("read_file", _DESCRIPTIONS["read_file"], ReadFileArgs, self._read_file),
                Tool("read_image", _DESCRIPTIONS["read_image"], ReadImageArgs, self._read_image),
                Tool(
                    "make_figure", _DESCRIPTIONS["make_figure"], MakeFigureArgs, self._make_figure
                ),
                Tool(
                    "finish_exploration",
                    _DESCRIPTIONS["finish_exploration"],
                    FinishArgs,
                    self._finish,
                ),
                *self.extra_tools,
            )
        )

    def call(self, name: str, arguments: JsonObject) -> str:
        return self.toolbox().call(name, arguments).output

    def _inside(self, path: str) -> Path:
        try:
            return resolve_inside(self.root, path)
        except PathEscape as escape:
            raise ToolRefusal(str(escape)) from escape

    def _list_dir(self, args: ListDirArgs) -> str:
        path = args.path
        target = self._inside(path)
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

    def _read_file(self, args: ReadFileArgs) -> str:
        path, offset, limit = args.path, args.offset, args.limit
        target = self._inside(path)
        if not target.is_file():
            return (
                f"'{path}' does not exist in the data folder; call list_dir to see what is there."
            )
        text = self._as_text(target)
        lines = text.splitlines()
        chosen = lines[offset : offset + limit] if limit else lines[offset:]
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

    def _read_image(self, args: ReadImageArgs) -> str:
        path = args.path
        target = self._inside(path)
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

    def _make_figure(self, args: MakeFigureArgs) -> str:
        name, code, caption, source = args.name, args.code, args.caption, args.source
        if self.make_figure is None:
            return "Figures cannot be drawn in this run; describe the data in words instead."
        result = self.make_figure(name, code)
        if isinstance(result, Path):
            self.exploration.figures.append(
                {"name": name, "path": str(result), "caption": caption, "source": source}
            )
            return f"Saved figure '{name}'. Reference it as \\includegraphics{{figures/{result.name}}}."
        return str(result)

    def _finish(self, args: FinishArgs) -> str:
        self.exploration.finished = True
        self.exploration.summary = args.model_dump()
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


def parse_arguments(raw: str | JsonObject | None) -> JsonObject | str:
    """Tool arguments as a dict, or an instructional error string."""
    if isinstance(raw, dict):
        return raw
    try:
        value: JsonValue = json.loads(raw or "{}")
    except ValueError:
        return "Your tool arguments were not valid JSON; call the tool again with a JSON object."
    return value if isinstance(value, dict) else "Tool arguments must be a JSON object."


TOOL_SCHEMAS: list[ToolSchema] = ExploreTools(Path(".")).toolbox().schemas()
