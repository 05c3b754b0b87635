"""Compile while the figures are drawn.

An offline build's two longest steps are drawing the figures (in the trusted
worker, one core) and the XeLaTeX pass (another core), and neither needs the
other's result -- except that XeTeX reads each figure's page size when it
places it. The worker draws every figure on a page whose size is fixed
before drawing (`plot_worker.drawn_size`; the whole page is saved, never a
tight bounding box). So the build writes a blank PDF page of that size in
each figure's place, typesets the report while the worker draws, and lets
the PDF driver, which embeds the figures, run only once the drawn figures
are in and each one's page is exactly the one TeX placed.

When a figure could not be drawn (the report then says so in its text) or a
drawn page differs from its blank stand-in, the early compile is abandoned
and the report is compiled again from the start, as it would have been
without it: the shortcut can cost time, never correctness.
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from labwright.latex.compile import CompileResult, compile_tex

_POINTS_PER_INCH = 72.0
_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*([-+\d.]+)\s+([-+\d.]+)\s+([-+\d.]+)\s+([-+\d.]+)\s*\]")
_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
#: Boxes that would make XeTeX place something other than the media box.
_OTHER_BOXES = (b"/CropBox", b"/TrimBox", b"/BleedBox", b"/ArtBox")
#: The page dictionary sits near the start of matplotlib's output, but the
#: whole file is searched: a figure is at most a few MB and read once.
_TOLERANCE_PT = 1e-3


class Abandoned(Exception):
    """The early compile's result is not used (a figure failed or differs)."""


@dataclass(frozen=True)
class PendingFigure:
    """A figure being drawn: where it goes and the page size TeX was given."""

    path: Path
    width_in: float
    height_in: float

    @property
    def page_pt(self) -> tuple[float, float]:
        return self.width_in * _POINTS_PER_INCH, self.height_in * _POINTS_PER_INCH


def blank_page_pdf(width_pt: float, height_pt: float) -> bytes:
    """A valid one-page PDF with nothing on a page of the given size."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /Resources << >> /MediaBox [0 0 %s %s] >>"
        % (_number(width_pt), _number(height_pt)),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _number(value: float) -> bytes:
    return f"{value:.4f}".rstrip("0").rstrip(".").encode("ascii")


def page_size_pt(data: bytes) -> tuple[float, float] | None:
    """Width and height of the only page of an uncompressed-page-tree PDF, or
    None when that cannot be told for certain (more than one page, a box
    other than the media box, a page tree in a compressed object stream)."""
    if len(_PAGE.findall(data)) != 1 or any(box in data for box in _OTHER_BOXES):
        return None
    boxes = _MEDIA_BOX.findall(data)
    if len(boxes) != 1:
        return None
    try:
        x0, y0, x1, y1 = (float(v) for v in boxes[0])
    except ValueError:
        return None
    width, height = x1 - x0, y1 - y0
    if not (math.isfinite(width) and math.isfinite(height)):
        return None
    return width, height


def write_stand_ins(pending: Sequence[PendingFigure]) -> None:
    """A blank page of the right size where each pending figure will go."""
    for figure in pending:
        figure.path.parent.mkdir(parents=True, exist_ok=True)
        figure.path.write_bytes(blank_page_pdf(*figure.page_pt))


class EarlyCompile:
    """One compile of `main_tex` started before its figures are drawn.

    `start` writes the blank stand-ins and runs `compile_tex` in a thread; the
    compile stops before the PDF driver until the caller calls `confirm`
    (every figure drawn where it was expected) or `abandon`. `result` is the
    compile's result, or None when it was abandoned or a drawn page did not
    match its stand-in.
    """

    def __init__(self, main_tex: Path, pending: Sequence[PendingFigure]) -> None:
        self.main_tex = main_tex
        self.pending = tuple(pending)
        self._decided = threading.Event()
        self._use = False
        self._result: CompileResult | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="early-compile", daemon=True)

    @classmethod
    def start(cls, main_tex: Path, pending: Sequence[PendingFigure]) -> EarlyCompile:
        """Compile `main_tex` now; its pending figures' stand-ins must exist
        (`write_stand_ins`, before the report is written: the sanitizer boxes
        out a figure whose file is missing)."""
        early = cls(main_tex, pending)
        early._thread.start()
        return early

    def _run(self) -> None:
        try:
            self._result = compile_tex(self.main_tex, before_driver=self._settle)
        except Abandoned:
            self._result = None
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by result()
            self._error = exc

    def _settle(self) -> list[str]:
        """Called by compile_tex between the last pass and the driver."""
        self._decided.wait()
        if not self._use:
            raise Abandoned
        root = self.main_tex.parent
        replaced = []
        for figure in self.pending:
            try:
                drawn = page_size_pt(figure.path.read_bytes())
            except OSError:
                drawn = None
            want = figure.page_pt
            if drawn is None or any(
                abs(a - b) > _TOLERANCE_PT for a, b in zip(drawn, want, strict=True)
            ):
                raise Abandoned
            replaced.append(os.path.relpath(figure.path, root))
        return replaced

    def confirm(self) -> None:
        """Every pending figure was drawn at its path: finish the compile."""
        self._use = True
        self._decided.set()

    def abandon(self) -> None:
        """Stop before the driver; the compile's files are left as they are."""
        self._decided.set()

    def result(self) -> CompileResult | None:
        """Wait for the compile; None when it was abandoned."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result
