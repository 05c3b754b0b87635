"""Property: a numeric table written the way lab software writes it (any of
the common delimiters, encodings and header styles) reads back exactly."""

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labwright.ingest import Dataset, read_file

NAMES = [
    ("t", "s"),
    ("U", "mV"),
    ("I", "A"),
    ("温度", "°C"),
    ("电压", "V"),
    ("f", "Hz"),
    ("x", None),
]
STYLES = ["{n} ({u})", "{n}/{u}", "{n} [{u}]"]
finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False, width=32)


@st.composite
def tables(draw):  # type: ignore[no-untyped-def]
    n_cols = draw(st.integers(1, 4))
    names = draw(
        st.lists(st.sampled_from(NAMES), min_size=n_cols, max_size=n_cols, unique_by=lambda c: c[0])
    )
    n_rows = draw(st.integers(2, 30))
    values = np.array(
        draw(
            st.lists(
                st.lists(finite, min_size=n_cols, max_size=n_cols), min_size=n_rows, max_size=n_rows
            )
        )
    )
    delimiter = draw(st.sampled_from([",", "\t", ";"]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "gbk"]))
    style = draw(st.sampled_from(STYLES))
    return names, values, delimiter, encoding, style


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(table=tables())
def test_written_tables_read_back(tmp_path: Path, table) -> None:  # type: ignore[no-untyped-def]
    names, values, delimiter, encoding, style = table
    header = [style.format(n=n, u=u) if u else n for n, u in names]
    decimal_comma = delimiter == ";"  # the European convention that goes with ';'
    lines = [delimiter.join(header)]
    for row in values:
        cells = [repr(float(v)) for v in row]
        if decimal_comma:
            cells = [c.replace(".", ",") for c in cells]
        lines.append(delimiter.join(cells))
    path = tmp_path / "t.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode(encoding))

    (dataset,) = read_file(path, "t.csv")
    assert isinstance(dataset, Dataset), dataset
    assert [(c.name, c.unit) for c in dataset.columns] == list(names)
    got = np.column_stack([c.values for c in dataset.columns])
    np.testing.assert_array_equal(got, values.astype(float))
