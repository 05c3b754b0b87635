"""The results table at the top of Results: every answer of the folder's
`AnswerSheet`, one row each, before any table or figure.

A reader of a lab report looks for the asked quantities first: what it is
(its name and symbol), its value with the standard error, the unit, how it
was found, and, when the notes or the catalogue give one, the expected
value with its source and the difference in combined standard errors.

Numbers go through the ledger with the answer's provenance, so each printed
number is tagged (`\\lwnum`). The same call (`answer_numbers`) prints an
answer's value wherever the report repeats it (discussion, conclusion), so
the repeated number is one ledger entry. Rounding is the ledger's: the
standard error to two significant digits and the value to the same decimal
place (`provenance.format_with_uncertainty`), the rule every other writer
of the report follows, so the table and the text never print one value two
ways. Names, symbols, units and methods are the catalogue's and the
analysis' fixed words, set aside from the number check by `\\lwtext`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from labwright.agent.offline.escape import escape_text
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.analysis import quantities
from labwright.analysis.references import NOTES, NOTES_RC
from labwright.analysis.results import Answer, AnswerSheet, Comparison
from labwright.ingest.types import Provenance


@dataclass(frozen=True)
class AnswerNumbers:
    """An answer's printed numbers (LaTeX math, tagged)."""

    value: str  # "v \\pm s" or "v" without a standard error
    expected: str | None  # the comparison's value (\\pm its uncertainty)
    z: str | None  # the signed difference in combined standard errors


def fixed(tex: str) -> str:
    """Code's or the catalogue's fixed words (a symbol, a unit, a method),
    set aside from the number check: their digits are not measurements."""
    return f"\\lwtext{{{tex}}}"


def symbol(a: Answer) -> str:
    return fixed(f"${a.latex}$") if a.latex else ""


def unit_tex(unit: str | None) -> str:
    """The unit as upright math, or "" for a dimensionless result."""
    if not unit:
        return ""
    # \mu and \Omega inside \mathrm come out empty with unicode-math's
    # fonts (\mathrm asks the text font for the math italic letter); \upmu
    # and \upOmega are the upright ones the class's math font has.
    tex = quantities.latex(unit).replace("\\mu ", "\\upmu{}").replace("\\Omega", "\\upOmega{}")
    return fixed(f"${tex}$") if tex else ""


def name_tex(a: Answer, lang: str) -> str:
    """The quantity's label and symbol: "Michaelis constant $K_m$"."""
    label = fixed(escape_text(a.label(lang)))
    sym = symbol(a)
    return f"{label} {sym}" if sym else label


def answer_names(answers: list[Answer], lang: str) -> list[str]:
    """Each answer's name; when several answers share a label and symbol
    (the same law in two files), each also names the file it came from, and
    the sheet when they share the file too (one sheet per resistor)."""
    from collections import Counter

    from labwright.agent.offline.tables import src_file, src_text

    seen = Counter((a.label.en, a.latex) for a in answers)
    same_file = Counter((a.label.en, a.latex, a.sources[0].file) for a in answers if a.sources)
    out = []
    for a in answers:
        name = name_tex(a, lang)
        if seen[(a.label.en, a.latex)] > 1 and a.sources and a.sources[0].file:
            where = src_file(a.sources[0].file)
            # The sheet, or the variable (a saved figure's line: axes1.line2).
            sheet = a.sources[0].sheet or a.sources[-1].variable
            if sheet and same_file[(a.label.en, a.latex, a.sources[0].file)] > 1:
                where += f", {src_text(sheet)}"
            name += f" ({where})"
        out.append(name)
    return out


def _prov(a: Answer) -> Provenance | None:
    return a.sources[0] if a.sources else None


def _what(a: Answer) -> str:
    return f"{a.label.en} ({a.quantity}{', ' + a.model if a.model else ''})"


# The ledger's computation of each number an answer prints; the compendium
# restates the answers under the same words (compendium_answers.py).


def answer_what(a: Answer) -> str:
    return f"{_what(a)}: {a.method.en}"


def expected_what(a: Answer, c: Comparison) -> str:
    return f"expected value of {_what(a)} ({c.source})"


def z_what(a: Answer, c: Comparison) -> str:
    return f"difference of {_what(a)} from {c.source} in combined standard errors"


def answer_value(a: Answer, ledger: Ledger) -> str:
    """`value \\pm se` (math source, tagged) with the ledger's rounding."""
    what = answer_what(a)
    if a.se is not None and a.se > 0:
        return ledger.measured(a.value, a.se, _prov(a), what)
    return ledger.num(a.value, _prov(a), what, sig=4)


def expected_value(a: Answer, c: Comparison, ledger: Ledger) -> str:
    what = expected_what(a, c)
    # The notes' file when the value is theirs. A catalogue reference comes
    # from no file: its source ("standard gravity; ...") is named in `what`,
    # and the numbers appendix printed it after the word "file".
    prov = Provenance(file=c.file) if c.file else None
    if c.uncertainty is not None and c.uncertainty > 0:
        return ledger.measured(c.value, c.uncertainty, prov, what)
    if a.se is not None and math.isfinite(a.se) and a.se > 0:
        return ledger.to_place_of(c.value, a.se, prov, what)
    return ledger.num(c.value, prov, what, sig=4)


def answer_numbers(a: Answer, ledger: Ledger) -> AnswerNumbers:
    value = answer_value(a, ledger)
    c, z = a.comparison, a.z
    if c is None:
        return AnswerNumbers(value, None, None)
    z_text = None if z is None else ledger.num(z, _prov(a), z_what(a, c), sig=2)
    return AnswerNumbers(value, expected_value(a, c, ledger), z_text)


#: Where a reference's source names itself (before its remarks: "standard
#: gravity; g varies from ..."), in either language.
_SOURCE_END = re.compile("[;；]")


def source_text(c: Comparison, lang: str, *, short: bool = False) -> str:
    """Where an expected value comes from: the notes (said in the report's
    language) or the catalogue reference's source, in the report's language
    (`short`: its name only, up to its first semicolon). Empty when it has none."""
    if c.source == NOTES:
        return phrase(lang, "src_notes")
    if c.source == NOTES_RC:
        return phrase(lang, "src_notes_rc")
    text = c.source_in(lang)
    if short:
        text = _SOURCE_END.split(text, maxsplit=1)[0].strip()
    return fixed(escape_text(text)) if text else ""


def _expected_cell(a: Answer, nums: AnswerNumbers, lang: str) -> str:
    c = a.comparison
    if c is None or nums.expected is None:
        return "---"
    cell = f"${nums.expected}$"
    if c.unit and c.unit != a.unit:
        cell += f"~{unit_tex(c.unit)}"
    # The source's name only (up to its first ";"): the discussion quotes it whole.
    source = source_text(c, lang, short=True)
    if not source:
        return cell
    return cell + (f"（{source}）" if lang == "zh" else f" ({source})")


_ROW_END = " \\tabularnewline"
#: The text columns (quantity, method, expected value) share what the value,
#: unit and z columns leave of the text width (tabularx's X columns), ragged
#: right; the table is as wide as the text whatever its values. Fixed shares
#: once pushed a table of long values ("2.2046 ± 0.0063") into the margin.


def _text_column(share: float) -> str:
    """An X column `share` times as wide as the average one (the shares of a
    table's X columns add up to their number, as tabularx requires)."""
    return f">{{\\raggedright\\arraybackslash\\hsize={share:g}\\hsize}}X"


#: Quantity, method, expected: the method is the longest text of a row.
_COMPARED = (_text_column(1.0), _text_column(1.25), _text_column(0.75))
_PLAIN = (_text_column(0.8), _text_column(1.2))


def results_table(sheet: AnswerSheet, ledger: Ledger, lang: str) -> str:
    """The table of answers with its lead sentence, or "" without answers."""
    if not sheet.answers:
        return ""
    compare = any(a.comparison is not None for a in sheet.answers)
    customary = any(not a.asked for a in sheet.answers)
    head = [phrase(lang, "rt_quantity"), phrase(lang, "rt_value"), phrase(lang, "rt_unit"),
            phrase(lang, "rt_method")]  # fmt: skip
    if compare:
        head += [phrase(lang, "rt_expected"), "$z$"]
    rows: list[str] = []
    for a, named in zip(sheet.answers, answer_names(sheet.answers, lang), strict=True):
        nums = answer_numbers(a, ledger)
        name = named + ("$^{\\dagger}$" if not a.asked else "")
        row = [name, f"${nums.value}$", unit_tex(a.unit), fixed(escape_text(a.method(lang)))]
        if compare:
            row += [_expected_cell(a, nums, lang),
                    f"${nums.z}$" if nums.z is not None else "---"]  # fmt: skip
        rows.append(" & ".join(row) + _ROW_END)
    if compare:
        quantity, method, expected = _COMPARED
        spec = f"{quantity} l l {method} {expected} r"
    else:
        quantity, method = _PLAIN
        spec = f"{quantity} l l {method}"
    notes = [phrase(lang, "rt_note_z")] if compare else []
    if customary:
        notes.append(phrase(lang, "rt_note_customary"))
    caption = phrase(lang, "rt_caption")
    # "The table below", not \ref: the table is placed here ([H]), and a
    # \label would make every report with answers cost a second XeLaTeX pass.
    out = phrase(lang, "rt_intro") + "\n"
    out += (
        "\\begin{table}[H]\n\\centering\\small\n"
        f"\\caption{{{caption}}}\n"
        f"\\begin{{tabularx}}{{\\linewidth}}{{{spec}}}\n\\toprule\n"
        + " & ".join(head) + _ROW_END + "\n\\midrule\n"
        + "\n".join(rows)
        + "\n\\bottomrule\n\\end{tabularx}\n"
    )  # fmt: skip
    if notes:
        out += "\\par\\smallskip\\footnotesize " + " ".join(notes) + "\n"
    return out + "\\end{table}\n"
