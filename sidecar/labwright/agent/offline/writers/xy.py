"""The x-y kind's sentences: what each generic fit of the figure path is
compared with. The fits themselves, their sentences and their figures are
the figure path's (`offline/figures.py`, `offline/text.py`): a table no
other kind answered is drawn as x-y measurements of its measurement columns
and each curve fitted by AICc in the plotting process. These sentences add
the comparison the notes ask for: the fitted time constant against R C from
the notes' components, and a coefficient the notes name read off a slope.
"""

from __future__ import annotations

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_text
from labwright.agent.offline.writers.script import KindScript, read_table
from labwright.analysis.analyses.xy import XYBinding, XYTable
from labwright.analysis.expected import RCQuestion
from labwright.analysis.fits import FitResult
from labwright.analysis.jobs import Analysis
from labwright.analysis.plan import FolderAnalysis
from labwright.ingest.types import Column

XYAnalysis = Analysis[XYBinding, XYTable]
_TIME_PREFIX = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9}


def rc_sentence(
    rc: RCQuestion | None,
    source: str,
    name: str,
    fit: FitResult | None,
    x_unit: str | None,
    ledger: Ledger,
    lang: str,
) -> str:
    """The fitted time constant against R C from the notes' components."""
    if rc is None or fit is None or fit.model.key not in ("exponential", "exponential_offset"):
        return ""
    scale = _TIME_PREFIX.get((x_unit or "").strip())
    exp = rc.expected_for(source, name)
    if scale is None or exp is None:
        return ""
    tau, se = fit.params[1] * scale, fit.sigmas[1] * scale
    ratio, z, ok = exp.compare(tau, se)
    what = f"R C for {source} ({name})"

    def tol(t: float | None, of: str) -> str:
        if t is None:
            return phrase(lang, "rc_tol_none")
        pct = round(t * 100, 9)  # as written in the notes: 1, 20, 0.5
        return phrase(
            lang,
            "rc_tol",
            t=ledger.num(
                pct,
                None,
                f"tolerance of {of} stated in the notes (%)",
                sig=len(f"{pct:g}".replace(".", "").lstrip("0")) or 1,
            ),
        )

    return phrase(
        lang, "rc_compare", r=src_text(exp.r.text), c=src_text(exp.c.text),
        tr=tol(exp.r.tolerance, exp.r.text), tc=tol(exp.c.tolerance, exp.c.text),
        rc=ledger.num(float(f"{exp.value:.12g}"), None, f"{what}, from the notes", sig=3),
        u=ledger.num(exp.u, None, f"standard uncertainty of {what} (tolerance/sqrt 3, combined)", sig=2),
        ratio=ledger.num(ratio, None, f"fitted tau over {what}", sig=3),
        z=ledger.num(abs(z), None, f"|tau - RC| / combined standard uncertainty, {source} ({name})", sig=2),
        verdict=phrase(lang, "rc_yes" if ok else "rc_no"),
    )  # fmt: skip


def coefficient_sentences(
    fa: FolderAnalysis | None,
    source: str,
    fit: FitResult | None,
    x: Column | None,
    y: Column,
    ledger: Ledger,
    lang: str,
    *,
    short: bool,
) -> list[str]:
    """Each coefficient the notes ask for that this straight line gives (its
    slope or the slope's reciprocal, decided by the columns' units); after
    the first, `short` sentences that do not repeat the reasoning."""
    if fa is None or not fa.coefficients or fit is None or fit.model.key != "linear" or x is None:
        return []
    from labwright.analysis.coefficient import from_slope

    out = []
    for ask in fa.coefficients:
        found = from_slope(ask, float(fit.params[0]), float(fit.sigmas[0]), x.unit, y.unit)
        if found is None:
            continue
        what = f"{ask.name} from the slope of {y.name} against {x.name} in {source}"
        out.append(phrase(
            lang, ("coef_reciprocal" if found.reciprocal else "coef_slope") + ("_short" if short else ""),
            name=src_text(ask.name), y=src_text(y.name), x=src_text(x.name),
            value=ledger.measured(found.value, found.se, y.provenance, what),
            unit=src_text(ask.unit),
        ))  # fmt: skip
    return out


def script(a: XYAnalysis) -> KindScript:
    from labwright.agent.offline.writers.generic_fit import CHOOSE_MODEL, FIT_MODEL, IMPORTS

    if not a.uses.x:
        return KindScript(
            code=f"# {a.source}: no sorted measurement to serve as x; nothing fitted.\n"
        )
    x = a.uses.x[0].name
    groups: dict[str, list[str]] = {}
    for c in a.uses.y:  # the figure path draws at most four curves per unit
        groups.setdefault(c.unit or "", []).append(c.name)
    ys = [name for names in groups.values() for name in names[:4]]
    code = f"""{read_table(a.binding.dataset)}
{_coefficient_table(a)}
xname = {x!r}
x = df[xname].to_numpy(dtype=float)
models = {{}}  # column -> (the model chosen, its parameters)
for name in {ys!r}:
    y = df[name].to_numpy(dtype=float)
    chosen = choose_model(x, y)
    if chosen is None:
        continue  # no model explains y(x): shown without a fit
    key, params, errors, r2, n = chosen
    models[name] = key, params  # for the figure
    what = f"{{key}} least-squares fit of {{name}} against {{xname}}"
    report(f"points in the {{what}}", n)
    report(f"coefficient of determination of the {{what}}", r2)
    for sym, value, error in zip(SYMBOLS[key], params, errors, strict=False):
        report(f"parameter {{sym}} of the {{what}}", value)
        report(f"standard uncertainty of parameter {{sym}} of the {{what}}", error)
"""
    if "COEFFICIENTS" in code:
        code += f"""    if key == "linear":  # a straight line: the coefficients the notes ask for
        slope, slope_se = params[0], errors[0]
        for coefficient, factor, reciprocal in COEFFICIENTS.get(name, []):
            what = f"{{coefficient}} from the slope of {{name}} against {{xname}} in {a.source}"
            if reciprocal:  # the coefficient's unit is the slope's reciprocal
                report(what, factor / slope)
                report(f"standard uncertainty of {{what}}", abs(factor) * slope_se / slope**2)
            else:
                report(what, factor * slope)
                report(f"standard uncertainty of {{what}}", abs(factor) * slope_se)
"""
    return KindScript(IMPORTS, code, {"fit_model": FIT_MODEL, "choose_model": CHOOSE_MODEL})


def _coefficient_table(a: XYAnalysis) -> str:
    """The coefficients the notes ask for that a straight line of a column
    against x gives (`labwright.analysis.coefficient`): per column, the
    factor from the slope's unit to the coefficient's, and whether the
    coefficient is the slope's reciprocal (decided by the units alone)."""
    from labwright.analysis.coefficient import slope_relation

    if not a.result.coefficients or not a.uses.x:
        return ""
    x = a.uses.x[0]
    table: dict[str, list[tuple[str, float, bool]]] = {}
    notes: list[str] = []
    for c in a.uses.y:
        for ask in a.result.coefficients:
            relation = slope_relation(ask, x.unit, c.unit)
            if relation is not None:
                table.setdefault(c.name, []).append((ask.name, *relation))
                notes.append(
                    f"# {ask.name} ({ask.unit}) from the slope of {c.name} ({c.unit}) against {x.name} ({x.unit})"
                )
    if not table:
        return ""
    return "\n".join([*dict.fromkeys(notes), f"COEFFICIENTS = {table!r}"])


def drawing(a: XYAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The x-y path's figures of this table (`figures.to_job`, drawn by the
    plot worker): each column against x (every k-th point past 5000), the
    model chosen for it on 200 points across the finite x, and, for one
    fitted curve alone, its residuals below."""
    lines: list[str] = []
    for plan in plans:
        if plan.kind not in ("xy", "line") or not plan.series:
            continue
        lines += [
            caption_comment(plan.key, plan.caption),
            "step = -(-len(df) // 5000)  # at most 5000 points a curve",
        ]
        main: list[str] = []
        resid: list[str] = []
        for i, s in enumerate(plan.series, start=1):
            lines.append(f"y{i} = df[{s.y.name!r}].to_numpy(dtype=float)[::step]")
            if s.x is None:
                lines.append(f"x{i} = np.arange(y{i}.size, dtype=float)")
            else:
                lines.append(f"x{i} = df[{s.x.name!r}].to_numpy(dtype=float)[::step]")
            main.append(f'("{"scatter" if plan.kind == "xy" else "line"}", x{i}, y{i})')
            if s.fit is None or s.x is None:
                continue
            lines += [
                f"key, params = models[{s.y.name!r}]",
                f"finite = df[{s.x.name!r}].to_numpy(dtype=float)",
                "finite = finite[np.isfinite(finite)]",
                f"grid{i} = np.linspace(finite.min(), finite.max(), 200)",
                f"curve{i} = MODELS[key](grid{i}, *params)",
            ]
            main.append(f'("line", grid{i}, curve{i})')
            if plan.kind == "xy" and len(plan.series) == 1:
                resid += [f'("scatter", x{i}, y{i} - MODELS[key](x{i}, *params))', '("hline", 0.0)']
        lines.append(call(plan.key, [main, resid] if resid else [main]))
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n" if lines else "")
