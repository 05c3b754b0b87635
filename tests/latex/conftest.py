"""Fixtures for the compiling tests (issue 2): a real XeLaTeX, PDF text."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from labwright.latex.engine import TexEngine, resolve_engine


@pytest.fixture(scope="session")
def tex_engine() -> TexEngine:
    engine = resolve_engine()
    if not engine.available:
        pytest.skip("no XeLaTeX on this machine (run `labwright doctor`)")
    return engine


def pdf_text(pdf: Path) -> str:
    """Text layer of a PDF: pdftotext when present (best with CJK), else pypdf."""
    exe = shutil.which("pdftotext")
    if exe:
        out = subprocess.run([exe, "-enc", "UTF-8", str(pdf), "-"], capture_output=True, check=True)
        return out.stdout.decode("utf-8", errors="replace")
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(pdf).pages)


def pdf_bytes(pdf: Path) -> bytes:
    """The file's raw bytes plus every stream decompressed: a leak hidden in a
    Flate-compressed object (e.g. from `\\special{pdf:fstream}`) shows up here."""
    from pypdf import PdfReader
    from pypdf.generic import StreamObject

    raw = pdf.read_bytes()
    reader = PdfReader(pdf)
    chunks = [raw]
    size = int(reader.trailer.get("/Size", 0))
    for num in range(1, size):
        try:
            obj = reader.get_object(num)
        except Exception:  # free or broken entries: nothing to read
            continue
        if isinstance(obj, StreamObject):
            chunks.append(obj.get_data())
    return b"\n".join(chunks)


def minimal_doc(body: str, preamble: str = "") -> str:
    """A plain article (no template), so pass counts depend only on `body`."""
    return (
        f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    )


def write_outside_files(folder: Path, marker: bytes) -> dict[str, Path]:
    """A text file and a one-page PDF outside every build folder, each holding
    `marker`, for payloads that try to pull outside bytes into a PDF."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, NameObject

    folder.mkdir()
    text = folder / "secret.txt"
    text.write_bytes(marker + b"\n")
    writer = PdfWriter()
    page = writer.add_blank_page(72, 72)
    stream = DecodedStreamObject()
    stream.set_data(b"% " + marker + b"\n0 0 1 1 re f\n")
    page[NameObject("/Contents")] = writer._add_object(stream)
    pdf = folder / "secret.pdf"
    with pdf.open("wb") as handle:
        writer.write(handle)
    return {"txt": text, "pdf": pdf, "dir": folder}
