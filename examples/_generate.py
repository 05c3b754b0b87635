"""Regenerate the example lab folders with fixed seeds.

Run `python examples/_generate.py` from the repository root. The generated
files are committed too, so the demo and the tests need nothing but this
checkout; the script exists so anyone can see how the data was made and
rebuild it bit for bit. The physics is real (pendulum law, RC discharge, the
mercury emission lines); the noise is drawn from a seeded generator.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
G = 9.81  # m/s^2, local value used to synthesise the pendulum periods


def _write(path: Path, text: str, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))


def pendulum(root: Path) -> None:
    rng = np.random.default_rng(20261129)
    lengths = np.round(np.arange(0.20, 1.01, 0.10), 3)
    period = 2 * np.pi * np.sqrt(lengths / G)
    # Each period is a tenth of a hand-timed run of 10 swings (reaction time ~0.1 s).
    t10 = 10 * period + rng.normal(0.0, 0.08, lengths.size)
    t_period = t10 / 10
    rows = ["L (m),t_10 (s),T (s),T^2 (s^2)"]
    for length, t, tp in zip(lengths, t10, t_period, strict=True):
        rows.append(f"{length:.2f},{t:.2f},{tp:.3f},{tp * tp:.4f}")
    _write(root / "periods.csv", "\n".join(rows) + "\n")

    # Twenty repeated timings at one length, to see the spread of the timing.
    reps = 10 * 2 * np.pi * np.sqrt(0.50 / G) + rng.normal(0.0, 0.08, 20)
    rows = ["trial,t_10 (s)"] + [f"{i + 1},{t:.2f}" for i, t in enumerate(reps)]
    _write(root / "repeat_timing_L050.csv", "\n".join(rows) + "\n")

    _write(
        root / "notes.md",
        "# Simple pendulum\n\n"
        "## Aim\n\n"
        "Determine the local gravitational acceleration g from the period of a\n"
        "simple pendulum measured at several lengths, using T^2 = (4 pi^2 / g) L.\n\n"
        "## Apparatus\n\n"
        "Steel bob on a light string, clamp stand, metre rule (1 mm divisions),\n"
        "hand stopwatch. Amplitude kept below about 10 degrees.\n\n"
        "## Procedure\n\n"
        "For each length the time of 10 full swings was taken once (periods.csv).\n"
        "At L = 0.50 m the 10-swing time was repeated 20 times to estimate the\n"
        "timing scatter (repeat_timing_L050.csv).\n",
    )


def rc_discharge(root: Path) -> None:
    import openpyxl
    import scipy.io

    rng = np.random.default_rng(7)
    cap = TRUTH["rc-discharge"]["C"]  # F
    wb = openpyxl.Workbook()
    fixed = _dt.datetime(2026, 11, 2, 14, 30, 0)
    wb.properties.created = fixed
    wb.properties.modified = fixed
    wb.remove(wb.active)
    for sheet, res in TRUTH["rc-discharge"]["R"].items():
        ws = wb.create_sheet(sheet)
        ws.append(["t (s)", "U_C (V)"])
        tau = res * cap
        for t in np.round(np.arange(0.0, 5.0 * tau + 1e-9, tau / 8), 4):
            u = 9.0 * np.exp(-t / tau) + rng.normal(0.0, 0.03)
            ws.append([float(t), round(float(u), 3)])
    root.mkdir(parents=True, exist_ok=True)
    wb.save(root / "discharge.xlsx")

    # An oscilloscope capture of a faster discharge (R = 1 kOhm, C = 100 uF).
    t = np.arange(0, 0.5, 1e-3)
    tau_scope = TRUTH["rc-discharge"]["R_scope"] * cap  # 0.1 s
    v = 5.0 * np.exp(-t / tau_scope) + rng.normal(0.0, 0.02, t.size)
    scipy.io.savemat(
        root / "scope_capture.mat",
        {"time_s": t.reshape(-1, 1), "voltage_V": v.reshape(-1, 1)},
        do_compression=True,
    )
    # savemat stamps the current time into the 116-byte text header; pin it so
    # the file is the same bytes on every run.
    mat = root / "scope_capture.mat"
    data = bytearray(mat.read_bytes())
    header = b"MATLAB 5.0 MAT-file, Platform: posix, Created on: Mon Nov  2 14:30:00 2026"
    data[:116] = header.ljust(116, b" ")
    mat.write_bytes(bytes(data))
    _write(
        root / "README.md",
        "# RC discharge\n\n"
        "Aim: measure the time constant of a capacitor discharging through a resistor\n"
        "and compare it with the product RC.\n\n"
        "Setup: electrolytic capacitor C = 100 uF (tolerance 20 %), resistors 10 kOhm and\n"
        "22 kOhm (tolerance 1 %), charged to 9 V from a battery, voltage read with a\n"
        "digital multimeter every few tenths of a second (discharge.xlsx, one sheet per\n"
        "resistor). A faster discharge through 1 kOhm was captured with a USB oscilloscope\n"
        "and exported as a MATLAB file (scope_capture.mat).\n",
    )


def spectrum(root: Path) -> None:
    from PIL import Image

    rng = np.random.default_rng(546)
    lines_nm = np.array(TRUTH["spectrum"]["lines_nm"])
    strength = np.array([0.35, 0.8, 1.0, 0.45, 0.42])
    wl = np.round(np.arange(380.0, 700.0, 0.5), 1)
    inten = 0.03 + sum(
        s * np.exp(-0.5 * ((wl - c) / TRUTH["spectrum"]["sigma_nm"]) ** 2)
        for c, s in zip(lines_nm, strength, strict=True)
    )
    inten = 1000 * (inten + rng.normal(0.0, 0.006, wl.size))
    rows = ["波长 (nm),强度 (counts)"] + [
        f"{w:.1f},{i:.0f}" for w, i in zip(wl, inten, strict=True)
    ]
    _write(root / "spectrum.csv", "\n".join(rows) + "\n")

    # Grating calibration with a reference lamp, saved by a Windows tool in GBK.
    known = np.array([404.7, 435.8, 546.1, 577.0, 579.1])
    reading = 12.0 + 0.0825 * (known - 400.0) + rng.normal(0.0, 0.02, known.size)
    rows = ["标准波长 (nm),刻度读数 (mm)"] + [
        f"{k:.1f},{r:.2f}" for k, r in zip(known, reading, strict=True)
    ]
    _write(root / "calibration.csv", "\r\n".join(rows) + "\r\n", encoding="gbk")

    # A photo-like strip of the spectrum as seen through the spectroscope.
    width, height = 640, 90
    xs = np.linspace(380, 700, width)
    img = np.zeros((height, width, 3), dtype=np.float64)
    colours = {
        404.7: (0.5, 0.0, 1.0),
        435.8: (0.2, 0.2, 1.0),
        546.1: (0.2, 1.0, 0.2),
        577.0: (1.0, 0.9, 0.0),
        579.1: (1.0, 0.8, 0.0),
    }
    for centre, s in zip(lines_nm, strength, strict=True):
        profile = s * np.exp(-0.5 * ((xs - centre) / 1.2) ** 2)
        img += profile[None, :, None] * np.array(colours[float(centre)])[None, None, :]
    img += rng.normal(0.0, 0.02, img.shape)
    img = (np.clip(img, 0, 1) * 255).astype(np.uint8)
    Image.fromarray(img, "RGB").save(root / "spectrum_photo.png", optimize=True)

    _write(
        root / "实验记录.md",
        "# 汞灯光谱的测量\n\n"
        "实验目的：用光栅光谱仪测量汞灯的发射光谱，确定主要谱线的波长，并与标准值比较。\n\n"
        "实验仪器：低压汞灯、透射光栅光谱仪（CCD 读出）、读数显微镜。\n\n"
        "实验步骤：先用已知谱线对刻度读数进行定标（calibration.csv），再记录汞灯在\n"
        "380 nm 至 700 nm 之间的强度分布（spectrum.csv）。spectrum_photo.png 为目镜中看到的谱线照片。\n",
    )


def _graphics_nodes(nodes: list[dict[str, object]]) -> np.ndarray:
    """An n x 1 MATLAB struct array of handle-graphics nodes (what hgsave
    writes for `children`)."""
    fields = ("type", "handle", "properties", "children", "special")
    out = np.empty((len(nodes), 1), dtype=[(f, object) for f in fields])
    for row, node in enumerate(nodes):
        for f in fields:
            out[row, 0][f] = node.get(f, np.zeros((0, 0)))
    return out


def _save_fig(
    path: Path, lines: list[tuple[np.ndarray, np.ndarray, str]], labels: tuple[str, str, str]
) -> None:
    """A MATLAB .fig (a v5 MAT file holding the hgS_070000 struct) with one
    axes: its lines, then the x label, y label, z label and title texts."""
    import scipy.io

    children: list[dict[str, object]] = []
    for i, (x, y, name) in enumerate(lines):
        props = {"XData": x.reshape(1, -1), "YData": y.reshape(1, -1), "DisplayName": name}
        children.append({"type": "graph2d.lineseries", "handle": 10.0 + i, "properties": props})
    text_handles = [31.0, 32.0, 33.0, 34.0]
    xlabel, ylabel, title = labels
    for handle, text in zip(text_handles, (xlabel, ylabel, "", title), strict=True):
        children.append({"type": "text", "handle": handle, "properties": {"String": text}})
    axes = {
        "type": "axes",
        "handle": 5.0,
        "properties": {"Box": "on"},
        "children": _graphics_nodes(children),
        "special": np.array([text_handles]),
    }
    figure = {
        "type": "figure",
        "handle": 1.0,
        "properties": {"Name": ""},
        "children": _graphics_nodes([axes]),
    }
    scipy.io.savemat(path, {"hgS_070000": figure}, format="5")
    data = bytearray(path.read_bytes())  # pin the header's timestamp, as above
    data[:116] = (
        b"MATLAB 5.0 MAT-file, Platform: posix, Created on: Mon Nov  2 14:30:00 2026".ljust(
            116, b" "
        )
    )
    path.write_bytes(bytes(data))


def heat_plate(root: Path) -> None:
    """A heated aluminium plate: an infrared camera frame (matrix), the
    steady-state temperature rise against heater power (JSON records), and
    the cooling curve as the lab's MATLAB script saved it (.fig)."""
    import json

    rng = np.random.default_rng(1729)
    root.mkdir(parents=True, exist_ok=True)
    yy, xx = np.mgrid[0:24, 0:32]
    cx, cy = TRUTH["heat-plate"]["centre_col"], TRUTH["heat-plate"]["centre_row"]
    frame = 22.0 + 18.0 * np.exp(-(((xx - cx) / 9.0) ** 2 + ((yy - cy) / 7.0) ** 2))
    frame = np.round(frame + rng.normal(0.0, 0.15, frame.shape), 2)
    np.save(root / "ir_frame.npy", frame.astype(np.float32), allow_pickle=False)

    power = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0])
    records = [
        {
            "P (W)": float(p),
            "dT centre (K)": round(
                float(p / TRUTH["heat-plate"]["loss_centre"] + rng.normal(0.0, 0.15)), 2
            ),
            "dT edge (K)": round(
                float(p / TRUTH["heat-plate"]["loss_edge"] + rng.normal(0.0, 0.15)), 2
            ),
        }
        for p in power
    ]
    (root / "steady_state.json").write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")

    t = np.arange(0.0, 900.0, 15.0)
    measured = 18.0 * np.exp(-t / 240.0) + rng.normal(0.0, 0.12, t.size)
    model = 18.0 * np.exp(-t / 240.0)
    _save_fig(
        root / "cooling.fig",
        [(t, measured, "measured"), (t, model, "model, tau = 240 s")],
        ("time (s)", "dT (K)", "Cooling of the plate after the heater is switched off"),
    )
    _write(
        root / "README.md",
        "# Heated plate\n\n"
        "## Aim\n\n"
        "Find the heat-loss coefficient of an aluminium plate from the steady-state\n"
        "temperature rise at several heater powers, and check the temperature map\n"
        "for symmetry.\n\n"
        "## Apparatus\n\n"
        "Aluminium plate (100 mm x 150 mm x 2 mm) with a film heater on the back,\n"
        "two type-K thermocouples (centre, edge), a thermal camera. The cooling curve\n"
        "was plotted in MATLAB during the session and saved as cooling.fig.\n",
    )


# --- analyst examples (issue 13): one folder per data shape, with the true
# parameters the golden tests compare the recovered ones against. ---------------

TRUTH: dict[str, dict[str, object]] = {
    "spectrum": {"lines_nm": [404.7, 435.8, 546.1, 577.0, 579.1], "sigma_nm": 0.9},
    # hot spot of ir_frame.npy; heat-loss coefficients P / dT (W/K) of steady_state.json
    "heat-plate": {
        "centre_col": 15.5,
        "centre_row": 11.5,
        "loss_centre": 1 / 3.1,
        "loss_edge": 1 / 1.9,
    },
    "rc-discharge": {"C": 100e-6, "R": {"R10k": 10e3, "R22k": 22e3}, "R_scope": 1e3},
    "pendulum": {"g": G, "slope": 4 * np.pi**2 / G},  # T^2 = (4 pi^2 / g) L
    "station-series": {
        "weekly_co2.csv": {"slope": 1.8, "amplitude": 3.0},
        "daily_price.csv": {"slope": 4.0, "amplitude": 0.0},
        "monthly_temp.csv": {"slope": 0.02, "amplitude": 8.0},
    },
    "sea-surface": {"slope": 0.012, "amplitude": 1.5},
    "alloy-hardness": {"hardness": {"annealed": 180.0, "quenched": 420.0, "tempered": 310.0}},
    "reactor-yield": {
        "const": 5.0,
        "temperature": 0.08,
        "pressure": 1.5,
        "catalyst": -2.0,
        "outlier_row": 17,
    },
    "resistor-repeats": {"R": 1000.0},
    "decay-runs": {"tau0": 2.0, "scale": 200.0, "U0": 5.0},
    "plant-growth-zh": {"株高": {"对照": 30.0, "低氮": 34.0, "高氮": 41.0}},
}


def _seasonal(t: np.ndarray, amplitude: float) -> np.ndarray:
    # Peak in mid-May (t mod 1 = 0.37), as for CO2 at Mauna Loa.
    return amplitude * np.cos(2 * np.pi * (t - 0.37))


def station_series(root: Path) -> None:
    """Three time series, dates written three ways: YYYYMMDD integers, dd-Mon-yy, ISO."""
    rng = np.random.default_rng(1301)
    truth = TRUTH["station-series"]
    start = _dt.date(1990, 1, 6)
    rows = ["date,co2 (ppm)"]
    for k in range(520):  # ten years, weekly
        d = start + _dt.timedelta(days=7 * k)
        t = d.year + (d.timetuple().tm_yday - 0.5) / (366 if d.year % 4 == 0 else 365)
        p = truth["weekly_co2.csv"]
        v = (
            355
            + p["slope"] * (t - 1990)
            + _seasonal(np.array(t), p["amplitude"])
            + rng.normal(0, 0.4)
        )
        rows.append(f"{d:%Y%m%d},{float(v):.2f}")
    _write(root / "weekly_co2.csv", "\n".join(rows) + "\n")
    rows = ["Date,Close"]
    start = _dt.date(2003, 1, 1)
    for k in range(730):
        d = start + _dt.timedelta(days=k)
        t = 2003 + k / 365.0
        v = 20 + truth["daily_price.csv"]["slope"] * (t - 2003) + rng.normal(0, 0.8)
        rows.append(f"{d.day:02d}-{d:%b}-{d:%y},{v:.2f}")
    _write(root / "daily_price.csv", "\n".join(rows) + "\n")
    rows = ["date,temperature (°C)"]
    for k in range(360):  # thirty years, monthly
        y, m = 1980 + k // 12, k % 12 + 1
        t = y + (m - 0.5) / 12
        p = truth["monthly_temp.csv"]
        v = (
            9
            + p["slope"] * (t - 1980)
            + _seasonal(np.array(t - 0.2), p["amplitude"])
            + rng.normal(0, 0.7)
        )
        rows.append(f"{y}-{m:02d}-15,{float(v):.2f}")
    _write(root / "monthly_temp.csv", "\n".join(rows) + "\n")
    _write(
        root / "README.md",
        "# Three station records\n\n"
        "## Aim\n\n"
        "Find the growth rate per year of each record and describe its seasonal cycle.\n\n"
        "## Method\n\n"
        "weekly_co2.csv: weekly flask CO2 (dates as YYYYMMDD). daily_price.csv: daily\n"
        "closing price (dates as dd-Mon-yy). monthly_temp.csv: monthly mean air\n"
        "temperature (ISO dates).\n",
    )


def sea_surface(root: Path) -> None:
    """A year x month table; the README has no extension."""
    rng = np.random.default_rng(1302)
    truth = TRUTH["sea-surface"]
    months = "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split()
    rows = ["YEAR," + ",".join(months)]
    for year in range(1950, 2010):
        cells = []
        for m in range(1, 13):
            t = year + (m - 0.5) / 12
            v = 24 + truth["slope"] * (t - 1950) + _seasonal(np.array(t - 0.3), truth["amplitude"])
            cells.append(f"{float(v) + rng.normal(0, 0.3):.2f}")
        rows.append(f"{year}," + ",".join(cells))
    _write(root / "sst.csv", "\n".join(rows) + "\n")
    _write(
        root / "README",
        "Monthly mean sea surface temperature in degrees C, one row per year and one\n"
        "column per month.\n\n"
        "Questions: is there a long-term trend, and what does the seasonal cycle look like?\n",
    )


def alloy_hardness(root: Path) -> None:
    """Grouped measurements: a class code column with its labels in the notes."""
    rng = np.random.default_rng(1303)
    means = TRUTH["alloy-hardness"]["hardness"]
    rows = ["sample_id,alloy,hardness (HV),density (g/cm^3)"]
    k = 0
    for code, (_name, mu) in enumerate(means.items()):
        for _ in range(12):
            k += 1
            rows.append(
                f"A{k:03d},{code},{mu + rng.normal(0, 15):.1f},{7.85 + rng.normal(0, 0.02):.3f}"
            )
    order = [rows[0]] + [rows[1:][i] for i in rng.permutation(len(rows) - 1)]
    _write(root / "hardness.csv", "\n".join(order) + "\n")
    _write(
        root / "notes.md",
        "# Hardness of heat-treated steel\n\n"
        "## Aim\n\n"
        "Compare the hardness between the three groups of samples.\n\n"
        "## Method\n\n"
        "Vickers hardness, 10 kgf. alloy: 0 = annealed, 1 = quenched, 2 = tempered.\n",
    )


def reactor_yield(root: Path) -> None:
    """A response and three operating variables, one planted outlier."""
    rng = np.random.default_rng(1304)
    tr = TRUTH["reactor-yield"]
    n = 40
    temp = rng.uniform(320, 380, n)
    pres = rng.uniform(1.0, 5.0, n)
    cat = rng.uniform(0.5, 3.0, n)
    y = tr["const"] + tr["temperature"] * temp + tr["pressure"] * pres + tr["catalyst"] * cat
    y = y + rng.normal(0, 0.5, n)
    y[int(tr["outlier_row"])] += 6.0  # a mis-recorded run
    rows = ["run,temperature,pressure,catalyst,yield"]
    rows += [f"{i + 1},{temp[i]:.1f},{pres[i]:.2f},{cat[i]:.2f},{y[i]:.2f}" for i in range(n)]
    _write(root / "runs.csv", "\n".join(rows) + "\n")
    _write(
        root / "notes.rst",
        ".. _reactor:\n\n"
        "Pilot reactor runs\n==================\n\n"
        "Aim: build a model of yield as a function of the operating variables, and\n"
        "discuss any outliers.\n\n"
        "temperature is measured in K, pressure in bar, catalyst in g, yield in %.\n",
    )


def resistor_repeats(root: Path) -> None:
    rng = np.random.default_rng(1305)
    values = TRUTH["resistor-repeats"]["R"] + rng.normal(0, 0.8, 25)
    rows = ["reading,R (ohm)"] + [f"{i + 1},{v:.2f}" for i, v in enumerate(values)]
    _write(root / "readings.csv", "\n".join(rows) + "\n")
    _write(
        root / "notes.md",
        "# A nominal 1 kOhm resistor\n\n"
        "## Aim\n\n"
        "Estimate the resistance and its uncertainty from repeated measurements.\n",
    )


def decay_runs(root: Path) -> None:
    """Thirty same-shaped files, one per temperature (in the file name)."""
    rng = np.random.default_rng(1306)
    tr = TRUTH["decay-runs"]
    for temp in range(280, 430, 5):
        tau = tr["tau0"] * np.exp(-(temp - 280) / tr["scale"])
        t = np.linspace(0, 4 * tau, 25)
        u = tr["U0"] * np.exp(-t / tau) + rng.normal(0, 0.02, t.size)
        rows = ["t (s),U (V)"] + [f"{a:.4f},{b:.4f}" for a, b in zip(t, u, strict=True)]
        _write(root / "runs" / f"decay_T{temp}K.csv", "\n".join(rows) + "\n")
    _write(
        root / "notes.md",
        "# Capacitor decay at several temperatures\n\n"
        "## Aim\n\n"
        "Each run was taken at a different temperature (in the file name). How does\n"
        "the decay time depend on temperature?\n",
    )


def plant_growth_zh(root: Path) -> None:
    """Chinese folder: grouped plant heights under three nitrogen treatments."""
    rng = np.random.default_rng(1307)
    means = TRUTH["plant-growth-zh"]["株高"]
    rows = ["编号,处理,株高 (cm),叶数"]
    k = 0
    for code, mu in enumerate(means.values()):
        for _ in range(10):
            k += 1
            rows.append(f"{k},{code},{mu + rng.normal(0, 2.5):.1f},{int(rng.integers(8, 15))}")
    _write(root / "株高.csv", "\n".join(rows) + "\n")
    _write(
        root / "说明.md",
        "# 氮肥对株高的影响\n\n"
        "## 实验目的\n\n"
        "比较三种处理下植株的株高，检验组间差异。\n\n"
        "## 实验方法\n\n"
        "每种处理 10 株，第 30 天测量株高。处理：0 = 对照, 1 = 低氮, 2 = 高氮。\n",
    )


ANALYST_EXAMPLES = {
    "station-series": station_series,
    "sea-surface": sea_surface,
    "alloy-hardness": alloy_hardness,
    "reactor-yield": reactor_yield,
    "resistor-repeats": resistor_repeats,
    "decay-runs": decay_runs,
    "plant-growth-zh": plant_growth_zh,
}


def main() -> None:
    pendulum(HERE / "pendulum")
    rc_discharge(HERE / "rc-discharge")
    spectrum(HERE / "spectrum")
    heat_plate(HERE / "heat-plate")
    for name, make in ANALYST_EXAMPLES.items():
        make(HERE / name)


if __name__ == "__main__":
    main()
