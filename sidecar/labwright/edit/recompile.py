"""Rebuild the PDF of an accepted edit: its own build directory, the same gates as a run.

An accepted version has no figures or class file of its own; they are copied
from the nearest ancestor's build (regular files only: a symlink placed in a
build directory is never followed), the document is sanitized against what is
actually there (an accepted fragment came from a model: exec primitives are
stripped here as in every build), and XeLaTeX compiles it in that directory.
The version's stored text is not changed by the sanitizer; only the PDF is.

The number record that speaks for the version (its nearest ancestor's
provenance.json, store/artifacts.record_for) is copied in too, so the new
build keeps the sources of the numbers it still prints: the record lists
what was computed, the version's tags say which of it it prints.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from labwright.agent.citation_check import CITATIONS_JSON
from labwright.agent.events import Done, Error, Event, Milestone, Step, Warning_
from labwright.latex.bibfile import write_bibliography
from labwright.latex.sanitize import sanitize
from labwright.latex.template import template_files
from labwright.messages import say
from labwright.safety import is_regular_file
from labwright.store.artifacts import PROVENANCE_JSON

MAIN_TEX = "main.tex"
_SUPPORT_SUFFIXES = (".cls", ".bib", ".sty", ".bst")
#: What the trust panel reads from a build besides the numbers' record: the
#: citation check's verdicts on the .bib that is copied with them (without
#: it an accepted edit showed no verdicts, as it showed no number sources).
_RECORDS = (CITATIONS_JSON,)
_FIGURES = "figures"


def _copy_inputs(ancestor: Path, out_dir: Path) -> int:
    copied = 0
    with os.scandir(ancestor) as entries:
        for entry in entries:
            path = Path(entry.path)
            wanted = path.suffix.lower() in _SUPPORT_SUFFIXES or entry.name in _RECORDS
            if wanted and is_regular_file(path):
                shutil.copyfile(path, out_dir / entry.name)
                copied += 1
    figures = ancestor / _FIGURES
    if figures.is_dir() and not figures.is_symlink():
        (out_dir / _FIGURES).mkdir(exist_ok=True)
        with os.scandir(figures) as entries:
            for entry in entries:
                path = Path(entry.path)
                if not entry.name.startswith(".") and is_regular_file(path):
                    shutil.copyfile(path, out_dir / _FIGURES / entry.name)
                    copied += 1
    return copied


def prepare_build(
    content: str,
    ancestor: Path | None,
    out_dir: Path,
    lang: str,
    bibliography: str | None = None,
    *,
    record: Path | None = None,
) -> Path:
    """Write the build directory of an accepted version; returns its main .tex.
    `record`: the provenance.json that speaks for it (copied beside main.tex).
    `bibliography`: the version's own .bib (it replaces the ancestor's copy);
    None for a version made before bibliographies were versioned."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if ancestor is not None and ancestor.is_dir() and ancestor.resolve() != out_dir.resolve():
        _copy_inputs(ancestor, out_dir)
    if bibliography is not None:
        write_bibliography(content, bibliography, out_dir)
    target = out_dir / PROVENANCE_JSON
    if record is not None and is_regular_file(record) and record.resolve() != target.resolve():
        shutil.copyfile(record, target)
    for path in template_files("zh" if lang == "zh" else "en"):
        if not (out_dir / path.name).exists():
            shutil.copyfile(path, out_dir / path.name)
    cleaned = sanitize(content, graphics_root=out_dir)
    main = out_dir / MAIN_TEX
    main.write_text(cleaned.text, encoding="utf-8")
    _write_appendix(cleaned.text, out_dir / PROVENANCE_JSON, out_dir, lang)
    return main


def _write_appendix(tex: str, record: Path, out_dir: Path, lang: str) -> None:
    """The numbers' appendix of this version: the record's entries of the tags
    its text still carries (a number the edit changed is untagged, so it has
    no entry and no link). No record, no appendix (and no stale one)."""
    import json

    from labwright.agent.offline.appendix import APPENDIX_FILE, write_appendix
    from labwright.verify.tags import find_tags

    (out_dir / APPENDIX_FILE).unlink(missing_ok=True)
    if not is_regular_file(record):
        return
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(data, dict):
        write_appendix(data, lang, out_dir, ids=[t.id for t in find_tags(tex)])


def compile_build(
    main_tex: Path, version_no: int, publish: Callable[[Path], Path]
) -> Iterator[Event]:
    """Compile `main_tex`; `publish(pdf)` files the PDF under the version and returns where."""
    from labwright.latex.compile import EngineNotFound, compile_tex
    from labwright.latex.diagnose import humanize

    yield Milestone(index=1, total=1, stage="compile", label=say("stage.compile"))
    try:
        result = compile_tex(main_tex)
    except EngineNotFound:
        yield Error(message=say("tex.engine_missing"), action=say("action.doctor"))
        yield Done(ok=False, outcome="failed", version_no=version_no)
        return
    yield Step(
        stage="compile",
        message=say(
            "step.compile_short", count=len(result.passes), seconds=f"{result.elapsed_s:.1f}"
        ),
    )
    findings = humanize(result.diagnostics)
    for finding in findings:
        yield Warning_(message=finding)
    if result.pdf is None:
        yield Error(message=say("run.no_pdf"), action=say("action.open_version_log"))
        yield Done(ok=False, outcome="failed", version_no=version_no, problems=findings)
        return
    pdf = publish(result.pdf)
    yield Done(ok=True, pdf_path=str(pdf), version_no=version_no, problems=findings)
