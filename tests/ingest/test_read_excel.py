from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import Workbook

from labwright.ingest import Dataset, Skipped, read_file


def write_workbook(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "discharge"
    ws.append(["RC discharge, 2024-05-01"])
    ws.append([])
    ws.append(["t (s)", "U (V)"])
    for i in range(6):
        ws.append([i * 0.1, 5 * np.exp(-i * 0.1)])
    ws2 = wb.create_sheet("充电")
    ws2.append(["时间", "电压"])
    ws2.append(["s", "V"])
    for i in range(4):
        ws2.append([i, i * 1.2])
    ws2["D2"] = "=A3*2"  # a formula next to the data is not an extra column of text
    wb.create_sheet("empty")
    wb.save(path)
    return path


def test_every_sheet_with_header_and_units(data_dir: Path) -> None:
    path = write_workbook(data_dir / "rc.xlsx")
    items = read_file(path, "rc.xlsx")
    datasets = {d.name: d for d in items if isinstance(d, Dataset)}
    assert set(datasets) == {"rc:discharge", "rc:充电"}
    first = datasets["rc:discharge"]
    assert [(c.name, c.unit) for c in first.columns] == [("t", "s"), ("U", "V")]
    assert first.n_rows == 6
    assert first.columns[1].provenance.sheet == "discharge"
    second = datasets["rc:充电"]
    assert [(c.name, c.unit) for c in second.columns[:2]] == [("时间", "s"), ("电压", "V")]
    np.testing.assert_allclose(second.column("电压").values, [0, 1.2, 2.4, 3.6])
    skipped = [s for s in items if isinstance(s, Skipped)]
    assert [s.variable for s in skipped] == ["empty"]


def test_single_sheet_workbook_is_named_by_stem(data_dir: Path) -> None:
    path = data_dir / "one.xlsx"
    pd.DataFrame({"x (m)": [1, 2, 3], "y (m)": [2, 4, 6]}).to_excel(path, index=False)
    (d,) = read_file(path, "one.xlsx")
    assert isinstance(d, Dataset) and d.name == "one"
    assert [(c.name, c.unit) for c in d.columns] == [("x", "m"), ("y", "m")]


def test_truncated_workbook_is_skipped(data_dir: Path) -> None:
    good = write_workbook(data_dir / "good.xlsx")
    bad = data_dir / "bad.xlsx"
    bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    (item,) = read_file(bad, "bad.xlsx")
    assert isinstance(item, Skipped)
    assert "damaged or truncated" in item.reason


def test_text_renamed_to_xlsx_is_skipped(data_dir: Path) -> None:
    path = data_dir / "fake.xlsx"
    path.write_text("t,V\n1,2\n", encoding="utf-8")
    (item,) = read_file(path, "fake.xlsx")
    assert isinstance(item, Skipped)


def test_old_xls_is_skipped_with_advice(data_dir: Path) -> None:
    path = data_dir / "old.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0" + bytes(100))
    (item,) = read_file(path, "old.xls")
    assert isinstance(item, Skipped) and ".xlsx" in item.reason


def test_excel_datetimes_become_elapsed_seconds(data_dir: Path) -> None:
    import datetime as dt

    wb = Workbook()
    ws = wb.active
    ws.append(["Zeit", "T (°C)"])
    start = dt.datetime(2024, 5, 1, 12, 0, 0)
    for i in range(5):
        ws.append([start + dt.timedelta(seconds=15 * i), 20 + i * 0.1])
    wb.save(data_dir / "logger.xlsx")
    (d,) = read_file(data_dir / "logger.xlsx", "logger.xlsx")
    assert isinstance(d, Dataset)
    zeit = d.column("Zeit")
    assert zeit.unit == "s"
    np.testing.assert_allclose(zeit.values, [0, 15, 30, 45, 60])
    assert any("2024-05-01 12:00:00" in n for n in d.notes)
