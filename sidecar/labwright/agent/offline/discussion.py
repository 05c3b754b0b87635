"""Discussion and conclusion, written from what was computed.

Per answer, what a careful colleague would say of it and no more: the
value with its relative uncertainty; against the expected or reference
value, the difference in combined standard errors read the usual way
(|z| <= 2 consistent, 2 to 3 marginal, > 3 not consistent, each with the
hedge the statistics allow); the fit it came from, when the answer carries
its quality (a weighted fit's reduced chi-square against the stated
uncertainties, a runs test of the residuals' signs, or R^2 for an
unweighted fit); and what the notes asked that the data could not answer.
The conclusion restates the asked quantities with their values.

A folder without answers (no request, or nothing of it computable) gets a
short, honest paragraph of what was computed; an author box remains only
when nothing was computed at all (a folder of images or notes).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from labwright.agent.offline.kind_writers import findings
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.request_text import computed_per_file, unanswered_reasons
from labwright.agent.offline.results_table import (
    answer_names,
    answer_numbers,
    name_tex,
    source_text,
    unit_tex,
)
from labwright.agent.offline.tables import src_text
from labwright.analysis.results import Answer, AnswerSheet, Comparison, FitQuality

if TYPE_CHECKING:
    from labwright.analysis.jobs import Analysis
    from labwright.analysis.plan import FolderAnalysis

Verdict = Literal["consistent", "marginal", "inconsistent"]
#: |z| limits of agreement, in combined standard errors.
CONSISTENT_Z = 2.0
MARGINAL_Z = 3.0
#: Below this p a weighted fit's chi-square (either tail) or a runs test is remarked on.
PATTERN_P = 0.05
CHI2_P = 0.01

_KINDS = ("series", "law", "peaks", "regression", "groups", "timeseries", "repeated", "wide",
          "symmetry", "xy")  # fmt: skip


def verdict(z: float | None) -> Verdict | None:
    if z is None or not math.isfinite(z):
        return None
    if abs(z) <= CONSISTENT_Z:
        return "consistent"
    return "marginal" if abs(z) <= MARGINAL_Z else "inconsistent"


def _unit(a: Answer) -> str:
    u = unit_tex(a.unit)
    return f"~{u}" if u else ""


#: The ledger's computation of the two limits the verdicts are read with.
LIMIT_WHAT = "agreement limit in combined standard errors (constant)"


def abs_z_what(a: Answer, c: Comparison) -> str:
    return f"|difference| of {a.label.en} from {c.source} in combined standard errors"


def relative_what(a: Answer) -> str:
    return f"relative standard uncertainty of {a.label.en} in per cent"


def fit_what(a: Answer) -> str:
    """The fit an answer came from, as the quality numbers name it
    ("points in the fit that gave time constant")."""
    return f"fit that gave {a.label.en}"


def _limit(ledger: Ledger, z: float) -> str:
    return ledger.num(z, None, LIMIT_WHAT, sig=1)


def _comparison(a: Answer, ledger: Ledger, lang: str) -> str:
    c, z, v = a.comparison, a.z, verdict(a.z)
    if c is None:
        return phrase(lang, "disc_nocompare") if a.asked else ""
    nums = answer_numbers(a, ledger)
    if v is None or z is None or nums.expected is None:
        return ""
    unit = f"~{unit_tex(c.unit or a.unit)}" if unit_tex(c.unit or a.unit) else ""
    size = ledger.num(abs(z), a.sources[0] if a.sources else None, abs_z_what(a, c), sig=2)
    return phrase(
        lang, f"disc_{v}", expected=nums.expected, unit=unit, source=source_text(c, lang),
        z=size, two=_limit(ledger, CONSISTENT_Z), three=_limit(ledger, MARGINAL_Z),
    )  # fmt: skip


def _fit(a: Answer, f: FitQuality, ledger: Ledger, lang: str) -> list[str]:
    prov = a.sources[0] if a.sources else None
    what = fit_what(a)
    n = ledger.count(f.n, prov, f"points in the {what}")
    out: list[str] = []
    if f.weighted and f.reduced_chi2 is not None and f.chi2_p is not None:
        if f.chi2_p < CHI2_P:
            key = "disc_chi2_high"
        elif f.chi2_p > 1 - CHI2_P:
            key = "disc_chi2_low"
        else:
            key = "disc_chi2_ok"
        out.append(phrase(
            lang, key, n=n,
            chi2=ledger.num(f.reduced_chi2, prov, f"reduced chi-square of the {what}", sig=2),
            p=ledger.num(f.chi2_p, prov, f"chi-square p-value of the {what}", sig=2),
        ))  # fmt: skip
    elif f.r2 is not None:
        r2 = ledger.num(f.r2, prov, f"coefficient of determination of the {what}", sig=4)
        out.append(phrase(lang, "disc_r2", n=n, r2=r2))
    if f.runs_p is not None:
        p = ledger.num(f.runs_p, prov, f"runs-test p-value of the residuals of the {what}", sig=2)
        out.append(phrase(lang, "disc_runs_bad" if f.runs_p < PATTERN_P else "disc_runs_ok", p=p))
    return out


def answer_paragraph(a: Answer, ledger: Ledger, lang: str, name: str | None = None) -> str:
    nums = answer_numbers(a, ledger)
    name = name or name_tex(a, lang)
    parts: list[str] = []
    if a.se is not None and a.se > 0 and a.value != 0 and math.isfinite(a.se / a.value):
        rel = ledger.num(
            100 * a.se / abs(a.value), a.sources[0] if a.sources else None, relative_what(a), sig=2
        )
        parts.append(phrase(lang, "disc_value", name=name, value=nums.value, unit=_unit(a),
                            rel=rel))  # fmt: skip
    else:
        parts.append(phrase(lang, "disc_value_nose", name=name, value=nums.value, unit=_unit(a)))
    if a.se is not None and a.se > 0:
        said = _comparison(a, ledger, lang)
        if said:
            parts.append(said)
    if a.fit is not None:
        parts += _fit(a, a.fit, ledger, lang)
    # Chinese sentences follow one another without a space after 。
    return ("" if lang == "zh" else " ").join(parts)


def _computed(analyses: list[Analysis[Any, Any]], lang: str) -> str:
    seen: list[str] = []
    for a in analyses:
        source = src_text(a.source)
        if a.kind in _KINDS:
            text = phrase(lang, f"kind_{a.kind}", source=source)
        else:
            text = phrase(lang, "kind_other", kind=src_text(a.kind), source=source)
        if text not in seen:
            seen.append(text)
    return ("；" if lang == "zh" else "; ").join(seen)


def _unanswered_names(sheet: AnswerSheet, lang: str) -> str:
    sep = "、" if lang == "zh" else ", "
    return sep.join(unanswered_reasons(sheet.unanswered, lang))


def discussion(fa: FolderAnalysis | None, ledger: Ledger, lang: str) -> str:
    """The body of the Discussion section (without its heading); "" when
    nothing was computed, for the caller to leave the author's box."""
    sheet = fa.sheet if fa is not None else AnswerSheet()
    if sheet.answers:
        names = answer_names(sheet.answers, lang)
        named = list(zip(sheet.answers, names, strict=True))
        # What the notes ask is discussed; what is customary for the law
        # (V0 and t1/2 beside an asked tau) is in the table, named once here,
        # not given a paragraph each that buries the answer.
        asked = [(a, n) for a, n in named if a.asked]
        # Named without their files: each law's customary quantities once.
        customary = [name_tex(a, lang) for a, _ in named if not a.asked] if asked else []
        paragraphs = [answer_paragraph(a, ledger, lang, n) for a, n in (asked or named)]
        if customary:
            listed = ("、" if lang == "zh" else ", ").join(dict.fromkeys(customary))
            paragraphs.append(phrase(lang, "disc_customary", names=listed))
        if sheet.unanswered:
            paragraphs.append(phrase(lang, "disc_unanswered", what=_unanswered_names(sheet, lang)))
        return "\n\n".join(paragraphs) + "\n"
    computed = _computed(fa.analyses, lang) if fa is not None else ""
    if not computed:
        return ""
    # What the analyses found (groups that differ or not) before what is missing.
    found = findings(fa.analyses, ledger, lang) if fa is not None else []
    sheet = _still_open(sheet, found)
    if sheet.unanswered:
        closing = phrase(lang, "disc_none_asked", what=_unanswered_names(sheet, lang),
                         computed=computed)  # fmt: skip
    else:
        closing = phrase(lang, "disc_found" if found else "disc_none", what=computed)
    return "\n\n".join([*found, closing]) + "\n"


def _still_open(sheet: AnswerSheet, found: list[str]) -> AnswerSheet:
    """The sheet without what the findings answer: a quantity computed for
    each file of a series is answered by how it depends on the run parameter
    ("how does the decay time depend on temperature"), not "not determined"."""
    if not found:
        return sheet
    return AnswerSheet(sheet.answers, [u for u in sheet.unanswered if not computed_per_file(u)])


def conclusion(fa: FolderAnalysis | None, ledger: Ledger, lang: str) -> str:
    """The body of the Conclusion: the asked quantities with their values
    (all answers when none was asked), and what could not be determined."""
    sheet = fa.sheet if fa is not None else AnswerSheet()
    if sheet.answers:
        named = dict(zip(map(id, sheet.answers), answer_names(sheet.answers, lang), strict=True))
        asked = [a for a in sheet.answers if a.asked] or sheet.answers
        items = []
        for a in asked:
            v = verdict(a.z) if a.se else None
            items.append(phrase(
                lang, "concl_item", name=named[id(a)], value=answer_numbers(a, ledger).value,
                unit=_unit(a), verdict=phrase(lang, f"concl_v_{v}") if v else "",
            ))  # fmt: skip
        out = _itemized([f"{i}{'。' if lang == 'zh' else '.'}" for i in items], lang)
        if sheet.unanswered:
            out += phrase(lang, "concl_unanswered", what=_unanswered_names(sheet, lang)) + "\n"
        return out
    computed = _computed(fa.analyses, lang) if fa is not None else ""
    found = findings(fa.analyses, ledger, lang) if fa is not None else []
    sheet = _still_open(sheet, found)
    missing = (
        phrase(lang, "concl_none_asked", what=_unanswered_names(sheet, lang)) + "\n"
        if sheet.unanswered
        else ""
    )
    if found:
        # No quantity was asked or answered, but the data answer a question of
        # another kind (do the groups differ?): that is the conclusion.
        return _itemized(found, lang) + missing
    if missing:
        return missing
    if not computed:
        return ""
    return phrase(lang, "concl_none", what=computed) + "\n"


def _itemized(sentences: list[str], lang: str) -> str:
    """ "The experiment gives:" and the sentences as a list."""
    items = "".join(f"\\item {s}\n" for s in sentences)
    return phrase(lang, "concl_intro") + "\n\\begin{itemize}\n" + items + "\\end{itemize}\n"
