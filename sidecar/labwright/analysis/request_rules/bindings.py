"""Each variable of a law bound to a column, with the reason.

A column is a law's variable by its symbol (`[S]`, `c_S`, `T`), by the
variable's words in its name or in what the notes say of it ("substrate",
"吸光度"), and by its unit's dimension (a column in mM can be a
concentration; "T (°C)" can never be a period). A dimension that
contradicts the variable rules the column out whatever its name. Never
bound: a row index, a category code, a constant column, and as the
response, a controlled set-point (a bath temperature, an applied voltage).
When a table has exactly the law's two measurement columns and nothing
says which is which, the first (or the increasing one) is the independent
variable, and the reason says so.

A law whose independent variable no column holds may take it from the
file names of a run series (`run_T25C.csv`: T = 25 °C per file); its
response is then a quantity fitted in each run by another law of the
catalogue whose name or symbol is the response's ("rate constant" k of a
first-order decay per run, then Arrhenius across the runs), which is the
run-series procedure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labwright.analysis.catalogue.load import holds_in
from labwright.analysis.catalogue.schema import ModelEntry, Variable
from labwright.analysis.quantities import dimensionality as dimension
from labwright.analysis.quantities import is_proxy, registry
from labwright.analysis.request import Binding, Evidence, FileRole, Unanswered
from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.words import (
    find_chinese,
    find_words,
    is_chinese,
    names_symbol,
    phrase_stems,
    same_symbol,
    tokens,
)
from labwright.ingest.types import Dataset

_NEVER = frozenset({"index", "category", "constant", "empty"})
# Below this a column is a guess, not a binding (a symbol is 3, words 2, a unit 2).
MIN_SCORE = 2.0


@dataclass(frozen=True)
class Scored:
    column: FolderColumn
    score: float
    reasons: tuple[str, ...]
    per: int = 1  # the column holds the time of this many periods of the variable


def _is_period(v: Variable) -> bool:
    """A law's period, or a written formula's T (which has no label to say so)."""
    if v.dimension == "any" and v.unit is None and v.name == "T":
        return True
    return "period" in v.label.en.casefold() and variable_dimension(v) == dimension("s")


def dimension_of_spec(spec: str | None) -> str | None:
    """A catalogue dimension ("[temperature]", "[concentration]/[time]") as
    `quantities.dimensionality` writes one; None for "any"."""
    if not spec or spec.strip() in {"any", ""}:
        return None
    if spec.strip() == "dimensionless":
        return "dimensionless"
    try:
        dims = registry().get_dimensionality(spec)
    except Exception:  # noqa: BLE001 - a dimension name pint does not know: no check
        return None
    return str(dims) if dims else "dimensionless"


def variable_dimension(v: Variable) -> str | None:
    """The dimension of a variable: of its typical unit, else its stated dimension."""
    return (dimension(v.unit) if v.unit else None) or dimension_of_spec(v.dimension)


def score(v: Variable, col: FolderColumn, entry: ModelEntry | None = None) -> Scored | None:
    """How well a column fits a variable; None when it cannot be it.

    A unit whose dimension contradicts the variable rules the column out,
    except a proxy unit (a count or ratio, or one per unit time:
    `quantities.is_proxy`) on a column whose name is the variable's (its
    symbol or its words), for a law that holds in any unit of it (`entry`
    given): real data are often in counts per minute or ppm where the
    textbook writes µM/s and mM, and "[S] (ppm)" beside "v (counts/min^2)"
    is still Michaelis–Menten. A length in kg or a period in °C never is."""
    if not col.numeric or col.role in _NEVER - {"index"}:
        return None
    if v.role == "response" and col.set_point and (entry is None or entry.inverse is None):
        return None  # a law with an inverse is fitted the other way round
    reasons: list[str] = []
    total = 0.0
    symbols = (v.name, *v.symbols)
    # A column without a name of its own goes by the symbol the notes give it.
    name = col.symbol if col.generated_name and col.symbol else col.name
    named = (not col.generated_name or col.symbol is not None) and any(
        names_symbol(name, s) for s in symbols
    )
    repeat = (
        not named
        and col.replicate_of is not None
        and any(same_symbol(col.replicate_of, s) for s in symbols)
    )
    if col.role == "index":
        # A count the law itself uses (the upper level n of the Balmer
        # series, a ring or diffraction order) steps 1, 2, 3 like a row
        # counter; a column whose name is the symbol of such an independent
        # variable, or its words ("级次 k", "order m"), is that count. Never a
        # response, never by the notes' description alone.
        in_name = named or _words_in(v, "" if col.generated_name else col.name)
        if not (in_name and v.role == "independent" and _is_count(v)):
            return None
        reasons.append("whole numbers stepping by one, named as the law's count")
    if (
        not named
        and col.notes_symbol is not None
        and any(same_symbol(col.notes_symbol, s) for s in symbols)
    ):
        total += 3
        reasons.append(col.notes_symbol_reason)
    elif named:
        total += 3
        if name != col.name:
            reasons.append(f"the notes call it {name!r}, the symbol of the {v.label.en}")
        else:
            reasons.append(f"its name {col.name!r} is the symbol of the {v.label.en}")
        if col.defined:
            total += 1
            reasons.append("the notes define it so")
    per = col.cycles if col.cycles and _is_period(v) else 1
    if per > 1 and not named:
        total += 3
        whose = (
            "the notes time" if col.cycles_from_notes else f"its name {col.name!r} is the time of"
        )
        reasons.append(f"{whose} {per} periods: the {v.label.en} is it divided by {per}")
        named = True
    elif repeat:
        total += 3
        reasons.append(
            f"its name {col.name!r} numbers a repeat of {col.replicate_of!r}, the symbol of"
            f" the {v.label.en}"
        )
        named = True
    words = col.words
    if words:
        toks = tokens(words)
        for phrase in (*v.words.all(), v.label.en, v.label.zh):
            if not phrase:
                continue
            hit = (
                find_chinese(phrase, words)
                if is_chinese(phrase)
                else find_words(phrase_stems(phrase), words, toks)
            )
            if hit:
                total += 2
                where = (
                    "the notes' description"
                    if col.described and phrase not in col.name
                    else "its name"
                )
                reasons.append(f"'{phrase}' in {where}")
                break
    want = variable_dimension(v)
    if col.dimension and want:
        if col.dimension != want:
            named = any(r.startswith("its name") or r.endswith("in its name") for r in reasons)
            # A variable the catalogue declares of any dimension has a
            # typical unit only: "v (umol/min)", an amount per time beside the
            # textbook's µM/min, is still Michaelis–Menten's rate.
            free = v.dimension == "any"
            proxy = named and (is_proxy(col.unit) or free)
            if not (proxy and entry is not None and holds_in(entry, {v.name: col.unit})):
                return None  # a unit that contradicts the variable
            reasons.append(
                f"its unit ({col.unit}) is not the {v.label.en}'s typical one, and the law holds "
                f"in any unit of {v.name}"
                if free and not is_proxy(col.unit)
                else f"its unit ({col.unit}) is a count or ratio standing in for the {v.label.en},"
                f" and the law holds in any unit of {v.name}"
            )
            return Scored(col, total, tuple(reasons), per)
        total += 2
        reasons.append(
            f"its unit ({col.unit}, from {col.unit_from}) has the dimension of the {v.label.en}"
        )
    if col.set_point and v.role == "independent":
        reasons.append(f"a controlled variable: {col.set_point}")
    return Scored(col, total, tuple(reasons), per)


def _words_in(v: Variable, text: str) -> bool:
    """One of the variable's words (EN or ZH) in the text."""
    if not text:
        return False
    toks = tokens(text)
    for phrase in (*v.words.all(), v.label.en, v.label.zh):
        if not phrase:
            continue
        hit = (
            find_chinese(phrase, text)
            if is_chinese(phrase)
            else find_words(phrase_stems(phrase), text, toks)
        )
        if hit:
            return True
    return False


def _is_count(v: Variable) -> bool:
    """A dimensionless independent variable: an order, a level, a number of rings."""
    return variable_dimension(v) in (None, "dimensionless")


@dataclass(frozen=True)
class TableBinding:
    entry: ModelEntry
    dataset: Dataset
    chosen: dict[str, Scored]  # variable name -> column
    fallback: bool  # the two-column rule was used

    @property
    def complete(self) -> bool:
        return all(v.name in self.chosen for v in self.entry.variables)

    @property
    def evidence_score(self) -> float:
        return sum(s.score for s in self.chosen.values())


def bind_table(entry: ModelEntry, ds: Dataset, columns: Sequence[FolderColumn]) -> TableBinding:
    pairs: list[tuple[float, int, str, Scored]] = []
    for v in entry.variables:
        for i, col in enumerate(columns):
            s = score(v, col, entry)
            if s is not None and s.score >= MIN_SCORE:
                pairs.append((s.score, -i, v.name, s))
    pairs.sort(key=lambda p: (p[0], p[1]), reverse=True)
    chosen: dict[str, Scored] = {}
    taken: set[str] = set()
    for _, _, name, s in pairs:
        if name in chosen or s.column.name in taken:
            continue
        chosen[name] = s
        taken.add(s.column.name)
    fallback = False
    missing = [v for v in entry.variables if v.name not in chosen]
    # A numbered sibling of a bound column (theta2 beside theta1) is another
    # reading of the same quantity, never the law's other variable.
    siblings = {s.column.replicate_of.casefold() for s in chosen.values() if s.column.replicate_of}
    eligible = [
        c
        for c in columns
        if c.numeric
        and c.role not in _NEVER
        and c.name not in taken
        and (c.replicate_of or "").casefold() not in siblings
    ]
    if missing and len(entry.variables) == 2 and len(eligible) == len(missing):
        # The law's two columns and nothing else: the first (or increasing)
        # one is x. Only where no unit contradicts and no set-point would be y.
        order = sorted(eligible, key=lambda c: (not c.increasing, c.position))
        slots = sorted(missing, key=lambda v: v.role != "independent")
        ok = True
        picks: dict[str, Scored] = {}
        for v, col in zip(slots, order, strict=False):
            s = score(v, col, entry)
            if s is None:
                ok = False
                break
            why = (
                "the table's first increasing measurement column, taken as the independent variable"
                if v.role == "independent"
                else "the table's remaining measurement column, taken as the response"
            )
            picks[v.name] = Scored(col, s.score, (*s.reasons, why), s.per)
        if ok:
            chosen.update(picks)
            fallback = True
    return TableBinding(entry, ds, chosen, fallback)


def _unit_text(s: Scored) -> str | None:
    return s.column.unit


def bindings_of(tb: TableBinding, source_of: dict[str, str]) -> list[Binding]:
    out: list[Binding] = []
    for v in tb.entry.variables:
        s = tb.chosen.get(v.name)
        if s is None:
            continue
        col = s.column
        reason = "; ".join(s.reasons) or "the only column left"
        out.append(
            Binding(
                model=tb.entry.key,
                variable=v.name,
                file=col.file,
                sheet=col.sheet,
                column=col.name,
                unit=_unit_text(s),
                per=s.per,
                evidence=Evidence(
                    source=source_of.get(col.name, "columns"),
                    phrase=col.described or col.name,
                    reason=f"{v.label.en} -> {col.name}: {reason}",
                ),
            )
        )
    return out


def run_binding(
    entry: ModelEntry, runs: Sequence[FileRole], catalogue: Sequence[ModelEntry]
) -> tuple[list[Binding], str | None] | None:
    """A law across a run series: its independent variable from the file
    names, its response a quantity of the law fitted in each run."""
    if not runs or len(entry.independents) != 1:
        return None
    x = entry.independents[0]
    r0 = runs[0]
    dim = dimension(r0.unit) if r0.unit else None
    want = variable_dimension(x)
    by_symbol = bool(r0.parameter) and any(
        same_symbol(r0.parameter or "", s) for s in (x.name, *x.symbols)
    )
    if not (by_symbol or (dim is not None and dim == want)):
        return None
    if dim is not None and want is not None and dim != want:
        return None
    y = entry.response
    per_run = _per_run_quantity(y, entry, catalogue)
    pattern = _pattern(runs)
    shown = f"{r0.parameter or 'parameter'}" + (f" in {r0.unit}" if r0.unit else "")
    out = [
        Binding(
            model=entry.key,
            variable=x.name,
            file=pattern,
            column=f"(file names: {shown})",
            unit=r0.unit,
            source="file_names",
            evidence=Evidence(
                source=runs[0].file,
                phrase=", ".join(r.file for r in runs[:3]) + (" ..." if len(runs) > 3 else ""),
                reason=f"{x.label.en} is not a column; each of the {len(runs)} runs gives it in its file name",
            ),
        )
    ]
    if per_run is None:
        return out, None
    model, quantity = per_run
    out.append(
        Binding(
            model=entry.key,
            variable=y.name,
            file=pattern,
            column=f"{model}.{quantity}",
            source="per_run",
            evidence=Evidence(
                source="catalogue",
                phrase=y.label.en,
                reason=f"{y.label.en} is fitted in each run ({quantity} of {model}), then the law across the runs",
            ),
        )
    )
    return out, model


def _per_run_quantity(
    y: Variable, across: ModelEntry, catalogue: Sequence[ModelEntry]
) -> tuple[str, str] | None:
    """The law whose parameter or derived quantity is the response of the
    law across runs (Arrhenius's k is a first-order decay's k)."""
    names = {y.label.en.lower(), *(w.lower() for w in y.words.en)}
    for entry in catalogue:
        if entry.key == across.key:
            continue
        for p in entry.parameters:
            if p.label.en.lower() in names or p.name == y.name and p.label.en.lower() in names:
                return entry.key, p.name
        for d in entry.derived:
            if d.label.en.lower() in names:
                return entry.key, d.key
    return None


def _pattern(runs: Sequence[FileRole]) -> str:
    from labwright.analysis.request_rules import file_pattern

    return file_pattern([r.file for r in runs])


def missing_variables(entry: ModelEntry, best: TableBinding | None) -> list[Unanswered]:
    """What the data lack for the law: one line per variable no column holds."""
    out = []
    for v in entry.variables:
        if best is None or v.name not in best.chosen:
            out.append(
                Unanswered(
                    what=f"{entry.name.en}: {v.label.en}",
                    why=f"no column holds the {v.label.en} (symbol {v.name})",
                    model=entry.key,
                    variable=v.name,
                )
            )
    return out
