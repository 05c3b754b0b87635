import numpy as np
import pytest

from labwright.ingest.delimited import looks_like_table, read_text_table, sniff
from labwright.ingest.types import Dataset, Provenance


def table(text: str, max_rows: int = 200_000) -> Dataset:
    dataset, reason = read_text_table(
        text, name="t", provenance=Provenance("t.csv"), max_rows=max_rows
    )
    assert dataset is not None, reason
    return dataset


def summary(dataset: Dataset) -> list[tuple[str, str | None]]:
    return [(c.name, c.unit) for c in dataset.columns]


def test_comma_table_with_units_in_three_styles() -> None:
    d = table("t (s),U/mV,I [A]\n0,1.5,0.1\n1,2.5,0.2\n2,3.5,0.3\n")
    assert summary(d) == [("t", "s"), ("U", "mV"), ("I", "A")]
    np.testing.assert_allclose(d.column("U").values, [1.5, 2.5, 3.5])
    assert d.column("I").provenance == Provenance("t.csv", column="I", rows="1–3")
    assert d.kind == "table" and d.n_rows == 3


def test_preamble_and_units_row() -> None:
    text = "Instrument: Keithley 2400\nOperator = Li\n\nt\tV\ns\tmV\n0\t1\n1\t2\n2\t3\n"
    d = table(text)
    assert summary(d) == [("t", "s"), ("V", "mV")]
    assert d.metadata["Instrument"] == "Keithley 2400"
    assert d.metadata["Operator"] == "Li"


def test_settings_lines_before_the_table_are_a_preamble() -> None:
    """An oscilloscope's "key,value" settings, a blank line, names, units,
    then the data: the settings are half numbers, yet not the table."""
    rows = "\n".join(f"{i * 0.001:.3f},{i * 0.1:.2f}" for i in range(40))
    text = f"Model,SDS1202\nSample interval,0.001\nRecord length,40\n\nTime,CH2\ns,V\n{rows}\n"
    d = table(text)
    assert summary(d) == [("Time", "s"), ("CH2", "V")]
    assert d.n_rows == 40


def test_comment_lines_give_metadata() -> None:
    d = table("# Sample: A3\n# T = 293 K\nx,y\n1,2\n3,4\n")
    assert d.metadata == {"Sample": "A3", "T": "293 K"}


def test_timestamps_become_elapsed_seconds() -> None:
    d = table(
        "time,T (°C)\n2024-05-01 12:00:00,20.1\n2024-05-01 12:00:30,20.4\n2024-05-01 12:01:30,20.9\n"
    )
    time = d.column("time")
    assert time.is_numeric and time.unit == "s"
    np.testing.assert_allclose(time.values, [0, 30, 90])
    assert any("2024-05-01 12:00:00" in n for n in d.notes)


def test_title_row_is_not_taken_for_units() -> None:
    d = table("Pendulum run\nt,V\n0,1\n1,2\n2,3\n")
    assert summary(d) == [("t", None), ("V", None)]


def test_whitespace_table_with_spaces_in_header_and_comments() -> None:
    d = table("# exported by scope\nt (s)   U (V)\n 0.0   1.0\n 1.0   2.0\n 2.0   3.0\n")
    assert summary(d) == [("t", "s"), ("U", "V")]


def test_semicolon_and_decimal_comma() -> None:
    d = table("Zeit (s);Spannung (V)\n0,5;1,25\n1,5;2,5\n2,5;3,75\n")
    assert summary(d) == [("Zeit", "s"), ("Spannung", "V")]
    np.testing.assert_allclose(d.column("Spannung").values, [1.25, 2.5, 3.75])


def test_no_header_gets_stable_names() -> None:
    d = table("1 2\n3 4\n5 6\n")
    assert summary(d) == [("col1", None), ("col2", None)]


def test_duplicate_and_empty_names_are_made_unique() -> None:
    d = table("x,x,,y\n1,2,3,4\n5,6,7,8\n")
    assert [c.name for c in d.columns] == ["x", "x_2", "col3", "y"]


def test_text_column_kept_as_text_and_spacer_rows_dropped() -> None:
    d = table("sample,mass (g)\nA,1.5\nB,2.5\n,\nC,3.5\n")
    assert d.column("sample").values.tolist() == ["A", "B", "C"]
    assert not d.column("sample").is_numeric
    assert d.column("mass").is_numeric and d.n_rows == 3


def test_missing_values_become_nan_in_numeric_columns() -> None:
    d = table("a,b\n1,2\n2,\n3,4\n4,5\n5,6\n6,7\n7,8\n8,9\n9,10\n10,11\n")
    assert np.isnan(d.column("b").values[1])


def test_row_cap_is_noted() -> None:
    text = "x,y\n" + "".join(f"{i},{2 * i}\n" for i in range(100))
    d = table(text, max_rows=10)
    assert d.n_rows == 10
    assert any("first 10 rows" in n for n in d.notes)


def test_header_without_data_is_refused() -> None:
    dataset, reason = read_text_table("a,b,c\n", name="t", provenance=Provenance("t.csv"))
    assert dataset is None and reason


@pytest.mark.parametrize(
    ("text", "delimiter"),
    [
        ("a\tb\n1\t2\n", "\t"),
        ("a,b\n1,2\n", ","),
        ("a;b\n1,5;2\n", ";"),
        ("a b\n1 2\n", None),
        ("a|b\n1|2\n", "|"),
    ],
)
def test_sniff(text: str, delimiter: str | None) -> None:
    assert sniff(text.splitlines()).delimiter == delimiter


@pytest.mark.parametrize(
    "text",
    [
        "1 2\n3 4\n5 6\n",
        "Instrument: X\nDate: 2024-05-01\n\nt\tV\ns\tmV\n0\t1\n1\t2\n2\t3\n",
        "时间 (s),温度 (°C)\n0,20.1\n1,20.5\n",
        "time,value\n2024-01-01 12:00:00,1.5\n2024-01-01 12:00:01,1.6\n",
    ],
)
def test_tables_look_like_tables(text: str) -> None:
    assert looks_like_table(text)


@pytest.mark.parametrize(
    "text",
    [
        "Pendulum experiment\nWe measured the period of a 1.00 m pendulum.\nLength: 1.00 m\n",
        "实验目的：测量单摆周期。\n摆长 1.00 m，摆角小于 5°。\n",
        "1. Set up the circuit\n2. Charge the capacitor to 5 V\n3. Record the voltage\n",
        "",
    ],
)
def test_prose_is_not_a_table(text: str) -> None:
    assert not looks_like_table(text)


def test_unbalanced_quote_is_a_reason_not_an_exception() -> None:
    dataset, reason = read_text_table(
        '"a,b",c\n"1,2",3\n4,"5\n', name="t", provenance=Provenance("t.csv")
    )
    assert dataset is None and reason == "read.open_quote"


def test_quoted_cells_with_delimiters() -> None:
    d = table('"name, full",value (V)\n"A, 1",1.5\n"B, 2",2.5\n')
    assert [(c.name, c.unit) for c in d.columns] == [("name, full", None), ("value", "V")]
    assert d.column("name, full").values.tolist() == ["A, 1", "B, 2"]
