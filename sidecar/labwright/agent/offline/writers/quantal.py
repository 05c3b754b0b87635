"""The quantal kind in words and figures: the log-logistic fit of a
bioassay's counts, the doses asked for (LC50, LD90), the deviance as the
check of binomial scatter, and the proportions with the fitted curve on a
log dose axis.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labwright.agent.offline.compendium_figures import call, caption_comment
from labwright.agent.offline.figures import FigurePlan
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.tables import src_file, src_text
from labwright.agent.offline.writers.common import Builder, KeyMaker, plan_figure, unit_text
from labwright.agent.offline.writers.script import AnswerCode, KindScript, read_table
from labwright.analysis.analyses.quantal import QuantalBinding
from labwright.analysis.jobs import Analysis
from labwright.analysis.presentation import axis_label
from labwright.analysis.quantal import HETEROGENEITY_P, QuantalResult

QuantalAnalysis = Analysis[QuantalBinding, QuantalResult]


def _what(r: QuantalResult, percent: int) -> str:
    return f"{r.name(percent)} from the log-logistic fit of {r.responders.name}/{r.tested.name}"


def text(a: QuantalAnalysis, ledger: Ledger, lang: str) -> str:
    r = a.result
    prov = r.responders.provenance
    n = ledger.count(r.n_doses, prov, "doses in the log-logistic fit")
    se = np.sqrt(np.diag(np.asarray(r.cov)))
    b1 = ledger.measured(r.b1, float(se[1]), prov, "slope of the log-logistic fit (per ln dose)")
    dev = ledger.num(r.deviance, prov, "deviance of the log-logistic fit", sig=3)
    df = ledger.count(r.df, prov, "degrees of freedom of the deviance")
    p = ledger.num(r.heterogeneity_p, prov, "p-value of the deviance (chi-square)", sig=2)
    unit = unit_text(r.unit)
    doses = []
    for percent in r.percents:
        value, err = r.dose_for(percent)
        doses.append(f"$\\mathrm{{{r.prefix}}}_{{{percent}}} = "
                     f"{ledger.measured(value, err, prov, _what(r, percent))}$~{unit}")  # fmt: skip
    dose, resp, tested = (src_text(c.name) for c in (r.dose, r.responders, r.tested))
    control = r.control_responders
    if lang == "zh":
        out = (
            f"在 {n} 个剂量（{dose}）下计数了供试数 {tested} 与反应数 {resp}。"
            "按二项分布的最大似然拟合对数-logistic 曲线 "
            "$\\operatorname{logit} P = b_0 + b_1 \\ln x$（每个剂量按其供试数加权），"
            f"斜率 $b_1 = {b1}$，得 " + "，".join(doses) + "。"
            f"偏差为 ${dev}$（自由度 ${df}$，$p = {p}$）："
            + (
                "计数的离散超过二项分布（异质性），标准误差已按 $\\sqrt{\\chi^2/\\nu}$ 放大。"
                if r.scaled
                else "计数的离散与二项分布相符。"
            )
        )
        if control == 0:
            out += "对照组（剂量 0）无反应，不参与拟合。"
        elif control:
            out += f"对照组有 {control} 个反应：需要 Abbott 校正，此处未作校正。"
        return out + "\n"
    out = (
        f"At each of {n} doses ({dose}) the number that responded ({resp}) out of the number "
        f"tested ({tested}) was counted. A log-logistic curve, "
        "$\\operatorname{logit} P = b_0 + b_1 \\ln x$, fitted by maximum likelihood with "
        f"binomial errors (each dose weighted by the number tested) has slope $b_1 = {b1}$ "
        "and gives " + ", ".join(doses) + ". "
        f"The deviance is ${dev}$ on ${df}$ degrees of freedom ($p = {p}$): "
        + (
            "the counts scatter more than binomially (heterogeneity), so the standard errors "
            "are scaled by $\\sqrt{\\chi^2/\\nu}$."
            if r.scaled
            else "the counts scatter as binomial counts should."
        )
    )
    if control == 0:
        out += (
            " Nothing responded in the control (dose 0), which therefore adds nothing to the fit."
        )
    elif control:
        out += (
            f" {control} responded in the control: Abbott's correction for natural response "
            "would be needed and was not applied."
        )
    return out + "\n"


def figures(a: QuantalAnalysis, next_key: KeyMaker, lang: str) -> list[FigurePlan]:
    r = a.result
    x = np.asarray(r.dose.values, dtype=float)
    resp = np.asarray(r.responders.values, dtype=float)
    n = np.asarray(r.tested.values, dtype=float)
    ok = np.isfinite(x) & np.isfinite(resp) & np.isfinite(n) & (n > 0) & (x > 0)
    x, share = x[ok], resp[ok] / n[ok]
    grid = np.geomspace(float(x.min()) / 1.5, float(x.max()) * 1.5, 200)
    curve = 1.0 / (1.0 + np.exp(-(r.b0 + r.b1 * np.log(grid))))
    key = next_key()
    b = Builder(key)
    middle, _ = r.dose_for(50)
    zh = lang == "zh"
    panel: dict[str, Any] = {
        "xlabel": axis_label(r.dose.name, r.unit),
        "ylabel": "反应比例" if zh else "proportion responding",
        "xlog": True,
        "legend": True,
        "layers": [
            {"type": "scatter", "x": b.arr(x), "y": b.arr(share), "color": "#1f77b4",
             "label": "观测" if zh else "observed"},
            {"type": "line", "x": b.arr(grid), "y": b.arr(curve), "color": "#b2182b", "lw": 1.6,
             "label": "对数-logistic 拟合" if zh else "log-logistic fit"},
            {"type": "hline", "y": 0.5},
            {"type": "vline", "x": middle},
        ],
    }  # fmt: skip
    spec = {"panels": [panel], "ncols": 1, "size": [6.0, 3.8]}
    name = f"{r.prefix}50"
    if zh:
        cap = (
            f"{src_file(a.source)}：各剂量的反应比例与最大似然拟合的对数-logistic 曲线"
            f"（对数剂量轴；虚线标出 {name}）。"
        )
    else:
        cap = (
            f"Proportion responding at each dose in {src_file(a.source)}, with the log-logistic "
            f"curve fitted by maximum likelihood (log dose axis; dashed lines mark {name})."
        )
    return [plan_figure(key, b, spec, cap, a)]


_DOSE_AT = '''def dose_at(percent, b0, b1, cov):
    """The dose at which `percent` % respond on the log-logistic curve
    logit(p) = b0 + b1 ln(dose), and its SE by the delta method with the
    covariance of b0 and b1 (first order, correlations kept)."""
    logit = np.log(percent / (100 - percent))
    dose = np.exp((logit - b0) / b1)
    gradient = np.array([-dose / b1, -dose * (logit - b0) / b1**2])
    return dose, np.sqrt(gradient @ cov @ gradient)
'''


def script(a: QuantalAnalysis) -> KindScript:
    r = a.result
    dose, resp, tested = r.dose.name, r.responders.name, r.tested.name
    levels = ", ".join(str(p) for p in r.percents)
    code = f"""{read_table(a.binding.dataset)}
# A bioassay's counts: a binomial GLM (logit link) of the proportion responding
# on ln dose is the log-logistic curve fitted by maximum likelihood. A control
# (dose 0) without responders adds nothing to the likelihood.
d = df[[{dose!r}, {resp!r}, {tested!r}]].astype(float).dropna()
d = d[(d[{dose!r}] > 0) & (d[{tested!r}] > 0)]
counts = np.column_stack([d[{resp!r}], d[{tested!r}] - d[{resp!r}]])
glm = GLM(counts, add_constant(np.log(d[{dose!r}].to_numpy())), family=Binomial()).fit()
cov = np.asarray(glm.cov_params())
dof = len(d) - 2
p_deviance = stats.chi2.sf(glm.deviance, dof)
if p_deviance < {HETEROGENEITY_P}:  # heterogeneity: scale the SEs as Finney does
    cov = cov * glm.deviance / dof
b0, b1 = np.asarray(glm.params)
report("doses in the log-logistic fit", len(d))
report("slope of the log-logistic fit (per ln dose)", b1)
report("standard uncertainty of slope of the log-logistic fit (per ln dose)", np.sqrt(cov[1, 1]))
report("deviance of the log-logistic fit", glm.deviance)
report("degrees of freedom of the deviance", dof)
report("p-value of the deviance (chi-square)", p_deviance)
dose_for = {{p: dose_at(p, b0, b1, cov) for p in ({levels},)}}  # (dose, SE)
"""
    for percent in r.percents:
        what = _what(r, percent)
        code += (
            f"report({what!r}, dose_for[{percent}][0])\n"
            f"report({('standard uncertainty of ' + what)!r}, dose_for[{percent}][1])\n"
        )
    answers = {r.name(p): AnswerCode(f"dose_for[{p}][0]", f"dose_for[{p}][1]") for p in r.percents}
    imports = ("import numpy as np", "from scipy import stats",
               "from statsmodels.genmod.families import Binomial",
               "from statsmodels.genmod.generalized_linear_model import GLM",
               "from statsmodels.tools.tools import add_constant")  # fmt: skip
    return KindScript(imports, code, {"dose_at": _DOSE_AT}, answers=answers)


def drawing(a: QuantalAnalysis, plans: list[FigurePlan]) -> KindScript:
    """The proportion responding at each dose with the fitted log-logistic
    curve (200 points, from a third below the lowest dose to half above the
    highest), the 50 % line and the dose that gives it."""
    r = a.result
    dose, resp, tested = r.dose.name, r.responders.name, r.tested.name
    lines: list[str] = []
    for plan in plans:
        lines += [
            caption_comment(plan.key, plan.caption),
            f"x, share = d[{dose!r}].to_numpy(), (d[{resp!r}] / d[{tested!r}]).to_numpy()",
            "grid = np.geomspace(x.min() / 1.5, x.max() * 1.5, 200)",
            "curve = 1 / (1 + np.exp(-(b0 + b1 * np.log(grid))))",
            "middle = np.exp(-b0 / b1)  # the dose that half respond to",
            call(plan.key, [['("scatter", x, share)', '("line", grid, curve)', '("hline", 0.5)',
                             '("vline", middle)']]),
        ]  # fmt: skip
    return KindScript(("import numpy as np",), "\n".join(lines) + "\n")
