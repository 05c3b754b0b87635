"""The request in the method section: what the notes ask, as the analysis
read it (`FolderAnalysis.request`), and what was asked and not answered.

A reader checks the analysis against the notes: which quantities were
asked (with the notes' own words and the file they are in), which law was
used (named, written out, or implied by the quantity) with its formula,
which column is which variable of the law and why, the constants and the
values to compare with that the notes give, the files' roles. Each item
quotes its evidence; the English report also gives the recorded reason
(the reasons are written in English by the rules, so the Chinese report
shows the notes' phrase instead).

Names come from the catalogue (`analysis/catalogue`), never from the
column headers alone; the notes' phrases and the folder's names are
escaped as quoted material. Constants are numbers of the notes: printed
through the ledger with the notes' file as their source, with the digits
the notes gave.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from labwright.agent.offline.escape import escape_text
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.results_table import fixed, unit_tex
from labwright.agent.offline.tables import src_file, src_text
from labwright.analysis.catalogue.custom import KEY as CUSTOM_KEY
from labwright.analysis.catalogue.custom import PARAMETER, symbol_latex
from labwright.analysis.catalogue.expr import FormulaError, parse_equation, parse_expression
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.schema import ModelEntry, Text
from labwright.analysis.catalogue.written import read_sides
from labwright.analysis.request import (
    AnalysisRequest,
    AskedQuantity,
    Binding,
    Evidence,
    NamedModel,
    Unanswered,
)
from labwright.ingest.types import Provenance


def _entry(key: str | None) -> ModelEntry | None:
    return catalogue().get(key) if key else None


def quantity_name(key: str, model: str | None, lang: str) -> str:
    """A quantity's catalogue label and symbol ("Michaelis constant $K_m$"),
    or its key when the catalogue does not know it."""
    if model == CUSTOM_KEY:
        # A parameter of the formula the notes write: never the label of a
        # catalogue law's parameter that has the same letter ("b" is no
        # growth-retardation rate in V = a G^b H^c).
        return _named(PARAMETER, symbol_latex(key), lang)
    models = [e for e in [_entry(model)] if e is not None] or list(catalogue())
    for entry in models:
        for p in entry.parameters:
            if p.name == key:
                return _named(p.label, p.latex, lang)
        for d in entry.derived:
            if d.key == key:
                return _named(d.label, d.latex, lang)
    return src_text(key)


def _label_of(key: str, model: str | None) -> Text | None:
    if model == CUSTOM_KEY:
        return PARAMETER
    entry = _entry(model)
    items = [(p.name, p.label) for p in entry.parameters] if entry else []
    items += [(d.key, d.label) for d in entry.derived] if entry else []
    return dict(items).get(key)


def _latex_of(key: str, model: str | None) -> str:
    entry = _entry(model) if model != CUSTOM_KEY else None
    items = [(p.name, p.latex) for p in entry.parameters] if entry else []
    items += [(d.key, d.latex) for d in entry.derived] if entry else []
    return dict(items).get(key, symbol_latex(key))


def _named(label: Text, latex: str, lang: str) -> str:
    name = fixed(escape_text(label(lang)))
    return f"{name} {fixed(f'${latex}$')}" if latex else name


def _quote(ev: Evidence) -> str:
    return f"``{src_text(ev.phrase)}''" if ev.phrase else ""


def _file(ev: Evidence) -> str:
    return src_file(ev.source) if ev.source and ev.source != "columns" else src_text(ev.source)


def _asked_items(asked: Sequence[AskedQuantity], req: AnalysisRequest, lang: str) -> list[str]:
    """One item per asked quantity: the notes often ask one twice, by its
    symbol and by its name ("give the molar absorptivity ε"), and the list
    said the same quantity twice. Its phrases are quoted together, per file."""
    groups: dict[tuple[str, str | None, tuple[str, ...]], list[AskedQuantity]] = {}
    for a in asked:
        groups.setdefault((a.quantity, a.model, a.candidates), []).append(a)
    return [_asked(group[0], req, lang, group) for group in groups.values()]


def _asked(
    a: AskedQuantity, req: AnalysisRequest, lang: str, group: Sequence[AskedQuantity] = ()
) -> str:
    name = quantity_name(a.quantity, a.model, lang)
    written = dict(s for m in req.models if m.key == a.model for s in m.symbols).get(a.quantity)
    own = next((g.name for g in (group or (a,)) if g.name), None)
    if own is not None or written is not None:
        # As the notes ask it ("asymptotic height hmax"), not as the
        # catalogue names the parameter it maps to ("final value A_inf").
        label = _label_of(a.quantity, a.model)
        words = Text(own, own) if own is not None else label
        latex = symbol_latex(written) if written is not None else _latex_of(a.quantity, a.model)
        name = _named(words, latex, lang) if words is not None else name
    if a.model is None and a.candidates:
        names = ", ".join(
            fixed(escape_text(e.name(lang))) for e in map(_entry, a.candidates) if e is not None
        )
        if names:
            name += f" ({phrase(lang, 'rq_candidates', names=names)})"
    by_file: dict[str, list[str]] = {}
    for ev in (g.evidence for g in (group or (a,))):
        quotes = by_file.setdefault(_file(ev), [])
        if (q := _quote(ev)) and q not in quotes:
            quotes.append(q)
    first, *rest = by_file.items()
    item = phrase(lang, "rq_asked_item", name=name, quote=", ".join(first[1]), file=first[0])
    for file, quotes in rest:
        item += phrase(lang, "rq_asked_more", quote=", ".join(quotes), file=file)
    return item


def _model(m: NamedModel, lang: str) -> str:
    entry = _entry(m.key)
    ev = m.evidence
    if entry is None:
        formula = fixed(f"\\texttt{{{escape_text(m.formula or '')}}}")
        solved = _solved_for(m)
        if solved is not None:
            written = fixed(f"\\texttt{{{escape_text(ev.phrase)}}}")
            return phrase(lang, "rq_model_balance", file=_file(ev), written=written,
                          y=fixed(f"${symbol_tex(solved)}$"), formula=formula)  # fmt: skip
        return phrase(lang, "rq_model_formula", file=_file(ev), formula=formula)
    key = {"name": "rq_model_name", "formula": "rq_model_name", "quantity": "rq_model_quantity",
           "per_run": "rq_model_per_run"}[m.how]  # fmt: skip
    return phrase(
        lang, key, name=fixed(escape_text(entry.name(lang))), formula=fixed(entry.latex),
        file=_file(ev), quote=_quote(ev),
    )  # fmt: skip


def _binding(b: Binding, lang: str) -> str:
    entry = _entry(b.model)
    # An input read per row (a tuning fork's frequency) is named as the input.
    named = [v.label for v in entry.variables if v.name == b.variable] if entry else []
    named += [i.label for i in entry.inputs if i.name == b.variable] if entry else []
    label = fixed(escape_text(named[0](lang))) if named else src_text(b.variable)
    var = fixed(f"${symbol_tex(b.variable)}$") if entry else src_text(b.variable)
    unit = phrase(lang, "rq_unit", unit=unit_tex(b.unit)) if b.unit and unit_tex(b.unit) else ""
    why = src_text(b.evidence.reason) if lang == "en" and b.evidence.reason else _quote(b.evidence)
    file = src_file(b.file + (f" [{b.sheet}]" if b.sheet else ""))
    key = {"column": "rq_binding", "file_names": "rq_binding_names",
           "per_run": "rq_binding_per_run"}[b.source]  # fmt: skip
    return phrase(
        lang, key, var=var, label=label, column=src_text(b.column), file=file, unit=unit, why=why
    )


def given_number(ledger: Ledger, value: float, source: Provenance, what: str, most: int = 6) -> str:
    """A number the notes give, printed with the significant digits they
    wrote (as far as a float keeps them: `repr` to 6 digits), at most `most`."""
    if not math.isfinite(value) or value == 0:
        return ledger.num(value, source, what, sig=1)
    mantissa = f"{abs(value):.6g}".split("e")[0].replace(".", "").lstrip("0")
    return ledger.num(value, source, what, sig=min(max(len(mantissa.rstrip("0")), 1), most))


def _given(
    ledger: Ledger, value: float, uncertainty: float | None, unit: str | None, file: str, what: str
) -> tuple[str, str]:
    """A value the notes give, with its uncertainty when they give one, as
    math through the ledger, and its unit ("" without one)."""
    prov = Provenance(file=file)
    text = given_number(ledger, value, prov, what)
    if uncertainty:
        # Two significant digits at most: a tolerance of 20 % is a standard
        # uncertainty of 11.547 µF on 100 µF, printed 12.
        text += " \\pm " + given_number(
            ledger, uncertainty, prov, f"standard uncertainty of the {what}", most=2
        )
    tex = unit_tex(unit) if unit else ""
    return text, f"~{tex}" if tex else ""


def _constants(req: AnalysisRequest, ledger: Ledger, lang: str) -> str:
    items = []
    for c in req.constants:
        what = f"constant {c.symbol} given in the notes"
        value, unit = _given(ledger, c.value, c.uncertainty, c.unit, c.evidence.source, what)
        items.append(phrase(lang, "rq_constant", sym=src_text(c.symbol), value=f"${value}$",
                            unit=unit, file=_file(c.evidence)))  # fmt: skip
    return phrase(lang, "rq_constants", items="; ".join(items)) if items else ""


def _derived(req: AnalysisRequest, lang: str) -> str:
    """The columns made from others as the notes define them ("D_m = |x左 −
    x右|", "F = m g"): the report says how the law's variable was computed."""
    items = [
        phrase(
            lang,
            "rq_derived_item",
            written=f"``{src_text(d.written)}''",
            columns=src_text(", ".join(column for _, column in d.columns)),
            file=src_file(d.file + (f" [{d.sheet}]" if d.sheet else "")),
            source=_file(d.evidence),
        )
        for d in req.derived
    ]
    return phrase(lang, "rq_derived", items="; ".join(items)) if items else ""


def _expected(req: AnalysisRequest, ledger: Ledger, lang: str) -> str:
    items = []
    for e in req.expected:
        what = f"expected value of {e.quantity or 'the result'} given in the notes"
        value, unit = _given(ledger, e.value, e.uncertainty, e.unit, e.evidence.source, what)
        # A value given without naming its quantity ("compare it with the
        # accepted value ...") is the result's.
        name = (
            quantity_name(e.quantity, e.model, lang)
            if e.quantity
            else phrase(lang, "rq_expected_free")
        )
        items.append(f"{name} = ${value}${unit} ({_file(e.evidence)})")
    return phrase(lang, "rq_expected", items="; ".join(items)) if items else ""


def _files(req: AnalysisRequest, lang: str) -> str:
    # The default role ("data") says nothing; the others are what the
    # analysis did differently with a file.
    items = [
        phrase(
            lang,
            "rq_file",
            file=src_file(f.file + (f" [{f.sheet}]" if f.sheet else "")),
            role=phrase(lang, f"frole_{f.role}"),
        )  # fmt: skip
        for f in req.files
        if f.role not in ("data", "run")
    ]
    return phrase(lang, "rq_files", items="; ".join(items)) if items else ""


def request_text(req: AnalysisRequest, ledger: Ledger, lang: str) -> str:
    """The request as a paragraph and lists, or "" for an empty request."""
    if req.is_empty:
        return ""
    lines: list[str] = []
    if req.asked:
        lines.append(phrase(lang, "rq_asked", what="; ".join(_asked_items(req.asked, req, lang))))
    lines += [_model(m, lang) for m in req.models]
    if req.procedure is not None and req.procedure != "fit":
        lines.append(phrase(lang, "rq_procedure", what=phrase(lang, f"proc_{req.procedure}")))
    lines += [_constants(req, ledger, lang), _derived(req, lang), _expected(req, ledger, lang)]
    lines.append(_files(req, lang))
    out = phrase(lang, "rq_intro") + "\n\\begin{itemize}\n"
    out += "".join(f"\\item {line}\n" for line in lines if line)
    out += "\\end{itemize}\n"
    if req.bindings:
        out += phrase(lang, "rq_bindings") + "\n\\begin{itemize}\n"
        out += "".join(f"\\item {_binding(b, lang)}\n" for b in req.bindings)
        out += "\\end{itemize}\n"
    return out


# The two sentences the request rules write for what cannot be answered
# (request_rules/__init__.py): "LABEL (KEY)" and "... the LABEL (SYMBOL),
# which it needs". Read back so that the Chinese report can say them from
# the catalogue's names; any other wording is printed as recorded.
_WHAT_KEY = re.compile(r"^.+ \((?P<key>[A-Za-z]\w*)\)$")
_NEEDS = re.compile(r"^the notes do not give the .+ \((?P<sym>[A-Za-z]\w*)\), which it needs$")
# The three sentences `plan.py` writes for an asked quantity nothing answered.
_UNBOUND = re.compile(
    r"^No table of the folder binds every variable of .+, so it was not computed\.$"
)
_PER_FILE = re.compile(
    r"^It was computed for each of the (?P<n>\d+) files (?P<files>\S+) \(see the series table"
)
_NO_SINGLE = re.compile(
    r"^.+ was computed \(see its table in the Results\) but gives no single value"
)


def _having(key: str, model: str | None) -> list[ModelEntry]:
    entries = [e for e in [_entry(model)] if e is not None] or list(catalogue())
    return [
        e for e in entries
        if key in {p.name for p in e.parameters} | {d.key for d in e.derived}
    ]  # fmt: skip


def unanswered_item(u: Unanswered, lang: str) -> tuple[str, str]:
    """What was not answered and why, as LaTeX. The rules record both in
    English; in Chinese, a variable of a law that no column holds, an asked
    quantity and an input the notes do not give are said from the
    catalogue's names instead."""
    entry = _entry(u.model)
    variable = next((v for v in entry.variables if v.name == u.variable), None) if entry else None
    if lang != "zh":
        return src_text(u.what), src_text(u.why)
    if entry is not None and variable is not None:
        what = f"{fixed(escape_text(entry.name.zh))}：{fixed(escape_text(variable.label.zh))}"
        why = phrase(lang, "na_no_column", label=fixed(escape_text(variable.label.zh)),
                     sym=fixed(f"${symbol_tex(variable.name)}$"))  # fmt: skip
        return what, why
    what, why = src_text(u.what), src_text(u.why)
    asked = _WHAT_KEY.match(u.what)
    having = _having(asked.group("key"), u.model) if asked else []
    if asked and having:
        what = quantity_name(asked.group("key"), having[0].key, lang)
        needs = _NEEDS.match(u.why)
        inputs = [i for e in having for i in e.inputs if needs and i.name == needs.group("sym")]
        if inputs:
            why = phrase(lang, "na_needs", label=fixed(escape_text(inputs[0].label.zh)),
                         sym=fixed(f"${symbol_tex(inputs[0].name)}$"))  # fmt: skip
    return what, _said_in_chinese(u.why, entry) or why


def computed_per_file(u: Unanswered) -> bool:
    """Not one value because it was computed for each file of a series: the
    series' dependence on its run parameter answers the question instead."""
    return _PER_FILE.match(u.why) is not None


def _said_in_chinese(why: str, entry: ModelEntry | None) -> str | None:
    """`plan.py`'s sentences for an asked quantity nothing answered, in
    Chinese; None for any other wording."""
    law = fixed(escape_text(entry.name.zh)) if entry is not None else "定律"
    if _UNBOUND.match(why):
        return phrase("zh", "na_unbound", law=law)
    if _NO_SINGLE.match(why):
        return phrase("zh", "na_no_single", law=law)
    m = _PER_FILE.match(why)
    if m:
        return phrase("zh", "na_per_file", n=m.group("n"), files=src_file(m.group("files")))
    for key in ("na_no_law", "na_not_here"):  # analysis/request_rules/unknown.py
        if why == phrase("en", key):
            return phrase("zh", key)
    return None


def _solved_for(m: NamedModel) -> str | None:
    """The quantity a written balance was solved for ("m g r − τ = (I + m r²)
    a / r" for a: catalogue/implicit.py), or None when the notes wrote the
    formula with it alone on the left."""
    try:
        (left, _), _ = read_sides(m.evidence.phrase)
        response = parse_equation(m.formula or "").response
    except FormulaError:
        return None
    return response if left != response and len(parse_expression(left).names) > 1 else None


def symbol_tex(name: str) -> str:
    """A variable's name as a math symbol: one letter italic (V), a word
    upright (pH), a subscript after "_" upright when it is a word (V_eq)."""
    base, _, sub = name.partition("_")

    def word(text: str) -> str:
        return text if len(text) == 1 else "\\mathrm{" + text + "}"

    return word(base) + ("_{" + word(sub) + "}" if sub else "")


def unanswered_reasons(unanswered: Sequence[Unanswered], lang: str) -> dict[str, list[str]]:
    """Each thing not answered (as LaTeX) with its reasons, in order. A law's
    variable that no column holds is said under the quantity asked of that
    law ("α --- no column holds the temperature (T); no column holds the
    resistance (R)"), in place of the general "no table binds every
    variable": one item per question, its real reasons together."""
    asked_of = {u.model: u for u in unanswered if u.model and u.variable is None}
    folded = {u.model for u in unanswered if u.variable is not None and u.model in asked_of}
    reasons: dict[str, list[str]] = {}
    for u in unanswered:
        what, why = unanswered_item(u, lang)
        if u.variable is not None and u.model in asked_of:
            what = unanswered_item(asked_of[u.model], lang)[0]
        elif u.variable is None and u.model in folded and _UNBOUND.match(u.why):
            reasons.setdefault(what, [])
            continue
        if why not in reasons.setdefault(what, []):
            reasons[what].append(why)
    return reasons


def unanswered_text(unanswered: list[Unanswered], lang: str) -> str:
    """ "Not answered: X --- why." for each request no result answers."""
    if not unanswered:
        return ""
    reasons = unanswered_reasons(unanswered, lang)
    sep = "；" if lang == "zh" else "; "
    items = "".join(
        f"\\item {phrase(lang, 'na_item', what=what, why=sep.join(whys))}\n"
        for what, whys in reasons.items()
    )
    return (
        f"\\subsection*{{{phrase(lang, 'na_title')}}}\n{phrase(lang, 'na_intro')}\n"
        f"\\begin{{itemize}}\n{items}\\end{{itemize}}\n"
    )
