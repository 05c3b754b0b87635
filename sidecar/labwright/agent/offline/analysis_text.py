"""The analyses in the report's text: each analysis's block (its kind's
words and figures, from `kind_writers.py`), the appendix of a series'
files, the sentence of a table's column roles, and what the notes ask.
"""

from __future__ import annotations

from typing import Any, get_args

from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.kind_writers import writer_of
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import FigureBlock
from labwright.analysis.jobs import Analysis
from labwright.analysis.plan import FolderAnalysis
from labwright.ingest.types import Dataset


def analysis_block(
    a: Analysis[Any, Any],
    plans: list[FigurePlan],
    ledger: Ledger,
    lang: str,
    figure_block: FigureBlock,
) -> str:
    """Text, tables and figures of one analysis."""
    text = writer_of(a).write(a, ledger, lang)
    for plan in plans:
        if plan.analysis is a and not is_appendix(plan):
            text += figure_block(plan)
    return text


def is_appendix(plan: FigurePlan) -> bool:
    return plan.panels is not None and bool(plan.panels.get("appendix"))


def appendix_block(
    fa: FolderAnalysis, plans: list[FigurePlan], lang: str, figure_block: FigureBlock
) -> str:
    """The individual files of a series, after the discussion, when asked."""
    out = ""
    for a in fa.analyses:
        figs = [p for p in plans if p.analysis is a and is_appendix(p)]
        if not figs:
            continue
        if not out:
            out = f"\\clearpage\n\\section*{{{phrase(lang, 'sec_appendix')}}}\n"
        out += phrase(lang, "appendix_intro", pattern=src_text(a.source)) + "\n"
        out += "".join(figure_block(p) for p in figs)
    return out


def roles_sentence(fa: FolderAnalysis, ds: Dataset, ledger: Ledger, lang: str) -> str:
    roles = fa.roles_of(ds)
    if roles is None or not roles.columns:
        return ""
    parts = []
    for c in roles.columns[:16]:
        extra = {}
        if c.role == "category":
            extra["levels"] = ledger.count(len(c.levels), ds.column(c.name).provenance, "groups")
        parts.append(phrase(lang, f"role_{c.role}", name=src_text(c.name), **extra))
    if len(roles.columns) > 16:
        parts.append("\\ldots")
    return phrase(lang, "roles_intro", file=src_file(ds.source), roles="; ".join(parts)) + "\n"


def question_text(fa: FolderAnalysis, ledger: Ledger, lang: str) -> str:
    from labwright.agent.offline.results_table import name_tex
    from labwright.analysis.question import Goal

    del ledger
    known = get_args(Goal)  # each has a goal_<name> phrase
    goals = [g for g in fa.question.goals if g in known]
    named = src_text(fa.coefficients[0].name) if fa.coefficients else ""
    # The quantities asked and the values to compare with come first: Michelson's
    # "report the speed of light ... and compare it with the accepted value"
    # read as "the uncertainty of the measurement" alone.
    items = list(dict.fromkeys(name_tex(a, lang) for a in fa.sheet.answers if a.asked))
    items += [phrase(lang, f"goal_{g}", name=named) for g in goals]
    if "expected" not in goals:
        items += [
            phrase(lang, "goal_given", what=src_text(e.evidence.phrase))
            for e in fa.request.expected
        ]
    if not items:
        return phrase(lang, "q_none") + "\n"
    return phrase(lang, "q_intro", goals=", ".join(items)) + "\n"
