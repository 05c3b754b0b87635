"""The folder's notes as plain text, and the facts about columns they state.

Notes come as Markdown, reStructuredText, plain README files without an
extension, or data-set description files. Markup is stripped before anything
is read from them, so a reStructuredText label (`.. _co2:`) or a directive
never becomes the report's aim. From the text we take what a scientist takes
in the first minutes: units of named columns ("flow in m^3/s",
"流量单位为 m^3/s") and labels of category codes ("0 = control").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from labwright.ingest.types import DocumentText

_RST_DIRECTIVE = re.compile(r"^\s*\.\.\s+[\w:-]*::.*$|^\s*\.\.\s+_[^:]+:\s*$|^\s*\.\.\s*$", re.M)
_RST_FIELD_ONLY = re.compile(r"^\s*:[\w ]+:\s*$", re.M)
_RST_UNDERLINE = re.compile(r"^\s*([=\-~^\"'`#*+<>_])\1{2,}\s*$", re.M)
_RST_ROLE = re.compile(r":[\w-]+:`([^`]*)`")
_INLINE_CODE = re.compile(r"``?([^`]+)``?")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
# Emphasis only between word boundaries: in "A = epsilon*l*c" or "k*conc"
# the stars are multiplication, and stripping them rewrote the formula.
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*|__|\*)(\S(?:.*?\S)?)\1(?![\w*])")
_HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def strip_markup(text: str) -> str:
    """Plain text of a Markdown / reStructuredText note, headings kept as
    Markdown `# ` lines (the aim finder keys on them)."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _RST_UNDERLINE.match(nxt) and line.strip() and not _RST_UNDERLINE.match(line):
            out.append("# " + line.strip())  # an underlined reST title
            continue
        if _RST_UNDERLINE.match(line):
            continue
        out.append(line)
    plain = "\n".join(out)
    plain = _RST_DIRECTIVE.sub("", plain)
    plain = _RST_FIELD_ONLY.sub("", plain)
    plain = _RST_ROLE.sub(r"\1", plain)
    plain = _MD_LINK.sub(r"\1", plain)
    plain = _INLINE_CODE.sub(r"\1", plain)
    plain = _EMPHASIS.sub(r"\2", plain)
    plain = _HTML_TAG.sub("", plain)
    return plain


def notes_text(documents: list[DocumentText]) -> str:
    """All notes and description files (not PDFs), markup stripped, joined."""
    parts = [strip_markup(d.text) for d in documents if not d.source.lower().endswith(".pdf")]
    return "\n\n".join(parts)


# "flow in m^3/s", "flow (m^3/s)", "flow [m3/s]", "flow: ... in units of K", "流量单位为 m^3/s"
_UNIT_TOKEN = r"([A-Za-zµμ°Ω%][\w/^·*.\-°µμΩ%]{0,14})"
_UNIT_PATTERNS = (
    re.compile(r"\b([A-Za-z][\w]{0,30})\b\s+(?:is\s+|are\s+)?(?:measured\s+|given\s+|expressed\s+)?in\s+(?:units\s+of\s+)?" + _UNIT_TOKEN),
    re.compile(r"\b([A-Za-z][\w]{0,30})\b\s*[:,-]\s*[^\n.;]{0,60}?\bin\s+(?:units\s+of\s+)?" + _UNIT_TOKEN),
    re.compile(r"([\w\u4e00-\u9fff]{1,20})\s*(?:的)?单位(?:为|是|：|:)\s*" + _UNIT_TOKEN),
)  # fmt: skip
_NOT_UNITS = frozenset(
    "a an the this that each order which their its total general particular addition "
    "part case fact time years year other".split()
)

# "0 = control", "1: treated", "class 2 - virginica", "0 表示 对照组"
_CODE_LABEL = re.compile(
    r"(?:^|[\s,;(（:：，、])(-?\d{1,3})\s*(?:=|:|：|->|表示|为)\s*([A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff .\-]{0,30}?)\s*(?=$|[,;)）\n.。，；、]|\s{2})",
    re.M,
)


# The unit of a whole table stated without a column name ("Monthly mean sea
# surface temperature in degrees C, one row per year"): temperatures only, the
# one case common enough to read without guessing.
_TABLE_UNIT = re.compile(
    r"\bin\s+(?:degrees?\s+(C|Celsius|F|Fahrenheit|K|Kelvin)\b|(°\s?[CF])|(℃))", re.I
)
_TABLE_UNIT_NAMES = {"c": "°C", "celsius": "°C", "f": "°F", "fahrenheit": "°F", "k": "K",
                     "kelvin": "K"}  # fmt: skip


@dataclass
class NoteFacts:
    units: dict[str, str] = field(default_factory=dict)  # lower-case column name -> unit
    labels: dict[str, str] = field(default_factory=dict)  # code -> label
    table_unit: str | None = None  # "in degrees C" said of the whole table


def read_facts(text: str, column_names: list[str]) -> NoteFacts:
    """Units and code labels stated in the notes, for the given column names."""
    facts = NoteFacts()
    wanted = {n.strip().lower(): n for n in column_names}
    for pattern in _UNIT_PATTERNS:
        for m in pattern.finditer(text):
            name, unit = m.group(1).strip().lower(), m.group(2).rstrip(".,;")
            if name in wanted and unit.lower() not in _NOT_UNITS and name not in facts.units:
                facts.units[name] = unit
    m_unit = _TABLE_UNIT.search(text)
    if m_unit:
        word = m_unit.group(1)
        facts.table_unit = (
            _TABLE_UNIT_NAMES[word.lower()] if word else (m_unit.group(2) or "°C").replace(" ", "")
        )
        if facts.table_unit == "℃":
            facts.table_unit = "°C"
    for m in _CODE_LABEL.finditer(text):
        code, label = m.group(1), m.group(2).strip()
        if code not in facts.labels and label and not label[0].isdigit():
            facts.labels[code] = label
    return facts


# --- column names of a headerless table from a description file ---------------------

_NUMBERED = re.compile(r"^(\s*)(\d{1,3})[.)]\s+(\S.*?)\s*$")
_ATTR_HEADING = re.compile(r"attribute|column|variable|field|字段|变量|列", re.I)
_NAME_UNIT = re.compile(r"^(.*?)\s+(?:in|\[|\()\s*([A-Za-zµμ°%][\w/^.\-°µμ%]{0,12})\s*[\])]?$")


@dataclass(frozen=True)
class DescribedColumn:
    name: str
    unit: str | None


def _described(item: str) -> DescribedColumn:
    text = re.split(r":|\s-{1,2}\s|\s{2,}", item, maxsplit=1)[0].strip().rstrip(".,;")
    m = _NAME_UNIT.match(text)
    if m and m.group(1).strip():
        return DescribedColumn(m.group(1).strip()[:40], m.group(2))
    return DescribedColumn(text[:40], None)


def described_columns(text: str, n_columns: int) -> list[DescribedColumn] | None:
    """The numbered list of `n_columns` attributes in a description file
    ("7. Attribute Information: 1. sepal length in cm ..."), or None. Lists
    are told apart by indentation and consecutive numbers; when several have
    the right length, the one after an "attribute/column/variable" heading."""
    runs: list[tuple[int, list[str], bool]] = []  # (indent, items, after a heading)
    open_runs: dict[int, int] = {}  # indent -> index into runs
    last_heading = False
    for line in text.splitlines():
        m = _NUMBERED.match(line.expandtabs())
        if not m:
            if line.strip():
                last_heading = bool(_ATTR_HEADING.search(line)) or last_heading
            continue
        indent, number, item = len(m.group(1)), int(m.group(2)), m.group(3)
        k = open_runs.get(indent)
        if number == 1:
            runs.append((indent, [item], last_heading))
            open_runs[indent] = len(runs) - 1
        elif k is not None and len(runs[k][1]) == number - 1:
            runs[k][1].append(item)
        last_heading = bool(_ATTR_HEADING.search(item))
    fitting = [r for r in runs if len(r[1]) == n_columns]
    if not fitting:
        return None
    chosen = next((r for r in fitting if r[2]), fitting[-1])
    cols = [_described(item) for item in chosen[1]]
    names = [c.name for c in cols]
    if any(not n for n in names) or len(set(names)) != len(names):
        return None
    return cols
