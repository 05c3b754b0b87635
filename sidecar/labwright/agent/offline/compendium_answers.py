"""The compendium's lines that restate the answers (issue 23): the results
table, the discussion and the conclusion print each answer again, compare
it with an expected value and say how well its fit describes the data.

Each kind's block leaves its answers in variables it names
(`KindScript.answers`) and the fit they came from (`KindScript.fit`); the
lines written here, right after the block, state those variables again
under the ledger's computations of the results table and the discussion
(`results_table.answer_what`, `discussion.relative_what`, ...), so every
number of those sections is the block's own, printed once more. What they
add is computed here: the relative uncertainty, the expected value (R C
from the notes' components, or a value the notes or the catalogue give:
a literal, its source named), the difference in combined standard
errors, and the fit's points, R^2 (or reduced chi-square) and runs test.
Only the numbers the report prints are stated (the record says which).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence

from labwright.agent.offline.discussion import (
    LIMIT_WHAT,
    abs_z_what,
    fit_what,
    relative_what,
)
from labwright.agent.offline.results_table import answer_what, expected_what, z_what
from labwright.agent.offline.writers.script import AnswerCode, KindScript, source_of
from labwright.analysis.expected import RCQuestion
from labwright.analysis.references import NOTES_RC
from labwright.analysis.request import AnalysisRequest
from labwright.analysis.results import Answer, Comparison

RUNS_TEST = '''def runs_p(residuals):
    """The runs test of the residuals' signs about zero (a long run of one sign:
    a trend the model misses); Wald-Wolfowitz's correction below 50 signs."""
    r = np.asarray(residuals, dtype=float)
    r = r[np.isfinite(r) & (r != 0)]
    return runstest_1samp(r, cutoff=0.0, correction=r.size < 50)[1]
'''

#: Printed keys of the record: (computation, source) pairs.
Printed = Collection[tuple[str, str]]


def _q(text: str) -> str:
    return repr(text)


class _Lines:
    """The lines of one analysis' restatement, writing only printed numbers."""

    def __init__(self, printed: Printed) -> None:
        self.printed = printed
        self.computations = {c for c, _s in printed}
        self.out: list[str] = []

    def has(self, what: str) -> bool:
        return what in self.computations

    def report(self, what: str, expr: str, source: str | None = None) -> None:
        """report(what, expr, source): `source` is code (a name or a literal)."""
        if not self.has(what):
            return
        args = f"{_q(what)}, {expr}" + (f", {source}" if source else "")
        self.out.append(f"report({args})")


def _tolerance(text: str) -> float | None:
    m = re.search(r"(?:tolerance|tol\.?|±)\s*:?\s*(\d+(?:\.\d+)?)\s*%", text)
    return float(m.group(1)) / 100.0 if m else None


def _number(v: float) -> str:
    return repr(float(f"{v:.12g}"))


def _uniform_u(value: float, u: float | None, phrase: str) -> str | None:
    """u as the tolerance the notes state (a uniform distribution's
    half-width over sqrt(3)), when it is that; else its literal."""
    if u is None:
        return None
    tol = _tolerance(phrase)
    if tol is not None and math.isclose(u, abs(value) * tol / math.sqrt(3), rel_tol=1e-9):
        return f"{_number(value)} * {tol!r} / np.sqrt(3)"
    return _number(u)


def request_code(request: AnalysisRequest, printed: Printed) -> str:
    """The constants the notes give, as the method section states them."""
    lines = _Lines(printed)
    for c in request.constants:
        what = f"constant {c.symbol} given in the notes"
        if not lines.has(what):
            continue
        u = _uniform_u(c.value, c.uncertainty, c.evidence.phrase)
        lines.out.append(f"# {c.evidence.source}: {c.evidence.phrase}")
        lines.report(what, _number(c.value), _q(c.evidence.source))
        if u is not None:
            lines.report(f"standard uncertainty of the {what}", u, _q(c.evidence.source))
    for e in request.expected:
        what = f"expected value of {e.quantity or 'the result'} given in the notes"
        if not lines.has(what):
            continue
        u = _uniform_u(e.value, e.uncertainty, e.evidence.phrase)
        lines.out.append(f"# {e.evidence.source}: {e.evidence.phrase}")
        lines.report(what, _number(e.value), _q(e.evidence.source))
        if u is not None:
            lines.report(f"standard uncertainty of the {what}", u, _q(e.evidence.source))
    return "\n".join(lines.out) + "\n" if lines.out else ""


def _expected(a: Answer, c: Comparison, rc: RCQuestion | None, lines: _Lines) -> tuple[str, str]:
    """Lines that set `expected` and `u` for the comparison; their expressions."""
    if c.source == NOTES_RC and rc is not None and a.sources:
        where = a.sources[0]
        exp = rc.expected_for(where.file, where.sheet or "")
        if exp is not None and math.isclose(exp.value, c.value, rel_tol=1e-9):
            r, cap = exp.r, exp.c
            lines.out.append(
                f"# R C from the notes: R = {r.text}"
                + (f" (tolerance {r.tolerance:.0%})" if r.tolerance else "")
                + f", C = {cap.text}"
                + (f" (tolerance {cap.tolerance:.0%})" if cap.tolerance else "")
                + "; a tolerance is a uniform distribution's half-width: u = tolerance / sqrt(3)."
            )
            rel = [f"{t!r} / np.sqrt(3)" for t in (r.tolerance, cap.tolerance) if t]
            lines.out.append(f"expected = {_number(r.value)} * {_number(cap.value)}")
            if len(rel) == 2:
                lines.out.append(f"u = expected * np.hypot({rel[0]}, {rel[1]})")
            elif rel:
                lines.out.append(f"u = expected * {rel[0]}")
            else:
                lines.out.append("u = 0.0")
            return "expected", "u"
    in_file = f" ({c.file})" if c.file else ""
    lines.out.append(f"# The value to compare with: {c.source}{in_file}.")
    lines.out.append(f"expected = {_number(c.value)}")
    lines.out.append(f"u = {_number(c.uncertainty) if c.uncertainty else '0.0'}")
    return "expected", "u"


def answers_code(
    answers: Sequence[Answer],
    block: KindScript,
    printed: Printed,
    rc: RCQuestion | None,
    said: set[str],
) -> KindScript:
    """The lines after `block` that restate its analysis' `answers`.
    `said`: the settings already stated (the agreement limits, once)."""
    lines = _Lines(printed)
    helpers: dict[str, str] = {}
    imports: set[str] = set()
    quality_done = False
    for a in answers:
        # Several answers of one quantity (a calibration's unknowns) are
        # keyed by quantity and label.
        code = block.answers.get(f"{a.quantity}/{a.label.en}") or block.answers.get(a.quantity)
        if code is None:
            continue
        source = source_of(a.sources[0] if a.sources else None)
        c = a.comparison
        wanted = [answer_what(a), relative_what(a), LIMIT_WHAT]
        if c is not None:
            wanted += [expected_what(a, c), z_what(a, c), abs_z_what(a, c)]
        if a.fit is not None:
            wanted += [
                f"{k} the {fit_what(a)}" for k in ("points in", "coefficient of determination of")
            ]
        if not any(lines.has(w) for w in wanted):
            continue
        lines.out.append(f"# {a.label.en} ({a.quantity}): the results table and the discussion.")
        lines.out.append(_assign(code))
        lines.out.append(f"where = {_q(source)}")
        if lines.has(answer_what(a)):
            lines.out.append(f"what = {_q(answer_what(a))}")
            lines.out.append("report(what, value, where)")
            if code.se is not None:
                lines.out.append('report(f"standard uncertainty of {what}", se, where)')
        if code.se is not None:
            lines.report(relative_what(a), "100 * se / abs(value)", "where")
        if c is not None and code.se is not None:
            expected, u = _expected(a, c, rc, lines)
            file = _q(c.file) if c.file else None
            lines.report(expected_what(a, c), expected, file)
            lines.report(f"standard uncertainty of {expected_what(a, c)}", u, file)
            lines.out.append(f"z = (value - {expected}) / np.hypot(se, {u})")
            lines.report(z_what(a, c), "z", "where")
            lines.report(abs_z_what(a, c), "abs(z)", "where")
            if lines.has(LIMIT_WHAT) and LIMIT_WHAT not in said:
                said.add(LIMIT_WHAT)
                lines.out.append("# |z| up to 2: consistent; 2 to 3: marginal; above 3: not.")
                lines.report(LIMIT_WHAT, "2")
                lines.report(LIMIT_WHAT, "3")
        f, fc = a.fit, block.fit
        if f is not None and fc is not None:
            what = fit_what(a)
            if not quality_done:
                lines.out.append(f"residuals = np.asarray({fc.residuals}, dtype=float)")
                lines.out.append("residuals = residuals[np.isfinite(residuals)]")
                quality_done = True
            lines.report(f"points in the {what}", "residuals.size", "where")
            lines.report(f"coefficient of determination of the {what}", fc.r2, "where")
            if fc.sigma is not None:
                lines.out.append(f"chi2 = np.sum((residuals / {fc.sigma}) ** 2)")
                dof = f"(residuals.size - {fc.n_params})"
                lines.report(f"reduced chi-square of the {what}", f"chi2 / {dof}", "where")
                lines.report(
                    f"chi-square p-value of the {what}", f"stats.chi2.sf(chi2, {dof})", source
                )
                imports.add("from scipy import stats")
            runs = f"runs-test p-value of the residuals of the {what}"
            if lines.has(runs):
                lines.report(runs, "runs_p(residuals)", "where")
                helpers["runs_p"] = RUNS_TEST
                imports.add("from statsmodels.sandbox.stats.runs import runstest_1samp")
    if not lines.out:
        return KindScript()
    imports.add("import numpy as np")
    return KindScript(tuple(sorted(imports)), "\n".join(lines.out) + "\n", helpers)


def _assign(code: AnswerCode) -> str:
    if code.se is None:
        return f"value = {code.value}"
    return f"value, se = {code.value}, {code.se}"
