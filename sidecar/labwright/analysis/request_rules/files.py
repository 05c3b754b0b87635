"""What each file (or sheet) is: the background, a blank, the standards, the
unknowns, a repeat scan, or one run of a series at one value of a parameter.

Read from the names (`background.csv`, `bkg.txt`, `本底.csv`, a sheet called
"Standards" beside one called "Unknowns", `scan1..3.txt`, `run_T25C.csv`,
`L=0.50m.csv`, `样品3.csv`) and from the notes' sentences that name a file
("background.csv holds the counts without the source", "the second sheet
has the unknowns"). A parameter in a file name is read with its unit
(`T25C` is 25 °C, `L=0.50m` is 0.50 m, `m200g` is 200 g); files are runs
only when at least two of them vary the same parameter. Plain data files get
no entry: the request records what is not the default.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from labwright.analysis.quantities import dimensionality as dimension
from labwright.analysis.request import Evidence, FileRole, FileRoleName
from labwright.analysis.request_rules.text import Notes
from labwright.ingest.types import Dataset

_ROLE_WORDS: tuple[tuple[FileRoleName, re.Pattern[str]], ...] = (
    ("background", re.compile(r"(?:^|[^a-z])(?:background|backgr|bkgd?|bg|bgd)(?:[^a-z]|$)|本底|背景", re.I)),
    ("blank", re.compile(r"(?:^|[^a-z])blanks?(?:[^a-z]|$)|空白", re.I)),
    ("standards", re.compile(r"(?:^|[^a-z])(?:standards?|stds?|calibration|calib|cal)(?:[^a-z]|$)|标准|标样|标液|校准", re.I)),
    ("unknowns", re.compile(r"(?:^|[^a-z])(?:unknowns?|unk|samples?)(?:[^a-z]|$)|未知|待测|样品|试样|水样", re.I)),
    ("reference", re.compile(r"(?:^|[^a-z])(?:reference|literature)(?:[^a-z]|$)|文献|参考", re.I)),
)  # fmt: skip
_REPEAT_NAME = re.compile(
    r"(?:^|[^a-z])(?:scan|repeat|rep|replicate|trial|measurement|重复|第)\s*[_-]?\s*\d+", re.I
)
_REPEAT_NOTES = re.compile(
    r"\b(?:repeat(?:ed)? scans?|repeats?|replicates?|repeated (?:measurements?|runs?)|"
    r"(?:three|two|four|five|several) (?:scans|repeats|replicates|runs) of the same)\b|重复",
    re.I,
)
# A parameter in a name: "T25C", "T=300K", "L=0.50m", "m_200g", "V5.0V", "c0.5mM", "25C".
_PARAMETER = re.compile(
    r"(?:^|[_\-\s(])(?P<sym>[A-Za-z]{1,4})?\s*[=_-]?\s*(?P<val>\d+(?:[.p]\d+)?)\s*"
    r"(?P<unit>(?:deg)?[A-Za-zµμ°Ω℃]{1,5})?(?=$|[_\-\s)])"
)
_ZH_NUMBERED = re.compile(r"([\u3400-\u9fff]{1,4})\s*(\d+)")
_NO_PARAMETER = re.compile(
    r"^(?:run|file|data|scan|rep|repeat|trial|sample|set|exp|test|n|no|nr|part)$", re.I
)


@dataclass(frozen=True)
class RunValue:
    parameter: str  # "T", "L", "m", or "run" when the name gives no quantity
    value: float
    unit: str | None
    dimension: str | None


def _stem(path: str) -> str:
    name = PurePosixPath(path).name
    return name.rsplit(".", 1)[0] if "." in name else name


def run_value(path: str) -> RunValue | None:
    """The parameter a file name gives, with its unit: `run_T25C` -> T = 25 °C."""
    stem = _stem(path)
    best: RunValue | None = None
    for m in _PARAMETER.finditer(stem):
        sym, val, unit = m.group("sym"), m.group("val").replace("p", "."), m.group("unit")
        if sym and _NO_PARAMETER.match(sym):
            sym = None
        if unit and sym is None and dimension(unit) is None:
            continue
        spelled = unit
        if unit and sym and sym.upper() == "T" and unit.upper() in {"C", "DEGC"}:
            spelled = "°C"  # T25C: a temperature, not 25 coulomb
        elif unit and unit.upper() in {"C", "DEGC"} and sym is None:
            spelled = "°C"
        dim = dimension(spelled) if spelled else None
        if spelled and dim is None:
            continue
        try:
            value = float(val)
        except ValueError:
            continue
        if sym or spelled:
            best = RunValue(sym or "", value, spelled, dim)
    return best


@dataclass(frozen=True)
class _Named:
    file: str
    sheet: str | None
    label: str  # file name or "file, sheet"


def _units_of(datasets: Sequence[Dataset]) -> list[_Named]:
    seen: dict[tuple[str, str | None], _Named] = {}
    for ds in datasets:
        sheet = ds.provenance.sheet if ds.provenance else None
        key = (ds.source, sheet)
        if key not in seen:
            label = f"{ds.source}, sheet {sheet}" if sheet else ds.source
            seen[key] = _Named(ds.source, sheet, label)
    return list(seen.values())


def _role_by_name(u: _Named) -> tuple[FileRoleName, str] | None:
    for text in ([u.sheet] if u.sheet else []) + [_stem(u.file)]:
        for role, pattern in _ROLE_WORDS:
            m = pattern.search(text)
            if m:
                return role, text
    return None


def _role_in_notes(u: _Named, notes: Notes) -> tuple[FileRoleName, str, str] | None:
    """A clause that names the file (its full name, a sheet, or a stem that
    is no plain word) and, within a few words after it, a role word:
    "b.csv holds the counts without the source (background)", "the sheet
    Unknowns has the samples"."""
    stem = _stem(u.file)
    names = [PurePosixPath(u.file).name] + ([u.sheet] if u.sheet else [])
    if re.search(r"[\d_\-]", stem):
        names.append(stem)
    for clause in notes.clauses:
        for name in names:
            at = clause.text.find(name)
            if len(name) < 2 or at < 0:
                continue
            after = clause.text[at + len(name) : at + len(name) + 70]
            after = re.split(r"\S+\.(?:csv|txt|xlsx|xls|dat|mat|json|tsv)\b|;", after)[0]
            for role, pattern in _ROLE_WORDS:
                if pattern.search(after):
                    return role, clause.source, clause.quote(0, len(clause.text))
    return None


def file_roles(datasets: Sequence[Dataset], notes: Notes) -> list[FileRole]:
    units = _units_of([d for d in datasets if d.kind in ("table", "matrix")])
    roles: list[FileRole] = []
    decided: dict[tuple[str, str | None], FileRole] = {}
    for u in units:
        # A name that says its role ("试样.csv", "background.txt") is kept
        # before the notes' words near it: "见 试样.csv，显色与标准相同"
        # compares the sample with the standards, it does not make it one.
        said = None if _role_by_name(u) is not None else _role_in_notes(u, notes)
        if said is not None:
            role, source, phrase = said
            decided[(u.file, u.sheet)] = FileRole(
                file=u.file,
                sheet=u.sheet,
                role=role,
                evidence=Evidence(
                    source=source, phrase=phrase, reason=f"the notes say {u.label} is the {role}"
                ),
            )
            continue
        by_name = _role_by_name(u)
        if by_name is not None:
            role, text = by_name
            decided[(u.file, u.sheet)] = FileRole(
                file=u.file,
                sheet=u.sheet,
                role=role,
                evidence=Evidence(
                    source=u.file,
                    phrase=text,
                    reason=f"its name ({text!r}) says it holds the {role}",
                ),
            )
    has_standards = any(r.role == "standards" for r in decided.values())
    for r in decided.values():
        # "samples" is the unknowns only beside standards; alone it is data.
        if r.role == "unknowns" and not has_standards and "sample" in r.evidence.phrase.lower():
            continue
        roles.append(r)
    undecided = [u for u in units if (u.file, u.sheet) not in decided]
    roles.extend(_runs(undecided, notes))
    return roles


def _runs(units: list[_Named], notes: Notes) -> list[FileRole]:
    """Files that vary one parameter (runs), or repeat one measurement."""
    values = {u.file: run_value(u.file) for u in units if u.sheet is None}
    by_parameter: dict[tuple[str, str | None], list[tuple[str, RunValue]]] = {}
    for f, v in values.items():
        if v is not None and (v.parameter or v.unit):
            by_parameter.setdefault((v.parameter, v.dimension), []).append((f, v))
    out: list[FileRole] = []
    used: set[str] = set()
    for (param, _dim), members in by_parameter.items():
        distinct = {v.value for _, v in members}
        if len(members) < 2 or len(distinct) < 2:
            continue
        for f, v in members:
            name = param or "parameter"
            shown = f"{v.value:g} {v.unit}" if v.unit else f"{v.value:g}"
            out.append(
                FileRole(
                    file=f,
                    role="run",
                    parameter=param or None,
                    value=v.value,
                    unit=v.unit,
                    evidence=Evidence(
                        source=f,
                        phrase=PurePosixPath(f).name,
                        reason=f"one run of {len(members)}; its name gives {name} = {shown}",
                    ),
                )
            )
            used.add(f)
    repeats_said = next((c for c in notes.clauses if _REPEAT_NOTES.search(c.text)), None)
    rest = [u for u in units if u.file not in used and u.sheet is None]
    numbered = [
        u for u in rest if _REPEAT_NAME.search(_stem(u.file)) or re.search(r"\d+$", _stem(u.file))
    ]
    if len(numbered) >= 2 and (
        repeats_said is not None or any(_REPEAT_NAME.search(_stem(u.file)) for u in numbered)
    ):
        why = (
            "the notes call the files repeats"
            if repeats_said is not None
            else "numbered files of the same measurement (scan 1, 2, ...)"
        )
        for u in numbered:
            out.append(
                FileRole(
                    file=u.file,
                    role="repeat",
                    evidence=Evidence(
                        source=repeats_said.source if repeats_said else u.file,
                        phrase=repeats_said.quote(0, len(repeats_said.text))
                        if repeats_said
                        else PurePosixPath(u.file).name,
                        reason=f"{why}: one of {len(numbered)}",
                    ),
                )
            )
    return out
