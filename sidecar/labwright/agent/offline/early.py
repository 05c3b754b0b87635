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
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from labwright.latex.compile import CompileResult, compile_tex, snapshot_inputs

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


class TexStream:
    """`main.tex` as a named pipe, so XeLaTeX starts before the report exists.

    Most of a pass is the class line (every package, every font: ~0.4 s of a
    0.55 s pass), and that line is the same for every report of a language
    (`template.fixed_head`). The pipe gets it at once; XeLaTeX loads the
    class, then waits for the next line, which comes when the report has been
    written (`send`). Afterwards the pipe is replaced by the same text as a
    regular file (a further pass, the export and the user read that).

    Two details of XeTeX shape this: it reads the first bytes to sniff the
    encoding and rewinds, which a pipe cannot do, unless they are a UTF-8
    byte-order mark (then it keeps reading); and its "%&" first-line parsing
    would open the file twice (compile passes -no-parse-first-line).
    """

    BOM = b"\xef\xbb\xbf"

    def __init__(self, path: Path, head: str) -> None:
        self.path = path
        self.head = head
        self._body: bytes | None = None
        self._full = ""
        self._fed = threading.Event()
        self._thread = threading.Thread(target=self._write, name="tex-stream", daemon=True)

    @staticmethod
    def available() -> bool:
        """Named pipes, and a TeX launcher that dies with the backend (Linux
        with confinement, sandbox/tex_launch.py): a TeX program waiting on a
        pipe whose writer was killed must not be left behind."""
        if not hasattr(os, "mkfifo") or not sys.platform.startswith("linux"):
            return False
        from labwright.sandbox.confine import confinement_available

        return confinement_available()[0]

    def start(self) -> None:
        self.path.unlink(missing_ok=True)
        os.mkfifo(self.path, 0o600)
        self._thread.start()

    def send(self, tex: str) -> bool:
        """Give XeLaTeX the rest of `tex`; False (nothing sent) when `tex`
        does not begin with the head it has already read."""
        if not tex.startswith(self.head):
            return False
        self._body = tex[len(self.head) :].encode("utf-8")
        self._full = tex
        self._fed.set()
        return True

    def close(self) -> None:
        """End the stream (without a body unless one was sent: XeLaTeX then
        stops at the end of its input) and wait until the pipe is gone from
        the folder. Call it once no reader will come, or to make one stop."""
        self._fed.set()
        while self._thread.is_alive():
            self._unblock()
            self._thread.join(timeout=0.05)

    def _unblock(self) -> None:
        # The writer may still wait in open() for a reader (XeLaTeX never
        # started): opening the read end lets it through, then it sees EPIPE.
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return
        os.close(fd)

    def _write(self) -> None:
        try:
            with open(self.path, "wb", buffering=0) as pipe:  # waits for XeLaTeX
                pipe.write(self.BOM + self.head.encode("utf-8"))
                self._fed.wait()
                if self._body is not None:
                    pipe.write(self._body)
        except OSError:
            pass  # XeLaTeX left early (it failed): the compile says why
        finally:
            if self._body is not None:
                # Same path, same text, now a file: later passes, the export
                # and the user read this (also when TeX stopped reading);
                # XeLaTeX keeps reading its open pipe.
                part = self.path.with_name(f".{self.path.name}.part")
                part.write_text(self._full, encoding="utf-8")
                os.replace(part, self.path)
            else:
                self.path.unlink(missing_ok=True)


class EarlyCompile:
    """One compile of `main_tex` started before its figures are drawn, and
    possibly before the report is written.

    `start` runs `compile_tex` in a thread: on `main_tex` as written, or, with
    `head`, on a `TexStream` that the report is `send` into later. The compile
    stops before the PDF driver until the caller calls `confirm` (every figure
    given to `expect` was drawn where it was expected) or `abandon`. `result`
    is the compile's result, or None when it was abandoned, a drawn page did
    not match its stand-in, or the early pass ran out of time.
    """

    def __init__(self, main_tex: Path, stream: TexStream | None) -> None:
        self.main_tex = main_tex
        self.stream = stream
        self.pending: tuple[PendingFigure, ...] = ()
        # Taken before the compile starts and before anything is written
        # beside it: hashed later, in the thread, a file being written would
        # look overwritten by the document (CI saw the class file so).
        self._inputs = snapshot_inputs(main_tex.parent.resolve(), main_tex.stem)
        self._written: list[Path] = []
        self._decided = threading.Event()
        self._use = False
        self._result: CompileResult | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="early-compile", daemon=True)

    @classmethod
    def start(cls, main_tex: Path, *, head: str | None = None) -> EarlyCompile:
        """Compile `main_tex` now. Without `head` the file must be written,
        with the stand-ins of its pending figures (`write_stand_ins`, before
        the report is written: the sanitizer boxes out a missing figure)."""
        stream = TexStream(main_tex, head) if head is not None else None
        if stream is not None:
            stream.start()
        early = cls(main_tex, stream)
        early._thread.start()
        return early

    def send(self, tex: str) -> bool:
        """The report, for a compile started on its head; False when it does
        not begin with that head (then abandon this compile)."""
        return self.stream is not None and self.stream.send(tex)

    def expect(self, pending: Sequence[PendingFigure]) -> None:
        """The figures being drawn in place of their stand-ins."""
        self.pending = tuple(pending)

    def wrote(self, paths: Sequence[Path]) -> None:
        """Files the build wrote beside the running compile (provenance,
        copied images): their new contents are the inputs, not the snapshot's."""
        self._written.extend(paths)

    def _run(self) -> None:
        try:
            self._result = compile_tex(
                self.main_tex, before_driver=self._settle, inputs=self._inputs
            )
        except Abandoned:
            self._result = None
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by result()
            self._error = exc

    def _settle(self) -> list[str]:
        """Called by compile_tex between the last pass and the driver."""
        self._decided.wait()
        if self.stream is not None:
            # XeLaTeX has exited: the stream ends (main.tex is a file again,
            # or gone if the report was never sent), even if TeX never read it.
            self.stream.close()
        if not self._use:
            raise Abandoned
        root = self.main_tex.parent
        replaced = [self.main_tex.name] if self.stream is not None else []
        replaced += [os.path.relpath(path, root) for path in self._written]
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
        """Stop before the driver; a stream not yet fed ends (XeLaTeX stops)."""
        self._decided.set()
        if self.stream is not None:
            self.stream.close()

    def result(self) -> CompileResult | None:
        """Wait for the compile; None when it was abandoned, its passes were
        cut short (a stream that waited past the pass timeout), or a streamed
        compile failed."""
        self._thread.join()
        if self.stream is not None:
            self.stream.close()
        if self._error is not None:
            raise self._error
        result = self._result
        if result is not None and self.stream is not None and not result.ok:
            # Whatever went wrong is said again by a compile of the file (a
            # second compile only on failure): a stream must never be the
            # reason a report does not compile.
            return None
        if result is not None and result.stopped_by in ("timeout", "budget"):
            return None
        return result
