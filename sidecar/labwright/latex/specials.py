"""The driver gate: only the `\\special`s our own packages emit reach xdvipdfmx.

kpathsea's paranoid mode guards TeX's own file access, not the PDF driver's:
xdvipdfmx opens whatever a special names (`pdf:fstream @x (/etc/passwd)`
embeds the file; so do `pdf:image` of an outside picture, `PSfile=`, map
files, `dvipdfmx:config` options...). An earlier gate looked for the bad
forms; it read the first `(`-string after the keyword, while the driver skips
PDF comments, so `pdf:fstream @x %(ok.txt)` + newline + `(/etc/fonts/...)`
passed. This gate is an allow-list instead:

* every special in the .xdv (read opcode by opcode, latex/xdv.py) must be one
  of the forms a normal compile of our templates and examples emits, in both
  languages (derived by dumping those compiles; see ALLOWED below): xcolor's
  `color push/pop`, graphicx's `pdf:image`, `pdf:btrans/etrans`, `x:scale`,
  `x:gsave/grestore` and clip `pdf:literal`, geometry's `pdf:pagesize`,
  hyperref's destinations, link annotations, document info and view,
  bookmark's outlines, and hyperref's one `dvipdfmx:config C 0x0010`;
* arguments are parsed the way the driver parses them (PDF literal strings
  with nesting and escapes, hex strings, names, numbers, `@names`, arrays,
  dictionaries), with two deliberate refusals where the driver would be
  lenient: no PDF comment outside a string and no `#` escape in a name (our
  packages emit neither, and both are how a payload hides from a reader that
  is not byte-for-byte the driver);
* a picture's file must be a relative name that resolves (symlinks
  followed) to a regular file inside the build folder: xdvipdfmx looks
  files up through kpathsea, which would find a missing relative name in
  the TeX tree, so "inside and present" is the rule;
* link actions are GoTo or URI (http, https, mailto, ftp, doi, or no
  scheme and not a path) only.

Anything else, in any case or spacing (`PDF:`, ` html:`, `pdf :`), refuses
the whole conversion with one sentence. The sanitizer (latex/sanitize.py)
removes `\\special` from model text early, with a friendlier message; this
gate is the real guard, because TeX can spell a special in ways no source
regex sees.

(xdvipdfmx also has a "tainted" string mode that reads two bytes after any
byte >= 0x80; it is only switched on by `pdf:tounicode`, which is refused.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from labwright.latex.xdv import XdvError, read_xdv

_WS = b" \t\r\n\f\x00"
_DELIM = b"()<>[]{}/%"
_MAX_DEPTH = 16
_IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".pdf"})
# xdvipdfmx picks a picture's format from its first bytes, not its name, and
# hands PostScript (`%!`) to an external converter (Ghostscript through a
# shell): a `.pdf` that TeX wrote with \openout as PostScript made the driver
# run a program (review of issue 11). A picture must start as a PNG, JPEG or
# PDF does, whatever its suffix says (a PNG saved as .jpg is common and the
# driver reads it fine); the prefixes exclude PostScript `%!`, BMP and JPEG 2000.
_MAGIC = (b"\x89PNG", b"\xff\xd8", b"%PDF-")
_FONT_SUFFIXES = frozenset({".otf", ".ttf", ".ttc", ".otc", ".pfb", ".dfont"})
_URI_SCHEMES = frozenset({b"http", b"https", b"mailto", b"ftp", b"doi"})


class SpecialRefused(ValueError):
    """One special is not on the allow-list (the message names it)."""


@dataclass(frozen=True)
class Name:
    value: bytes


@dataclass(frozen=True)
class Ref:
    """A dvipdfmx `@name` (an object the driver knows: @thispage, @xpos...)."""

    value: bytes


class _Null:
    pass


NULL = _Null()
PdfObj = bytes | Name | Ref | float | bool | _Null | list["PdfObj"] | dict[bytes, "PdfObj"]

_ESCAPES = {ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}


# --- a PDF object reader with the driver's rules --------------------------------


class _Parser:
    """Reads PDF objects from a special's argument, as dvipdfmx's pdfparse.c does."""

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos

    def at_end(self) -> bool:
        self.skip_white()
        return self.pos >= len(self.data)

    def skip_white(self) -> None:
        d = self.data
        while self.pos < len(d):
            c = d[self.pos]
            if c == 0x25:  # '%': the driver skips a comment to the end of the line
                raise SpecialRefused("a PDF comment")
            if c not in _WS:
                return
            self.pos += 1

    def peek(self) -> int | None:
        self.skip_white()
        return self.data[self.pos] if self.pos < len(self.data) else None

    def expect(self, token: bytes) -> None:
        self.skip_white()
        if not self.data.startswith(token, self.pos):
            raise SpecialRefused(f"expected {token.decode()}")
        self.pos += len(token)

    def _token(self) -> bytes:
        start = self.pos
        d = self.data
        while self.pos < len(d) and d[self.pos] not in _WS and d[self.pos] not in _DELIM:
            self.pos += 1
        return d[start : self.pos]

    def obj(self, depth: int = 0) -> PdfObj:
        if depth > _MAX_DEPTH:
            raise SpecialRefused("objects nested too deeply")
        c = self.peek()
        if c is None:
            raise SpecialRefused("a missing value")
        d = self.data
        if c == ord("("):
            return self.literal()
        if c == ord("<"):
            if d[self.pos + 1 : self.pos + 2] == b"<":
                return self.dict_(depth)
            return self.hexstring()
        if c == ord("["):
            self.pos += 1
            items: list[PdfObj] = []
            while self.peek() != ord("]"):
                if self.peek() is None:
                    raise SpecialRefused("an unclosed array")
                items.append(self.obj(depth + 1))
            self.pos += 1
            return items
        if c == ord("/"):
            return self.name()
        if c == ord("@"):
            self.pos += 1
            word = self._token()
            if not re.fullmatch(rb"[A-Za-z0-9_.:+-]+", word):
                raise SpecialRefused("a malformed @name")
            return Ref(word)
        word = self._token()
        if word == b"true":
            return True
        if word == b"false":
            return False
        if word == b"null":
            return NULL
        if re.fullmatch(rb"[+-]?(?:\d+\.?\d*|\.\d+)", word):
            return float(word)
        raise SpecialRefused(f"an unexpected word {word[:20]!r}")

    def name(self) -> Name:
        self.expect(b"/")
        word = self._token()
        if not word or b"#" in word:
            raise SpecialRefused("a malformed or escaped PDF name")
        return Name(word)

    def dict_(self, depth: int) -> dict[bytes, PdfObj]:
        self.expect(b"<<")
        out: dict[bytes, PdfObj] = {}
        while True:
            c = self.peek()
            if c is None:
                raise SpecialRefused("an unclosed dictionary")
            if self.data.startswith(b">>", self.pos):
                self.pos += 2
                return out
            key = self.name().value
            if key in out:
                raise SpecialRefused("a repeated dictionary key")
            out[key] = self.obj(depth + 1)

    def literal(self) -> bytes:
        """A PDF literal string: balanced parentheses nest, backslash escapes
        (\\n \\r \\t \\b \\f, \\ddd octal, \\<newline> continues the line,
        any other \\c is c), a bare CR or CRLF reads as LF."""
        d = self.data
        self.expect(b"(")
        out = bytearray()
        depth = 0
        i = self.pos
        while i < len(d):
            c = d[i]
            if c == 0x29 and depth == 0:  # ')'
                self.pos = i + 1
                return bytes(out)
            if c == 0x5C:  # backslash
                i += 1
                if i >= len(d):
                    break
                e = d[i]
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                    i += 1
                elif e == 0x0A:
                    i += 1
                elif e == 0x0D:
                    i += 2 if d[i + 1 : i + 2] == b"\n" else 1
                elif 0x30 <= e <= 0x37:
                    value = 0
                    n = 0
                    while n < 3 and i < len(d) and 0x30 <= d[i] <= 0x37:
                        value = value * 8 + d[i] - 0x30
                        i += 1
                        n += 1
                    out.append(value & 0xFF)
                else:
                    out.append(e)
                    i += 1
                continue
            if c == 0x0D:
                out.append(0x0A)
                i += 2 if d[i + 1 : i + 2] == b"\n" else 1
                continue
            if c == 0x28:
                depth += 1
            elif c == 0x29:
                depth -= 1
            out.append(c)
            i += 1
        raise SpecialRefused("an unclosed string")

    def hexstring(self) -> bytes:
        """`<hex digits>`, white space ignored, an odd last digit padded with 0."""
        d = self.data
        self.expect(b"<")
        end = d.find(b">", self.pos)
        if end < 0:
            raise SpecialRefused("an unclosed hex string")
        body = d[self.pos : end]
        if b"%" in body:
            raise SpecialRefused("a PDF comment")
        digits = bytes(b for b in body if b not in _WS)
        if not re.fullmatch(rb"[0-9A-Fa-f]*", digits):
            raise SpecialRefused("a malformed hex string")
        self.pos = end + 1
        if len(digits) % 2:
            digits += b"0"
        return bytes.fromhex(digits.decode("ascii"))


# --- the allowed forms -------------------------------------------------------------

_NUM = rb"[+-]?(?:\d+\.?\d*|\.\d+)"
_DIM = _NUM + rb"(?:pt|bp|in|cm|mm|pc|dd|cc|sp)"
_COLOR = re.compile(
    rb"(?:color push |color |background )"
    rb"(?:gray " + _NUM + rb"|rgb (?:" + _NUM + rb" ){2}" + _NUM + rb"|cmyk (?:" + _NUM + rb" ){3}"
    + _NUM + rb")"
)  # fmt: skip
_FIXED = re.compile(
    rb"color pop|pdf:eann|pdf:etrans|pdf:btrans|x:gsave|x:grestore|"
    rb"pdf:btrans rotate " + _NUM + rb"|x:scale " + _NUM + rb" " + _NUM + rb"|"
    rb"pdf:(?:major|minor)version \d{1,2}|dvipdfmx:config C 0x0010|"
    rb"pdf:pagesize (?:default|width " + _DIM + rb" height " + _DIM + rb")|"
    # graphicx's clip box: a rectangle, then clip (re W n) -- numbers only.
    rb"pdf:literal (?:" + _NUM + rb" ){4}re W n ?"
)  # fmt: skip
_IMAGE_KEYS = re.compile(
    rb"pdf:image((?: (?:bbox(?: " + _NUM + rb"){4}|matrix(?: " + _NUM + rb"){6}|"
    rb"clip [01]|(?:width|height|depth) " + _DIM + rb"|(?:scale|xscale|yscale|rotate) " + _NUM
    + rb"|page \d{1,6}|pagebox (?:cropbox|mediabox|artbox|trimbox|bleedbox)))*) (?=[(<])"
)  # fmt: skip
_DEST_ARRAY = (Ref(b"thispage"), Name(b"XYZ"), Ref(b"xpos"), Ref(b"ypos"), NULL)
_DOCINFO_KEYS = frozenset(
    {b"Title", b"Subject", b"Creator", b"Author", b"Keywords", b"Producer", b"CreationDate",
     b"ModDate"}
)  # fmt: skip
_ANNOT_KEYS = frozenset({b"Type", b"Subtype", b"Border", b"H", b"C", b"A", b"BS", b"F"})
_OUTLINE_KEYS = frozenset({b"Title", b"A", b"Count", b"C", b"F"})
_REFS = re.compile(rb"thispage|xpos|ypos|prevpage|nextpage|page\d{1,6}")


@dataclass(frozen=True)
class Verdict:
    """An accepted special; `file` is the picture it reads (relative), if any."""

    file: str | None = None


def _numbers(value: PdfObj, count: int | None = None) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(v, float) for v in value)
        and (count is None or len(value) == count)
    )


def _check_refs(value: PdfObj) -> None:
    if isinstance(value, Ref) and not _REFS.fullmatch(value.value):
        raise SpecialRefused(f"an object reference @{value.value.decode(errors='replace')}")
    if isinstance(value, list):
        for v in value:
            _check_refs(v)


def _action(value: PdfObj) -> None:
    """A link's action: go to a named destination, or open a web/mail URI."""
    if not isinstance(value, dict):
        raise SpecialRefused("a link action that is not a dictionary")
    kind = value.get(b"S")
    if kind == Name(b"GoTo") and set(value) <= {b"S", b"D", b"Type"}:
        if isinstance(value.get(b"D"), bytes):
            return
    if kind == Name(b"URI") and set(value) <= {b"S", b"URI", b"Type"}:
        uri = value.get(b"URI")
        if isinstance(uri, bytes) and _web_address(uri):
            return
    raise SpecialRefused("a link action other than a jump or a web/mail address")


def _web_address(uri: bytes) -> bool:
    """http(s)/mailto/ftp/doi, or no scheme at all (`\\url{www.example.org}`)
    as long as it does not look like a path; never file:, javascript:, run:."""
    scheme = re.match(rb"([A-Za-z][A-Za-z0-9+.-]*):", uri)
    if scheme:
        return scheme.group(1).lower() in _URI_SCHEMES
    return not uri.startswith((b"/", b".", b"\\", b"~")) and b"\x00" not in uri


def _check_annot(d: dict[bytes, PdfObj]) -> None:
    if not set(d) <= _ANNOT_KEYS:
        raise SpecialRefused("an annotation key outside the allow-list")
    if d.get(b"Type", Name(b"Annot")) != Name(b"Annot") or d.get(b"Subtype") != Name(b"Link"):
        raise SpecialRefused("an annotation that is not a link")
    for key in (b"Border", b"C"):
        if key in d and not _numbers(d[key]):
            raise SpecialRefused("a malformed annotation border or colour")
    if b"H" in d and not isinstance(d[b"H"], Name):
        raise SpecialRefused("a malformed annotation highlight")
    if b"BS" in d and not (
        isinstance(d[b"BS"], dict) and all(isinstance(v, (Name, float)) for v in d[b"BS"].values())
    ):
        raise SpecialRefused("a malformed annotation border style")
    if b"F" in d and not isinstance(d[b"F"], float):
        raise SpecialRefused("malformed annotation flags")
    _action(d.get(b"A"))  # type: ignore[arg-type]


def _pdf_command(data: bytes) -> tuple[bytes, _Parser]:
    # The driver reads the command as a C identifier; a ':' after it selects
    # pdfTeX-compatibility handlers, none of which is allowed.
    m = re.match(rb"pdf:([A-Za-z_][A-Za-z0-9_]*)", data)
    if m is None or data[m.end() : m.end() + 1] == b":":
        raise SpecialRefused("not a form our packages emit")
    return m.group(1), _Parser(data, m.end())


def _dest(p: _Parser) -> Verdict:
    if not isinstance(p.obj(), bytes):
        raise SpecialRefused("a destination without a name")
    arr = p.obj()
    if not isinstance(arr, list) or tuple(arr) != _DEST_ARRAY:
        raise SpecialRefused("a destination of an unexpected shape")
    return Verdict()


def _bann(p: _Parser) -> Verdict:
    d = p.obj()
    if not isinstance(d, dict):
        raise SpecialRefused("an annotation without a dictionary")
    _check_annot(d)
    return Verdict()


def _docinfo(p: _Parser) -> Verdict:
    d = p.obj()
    if not isinstance(d, dict) or not set(d) <= _DOCINFO_KEYS:
        raise SpecialRefused("document information outside the allow-list")
    if not all(isinstance(v, bytes) for v in d.values()):
        raise SpecialRefused("document information that is not text")
    return Verdict()


def _docview(p: _Parser) -> Verdict:
    d = p.obj()
    if not isinstance(d, dict) or not set(d) <= {b"OpenAction", b"PageMode", b"PageLayout"}:
        raise SpecialRefused("a document view setting outside the allow-list")
    open_action = d.get(b"OpenAction", [Ref(b"page1"), Name(b"Fit")])
    if not (
        isinstance(open_action, list)
        and open_action
        and isinstance(open_action[0], Ref)
        and all(isinstance(v, (Name, float, _Null)) for v in open_action[1:])
    ):
        raise SpecialRefused("an opening action other than showing a page")
    _check_refs(open_action)
    if not all(isinstance(d[k], Name) for k in d if k != b"OpenAction"):
        raise SpecialRefused("a malformed document view setting")
    return Verdict()


def _outline(p: _Parser) -> Verdict:
    p.skip_white()
    m = re.compile(rb"\[-?\]").match(p.data, p.pos)
    if m:
        p.pos = m.end()
    if not isinstance(p.obj(), float):
        raise SpecialRefused("an outline entry without a level")
    d = p.obj()
    if not isinstance(d, dict) or not set(d) <= _OUTLINE_KEYS:
        raise SpecialRefused("an outline entry outside the allow-list")
    if not isinstance(d.get(b"Title"), bytes):
        raise SpecialRefused("an outline entry without a title")
    if not all(isinstance(d[k], float) for k in (b"Count", b"F") if k in d) or (
        b"C" in d and not _numbers(d[b"C"], 3)
    ):
        raise SpecialRefused("a malformed outline entry")
    _action(d.get(b"A"))  # type: ignore[arg-type]
    return Verdict()


def _image(data: bytes) -> Verdict:
    m = _IMAGE_KEYS.match(data)
    if m is None:
        raise SpecialRefused("picture options outside the allow-list")
    p = _Parser(data, m.end())
    name = p.obj()
    if not isinstance(name, bytes):
        raise SpecialRefused("a picture without a file name")
    if not p.at_end():
        opts = p.obj()
        if not isinstance(opts, dict) or not set(opts) <= {b"Decode", b"Interpolate"}:
            raise SpecialRefused("picture attributes outside the allow-list")
        if b"Decode" in opts and not _numbers(opts[b"Decode"]):
            raise SpecialRefused("a malformed picture decode array")
        if b"Interpolate" in opts and not isinstance(opts[b"Interpolate"], bool):
            raise SpecialRefused("a malformed picture interpolation flag")
        if not p.at_end():
            raise SpecialRefused("unexpected text after the picture")
    try:
        return Verdict(file=name.decode("utf-8"))
    except UnicodeDecodeError:
        raise SpecialRefused("a picture file name that is not UTF-8") from None


_PDF_HANDLERS: dict[bytes, Callable[[_Parser], Verdict]] = {
    b"dest": _dest,
    b"bann": _bann,
    b"docinfo": _docinfo,
    b"docview": _docview,
    b"out": _outline,
}


def check_special(data: bytes) -> Verdict:
    """Accept one special or raise SpecialRefused. Forms are matched exactly:
    no leading blanks, lower-case prefixes, single spaces where our packages
    put single spaces; a variant is refused, never normalised."""
    if _FIXED.fullmatch(data) or _COLOR.fullmatch(data):
        return Verdict()
    if data.startswith(b"pdf:image "):
        return _image(data)
    command, parser = _pdf_command(data)
    handler = _PDF_HANDLERS.get(command)
    if handler is None:
        raise SpecialRefused("not a form our packages emit")
    verdict = handler(parser)
    if not parser.at_end():
        raise SpecialRefused("unexpected text after the arguments")
    return verdict


def _inside(name: str, root: Path) -> bool:
    """A relative name that resolves to a regular file inside `root`."""
    rel = Path(name)
    if not name or rel.is_absolute() or ".." in rel.parts or "\\" in name or ":" in name:
        return False
    # kpathsea, through which the driver finds pictures, expands `$VAR`,
    # `${VAR}` and a leading `~` in the name before looking it up, while this
    # check reads it literally: with a folder named `$HOME` in the build,
    # `pdf:image ($HOME/x.pdf)` passed here and embedded ~/x.pdf (review of
    # issue 11). A NUL ends the driver's C string and makes resolve() raise.
    if "$" in name or "\x00" in name or any(p.startswith("~") for p in rel.parts):
        return False
    target = (root / rel).resolve()
    suffix = target.suffix.lower()
    if not (target.is_relative_to(root) and target.is_file() and suffix in _IMAGE_SUFFIXES):
        return False
    try:
        with target.open("rb") as handle:
            head = handle.read(8)
    except OSError:
        return False
    return head.startswith(_MAGIC)


def _shown(data: bytes) -> str:
    text = data[:60].decode("latin-1")
    text = re.sub(r"\s+", " ", text).strip()
    return text + ("..." if len(data) > 60 else "")


def refused_specials(xdv: Path, build_dir: Path) -> list[str]:
    """What in this .xdv the PDF driver must not act on (a short description
    per item, at most 20). Empty means the driver may run."""
    root = build_dir.resolve()
    try:
        contents = read_xdv(xdv)
    except (XdvError, OSError) as exc:
        return [f"an unreadable .xdv file ({exc})"]
    bad: list[str] = []
    for special in contents.specials:
        try:
            verdict = check_special(special.data)
        except SpecialRefused:
            bad.append(_shown(special.data))
            continue
        if verdict.file is not None and not _inside(verdict.file, root):
            bad.append(verdict.file)
    for font in contents.fonts:
        # XeTeX records the font file the driver will embed. Only font files
        # pass (a non-font cannot become one); OS confinement limits where.
        if Path(font).suffix.lower() not in _FONT_SUFFIXES:
            bad.append(f"font file {font}")
    return list(dict.fromkeys(bad))[:20]
