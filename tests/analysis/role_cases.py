"""A labelled set of tables for role inference: file name, text, notes, and
the role a scientist gives each column. English and Chinese headers; dates in
several forms; counters, keys, codes, constants, measurements with and
without units."""

from __future__ import annotations

import numpy as np

RNG = np.random.default_rng(7)


def _rows(header: str, rows: list[list[object]], sep: str = ",") -> str:
    return header + "\n" + "\n".join(sep.join(str(c) for c in r) for r in rows) + "\n"


def _n(mu: float, sd: float, n: int, nd: int = 2) -> list[float]:
    return [round(float(v), nd) for v in RNG.normal(mu, sd, n)]


def cases() -> list[tuple[str, str, str, dict[str, str]]]:
    """(file name, file text, notes text, {column: role})."""
    out: list[tuple[str, str, str, dict[str, str]]] = []
    n = 30
    # 1 weekly series with YYYYMMDD integers
    dates = [int(f"1958{m:02d}{d:02d}") for m in range(3, 13) for d in (1, 8, 15)][:n]
    out.append(
        (
            "co2_weekly.csv",
            _rows("date,co2", [[d, v] for d, v in zip(dates, _n(316, 1, n), strict=False)]),
            "",
            {"date": "time", "co2": "measurement"},
        )
    )
    # 2 ISO dates with a station category and two measurements
    iso = [f"2021-01-{d:02d}" for d in range(1, 31)]
    out.append(
        (
            "weather.csv",
            _rows(
                "Date,Station,Temperature (°C),Rain (mm)",
                [
                    [d, ["A", "B", "C"][i % 3], t, r]
                    for i, (d, t, r) in enumerate(zip(iso, _n(5, 3, n), _n(2, 1, n), strict=False))
                ],
            ),
            "",
            {
                "Date": "time",
                "Station": "category",
                "Temperature": "measurement",
                "Rain": "measurement",
            },
        )
    )
    # 3 dd-Mon-yy prices
    dm = [f"{d:02d}-Sep-03" for d in range(1, 29)]
    out.append(
        (
            "prices.csv",
            _rows(
                "Date,Open,Close,Volume",
                [
                    [d, o, o + 0.5, int(v)]
                    for d, o, v in zip(dm, _n(20, 1, 28), _n(1e6, 1e5, 28, 0), strict=False)
                ],
            ),
            "",
            {
                "Date": "time",
                "Open": "measurement",
                "Close": "measurement",
                "Volume": "measurement",
            },
        )
    )
    # 4 decimal years
    dy = [round(1958 + i / 12 + 1 / 24, 3) for i in range(n)]
    out.append(
        (
            "monthly_decimal.csv",
            _rows(
                "decimal_date,average,trend",
                [[d, a, a - 0.1] for d, a in zip(dy, _n(315, 2, n), strict=False)],
            ),
            "",
            {"decimal_date": "time", "average": "measurement", "trend": "measurement"},
        )
    )
    # 5 year + month columns
    ym = [[1990 + i // 12, i % 12 + 1] for i in range(n)]
    out.append(
        (
            "year_month.csv",
            _rows(
                "year,month,flow",
                [[y, m, f] for (y, m), f in zip(ym, _n(100, 10, n), strict=False)],
            ),
            "",
            {"year": "time", "month": "time", "flow": "measurement"},
        )
    )
    # 6 year x month wide
    wide_rows = [[1950 + i] + _n(25, 1, 12) for i in range(10)]
    months = "JAN,FEB,MAR,APR,MAY,JUN,JUL,AUG,SEP,OCT,NOV,DEC".split(",")
    out.append(
        (
            "elnino.csv",
            _rows("YEAR," + ",".join(months), wide_rows),
            "",
            {"YEAR": "time", **dict.fromkeys(months, "measurement")},
        )
    )
    # 7 class codes 0/1/2 with measurements
    cls = [i % 3 for i in range(n)]
    out.append(
        (
            "iris_like.csv",
            _rows(
                "sepal_length,sepal_width,petal_length,class",
                [
                    [a, b, c, k]
                    for a, b, c, k in zip(
                        _n(5.8, 0.5, n), _n(3, 0.3, n), _n(3.7, 1.5, n), cls, strict=False
                    )
                ],
            ),
            "class: 0 = setosa, 1 = versicolor, 2 = virginica",
            {
                "sepal_length": "measurement",
                "sepal_width": "measurement",
                "petal_length": "measurement",
                "class": "category",
            },
        )
    )
    # 8 row counter + sorted x + y (physics)
    out.append(
        (
            "periods.csv",
            _rows(
                "n,L (m),T (s)",
                [[i + 1, round(0.2 + 0.1 * i, 2), t] for i, t in enumerate(_n(1.5, 0.01, 9))],
            ),
            "",
            {"n": "index", "L": "measurement", "T": "measurement"},
        )
    )
    # 9 trial + repeated timing
    out.append(
        (
            "repeats.csv",
            _rows("trial,t_10 (s)", [[i + 1, t] for i, t in enumerate(_n(14.2, 0.08, 20))]),
            "",
            {"trial": "index", "t_10": "measurement"},
        )
    )
    # 10 process table without units, units in the notes
    out.append(
        (
            "stackloss.csv",
            _rows(
                "STACKLOSS,AIRFLOW,WATERTEMP,ACIDCONC",
                [
                    [s, a, w, c]
                    for s, a, w, c in zip(
                        _n(17, 5, 21, 0),
                        _n(60, 9, 21, 0),
                        _n(21, 3, 21, 0),
                        _n(86, 5, 21, 0),
                        strict=False,
                    )
                ],
            ),
            "AIRFLOW is measured in units of L/min",
            {
                "STACKLOSS": "measurement",
                "AIRFLOW": "measurement",
                "WATERTEMP": "measurement",
                "ACIDCONC": "measurement",
            },
        )
    )
    # 11 Chinese headers: 序号, 组别 (text), 质量
    out.append(
        (
            "称量.csv",
            _rows(
                "序号,组别,质量 (g),温度 (℃)",
                [
                    [i + 1, ["甲", "乙"][i % 2], m, t]
                    for i, (m, t) in enumerate(zip(_n(10, 0.1, 16), _n(20, 0.5, 16), strict=False))
                ],
            ),
            "",
            {"序号": "index", "组别": "category", "质量": "measurement", "温度": "measurement"},
        )
    )
    # 12 Chinese date column + measurements
    out.append(
        (
            "日记录.csv",
            _rows(
                "日期,气温 (℃),湿度 (%)",
                [[d, t, h] for d, t, h in zip(iso, _n(10, 3, n), _n(60, 8, n), strict=False)],
            ),
            "",
            {"日期": "time", "气温": "measurement", "湿度": "measurement"},
        )
    )
    # 13 constant column and ID text keys
    out.append(
        (
            "samples.csv",
            _rows(
                "sample_id,operator,voltage (V),current (mA)",
                [
                    [f"S{i:03d}", "Li", v, c]
                    for i, (v, c) in enumerate(zip(_n(5, 0.1, 20), _n(2, 0.1, 20), strict=False))
                ],
            ),
            "",
            {
                "sample_id": "index",
                "operator": "constant",
                "voltage": "measurement",
                "current": "measurement",
            },
        )
    )
    # 14 headerless numeric file (x, x^2, x^3) whitespace
    xs = [round(0.5 * i, 1) for i in range(1, 13)]
    out.append(
        (
            "powers.dat",
            "\n".join(f"{x:6.1f} {x * x:9.2f} {x**3:10.3f}" for x in xs) + "\n",
            "",
            {"col1": "measurement", "col2": "measurement", "col3": "measurement"},
        )
    )
    # 15 timestamps with time of day (logger)
    ts = [f"2024-05-01 12:{m:02d}:00" for m in range(30)]
    out.append(
        (
            "logger.csv",
            _rows(
                "timestamp,T_in (K),T_out (K)",
                [[s, a, b] for s, a, b in zip(ts, _n(300, 1, n), _n(290, 1, n), strict=False)],
            ),
            "",
            {"timestamp": "time", "T_in": "measurement", "T_out": "measurement"},
        )
    )
    # 16 group coded by integer 1/2 named "group", with subject id
    out.append(
        (
            "trial.csv",
            _rows(
                "subject,group,score",
                [[100 + i, 1 + i % 2, s] for i, s in enumerate(_n(50, 10, 24))],
            ),
            "",
            {"subject": "index", "group": "category", "score": "measurement"},
        )
    )
    # 17 Chinese category code with labels in notes
    out.append(
        (
            "处理.csv",
            _rows(
                "处理,株高 (cm),叶数",
                [
                    [i % 3, h, int(k)]
                    for i, (h, k) in enumerate(zip(_n(30, 4, 27), _n(12, 2, 27, 0), strict=False))
                ],
            ),
            "处理：0 = 对照, 1 = 低氮, 2 = 高氮",
            {"处理": "category", "株高": "measurement", "叶数": "measurement"},
        )
    )
    # 18 year column only + two series (sunspots-like)
    out.append(
        (
            "sunspots.csv",
            _rows("YEAR,SUNACTIVITY", [[1700 + i, abs(a)] for i, a in enumerate(_n(50, 40, 40))]),
            "",
            {"YEAR": "time", "SUNACTIVITY": "measurement"},
        )
    )
    # 19 elapsed time in seconds (physics), voltage
    out.append(
        (
            "discharge.csv",
            _rows(
                "t (s),U (V)",
                [[round(0.1 * i, 1), round(5 * np.exp(-0.1 * i), 4)] for i in range(25)],
            ),
            "",
            {"t": "measurement", "U": "measurement"},
        )
    )
    # 20 semicolon decimal-comma German export with Nr counter
    out.append(
        (
            "messung.csv",
            "Nr;Spannung (V);Strom (mA)\n"
            + "\n".join(
                f"{i + 1};{1 + 0.5 * i:.2f};{2.1 * (1 + 0.5 * i):.3f}".replace(".", ",")
                for i in range(12)
            )
            + "\n",
            "",
            {"Nr": "index", "Spannung": "measurement", "Strom": "measurement"},
        )
    )
    # 21 sex text category (M/F) with height and weight
    out.append(
        (
            "body.csv",
            _rows(
                "sex,height (cm),weight (kg)",
                [
                    [["M", "F"][i % 2], h, w]
                    for i, (h, w) in enumerate(zip(_n(170, 8, 20), _n(65, 9, 20), strict=False))
                ],
            ),
            "",
            {"sex": "category", "height": "measurement", "weight": "measurement"},
        )
    )
    # 22 YYYYMM month keys + sales
    yyyymm = [int(f"{2010 + i // 12}{i % 12 + 1:02d}") for i in range(n)]
    out.append(
        (
            "sales.csv",
            _rows(
                "period,sales,returns",
                [
                    [p, s, r]
                    for p, s, r in zip(yyyymm, _n(1000, 80, n, 0), _n(40, 5, n, 0), strict=False)
                ],
            ),
            "",
            {"period": "time", "sales": "measurement", "returns": "measurement"},
        )
    )
    # 23 Chinese year column 年份 with production
    out.append(
        (
            "产量.csv",
            _rows(
                "年份,产量 (t),面积 (ha)",
                [
                    [2000 + i, p, a]
                    for i, (p, a) in enumerate(zip(_n(500, 30, 15), _n(80, 5, 15), strict=False))
                ],
            ),
            "",
            {"年份": "time", "产量": "measurement", "面积": "measurement"},
        )
    )
    # 24 whitespace table x, x^2, x^3 where x steps by one (x must survive)
    out.append(
        (
            "cubes.txt",
            "x x^2 x^3\n" + "".join(f"{i} {i * i} {i**3}\n" for i in range(1, 9)),
            "",
            {"x": "measurement", "x^2": "measurement", "x^3": "measurement"},
        )
    )
    # 25 a pandas export with its index column, and a Chinese 编号 key
    out.append(
        (
            "export.csv",
            _rows(
                ",编号,浓度 (mol/L),吸光度",
                [
                    [i, 200 + 3 * i, round(0.1 * (i + 1), 2), a]
                    for i, a in enumerate(_n(0.5, 0.1, 12, 3))
                ],
            ),
            "",
            {"col1": "index", "编号": "index", "浓度": "measurement", "吸光度": "measurement"},
        )
    )
    return out
