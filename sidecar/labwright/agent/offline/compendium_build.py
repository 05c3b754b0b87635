"""The compendium beside a build (issue 23): `analysis/` in the build folder,
so the Overleaf zip carries the script, the notebook, the requirements and
the raw data, and the appendix names the line of `analysis/analysis.py`
that computes each number.

Only a build that is exported as a zip gets it (`labwright build --zip`,
`RunRequest.compendium`): the main job (a PDF) does not pay for it. The
offline writer writes it from the analysis it already holds, right after the
record and before the compile (`write_beside`), so the first compile already
typesets the appendix with its script lines: no pass is added. Written after
the compile instead (`attach_compendium`: a model-backed run, which has no
such hook), it cost a second compile of one or two passes (alloy-hardness:
two, the appendix's longer text moved the last page and with it the .aux).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from labwright.agent.offline.appendix import APPENDIX_FILE, write_appendix
from labwright.agent.offline.compendium import (
    SCRIPT,
    Compendium,
    build_compendium,
    export_compendium,
    write_compendium,
)
from labwright.export import COMPENDIUM_DIR

#: How the appendix names the script (relative to main.tex).
SCRIPT_PATH = f"{COMPENDIUM_DIR}/{SCRIPT}"

_LANG = re.compile(r"\\documentclass\s*\[([^\]]*)\]\s*\{labwright-report\}")


def document_lang(tex: str) -> str:
    """The report's language, as its \\documentclass option states it."""
    m = _LANG.search(tex)
    options = {o.strip() for o in m.group(1).split(",")} if m else set()
    return "zh" if "zh" in options else "en"


def has_compendium(build: Path) -> bool:
    """Whether the build folder already holds the compendium's script."""
    return (Path(build) / COMPENDIUM_DIR / SCRIPT).is_file()


def write_beside(
    folder: Path,
    read: Any,
    analysis: Any,
    record: dict[str, Any],
    lang: str,
    build: Path,
    plans: list[Any] | None = None,
) -> Compendium:
    """Write `analysis/` into the build folder from the analysis in hand (and
    the figures it planned) and the report's `record`, and the appendix
    again with each number's script line (the build calls this before its
    compile)."""
    comp = build_compendium(
        read, analysis, record, Path(folder), title=Path(folder).name, plans=plans
    )
    write_compendium(comp, read, Path(folder), Path(build) / COMPENDIUM_DIR)
    if (Path(build) / APPENDIX_FILE).is_file():
        write_appendix(record, lang, Path(build), script_lines=comp.lines, script=SCRIPT_PATH)
    return comp


def attach_compendium(folder: Path, tex_path: Path, record_path: Path) -> Compendium:
    """Write `analysis/` beside `tex_path` from the report's record and, when
    the build has an appendix, write it again naming each number's script
    line (limited to the numbers the document still tags)."""
    from labwright.verify.tags import find_tags

    build = Path(tex_path).parent
    record: dict[str, Any] = json.loads(Path(record_path).read_text(encoding="utf-8"))
    tex = Path(tex_path).read_text(encoding="utf-8")
    lang = document_lang(tex)
    comp, _shipped = export_compendium(
        Path(folder), build / COMPENDIUM_DIR, lang=lang, record=record
    )
    if (build / APPENDIX_FILE).is_file():
        ids = [t.id for t in find_tags(tex)]
        write_appendix(record, lang, build, ids=ids, script_lines=comp.lines, script=SCRIPT_PATH)
    return comp
