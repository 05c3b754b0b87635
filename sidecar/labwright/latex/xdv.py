"""Read an .xdv file (XeTeX's extended DVI) the way xdvipdfmx does, opcode by opcode.

The driver gate (latex/specials.py) must judge exactly the specials and font
files the PDF driver will act on. Scanning the raw bytes for `pdf:` finds
false hits in glyph data and, worse, can be out of step with the driver; so
this walks the opcode stream (DVI opcodes plus XeTeX's 250-254), reading
every special (`xxx1`..`xxx4`) with its exact length, and every native font
definition with the file name the driver will open. Anything it does not
understand raises `XdvError`: the gate then refuses the file (fail closed).

Layouts follow the DVI standard and XeTeX's xetex.web (XDV id 6/7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# Opcodes (DVI standard; 250-254 are XeTeX's).
_SET1, _SET_RULE, _PUT1, _PUT_RULE, _NOP, _BOP, _EOP, _PUSH, _POP = (
    128, 132, 133, 137, 138, 139, 140, 141, 142,
)  # fmt: skip
_RIGHT1, _W0, _X0, _DOWN1, _Y0, _Z0 = 143, 147, 152, 157, 161, 166
_FNT_NUM_0, _FNT_NUM_63, _FNT1, _XXX1, _FNT_DEF1 = 171, 234, 235, 239, 243
_PRE, _POST, _POST_POST = 247, 248, 249
_BEGIN_REFLECT, _END_REFLECT, _NATIVE_FONT_DEF, _GLYPHS, _TEXT_AND_GLYPHS = (
    250, 251, 252, 253, 254,
)  # fmt: skip
_XDV_IDS = (2, 5, 6, 7)  # plain DVI, and the XDV versions xdvipdfmx accepts
_FLAG_COLORED, _FLAG_EXTEND, _FLAG_SLANT, _FLAG_EMBOLDEN = 0x0200, 0x1000, 0x2000, 0x4000


class XdvError(ValueError):
    """The file is not an .xdv this reader fully understands."""


@dataclass(frozen=True)
class Special:
    """One `\\special`: its raw bytes and the page it sits on (1-based)."""

    data: bytes
    page: int


@dataclass
class XdvContents:
    specials: list[Special] = field(default_factory=list)
    #: File names of the native fonts (as XeTeX recorded them; the driver opens these).
    fonts: list[str] = field(default_factory=list)
    pages: int = 0


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise XdvError("the .xdv file ends in the middle of a command")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def skip(self, n: int) -> None:
        if n < 0 or self.pos + n > len(self.data):
            raise XdvError("the .xdv file ends in the middle of a command")
        self.pos += n

    def unsigned(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise XdvError("the .xdv file ends without a postamble")
        b = self.data[self.pos]
        self.pos += 1
        return b


def _signed4(r: _Reader) -> int:
    return int.from_bytes(r.take(4), "big", signed=True)


def _font_def(r: _Reader) -> None:
    """fnt_def: c[4] s[4] d[4] a[1] l[1] n[a+l] (after the font number)."""
    r.skip(12)
    a, length = r.byte(), r.byte()
    r.skip(a + length)


def _native_font_def(r: _Reader) -> str:
    """XeTeX's define_native_font (after the font number): size[4] flags[2]
    namelen[1] name index[4], then 4 bytes per optional flag."""
    r.skip(4)
    flags = r.unsigned(2)
    name = r.take(r.byte())
    r.skip(4)
    for bit in (_FLAG_COLORED, _FLAG_EXTEND, _FLAG_SLANT, _FLAG_EMBOLDEN):
        if flags & bit:
            r.skip(4)
    return name.decode("utf-8", errors="surrogateescape")


def _glyphs(r: _Reader) -> None:
    """set_glyphs: width[4] n[2] (x[4] y[4])*n glyph[2]*n."""
    r.skip(4)
    n = r.unsigned(2)
    r.skip(10 * n)


def read_xdv(path: Path) -> XdvContents:
    return parse_xdv(path.read_bytes())


def parse_xdv(data: bytes) -> XdvContents:
    """Every special and native font of the file, in order. Raises XdvError."""
    r = _Reader(data)
    out = XdvContents()
    if r.byte() != _PRE:
        raise XdvError("the file does not start with a DVI preamble")
    if r.byte() not in _XDV_IDS:
        raise XdvError("the file is not a DVI/XDV version the PDF driver reads")
    r.skip(12)
    r.skip(r.byte())  # comment
    in_page = False
    # The driver does not read the file front to back: it finds the
    # postamble from the file's end and the pages by the back-pointers of
    # each bop. Those pointers must name exactly the pages read here, or a
    # crafted file could show this gate one set of pages and the driver
    # another (review of issue 11).
    last_bop = -1
    while True:
        op = r.byte()
        if op < _SET1 or _FNT_NUM_0 <= op <= _FNT_NUM_63 or op in (_NOP, _PUSH, _POP):
            continue
        if op in (_W0, _X0, _Y0, _Z0, _BEGIN_REFLECT, _END_REFLECT):
            continue
        if _SET1 <= op < _SET_RULE or _PUT1 <= op < _PUT_RULE:
            r.skip((op - _SET1) % 5 + 1)
        elif op in (_SET_RULE, _PUT_RULE):
            r.skip(8)
        elif op == _BOP:
            if in_page:
                raise XdvError("a page starts inside another page")
            in_page = True
            out.pages += 1
            here = r.pos - 1
            r.skip(40)
            if _signed4(r) != last_bop:
                raise XdvError("a page's back-pointer does not name the previous page")
            last_bop = here
        elif op == _EOP:
            if not in_page:
                raise XdvError("a page ends that never started")
            in_page = False
        elif _RIGHT1 <= op < _W0:
            r.skip(op - _RIGHT1 + 1)
        elif _W0 < op < _X0:
            r.skip(op - _W0)
        elif _X0 < op < _DOWN1:
            r.skip(op - _X0)
        elif _DOWN1 <= op < _Y0:
            r.skip(op - _DOWN1 + 1)
        elif _Y0 < op < _Z0:
            r.skip(op - _Y0)
        elif _Z0 < op <= _Z0 + 4:
            r.skip(op - _Z0)
        elif _FNT1 <= op < _XXX1:
            r.skip(op - _FNT1 + 1)
        elif _XXX1 <= op < _FNT_DEF1:
            size = r.unsigned(op - _XXX1 + 1)
            if not in_page:
                raise XdvError("a special sits outside every page")
            out.specials.append(Special(r.take(size), out.pages))
        elif _FNT_DEF1 <= op < _PRE:
            r.skip(op - _FNT_DEF1 + 1)
            _font_def(r)
        elif op == _NATIVE_FONT_DEF:
            r.skip(4)
            name = _native_font_def(r)
            if name not in out.fonts:
                out.fonts.append(name)
        elif op == _GLYPHS:
            _glyphs(r)
        elif op == _TEXT_AND_GLYPHS:
            r.skip(2 * r.unsigned(2))
            _glyphs(r)
        elif op == _POST:
            if in_page:
                raise XdvError("the postamble starts inside a page")
            post = r.pos - 1
            if _signed4(r) != last_bop:
                raise XdvError("the postamble does not point at the last page")
            _postamble(r, out)
            if r.unsigned(4) != post or r.byte() not in _XDV_IDS:
                raise XdvError("the file's end does not point at its postamble")
            trailer = r.data[r.pos :]
            if len(trailer) < 4 or trailer.strip(b"\xdf"):
                raise XdvError("unexpected bytes after the postamble")
            return out
        else:
            raise XdvError(f"the .xdv holds an opcode ({op}) the gate does not know")


def _postamble(r: _Reader, out: XdvContents) -> None:
    """post p[4] num[4] den[4] mag[4] l[4] u[4] s[2] t[2], font defs, post_post.
    The driver takes its fonts from here, so these names count too."""
    r.skip(24)
    while True:
        op = r.byte()
        if _FNT_DEF1 <= op < _PRE:
            r.skip(op - _FNT_DEF1 + 1)
            _font_def(r)
        elif op == _NATIVE_FONT_DEF:
            r.skip(4)
            name = _native_font_def(r)
            if name not in out.fonts:
                out.fonts.append(name)
        elif op == _NOP:
            continue
        elif op == _POST_POST:
            return
        else:
            raise XdvError(f"the postamble holds an opcode ({op}) the gate does not know")
