"""Reader for PDF text (first pages), through pypdf.

Only the first pages are read: the writer quotes an aim or a method from a lab
handout, and text extraction from long or hostile PDFs is slow.
"""

from __future__ import annotations

import logging
from pathlib import Path

from .base import MAX_DOCUMENT_CHARS, Item, ReaderContext, ReadError
from .types import DocumentText

MAX_PDF_PAGES = 5


def read_pdf(path: Path, ctx: ReaderContext) -> list[Item]:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # warnings on sloppy PDFs are noise here
    with open(path, "rb") as handle:
        if not handle.read(1024).lstrip().startswith(b"%PDF"):
            raise ReadError("read.not_pdf")
    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ReadError("read.pdf_password")
        total = len(reader.pages)
        parts = []
        for page in reader.pages[:MAX_PDF_PAGES]:
            parts.append(page.extract_text() or "")
    except ReadError:
        raise
    except DependencyError as exc:
        # AES needs the `cryptography` package, which the desktop bundles do
        # not carry (build_scripts/labwright-sidecar.spec says why); RC4 and
        # unencrypted PDFs need nothing more.
        raise ReadError("read.pdf_aes") from exc
    except (
        PyPdfError,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        OSError,
        RecursionError,
    ) as exc:
        raise ReadError("read.pdf_damaged") from exc
    text = "\n\n".join(p.strip() for p in parts if p.strip())
    if not text:
        raise ReadError("read.pdf_no_text")
    truncated = total > MAX_PDF_PAGES or len(text) > MAX_DOCUMENT_CHARS
    return [
        DocumentText(
            source=ctx.rel,
            text=text[:MAX_DOCUMENT_CHARS],
            pages_read=min(total, MAX_PDF_PAGES),
            truncated=truncated,
        )
    ]
