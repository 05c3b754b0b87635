"""Turn the bytes of a text file into a string, or decide it is not text.

Order of evidence, strongest first: a byte-order mark; strict UTF-8 (fast, and
almost never wrong when it succeeds); GBK/GB18030; then charset-normalizer.

GBK gets its own test before charset-normalizer because short Chinese files
(a CSV header and numbers) are where detectors guess wrong: charset-normalizer
3.x reports cp949 (Korean) for a two-line GBK table such as
``电压/mV\t电流/mA``. Many of our users write Chinese headers on Windows, whose
default code page for them is GBK. The GBK test is narrow so that Latin-1 text
is not mistaken for it: every non-ASCII character must decode strictly and at
least 90% must fall in GB2312 (the common simplified set), whose two bytes are
both >= 0xA1; accented Latin words (``Température``) put an ASCII byte after a
high byte and fail that test.
"""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass

import charset_normalizer

# Detection looks at a prefix only: charset-normalizer is slow on megabytes,
# and the answer does not change after the first tens of kilobytes of a table.
_SAMPLE_BYTES = 64 * 1024

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    lossy: bool = False  # some bytes after the sample did not decode and were replaced


def _looks_gbk(data: bytes) -> bool:
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return False
    wide = [ch for ch in text if ord(ch) > 0x7F]
    if not wide:
        return False
    common = 0
    for ch in wide:
        try:
            ch.encode("gb2312")
            common += 1
        except UnicodeEncodeError:
            pass
    return common / len(wide) >= 0.9


def _bomless_utf16(sample: bytes) -> str | None:
    """UTF-16 without a byte-order mark, recognised by its NUL bytes.

    Instrument software writes mostly-ASCII UTF-16 where every other byte is
    zero; charset-normalizer returns nothing for such files when they hold no
    non-ASCII character at all.
    """
    if len(sample) < 8 or b"\x00" not in sample:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) >= 0.9 * len(odd) and even.count(0) <= 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) >= 0.9 * len(even) and odd.count(0) <= 0.1 * len(odd):
        return "utf-16-be"
    return None


def _control_ratio(text: str) -> float:
    """Share of characters that no text file contains (NUL, other C0 controls)."""
    if not text:
        return 0.0
    sample = text[:20_000]
    bad = sum(
        1 for ch in sample if ch not in "\t\n\r\f\v" and unicodedata.category(ch) in ("Cc", "Cs")
    )
    return bad / len(sample)


def _trim_partial(sample: bytes, encoding: str) -> bytes:
    """Drop a multi-byte character cut in half at the end of the sample."""
    for cut in range(4):
        try:
            sample[: len(sample) - cut].decode(encoding)
            return sample[: len(sample) - cut]
        except UnicodeDecodeError:
            continue
    return sample


def decode_text(data: bytes) -> Decoded | None:
    """Decode `data`, or return None when it is not text (binary, or no encoding fits)."""
    if not data:
        return Decoded("", "utf-8")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data.decode(encoding, errors="replace")
            return Decoded(text, encoding) if _control_ratio(text) < 0.01 else None

    candidate: Decoded | None = None
    utf16 = _bomless_utf16(data[:_SAMPLE_BYTES])
    if utf16 is not None:
        text = data.decode(utf16, errors="replace")
        return Decoded(text, utf16) if _control_ratio(text) < 0.01 else None
    try:
        candidate = Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        sample = data[:_SAMPLE_BYTES]
        if len(data) > _SAMPLE_BYTES:
            sample = _trim_partial(sample, "gb18030")
        if b"\x00" not in sample and _looks_gbk(sample):
            text = data.decode("gb18030", errors="replace")
            candidate = Decoded(text, "gb18030", lossy="\ufffd" in text)
        else:
            best = charset_normalizer.from_bytes(sample).best()
            if best is not None:
                encoding = best.encoding
                if encoding in ("gb2312", "gbk", "hz"):
                    encoding = "gb18030"  # superset: decodes everything the others do
                text = data.decode(encoding, errors="replace")
                candidate = Decoded(text, encoding, lossy="\ufffd" in text)
    if candidate is None or _control_ratio(candidate.text) >= 0.01:
        return None
    return candidate
