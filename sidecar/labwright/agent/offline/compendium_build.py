"""The compendium beside a build (issue 23): `analysis/` in the build folder,
so the Overleaf zip carries the script, the notebook, the requirements and
the raw data, and the appendix names the line of `analysis/analysis.py`
that computes each number.

Only a build that is exported as a zip gets it (`labwright build --zip`): the
compendium reads and analyses the folder once more (seconds), which the main
job (a PDF) must not pay. The appendix is then written again and the
document compiled once more (`recompile`); nothing but the appendix's text
changes, so the PDF and the zip say the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from labwright.agent.offline.appendix import APPENDIX_FILE, write_appendix
from labwright.agent.offline.compendium import SCRIPT, Compendium, export_compendium
from labwright.export import COMPENDIUM_DIR

#: How the appendix names the script (relative to main.tex).
SCRIPT_PATH = f"{COMPENDIUM_DIR}/{SCRIPT}"

_LANG = re.compile(r"\\documentclass\s*\[([^\]]*)\]\s*\{labwright-report\}")


def document_lang(tex: str) -> str:
    """The report's language, as its \\documentclass option states it."""
    m = _LANG.search(tex)
    options = {o.strip() for o in m.group(1).split(",")} if m else set()
    return "zh" if "zh" in options else "en"


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
