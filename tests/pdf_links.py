"""Reading a PDF the way the window does: link annotations and the words under them.

`number_links` is what pdf.js's `getAnnotations()` gives the window (the
destination name and the rectangle of each link); `words` is poppler's word
boxes (`pdftotext -bbox`), to check what text a link covers.
"""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from labwright.verify.tags import DEST_PREFIX

_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)


@dataclass(frozen=True)
class Link:
    page: int  # 0-based
    dest: str
    rect: tuple[float, float, float, float]  # PDF user space: x0, y0, x1, y1
    border: tuple[float, ...]

    @property
    def id(self) -> str:
        return self.dest.removeprefix(DEST_PREFIX)


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    box: tuple[float, float, float, float]  # PDF user space


def number_links(pdf: Path) -> list[Link]:
    from pypdf import PdfReader

    out: list[Link] = []
    for i, page in enumerate(PdfReader(pdf).pages):
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            action = annot.get("/A") or {}
            dest = action.get("/D", annot.get("/Dest"))
            if not (isinstance(dest, str) and dest.startswith(DEST_PREFIX)):
                continue
            rect = tuple(float(v) for v in annot["/Rect"])
            border = tuple(float(v) for v in annot.get("/Border", [0, 0, 1]))
            out.append(Link(i, dest, rect, border))  # type: ignore[arg-type]
    return out


def destinations(pdf: Path) -> dict[str, int]:
    """Named destination -> 0-based page."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    out: dict[str, int] = {}
    for name, dest in reader.named_destinations.items():
        page = reader.get_destination_page_number(dest)
        if page is not None:
            out[name] = page
    return out


def words(pdf: Path) -> list[Word]:
    from pypdf import PdfReader

    heights = [float(p.mediabox.height) for p in PdfReader(pdf).pages]
    xhtml = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    out: list[Word] = []
    for page, chunk in enumerate(xhtml.split("<page ")[1:]):
        h = heights[page]
        for m in _WORD.finditer(chunk):
            x0, top, x1, bottom = (float(v) for v in m.groups()[:4])
            out.append(Word(page, html.unescape(m.group(5)), (x0, h - bottom, x1, h - top)))
    return out


def covered_text(link: Link, all_words: list[Word]) -> str:
    """The words the link's rectangle covers: overlapping it on the line, by
    at least half of the narrower of the two (a link on the "1" of "Q1"
    covers that word; a neighbour it only touches is not covered)."""
    x0, y0, x1, y1 = link.rect
    inside = []
    for w in all_words:
        if w.page != link.page:
            continue
        across = min(x1, w.box[2]) - max(x0, w.box[0])
        down = min(y1, w.box[3]) - max(y0, w.box[1])
        narrow = min(x1 - x0, w.box[2] - w.box[0])
        if down > 0 and across >= 0.5 * narrow:
            inside.append(w.text)
    return " ".join(inside)


def digits(text: str) -> str:
    """The digits of a number, in TeX source or as the PDF's text."""
    return re.sub(r"\D", "", text)
