"""Independent review of issue 11, class 1: specials the owners' corpus does
not have, compiled with the real XeLaTeX and xdvipdfmx.

Each payload tries to bring the bytes of a file outside the build folder
into the PDF (or a link action into it). It is compiled WITHOUT the source
sanitizer, so only the xdv gate stands in the way; a second run WITH the
sanitizer must not leak either. The assertion is the effect: the marker is
in no file the build leaves behind, and the gate refused the conversion.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labwright.latex.compile import CompileResult, compile_source
from labwright.latex.engine import TexEngine
from labwright.latex.specials import SpecialRefused, check_special, refused_specials
from tests.latex.conftest import minimal_doc, pdf_bytes, write_outside_files

MARKER = b"REVIEW-OUTSIDE-9c41"
_TAIL = "\\special{pdf:put @catalog << /Leak @x >>}"


@pytest.fixture
def outside(tmp_path: Path) -> dict[str, Path]:
    return write_outside_files(tmp_path / "outside", MARKER)


def _payloads(o: dict[str, Path]) -> dict[str, str]:
    txt, pdf = o["txt"].as_posix(), o["pdf"].as_posix()
    fs = f"{{pdf:fstream @x ({txt})}}{_TAIL}"
    # The path of the outside PDF relative to the build folder (builds/<id>/).
    rel = "../../outside/secret.pdf"
    octal = "".join(f"\\{ord(c):03o}" for c in rel)
    return {
        # \special spelled so that no source regex sees it
        "lowercase-csname": f"\\lowercase{{\\csname SPECIAL\\endcsname}}{fs}",
        "caret-notation": f"\\^^73pecial{fs}",
        "catcode-escape": f"{{\\catcode`\\|=0 |special{fs}}}",
        "scantokens": f"\\scantokens{{\\csname spe\\empty cial\\endcsname{fs}}}",
        "def-pieces": f"\\def\\a{{spe}}\\def\\b{{cial}}\\csname\\a\\b\\endcsname{fs}",
        "expandafter-string": (
            "\\expandafter\\expandafter\\csname\\detokenize{spe}\\detokenize{cial}"
            f"\\endcsname{fs}"
        ),
        "let-alias": "\\expandafter\\let\\expandafter\\q\\csname spe\\string c"
        f"ial\\endcsname\\q{fs}",
        # pdf: variants
        "PDF-upper": f"\\special{{PDF:fstream @x ({txt})}}{_TAIL}",
        "pdf-space-colon": f"\\special{{pdf :fstream @x ({txt})}}{_TAIL}",
        "pdf-tab-lead": f"\\special{{^^Ipdf:fstream @x ({txt})}}{_TAIL}",
        "pdf-mapfile": f"\\special{{pdf:mapfile {txt}}}",
        "dvipdfmx-config-map": f"\\special{{dvipdfmx:config f {txt}}}",
        "x-fontmapfile": f"\\special{{x:fontmapfile {txt}}}",
        "ps-file": f'\\special{{PSfile="{pdf}"}}',
        "ps-colon": f"\\special{{ps: ({txt}) run}}",
        # image specials: escapes, hex, nul, ~ and $VAR that kpathsea expands
        "image-octal-dotdot": f"\\special{{pdf:image ({octal})}}",
        "image-hex-dotdot": f"\\special{{pdf:image <{rel.encode().hex()}>}}",
        "image-dotslash-dotdot": f"\\special{{pdf:image (./{rel})}}",
        "image-nul-cut": f"\\special{{pdf:image (x.pdf\\000{rel})}}",
        "image-nested-parens": f"\\special{{pdf:image (({pdf})) }}",
        "image-line-continuation": f"\\special{{pdf:image (/\\^^J{pdf[1:]})}}",
        "image-after-keys": f"\\special{{pdf:image width 10pt height 10pt ({pdf})}}",
        "image-at-ident": f"\\special{{pdf:image @img ({pdf})}}",
        "image-color-prefix": f"\\special{{color push gray 0 pdf:image ({pdf})}}",
        # comments and nesting around an allowed form
        "bann-comment-hides": "{\\catcode`\\%=12 \\catcode`\\^^J=12 "
        f"\\special{{pdf:bann << /Subtype /Link %(x)^^J/A << /S /GoTo /D (a) >> >>}}"
        f"\\special{{pdf:fstream @x ({txt})}}}}{_TAIL}",
        "literal-extra-op": f"\\special{{pdf:literal 0 0 1 1 re W n /Im1 Do}}{fs}",
        # link actions a reader would act on
        "bann-launch": "\\special{pdf:bann << /Subtype /Link /A << /S /Launch "
        f"/F ({txt}) >> >>}}x\\special{{pdf:eann}}",
        "bann-uri-file": "\\special{pdf:bann << /Subtype /Link /A << /S /URI "
        f"/URI (FILE://{txt}) >> >>}}x\\special{{pdf:eann}}",
        "out-javascript": "\\special{pdf:out 1 << /Title (t) /A << /S /JavaScript "
        "/JS (app.alert\\(1\\)) >> >>}",
        "docview-launch": f"\\special{{pdf:docview << /OpenAction << /S /Launch /F ({txt}) >> >>}}",
        "dest-catalog": "\\special{pdf:dest (a) [@catalog /XYZ @xpos @ypos null]}",
    }


def _marker_in_build(result: CompileResult) -> list[str]:
    found = []
    for path in result.build_dir.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if path.suffix == ".pdf" and data:
                try:
                    data += pdf_bytes(path)
                except Exception:  # a truncated PDF: its raw bytes were checked
                    pass
            if MARKER in data:
                found.append(path.name)
    return found


_NAMES = sorted(_payloads({"txt": Path("/t"), "pdf": Path("/p"), "dir": Path("/")}))
# Payloads whose special is never written (TeX stops at the undefined or
# refused spelling): the effect check still holds, the gate has nothing to see.
_MAY_NOT_REACH_THE_GATE = {"let-alias", "expandafter-string", "lowercase-csname"}


@pytest.mark.parametrize("name", _NAMES)
def test_review_special_is_refused_by_the_gate(
    name: str, tmp_path: Path, tex_engine: TexEngine, outside: dict[str, Path]
) -> None:
    body = "Before. " + _payloads(outside)[name] + " After."
    result = compile_source(
        minimal_doc(body),
        build_root=tmp_path / "builds",
        apply_sanitizer=False,
        engine=tex_engine,
        max_passes=1,
        wall_budget_s=120,
    )
    assert _marker_in_build(result) == []
    if name in _MAY_NOT_REACH_THE_GATE and not result.diagnostics.blocked_reads:
        return
    assert result.diagnostics.blocked_reads, f"{name} passed the gate"
    assert result.pdf is None and result.driver is None


@pytest.mark.parametrize("name", ["caret-notation", "catcode-escape", "scantokens", "def-pieces"])
def test_review_special_with_the_sanitizer_leaks_nothing(
    name: str, tmp_path: Path, tex_engine: TexEngine, outside: dict[str, Path]
) -> None:
    body = "Before. " + _payloads(outside)[name] + " After."
    result = compile_source(
        minimal_doc(body), build_root=tmp_path / "b", engine=tex_engine, max_passes=1
    )
    assert _marker_in_build(result) == []


def test_review_bbl_with_a_csname_built_special_leaks_nothing(
    tmp_path: Path, tex_engine: TexEngine, outside: dict[str, Path]
) -> None:
    txt = outside["txt"].as_posix()
    bib = (
        '@preamble{"\\def\\a{spe}\\def\\b{cial}\\csname\\a\\b\\endcsname'
        "{pdf:fstream @x (" + txt + ")}" + _TAIL + '"}\n'
        "@misc{k, title={T \\lowercase{\\csname SPECIAL\\endcsname}{pdf:image (" + txt + ")}}}\n"
    )
    body = "See \\cite{k}.\\bibliographystyle{unsrt}\\bibliography{refs}"
    result = compile_source(
        minimal_doc(body),
        files={"refs.bib": bib.encode()},
        build_root=tmp_path / "b",
        engine=tex_engine,
    )
    assert _marker_in_build(result) == []


# --- the gate's file rule, directly against a build folder ---------------------


def _xdv_with(tmp_path: Path, tex_engine: TexEngine, special: str) -> tuple[Path, Path]:
    res = compile_source(
        minimal_doc(f"x\\special{{{special}}}"),
        build_root=tmp_path / "xb",
        apply_sanitizer=False,
        engine=tex_engine,
        max_passes=1,
    )
    return res.build_dir / "main.xdv", res.build_dir


def test_review_symlinked_picture_in_the_build_folder_is_refused(
    tmp_path: Path, tex_engine: TexEngine, outside: dict[str, Path]
) -> None:
    xdv, build = _xdv_with(tmp_path, tex_engine, "pdf:image (figs/ln.pdf)")
    (build / "figs").mkdir()
    os.symlink(outside["pdf"], build / "figs" / "ln.pdf")
    assert refused_specials(xdv, build)
    os.symlink(outside["dir"], build / "dirlink")
    xdv2, build2 = _xdv_with(tmp_path / "2", tex_engine, "pdf:image (dirlink/secret.pdf)")
    os.symlink(outside["dir"], build2 / "dirlink")
    assert refused_specials(xdv2, build2)


@pytest.mark.parametrize(
    "name",
    ["~/fig.pdf", "$HOME/fig.pdf", "${HOME}/fig.pdf", "fig.pdf\x00x", "fig.pdf "],
)
def test_review_picture_names_kpathsea_would_rewrite_are_refused(name: str, tmp_path: Path) -> None:
    """xdvipdfmx finds pictures through kpathsea, which expands `~` and
    `$VAR` in the name; the gate checks the literal name. A folder named
    like that inside the build must not turn an outside file into an
    inside one; a NUL byte (the driver's C string ends there) must be a
    refusal, not a crash."""
    from labwright.latex.specials import _inside

    root = tmp_path / "build"
    (root / "~").mkdir(parents=True)
    (root / "$HOME").mkdir()
    (root / "${HOME}").mkdir()
    for d in ("~", "$HOME", "${HOME}"):
        (root / d / "fig.pdf").write_bytes(b"%PDF-1.4\n")
    (root / "fig.pdf ").write_bytes(b"%PDF-1.4\n")
    assert not _inside(name, root)


@pytest.mark.parametrize(
    "data",
    [
        b"pdf:image (fig.pdf) << /Decode [0 1] /F (x) >>",
        b"pdf:image (fig.pdf) % c\n",
        b"pdf:image <66 69 67 2e 70 64 66 %>",
        b"pdf:bann << /Subtype /Link /A << /S /URI /URI (\\146ile:///etc/passwd) >> >>",
        b"pdf:bann << /Subtype /Lin#6b /A << /S /GoTo /D (a) >> >>",
        b"pdf:dest (a) [@thispage /XYZ @xpos @ypos null] pdf:fstream @x (/etc/passwd)",
        b"pdf:docinfo << /Title (t) /Title (u) >>",
        b"pdf:docview << /OpenAction [@page1 /Fit] /AA << >> >>",
        b"pdf:out [-] 1 << /Title (t) /A << /S /GoToR /F (/etc/passwd) /D (a) >> >>",
        b"pdf:bann << /Subtype /Link /A << /S /URI /URI (//host/share) >> >>",
        b"color push rgb 1 0 0 pdf:fstream @x (/etc/passwd)",
        b"pdf:pagesize width 1pt height 1pt pdf:fstream @x (/etc/passwd)",
        b"pdf:image: (fig.pdf)",
        b"pdf:imagex (fig.pdf)",
        b"pdf:eann\x00pdf:fstream @x (/etc/passwd)",
    ],
)
def test_review_crafted_special_bytes_are_refused(data: bytes) -> None:
    with pytest.raises(SpecialRefused):
        check_special(data)


def test_review_dollar_home_picture_would_embed_home_and_is_refused(
    tmp_path: Path, tex_engine: TexEngine, outside: dict[str, Path]
) -> None:
    """The one bypass this review found: a folder literally named `$HOME`
    in the build made `pdf:image ($HOME/secret.pdf)` look inside to the gate,
    while the driver (kpathsea) expands `$HOME` and embeds the outside file.
    Control: the driver run directly, with HOME at the outside folder, embeds
    the marker; the gate now refuses the name."""
    import shutil
    import subprocess

    from labwright.latex.compile import paranoid_env

    xdv, build = _xdv_with(tmp_path, tex_engine, "pdf:image ($HOME/secret.pdf)")
    (build / "$HOME").mkdir()
    (build / "$HOME" / "secret.pdf").write_bytes(b"")
    shutil.copyfile(outside["pdf"], build / "$HOME" / "secret.pdf")
    (build / "$HOME" / "secret.pdf").write_bytes(
        (build / "$HOME" / "secret.pdf").read_bytes().replace(MARKER, b"INSIDE-OK-00000000a")
    )
    assert tex_engine.xdvipdfmx is not None
    env = paranoid_env(tex_engine) | {"HOME": str(outside["dir"])}
    subprocess.run(
        [str(tex_engine.xdvipdfmx), "-q", "-o", "ungated.pdf", "main.xdv"],
        cwd=build, env=env, capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    ungated = build / "ungated.pdf"
    assert ungated.exists() and MARKER in pdf_bytes(ungated)  # the payload is live
    ungated.unlink()
    assert refused_specials(xdv, build) == ["$HOME/secret.pdf"]


_PS_AS_PDF = (
    "\\newwrite\\f\\immediate\\openout\\f=ps.pdf"
    "\\immediate\\write\\f{\\csname @percentchar\\endcsname!PS-Adobe-3.0 EPSF-3.0}"
    "\\immediate\\write\\f{\\csname @percentchar\\endcsname\\csname @percentchar\\endcsname"
    " BoundingBox: 0 0 10 10}"
    "\\immediate\\write\\f{newpath 0 0 moveto 10 10 lineto stroke showpage}"
    "\\immediate\\closeout\\f"
)


def test_review_postscript_named_pdf_never_reaches_the_driver(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    """xdvipdfmx picks a picture's format from its bytes and sends PostScript
    to an external converter (Ghostscript, through a shell). TeX can write a
    PostScript file named `ps.pdf` inside the build; the gate must refuse it.
    Control: the driver run directly on the same .xdv tries the converter."""
    import subprocess

    from labwright.latex.compile import paranoid_env

    doc = minimal_doc("x\\special{pdf:image (ps.pdf)}", "\\makeatletter" + _PS_AS_PDF)
    result = compile_source(
        doc, build_root=tmp_path / "b", apply_sanitizer=False, engine=tex_engine, max_passes=1
    )
    build = result.build_dir
    assert (build / "ps.pdf").read_bytes().startswith(b"%!PS")
    assert result.diagnostics.blocked_reads == ["ps.pdf"]
    assert result.driver is None and result.pdf is None
    assert tex_engine.xdvipdfmx is not None
    ungated = subprocess.run(
        [str(tex_engine.xdvipdfmx), "-vv", "-o", "ungated.pdf", "main.xdv"],
        cwd=build, env=paranoid_env(tex_engine), capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert "via command" in ungated.stdout + ungated.stderr  # the payload is live


def test_review_a_real_figure_still_passes_the_magic_check(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(1, 1))
    fig.savefig(tmp_path / "f.pdf")
    fig.savefig(tmp_path / "f.png")
    fig.savefig(tmp_path / "f.jpg")
    plt.close(fig)
    body = "".join(f"\\includegraphics[width=1cm]{{figures/f.{s}}}" for s in ("pdf", "png", "jpg"))
    result = compile_source(
        minimal_doc(body, "\\usepackage{graphicx}"),
        files={f"figures/f.{s}": tmp_path / f"f.{s}" for s in ("pdf", "png", "jpg")},
        build_root=tmp_path / "b",
        engine=tex_engine,
    )
    assert result.diagnostics.blocked_reads == []
    assert result.pdf is not None


def test_review_missing_font_does_not_run_metafont_on_tex_written_source(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    """A missing TFM makes kpathsea run `mktextfm`, which would run METAFONT
    on a `.mf` that TeX itself wrote into the build folder and write fonts
    into a cache outside it. The TeX sandbox must keep that from running:
    no font is generated anywhere."""
    mf = (
        'mode_setup; font_size 10pt\\string#; beginchar("A", 5pt\\string#, 5pt\\string#, 0);'
        " fill unitsquare scaled 5pt; endchar; end."
    )
    pre = (
        "\\newwrite\\f\\immediate\\openout\\f=lwrevzz.mf"
        f"\\immediate\\write\\f{{{mf}}}\\immediate\\closeout\\f"
    )
    doc = minimal_doc("x\\font\\q=lwrevzz \\q A", pre)
    result = compile_source(
        doc, build_root=tmp_path / "b", apply_sanitizer=False, engine=tex_engine, max_passes=1
    )
    assert (result.build_dir / "lwrevzz.mf").is_file()  # the payload was written
    made = [p for p in result.build_dir.rglob("lwrevzz*") if p.suffix != ".mf"]
    assert made == []
    for cache in (Path("/tmp/texfonts"), Path.home() / ".texlive"):
        assert not any(cache.rglob("lwrevzz*")) if cache.is_dir() else True


def test_review_xdv_whose_pointers_disagree_with_its_pages_is_refused(tmp_path: Path) -> None:
    """xdvipdfmx finds the postamble from the file's end and the pages by
    back-pointers; the gate reads front to back. A file whose pointers name
    other bytes than the pages read (a second, hidden page; a second
    postamble at the end) must be refused, not judged by the visible part."""
    from tests.latex.test_specials import _xdv

    good = _xdv(b"color pop")
    xdv = tmp_path / "main.xdv"
    xdv.write_bytes(good)
    assert refused_specials(xdv, tmp_path) == []
    hidden_page = (
        b"\x8b" + b"\x00" * 40 + (15).to_bytes(4, "big")
        + b"\xf2" + (28).to_bytes(4, "big") + b"pdf:fstream @x (/etc/passwd)" + b"\x8c"
    )  # fmt: skip
    post = good.index(b"\xf8")
    variants = {
        "bad back-pointer": good[:56] + b"\x00\x00\x00\x00" + good[60:],
        "postamble points elsewhere": good[: post + 1]
        + b"\x00\x00\x00\x0f"[::-1]
        + good[post + 5 :],
        "trailing second postamble": good[:-4] + b"\xdf" * 4 + hidden_page + good[post:],
        "end points elsewhere": good[:-9] + (0).to_bytes(4, "big") + good[-5:],
    }
    for name, data in variants.items():
        xdv.write_bytes(data)
        assert refused_specials(xdv, tmp_path), name
