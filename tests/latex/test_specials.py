"""The driver gate's allow-list, special by special, and its .xdv reader.

The accepted corpus is what real compiles of our templates and examples
emit (dumped from their .xdv files); the refused corpus is the attack run's
tricks and their neighbours: comments hiding a path, nested and escaped
strings, hex strings, `html:`/`PDF:` in any case and spacing, outside
pictures, actions that launch or reach files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from labwright.latex.specials import SpecialRefused, check_special, refused_specials
from labwright.latex.xdv import XdvError, parse_xdv

ACCEPTED = [
    b"color push gray 0",
    b"color pop",
    b"color push rgb 0.6902 0.12549 0.12549",
    b"color push cmyk 0.1 0.2 0.3 0.4",
    b"background gray 1",
    b"dvipdfmx:config C 0x0010",
    b"pdf:dest (Doc-Start) [@thispage /XYZ @xpos @ypos null]",
    b"pdf:dest (figure.caption.2) [@thispage /XYZ @xpos @ypos null]",
    b"pdf:docinfo<</Title()/Subject()/Creator(LaTeX with hyperref)/Author()/Keywords()>>",
    b"pdf:docview<</OpenAction[@page1/Fit]/PageMode/UseOutlines>>",
    b"pdf:image bbox 0 0 431.96324 273.57672 clip 0 width 364.2082pt height 230.66519pt (figures/fig01.png) ",
    b"pdf:image matrix 1.0 0.0 0.0 1.0 0.0 0.0 page 1 pagebox cropbox (./figures/b.pdf)",
    b"pdf:image bbox 5 5 210.99991 138.99992 clip 1 width 62.03235pt (figures/fig01.png) <</Interpolate true>>",
    b"pdf:majorversion 1",
    b"pdf:minorversion 5",
    b"pdf:pagesize width 597.50787pt height 845.04684pt",
    b"pdf:pagesize default",
    b"pdf:out [-] 1<</Title(\\376\\377\\000A\\000i\\000m)/A<</S/GoTo/D(section.1)>>>>",
    b"pdf:out [-] 2<</Title(\\376\\377\\000d\\000\\050\\000R\\000\\051)/A<</S/GoTo/D(subsection.3.1)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/Border[0 0 0]/H/I/C[1 0 0]/A<</S/GoTo/D(section.1)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/Border[0 0 0]/H/I/C[0 1 1]/A<</S/URI/URI(https://example.org/x%20y)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/Border[0 0 0]/H/I/C[0 1 1]/A<</S/URI/URI(mailto:a@b.c)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/Border[0 0 0]/H/I/C[0 1 1]/A<</S/URI/URI(www.example.org/a)>>>>",
    b"pdf:eann",
    b"pdf:btrans",
    b"pdf:btrans rotate 30",
    b"pdf:etrans",
    b"x:gsave",
    b"x:grestore",
    b"x:scale -1 1",
    b"pdf:literal 0 -0 195.99898 123.99933 re W n ",
]

REFUSED = [
    # The attack run's comment trick: the driver skips `%...` to the line end.
    b"pdf:fstream @x %(ok.txt)\n(/etc/fonts/fonts.conf)",
    b"pdf:image %(figures/ok.png)\n(/etc/passwd)",
    b"pdf:image width 1pt %(figures/ok.png)\n(/etc/passwd)",
    b"pdf:dest (a) [@thispage /XYZ @xpos @ypos null] % trailing comment",
    b"pdf:fstream @x (/etc/passwd)",
    b"pdf:fstream @x (\\057etc\\057passwd)",
    b"pdf:fstream @x <2f6574632f706173737764>",
    b"pdf:stream @x (data)",
    b"pdf:obj @x << /F (/etc/passwd) >>",
    b"pdf:put @catalog << /Leak @leak >>",
    b"pdf:img (figures/a.png)",
    b"pdf:epdf (figures/a.pdf)",
    b"pdf: image (figures/a.png)",
    b" pdf:image (figures/a.png)",
    b"PDF:image (figures/a.png)",
    b"Pdf:fstream @x (/etc/passwd)",
    b"pdf:image:(figures/a.png)",
    b"pdf:mapline foo foo.pfb",
    b"pdf:mapfile /etc/passwd",
    b"x:fontmapfile /etc/passwd",
    b"x:fontmapline x x.pfb",
    b"dvipdfmx:config D gs -dSAFER",
    b"dvipdfmx:config f /etc/passwd",
    b'html:<img src="/etc/passwd">',
    b'HTML:<img src="/etc/passwd">',
    b' html:<a href="x">',
    b"html: <IMG SRC=/etc/passwd>",
    b"html:< img src=/etc/passwd>",
    b'PSfile="/etc/passwd" llx=0 lly=0 urx=1 ury=1',
    b"psfile=/etc/passwd",
    b"ps: plotfile /etc/passwd",
    b"PS: plotfile /etc/passwd",
    b"ps:SDict begin",
    b"header=/etc/passwd",
    b"postscriptbox{1pt}{1pt}{/etc/passwd}",
    b"pdf:tounicode UTF8-UCS2",
    b"pdf:code q Q",
    b"pdf:content q Q",
    b"pdf:literal (text) Tj",
    b"pdf:literal direct q",
    b"color push rgb 1 0 0 % (x)",
    b"color  push rgb 1 0 0",
    b"gray 0",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/Launch/F(/bin/sh)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/GoToR/F(/etc/passwd)/D(x)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/JavaScript/JS(app.alert(1))>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/Launc#68/F(/bin/sh)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/URI/URI(file:///etc/passwd)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/URI/URI(FILE:/etc/passwd)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/URI/URI(javascript:alert(1\\))>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/URI/URI(/etc/passwd)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/URI/URI(../secret)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/GoTo/D(x)/S/Launch>>>>",
    b"pdf:bann<</Type/Annot/Subtype/FileAttachment/FS<</F(/etc/passwd)>>>>",
    b"pdf:bann<</Type/Annot/Subtype/Link/A<</S/GoTo/D(x)>>>> pdf:fstream @x (/etc/passwd)",
    b"pdf:ann width 1pt << /Subtype /Link >>",
    b"pdf:dest (a) [@resources /XYZ @xpos @ypos null]",
    b"pdf:docview<</OpenAction<</S/Launch/F(/bin/sh)>>>>",
    b"pdf:docinfo<</Title(x)/AA<</O<</S/Launch>>>>>>",
    # Nesting: the string does not end where a naive reader thinks.
    b"pdf:out [-] 1<</Title((a)\\)(b)/A<</S/GoTo/D(x)>>>>",
    b"pdf:dest (a)) [@thispage /XYZ @xpos @ypos null]",
    b"pdf:dest (a [@thispage /XYZ @xpos @ypos null]",
    b"pdf:image (figures/a.png",
    b"pdf:image <2f6574632f706173737764",
    b"",
    b"\x00pdf:fstream @x (/etc/passwd)",
    b"pdf:image bbox 0 0 1 1 (figures/a.png) <</Decode[0 1]/F(/etc/passwd)>>",
    b"pdf:image bbox 0 0 1 1 (figures/a.png) <</Interpolate true>> (/etc/passwd)",
    b"pdf:image bbox 0 0 1 1 (figures/a.png) (/etc/passwd)",
    b"pdf:out [-] 1<</Title(x)/A<</S/GoTo/D(y)>>/C @thispage>>",
]


@pytest.mark.parametrize("special", ACCEPTED, ids=range(len(ACCEPTED)))
def test_the_forms_our_packages_emit_are_accepted(special: bytes) -> None:
    check_special(special)


@pytest.mark.parametrize("special", REFUSED, ids=range(len(REFUSED)))
def test_everything_else_is_refused(special: bytes) -> None:
    with pytest.raises(SpecialRefused):
        check_special(special)


@pytest.mark.parametrize(
    ("special", "file"),
    [
        (b"pdf:image width 1pt (figures/a.png)", "figures/a.png"),
        (b"pdf:image width 1pt (fig\\165res/a.png)", "figures/a.png"),  # octal escape
        (b"pdf:image width 1pt <666967757265732f612e706e67>", "figures/a.png"),  # hex
        (b"pdf:image width 1pt (figures/(nested)\\).png)", "figures/(nested)).png"),
        (b"pdf:image width 1pt (figures/a\\\n.png)", "figures/a.png"),  # line continuation
    ],
)
def test_picture_names_are_decoded_as_the_driver_decodes_them(special: bytes, file: str) -> None:
    assert check_special(special).file == file


def _xdv(*specials: bytes, fonts: tuple[bytes, ...] = ()) -> bytes:
    """A minimal, well-formed .xdv (id 7): one page holding `specials`."""
    out = bytearray(b"\xf7\x07" + b"\x00" * 12 + b"\x00")
    bop = len(out)  # the pointers the driver follows must be right (xdv.py checks them)
    out += b"\x8b" + b"\x00" * 40 + b"\xff" * 4
    for s in specials:
        out += b"\xf2" + len(s).to_bytes(4, "big") + s  # xxx4
    out += b"\x8c"
    post = len(out)
    out += b"\xf8" + bop.to_bytes(4, "big") + b"\x00" * 24
    for n, font in enumerate(fonts):
        out += b"\xfc" + n.to_bytes(4, "big") + b"\x00\x0a\x00\x00" + b"\x00\x00"
        out += bytes([len(font)]) + font + b"\x00\x00\x00\x00"
    out += b"\xf9" + post.to_bytes(4, "big") + b"\x07" + b"\xdf" * 4
    return bytes(out)


def _gate(tmp_path: Path, data: bytes) -> list[str]:
    xdv = tmp_path / "main.xdv"
    xdv.write_bytes(data)
    return refused_specials(xdv, tmp_path)


def test_pictures_must_be_present_inside_the_build_dir(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "a.png").write_bytes(b"\x89PNG")
    ok = b"pdf:image width 1pt (figures/a.png)"
    assert _gate(tmp_path, _xdv(ok)) == []
    for name in ("/etc/passwd", "../outside.png", "figures/missing.png", "example-image.png"):
        special = b"pdf:image width 1pt (" + name.encode() + b")"
        assert _gate(tmp_path, _xdv(ok, special)) == [name]


def test_symlinks_out_of_the_build_dir_are_refused(tmp_path: Path) -> None:
    build = tmp_path / "build"
    build.mkdir()
    (tmp_path / "secret.png").write_bytes(b"\x89PNG")
    (build / "link").symlink_to(tmp_path)
    assert _gate(build, _xdv(b"pdf:image width 1pt (link/secret.png)")) == ["link/secret.png"]


def test_refused_specials_are_named_shortly(tmp_path: Path) -> None:
    long = b"pdf:fstream @x (" + b"a" * 500 + b")"
    (bad,) = _gate(tmp_path, _xdv(long))
    assert bad.startswith("pdf:fstream @x (") and len(bad) < 80


def test_font_records_must_name_font_files(tmp_path: Path) -> None:
    fonts = (b"/usr/share/fonts/x/lmroman10-regular.otf", b"/etc/passwd")
    assert _gate(tmp_path, _xdv(fonts=fonts)) == ["font file /etc/passwd"]


def test_specials_are_read_by_opcode_not_by_scanning_bytes() -> None:
    """A special's bytes are taken with their exact length: a `pdf:` inside
    another special or outside any special is not a special."""
    inner = b"color push rgb 1 0 0\xef\x05pdf:x"
    contents = parse_xdv(_xdv(inner, b"color pop"))
    assert [s.data for s in contents.specials] == [inner, b"color pop"]
    assert contents.pages == 1


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not a dvi",
        _xdv(b"color pop")[:-10],  # truncated
        _xdv(b"color pop").replace(b"\x8c\xf8", b"\x8c\xff\xf8"),  # unknown opcode
        b"\xf7\x07" + b"\x00" * 13 + b"\xef\x03abc",  # special outside a page
    ],
)
def test_an_xdv_the_reader_does_not_understand_is_refused(data: bytes, tmp_path: Path) -> None:
    with pytest.raises(XdvError):
        parse_xdv(data)
    assert _gate(tmp_path, data)


# --- differential: the gate decodes strings as the real xdvipdfmx does -------------


def _driver_xdv(specials: list[bytes]) -> bytes:
    """An .xdv the real driver accepts (proper units, postamble, padding)."""
    import struct

    num, den, mag = 25400000, 473628672, 1000
    out = bytearray(bytes([247, 7]) + struct.pack(">iii", num, den, mag) + b"\x00")
    bop = len(out)
    out += b"\x8b" + struct.pack(">10i", 1, *([0] * 9)) + struct.pack(">i", -1)
    for s in specials:
        out += b"\xf2" + struct.pack(">I", len(s)) + s
    out += b"\x8c"
    post = len(out)
    out += b"\xf8" + struct.pack(">iiiiiiHH", bop, num, den, mag, 0, 0, 1, 1)
    out += b"\xf9" + struct.pack(">i", post) + b"\x07" + b"\xdf" * 4
    out += b"\xdf" * (-len(out) % 4)
    return bytes(out)


STRINGS = [
    b"(a(b)c)",
    b"(x\\)y)",
    b"(o\\101ct)",
    b"(o\\1012)",
    b"(line\\\ncont)",
    b"(line\\\r\ncont)",
    b"(cr\rlf)",
    b"(crlf\r\nx)",
    b"(nest((d)))",
    b"(esc\\q\\n\\t\\\\)",
    b"(pct%not-a-comment)",
    b"(hi\\377\\376)",
    b"<616263>",
    b"<61 62\n63>",
    b"<6162 6>",
]


def test_strings_decode_exactly_as_the_driver_decodes_them(
    tmp_path: Path, tex_engine: object
) -> None:
    """Named destinations carry a string into the PDF verbatim: convert an
    .xdv with the real xdvipdfmx and compare each name with the gate's."""
    import subprocess

    from pypdf import PdfReader

    from labwright.latex.specials import _Parser

    xdvipdfmx = tex_engine.xdvipdfmx  # type: ignore[attr-defined]
    specials = [b"dvipdfmx:config C 0x0010"] + [
        b"pdf:dest " + s + b" [@thispage /XYZ @xpos @ypos null]" for s in STRINGS
    ]
    for special in specials:
        check_special(special)  # every one of them is an accepted form
    (tmp_path / "t.xdv").write_bytes(_driver_xdv(specials))
    subprocess.run(
        [str(xdvipdfmx), "-q", "-o", "t.pdf", "t.xdv"], cwd=tmp_path, check=True, timeout=60
    )

    def leaves(node: Any) -> list[Any]:
        node = node.get_object()
        if "/Names" in node:
            return list(node["/Names"][::2])
        return [name for kid in node["/Kids"] for name in leaves(kid)]

    names = leaves(PdfReader(tmp_path / "t.pdf").trailer["/Root"]["/Names"]["/Dests"])
    driver = sorted(getattr(n, "original_bytes", bytes(n, "latin-1")) for n in names)
    ours = sorted({_Parser(s).obj() for s in STRINGS})  # type: ignore[type-var]
    # (two pairs of STRINGS decode alike: the driver keeps one name of each)
    assert len(ours) == len(STRINGS) - 2 and driver == ours
