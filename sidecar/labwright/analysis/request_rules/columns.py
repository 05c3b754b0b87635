"""The folder's columns as the request binds them: name, unit, role, and
what the notes say of each.

A column's unit comes from its header ("t (s)", "温度/°C"), else from the
notes ("S is the substrate concentration in mM", "第二列为吸光度"), else from
a description file's numbered list; the reason says which. Its role comes
from `roles.infer_roles` (an index, a category code, a constant are never a
law's variable), and a column the notes or its name show to be *set* by the
experimenter (a bath temperature, an applied voltage, a nominal mass: a
controlled variable) is marked so: it may be an independent variable, never
the response. A headerless table (columns `col1`, `col2`...) takes the words
the notes give for each position ("the first column is the time in s").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from labwright.analysis.cycles import cycles_in, cycles_timed_in_notes, is_time_reading
from labwright.analysis.notes import NoteFacts, described_columns
from labwright.analysis.quantities import dimensionality as dimension
from labwright.analysis.replicates import replicate_stems
from labwright.analysis.request_rules.steps import stated_steps, stepped_by
from labwright.analysis.request_rules.text import Notes, clauses_of
from labwright.analysis.request_rules.words import stem
from labwright.analysis.roles import Role, infer_roles
from labwright.ingest.tabular import is_generated_name
from labwright.ingest.types import Column, Dataset, ReadResult
from labwright.ingest.units import split_unit

_SET_POINT = re.compile(
    r"\b(?:set[- ]?points?|set|setting|nominal|target|bath|applied|dial|programmed|"
    r"commanded|requested|controller|thermostat|thermostatted|setpoint)\b|"
    r"设定|设置|标称|水浴|恒温槽|外加|施加|给定",
    re.I,
)
_UNIT_IN_WORDS = (
    re.compile(
        r"(?:\bin\s+(?:units\s+of\s+)?|\bunits?\s*(?:is|are|:)?\s*|单位(?:为|是|：|:)\s*)"
        r"([A-Za-zµμΩ°℃%][\w/^·*.\-°µμΩ%⁻¹²³()]{0,14})"
    ),
    re.compile(r"[(\[（]\s*([A-Za-zµμΩ°℃%][\w/^·*.\-°µμΩ%⁻¹²³ ]{0,14}?)\s*[)\]）]"),
)
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6,
    "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "1": 1, "2": 2, "3": 3,
    "4": 4, "5": 5, "6": 6,
}  # fmt: skip
_POSITION = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th)\s+column\b"
    r"|\bcolumn\s+([1-6])\b|第\s*([一二三四五六1-6])\s*列",
    re.I,
)


@dataclass(frozen=True)
class FolderColumn:
    """One column of one table, with what the request needs to bind it."""

    file: str
    sheet: str | None
    table: str  # the dataset's name
    name: str
    position: int  # 1-based
    unit: str | None
    unit_from: str  # "the header", "the notes", "the description file", ""
    dimension: str | None
    role: Role
    role_reason: str
    set_point: str | None  # why it is a controlled variable, or None
    described: str  # what the notes say of it ("" when nothing)
    numeric: bool
    increasing: bool
    # The quantity a numbered repeat column reads ("v" of "v1" beside "v2",
    # "v3"), or None (analysis/replicates.py).
    replicate_of: str | None = None
    # How many periods its time spans ("10T (s)": 10), or None (analysis/cycles.py).
    cycles: int | None = None
    # True when that count is the notes' ("Timed 20 full oscillations"), not the name's.
    cycles_from_notes: bool = False
    # The notes define the column from others ("L = l + d/2"): it is the
    # variable they mean by its symbol, before a column merely named alike.
    defined: bool = False
    # The symbol a written law gives the quantity this column holds ("metabolic
    # rate scales with body mass as B = a M^b": Mrate is B), and why
    # (request_rules/related.py).
    notes_symbol: str | None = None
    notes_symbol_reason: str = ""

    @property
    def generated_name(self) -> bool:
        return is_generated_name(self.name)

    @property
    def symbol(self) -> str | None:
        """The symbol the notes give a column that has no name of its own
        ("column 1 = V in volts", "第三列：T (K)"): what it is called."""
        if not self.generated_name:
            return None
        m = _LEADING_SYMBOL.match(self.described)
        return m.group(1) if m else None

    @property
    def words(self) -> str:
        """The column's name and the notes' words for it, for phrase matching."""
        name = "" if self.generated_name else re.sub(r"[_.]+", " ", self.name)
        # "BodySize", "Mrate": words run together in CamelCase are words.
        name = _CAMEL.sub(" ", name)
        return f"{name} {self.described}".strip()


#: Where a CamelCase name starts its next word: "BodySize" -> "Body Size",
#: "TimeSec" -> "Time Sec"; never inside a symbol ("pH", "dT", "Vmax").
_CAMEL = re.compile(r"(?<=[a-z]{2})(?=[A-Z][a-z])")


def _mentions(notes: Notes, name: str) -> list[str]:
    """What the notes say right after naming the column: "S: substrate
    concentration (mM)", "conc is the substrate concentration in mM",
    "Mrate, the metabolic rate" (an apposition)."""
    if not name or is_generated_name(name):
        return []
    flags = 0 if len(name) <= 2 else re.I
    pattern = re.compile(
        r"(?<![A-Za-z0-9_])(?:the\s+)?(?:column\s+)?[\"'`]?" + re.escape(name) + r"[\"'`]?"
        r"(?:\s+column)?\s*(?:[:=\-–]|\bis\b|\bare\b|\bholds\b|\bgives\b|\bcontains\b|为|是|表示|："
        r"|,(?=\s*(?:the|an?)\s))\s*"
        r"([^.;\n。；]{2,90})",
        flags,
    )
    out = []
    for c in notes.clauses:
        for m in pattern.finditer(c.text):
            said = _NEXT_COLUMN.split(m.group(1).strip())[0]
            # "(波形.mat：变量 t 为时间/s，u 为电压/V）": the list's own bracket.
            while said.count(")") > said.count("(") and said.endswith(")"):
                said = said[:-1].rstrip()
            while said.count("）") > said.count("（") and said.endswith("）"):
                said = said[:-1].rstrip()
            # "T = 2π√(L/g)" is a formula, not a description of column T.
            if re.match(r"[A-Za-z\u3400-\u9fff]{2,}", said) and not re.search(r"[=√^*]", said):
                out.append(said)
    return out


# "t 为时间/s，u 为电压/V", "t: time in s, U: voltage in V": the next
# column's definition ends the description of this one.
_NEXT_COLUMN = re.compile(
    r"\s*[,，、;；]\s*(?=(?:the\s+)?[\"'`]?[A-Za-z_][\w]{0,11}[\"'`]?\s*"
    r"(?:为|是|表示|[:：=]|\bis\b|\bare\b|\bholds\b))"
)


_BARE_ORDINAL = re.compile(r"\b(?:the\s+)?(second|third|fourth|fifth|sixth)\b(?!\s+column)", re.I)
_COLUMN_LIST = re.compile(
    r"\b(?:the\s+)?columns?\s*(?:are|:|hold|give)\s*(?P<list>[^.;\n]{3,200})|各列(?:依次)?为[:：]?\s*(?P<zh>[^。；\n]{3,200})",
    re.I,
)


def _listed_columns(notes: Notes) -> dict[int, str]:
    """ "The columns are time (s), voltage (V) and current (mA)", "各列依次为…"."""
    for c in notes.clauses:
        m = _COLUMN_LIST.search(c.text)
        if m:
            items = re.split(
                r"\s*(?:,|;|\band\b|、|，|和)\s*", m.group("list") or m.group("zh") or ""
            )
            items = [i.strip() for i in items if i.strip()]
            if len(items) >= 2:
                return {i + 1: item for i, item in enumerate(items)}
    return {}


# "V in volts", "T (K)", "I, in amps", "U/V": a symbol, then its unit or nothing.
_LEADING_SYMBOL = re.compile(
    r"\s*([A-Za-zΑ-Ωα-ω](?:_?[A-Za-z0-9]{0,3})?)(?=\s+in\b|\s*[(（/,，]|\s*$)"
)


def _positional(notes: Notes) -> dict[int, str]:
    """Words the notes give for a column by position ("the first column is
    the time in seconds, the second the voltage in V", "第二列为吸光度")."""
    out: dict[int, str] = {}
    for c in notes.clauses:
        matches = list(_POSITION.finditer(c.text))
        if matches:
            # "..., the second the voltage": an ordinal alone, once a column
            # has been named by position in the same clause.
            matches += [m for m in _BARE_ORDINAL.finditer(c.text) if m.start() > matches[0].end()]
            matches.sort(key=lambda m: m.start())
        for i, m in enumerate(matches):
            key = next(g for g in m.groups() if g)
            pos = _ORDINALS.get(key.lower(), 0)
            end = matches[i + 1].start() if i + 1 < len(matches) else len(c.text)
            words = re.sub(
                r"^\s*(?:is|are|holds|gives|contains|has|为|是|表示|:|：|-|=)?\s*(?:the\s+)?",
                "",
                c.text[m.end() : end],
            )
            words = re.split(r"[;；。]", words)[0].strip(" ,，")
            if pos and words:
                out.setdefault(pos, words[:90])
    for pos, words in _listed_columns(notes).items():
        out.setdefault(pos, words)
    return out


def _unit_in(words: str) -> str | None:
    for pattern in _UNIT_IN_WORDS:
        for m in pattern.finditer(words):
            unit = m.group(1).rstrip(".,;")
            if unit.count("(") < unit.count(")"):
                unit = unit.rstrip(")")
            if dimension(unit) is not None:
                return unit
    # The quantity-calculus form a header uses, written in the notes: "时间/s".
    _, unit = split_unit(words.strip())
    if unit is not None and dimension(unit) is not None:
        return unit
    return None


def _set_point(
    col: Column, described: str, unit: str | None, steps: Sequence[tuple[float, str]]
) -> str | None:
    m = _SET_POINT.search(re.sub(r"[_.]+", " ", col.name))
    if m:
        return f"its name ({col.name!r}) says it was set, not measured"
    m = _SET_POINT.search(described)
    if m:
        return f"the notes say it was set ('{m.group(0)}'), not measured"
    step = stepped_by(col, unit, steps)
    if step is not None:
        return f"the notes say it was stepped by {step}, and it climbs by that step"
    return None


def _increasing(col: Column) -> bool:
    if not col.is_numeric:
        return False
    v = np.asarray(col.values, dtype=float)
    v = v[np.isfinite(v)]
    return v.size >= 3 and bool(np.all(np.diff(v) > 0))


def _defined(col: Column) -> bool:
    """A column `derived_columns.apply` made: its provenance quotes the
    definition ("L = l + d/2 (from l)")."""
    said = col.provenance.column or ""
    return said.startswith(col.name) and said.endswith(")") and " (from " in said


def set_point_of(ds: Dataset, name: str, notes_text: str) -> str | None:
    """Why column `name` of `ds` is a controlled variable, or None: the same
    reading the request's bindings made, for a kind that has only the notes'
    text."""
    notes = Notes(tuple(clauses_of("notes", notes_text)))
    return next((c.set_point for c in table_columns(ds, notes) if c.name == name), None)


def table_columns(ds: Dataset, notes: Notes) -> list[FolderColumn]:
    """The columns of one table."""
    by_position = _positional(notes) if any(is_generated_name(c.name) for c in ds.columns) else {}
    listed = described_columns(notes.text, len(ds.columns)) if by_position == {} else None
    described_of: dict[str, str] = {}
    units: dict[str, tuple[str | None, str]] = {}
    for i, col in enumerate(ds.columns, start=1):
        said = _mentions(notes, col.name)
        described = said[0] if said else ""
        if not described and is_generated_name(col.name):
            if i in by_position:
                described = by_position[i]
            elif listed is not None:
                d = listed[i - 1]
                described = d.name + (f" in {d.unit}" if d.unit else "")
        described_of[col.name] = described
        unit, unit_from = col.unit, "the header" if col.unit else ""
        if unit is None:
            unit = _unit_in(described)
            unit_from = "the notes" if unit else ""
        units[col.name] = (unit, unit_from)
    # A unit the notes give makes a column a measurement (not a counter).
    facts = NoteFacts(units={n.strip().lower(): u for n, (u, _) in units.items() if u})
    roles = infer_roles(ds, facts)
    stems = replicate_stems([c.name for c in ds.columns if c.is_numeric])
    timed = cycles_timed_in_notes(notes.text)
    seconds = dimension("s")
    steps = stated_steps(notes.text)
    out: list[FolderColumn] = []
    for i, col in enumerate(ds.columns, start=1):
        described = described_of[col.name]
        unit, unit_from = units[col.name]
        cycles = cycles_in(col.name, described)
        # The notes' "timed 20 full oscillations" speaks of every time
        # reading of the tables (t1, t2, t3), unless a name says otherwise.
        from_notes = (
            cycles is None
            and timed is not None
            and is_time_reading(col.name, dimension(unit), seconds)
        )
        role = next((r for r in roles.columns if r.name == col.name), None)
        out.append(
            FolderColumn(
                file=ds.source,
                sheet=ds.provenance.sheet if ds.provenance else None,
                table=ds.name,
                name=col.name,
                position=i,
                unit=unit,
                unit_from=unit_from,
                dimension=dimension(unit),
                role=role.role if role else "empty",
                role_reason=role.reason if role else "",
                set_point=_set_point(col, described, unit, steps),
                described=described,
                numeric=col.is_numeric,
                increasing=_increasing(col),
                replicate_of=stems.get(col.name),
                cycles=timed if from_notes else cycles,
                cycles_from_notes=from_notes,
                defined=_defined(col),
            )
        )
    return out


_LINE = re.compile(r"(line\d+)\.[xy]")
_DRAWN = re.compile(
    r"\b(?:model|fit|fitted|theory|theoretical|simulat\w*|predict\w*|calculated)\b"
    r"|拟合|理论|模型|模拟|计算值",
    re.I,
)


def _figure_lines(ds: Dataset, notes: Notes) -> list[tuple[Dataset, list[FolderColumn]]]:
    """A saved plot's data (a MATLAB .fig: `line1.x`, `line1.y`, ...) as one
    table per drawn line: its x and y are a pair, never mixed with another
    line's. cooling.fig's x data is the time in s, yet "no column holds the
    time" was said because only tables were bound."""
    lines: dict[str, list[Column]] = {}
    for c in ds.columns:
        m = _LINE.fullmatch(c.name)
        if m is not None:
            lines.setdefault(m.group(1), []).append(c)
    out = []
    for line, pair in lines.items():
        # A line its legend calls a model, fit or theory is a drawn curve,
        # not data ("model, tau = 240 s" beside "measured").
        if _DRAWN.search(ds.labels.get(line, "")):
            continue
        if len(pair) == 2 and pair[0].values.size == pair[1].values.size:
            # Each line's roles as those of a two-column table (a figure's
            # columns get none of their own).
            table = replace(ds, kind="table", columns=pair)
            out.append((ds, table_columns(table, notes)))
    return out


def folder_tables(read: ReadResult, notes: Notes) -> list[tuple[Dataset, list[FolderColumn]]]:
    out: list[tuple[Dataset, list[FolderColumn]]] = []
    for ds in read.datasets:
        if ds.kind == "table":
            out.append((ds, table_columns(ds, notes)))
        elif ds.kind == "figure":
            out.extend(_figure_lines(ds, notes))
    return out


def stems_of(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[A-Za-z0-9]+", text)}
