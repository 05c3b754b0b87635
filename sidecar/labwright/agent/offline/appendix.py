"""The "Sources of the numbers" appendix: one entry per traced number.

Written from the provenance record (provenance.json's `numbers`) as
`labwright-numbers.tex` beside main.tex. The class reads that file at
`\\end{document}` when it exists (labwright-report.cls, "traced numbers"),
and then each entry, not the number's first place, is the destination
`lwnum.ID` of the links the body's `\\lwnum{ID}{...}` tags make: a click on
a number in any PDF reader lands on where it came from (file, sheet,
variable, column, rows) and how it was computed.

The appendix is read in the same XeLaTeX pass as the body, and a link to a
named destination is resolved by the PDF driver, not by LaTeX, so it costs
no extra compile pass (benchmarks/main_job.py).

Only the record's fields are printed, and every one is escaped: the names
come from the user's folder, the computation from our code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from labwright.agent.offline.computation_words import computation_text
from labwright.agent.offline.escape import escape_text
from labwright.latex.template import NUMBERS_FILE

#: The file the class reads at \end{document} (labwright-report.cls).
APPENDIX_FILE = NUMBERS_FILE

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Sources of the numbers",
        "intro": (
            "Each number printed in this report links to its entry here: the data "
            "it was computed from and how."
        ),
        "file": "file",
        "sheet": "sheet",
        "variable": "variable",
        "column": "column",
        "rows": "rows",
        "no_file": "no data file (a count, a setting of the analysis or a reference value)",
        "folder": "the data folder",
        "how": "computed as",
        "line": "line {line} of {script}",
    },
    "zh": {
        "title": "数字来源",
        "intro": "报告中的每个数字都链接到这里的条目：它由哪些数据、经何种计算得到。",
        "file": "文件",
        "sheet": "工作表",
        "variable": "变量",
        "column": "列",
        "rows": "行",
        "no_file": "无数据文件（计数、分析设置或参考值）",
        "folder": "数据文件夹",
        "how": "计算方式",
        "line": "{script} 第 {line} 行",
    },
}

# Ids are the ledger's: hex digits, optionally "-N" (agent/offline/provenance.py).
_ID = re.compile(r"^[0-9a-f]{6,40}(?:-[0-9]+)?$")


def _source(entry: Mapping[str, Any], words: Mapping[str, str]) -> str:
    parts: list[str] = []
    file = entry.get("file")
    if file == ".":  # the folder itself (a count of its files)
        parts.append(words["folder"])
    elif file:
        parts.append(f"{words['file']} \\texttt{{{escape_text(str(file))}}}")
    for key in ("sheet", "variable", "column", "rows"):
        value = entry.get(key)
        if value not in (None, ""):
            parts.append(f"{words[key]} \\textit{{{escape_text(str(value))}}}")
    return ", ".join(parts) if parts else words["no_file"]


def appendix_entries(
    record: Mapping[str, Any], ids: Iterable[str] | None = None
) -> list[Mapping[str, Any]]:
    """The record's number entries to list, in the record's order; with `ids`,
    only those (the tags the document still carries after an edit)."""
    keep = set(ids) if ids is not None else None
    out: list[Mapping[str, Any]] = []
    seen: set[str] = set()
    for entry in record.get("numbers", []):
        entry_id = str(entry.get("id", ""))
        if not _ID.match(entry_id) or entry_id in seen:
            continue
        if keep is not None and entry_id not in keep:
            continue
        seen.add(entry_id)
        out.append(entry)
    return out


def appendix_tex(
    record: Mapping[str, Any],
    lang: str,
    ids: Iterable[str] | None = None,
    *,
    script_lines: Mapping[str, int] | None = None,
    script: str = "",
) -> str:
    """The appendix's LaTeX: a heading, one sentence, one paragraph per number
    (its destination, the number, its id, its source, its computation and,
    with `script_lines`, the line of the compendium's `script` that recomputes it)."""
    words = _WORDS["zh" if lang == "zh" else "en"]
    lines = [
        f"\\section*{{{words['title']}}}",
        words["intro"],
        "",
        # Ragged right: an entry's file names and script path are \\texttt
        # words TeX cannot hyphenate, and justified they stuck out into the
        # margin (12 overfull lines in the pendulum example's appendix).
        "\\begingroup\\small\\raggedright\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{2pt}",
    ]
    for entry in appendix_entries(record, ids):
        entry_id = str(entry["id"])
        computation = escape_text(computation_text(str(entry.get("computation", "")), lang))
        line = (script_lines or {}).get(entry_id)
        if line is not None and script:
            where = words["line"].format(line=line, script=f"\\texttt{{{escape_text(script)}}}")
            computation += f" ({where})" if lang != "zh" else f"（{where}）"
        lines.append(
            # \leavevmode: the destination is on the entry's line, never alone
            # at the foot of the page before it.
            f"\\leavevmode\\hypertarget{{lwnum.{entry_id}}}{{}}"
            f"${entry.get('printed', '')}$"
            f" \\quad{{\\footnotesize\\texttt{{{entry_id}}}}}"
            f" \\quad {_source(entry, words)}; {words['how']}: {computation}\\par"
        )
    lines.append("\\endgroup")
    return "\n".join(lines) + "\n"


def write_appendix(
    record: Mapping[str, Any],
    lang: str,
    out_dir: Path,
    ids: Iterable[str] | None = None,
    *,
    script_lines: Mapping[str, int] | None = None,
    script: str = "",
) -> Path:
    path = Path(out_dir) / APPENDIX_FILE
    path.write_text(
        appendix_tex(record, lang, ids, script_lines=script_lines, script=script), encoding="utf-8"
    )
    return path
