import codecs
import os

import pytest

from labwright.ingest.encoding import decode_text

TABLE_ZH = "时间 (s),温度 (°C)\n0,20.1\n1,20.5\n2,21.0\n"
SHORT_ZH = "电压/mV\t电流/mA\n1\t2\n"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TABLE_ZH.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TABLE_ZH.encode("utf-8"), "utf-8-sig"),
        (TABLE_ZH.encode("utf-16"), "utf-16"),  # with BOM, as Excel's "Unicode text" writes
        (TABLE_ZH.encode("gbk"), "gb18030"),
        (SHORT_ZH.encode("gbk"), "gb18030"),  # charset-normalizer alone says cp949 here
        ("温度计读数 𠀀 (°C)\n1\n".encode("gb18030"), "gb18030"),
        ("t (s)\tU (V)\n0\t1\n1\t2\n".encode("utf-16-le"), "utf-16-le"),  # no BOM
        ("t (s)\tU (V)\n0\t1\n1\t2\n".encode("utf-16-be"), "utf-16-be"),
    ],
)
def test_decodes_common_lab_encodings(data: bytes, encoding: str) -> None:
    decoded = decode_text(data)
    assert decoded is not None
    assert decoded.encoding == encoding
    assert "\ufeff" not in decoded.text
    assert decoded.text.replace("\r\n", "\n") == data.decode(encoding).lstrip("\ufeff")


def test_latin1_text_is_not_taken_for_gbk() -> None:
    text = "Température (°C);Spannung (µV)\n20,5;1,25\n21,0;1,30\n"
    decoded = decode_text(text.encode("cp1252"))
    assert decoded is not None
    assert "Température" in decoded.text
    assert "°C" in decoded.text


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 8,
        os.urandom(4096),
        b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(200),
        b"abc\x00\x00\x00def\x00" * 100,
    ],
)
def test_binary_is_not_text(data: bytes) -> None:
    assert decode_text(data) is None


def test_empty_is_empty_text() -> None:
    decoded = decode_text(b"")
    assert decoded is not None and decoded.text == ""
