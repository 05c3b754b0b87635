"""A headerless table's first data line is data, never the column names.

A logger's first reading is often missing ("12:00:00;" then "12:01:00;0.80")
and a dated table may start with a label and no number ("2021-01-10,ctrl,").
Such a line has no number, and the readers took it for the header: the
columns were named "12:00:00" and the first reading was lost. A date or time
stamp is a value, so the line is data (`tabular.is_data_row`).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from labwright.ingest.delimited import read_text_table
from labwright.ingest.tabular import is_data_row
from labwright.ingest.types import Provenance


def _read(text: str) -> tuple[list[str], int]:
    ds, why = read_text_table(text, name="x", provenance=Provenance("x.csv"))
    assert ds is not None, why
    return [c.name for c in ds.columns], ds.n_rows


def test_a_missing_first_reading_is_not_a_header() -> None:
    names, rows = _read("12:00:00;\n12:01:00;0.80\n12:02:00;2.00\n12:03:00;1.50\n")
    assert names == ["col1", "col2"] and rows == 4


def test_a_dated_first_line_with_a_label_and_no_number_is_data() -> None:
    names, rows = _read("2021-01-10,ctrl,\n2021-01-11,ctrl,5.2\n2021-01-12,treated,6.1\n")
    assert names == ["col1", "col2", "col3"] and rows == 3


def test_a_real_header_above_a_missing_first_reading_is_still_the_header() -> None:
    names, rows = _read("time;value\n12:00:00;\n12:01:00;0.80\n12:02:00;2.00\n")
    assert names == ["time", "value"] and rows == 3


def test_a_line_of_names_is_not_data() -> None:
    assert not is_data_row(["time", "voltage", "current"])
    assert not is_data_row(["Operator", "Smith"])


_NUMBER = st.floats(-1e4, 1e4, allow_nan=False).map(lambda v: f"{v:.3f}")
_STAMP = st.integers(0, 59).map(lambda m: f"12:{m:02d}:00")


@settings(max_examples=150, deadline=None)
@given(
    n_rows=st.integers(3, 12),
    kinds=st.lists(st.sampled_from(["number", "stamp", "sparse"]), min_size=1, max_size=5),
    delimiter=st.sampled_from([",", ";", "\t"]),
    data=st.data(),
)
def test_headerless_tables_keep_every_line(
    n_rows: int, kinds: list[str], delimiter: str, data: st.DataObject
) -> None:
    if all(k == "sparse" for k in kinds) or "stamp" not in kinds and "number" not in kinds:
        kinds = [*kinds, "number"]  # an all-empty first line is a blank line, not a row
    rows = []
    for i in range(n_rows):
        cells = []
        for kind in kinds:
            if kind == "stamp":
                cells.append(f"12:{i:02d}:00")
            elif kind == "number":
                cells.append(data.draw(_NUMBER))
            else:  # a sparse column, empty in the first line
                cells.append("" if i == 0 else data.draw(_NUMBER))
        rows.append(delimiter.join(cells))
    names, n = _read("\n".join(rows) + "\n")
    assert all(name.startswith("col") for name in names), names
    assert n == n_rows
