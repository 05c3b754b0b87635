import codecs
from pathlib import Path

import numpy as np
import pytest

from labwright.ingest import Dataset, DocumentText, Skipped, read_file

ZH_TABLE = "时间 (s),温度 (°C),电压/mV\n0,20.1,1.5\n1,20.5,1.7\n2,21.0,1.9\n"


def only(items: list, kind: type):
    assert len(items) == 1, items
    assert isinstance(items[0], kind), items[0]
    return items[0]


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "utf-8", "utf-8-sig", "utf-16"])
def test_chinese_headers_in_every_common_encoding(data_dir: Path, encoding: str) -> None:
    path = data_dir / "温度.csv"
    path.write_bytes(ZH_TABLE.encode(encoding))
    d = only(read_file(path, "温度.csv"), Dataset)
    assert [(c.name, c.unit) for c in d.columns] == [("时间", "s"), ("温度", "°C"), ("电压", "mV")]
    np.testing.assert_allclose(d.column("温度").values, [20.1, 20.5, 21.0])
    assert d.name == "温度"


def test_utf16_tab_separated_as_excel_unicode_text(data_dir: Path) -> None:
    path = data_dir / "scope.txt"
    path.write_bytes(
        codecs.BOM_UTF16_LE + "t (s)\tU (V)\r\n0\t1\r\n1\t2\r\n2\t3\r\n".encode("utf-16-le")
    )
    d = only(read_file(path, "scope.txt"), Dataset)
    assert [(c.name, c.unit) for c in d.columns] == [("t", "s"), ("U", "V")]


def test_bom_does_not_leak_into_first_header(data_dir: Path) -> None:
    path = data_dir / "bom.csv"
    path.write_bytes(codecs.BOM_UTF8 + b"x,y\n1,2\n3,4\n")
    d = only(read_file(path, "bom.csv"), Dataset)
    assert d.columns[0].name == "x"


def test_tsv_and_dat(data_dir: Path) -> None:
    (data_dir / "a.tsv").write_text("f (Hz)\tA (dB)\n10\t-3\n20\t-6\n", encoding="utf-8")
    (data_dir / "b.dat").write_text("  0.0  1.0\n  0.1  0.9\n  0.2  0.8\n", encoding="utf-8")
    a = only(read_file(data_dir / "a.tsv", "a.tsv"), Dataset)
    b = only(read_file(data_dir / "b.dat", "b.dat"), Dataset)
    assert a.column("A").unit == "dB"
    assert b.n_rows == 3 and len(b.columns) == 2


def test_prose_txt_is_a_document_and_table_txt_is_a_dataset(data_dir: Path) -> None:
    (data_dir / "notes.txt").write_text(
        "Aim: measure g with a pendulum.\nLength 1.00 m.\n", encoding="utf-8"
    )
    (data_dir / "periods.txt").write_text(
        "L (m)  T (s)\n0.5  1.42\n1.0  2.01\n1.5  2.46\n", encoding="utf-8"
    )
    doc = only(read_file(data_dir / "notes.txt", "notes.txt"), DocumentText)
    assert doc.text.startswith("Aim: measure g")
    table = only(read_file(data_dir / "periods.txt", "periods.txt"), Dataset)
    assert [(c.name, c.unit) for c in table.columns] == [("L", "m"), ("T", "s")]


def test_gbk_notes_are_a_readable_document(data_dir: Path) -> None:
    text = "实验目的：测量单摆的周期，验证周期与摆长的关系。\n"
    (data_dir / "说明.txt").write_bytes(text.encode("gbk"))
    doc = only(read_file(data_dir / "说明.txt", "说明.txt"), DocumentText)
    assert doc.text == text


@pytest.mark.parametrize("name", ["README.md", "refs.bib", "draft.tex"])
def test_documents(data_dir: Path, name: str) -> None:
    (data_dir / name).write_text("Some text @article{x, title={Y}}\n", encoding="utf-8")
    doc = only(read_file(data_dir / name, name), DocumentText)
    assert "Some text" in doc.text


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"", "is empty"),
        (b"   \n\n", "is empty"),
        (b"a,b,c\n", "no rows of numbers"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(300), "binary"),
        (bytes(range(256)) * 20, "binary"),
        (b"name,comment\nA,good\nB,bad\n", "no rows of numbers"),
    ],
)
def test_unreadable_csv_is_skipped_with_one_sentence(
    data_dir: Path, content: bytes, fragment: str
) -> None:
    path = data_dir / "x.csv"
    path.write_bytes(content)
    skipped = only(read_file(path, "x.csv"), Skipped)
    assert skipped.source == "x.csv"
    assert fragment in skipped.reason
    assert skipped.reason.startswith("x.csv ") and skipped.reason.endswith(".")
    assert skipped.reason.count(". ") == 0  # one sentence


def test_huge_csv_is_capped_and_says_so(data_dir: Path) -> None:
    from labwright.ingest.base import ReaderContext
    from labwright.ingest.read_text import read_delimited

    path = data_dir / "big.csv"
    path.write_text("i,v\n" + "".join(f"{i},{i * 0.5}\n" for i in range(5000)), encoding="utf-8")
    d = only(read_delimited(path, ReaderContext("big.csv", "big", max_rows=1000)), Dataset)
    assert d.n_rows == 1000
    assert d.notes and "1,000" in d.notes[0]


def test_text_beyond_the_byte_cap_is_cut_at_a_line_end(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labwright.ingest import base

    monkeypatch.setattr(base, "MAX_TEXT_BYTES", 1000)
    path = data_dir / "long.csv"
    path.write_text("i,v\n" + "".join(f"{i},{i * 0.25}\n" for i in range(2000)), encoding="utf-8")
    d = only(read_file(path, "long.csv"), Dataset)
    assert 50 < d.n_rows < 200
    np.testing.assert_allclose(
        d.column("v").values, np.arange(d.n_rows) * 0.25
    )  # no half row at the end
    assert any("0.001 MB" in n for n in d.notes)
