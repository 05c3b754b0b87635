"""Each sanitizer rule: what it rewrites, what it must leave alone, and (for
the pit catalog) that the rewrite really turns a failing compile into a clean one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labwright.latex.compile import compile_source
from labwright.latex.engine import TexEngine
from labwright.latex.sanitize import EXEC_RULES, placeholder_box, sanitize
from tests.latex.conftest import minimal_doc, pdf_text

UM = "\\usepackage{amsmath}\\usepackage{bm}\\usepackage{unicode-math}"


def rules(text: str, **kw: object) -> list[str]:
    return [c.rule for c in sanitize(text, **kw).changes]  # type: ignore[arg-type]


# --- command execution -------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("a\\immediate\\write18{touch x}b", "ab"),
        ("a\\write18{rm -rf {x}}b", "ab"),
        ("a\\write 18 {ls}b", "ab"),
        ('a\\input{|"cat /etc/passwd"} b', "a b"),
        ('a\\input|"cat /etc/passwd" b', "a b"),
        ("a\\input|ls b", "a b"),
        ("a\\openin3=|ls b", "a b"),
        ('a\\immediate\\openout\\f="|ls -l" b', "a b"),
        ("a\\ShellEscape{ls}b", "ab"),
        ("a\\DelayedShellEscape{ls}b", "ab"),
        ('a\\directlua{os.execute("ls")}b', "ab"),
        ("a\\luaexec{x}b", "ab"),
        ("a\\csname write18\\endcsname{ls}b", "a{ls}b"),
        ("a\\let\\w=\\write b", "a b"),
    ],
)
def test_exec_primitives_are_stripped(src: str, expected: str) -> None:
    result = sanitize(src)
    assert result.text == expected
    assert result.changes and all(c.rule == "exec-primitive" for c in result.changes)


def test_catcode_and_hat_codes_are_neutralised() -> None:
    result = sanitize("{\\catcode`\\|=0 |write18{ls}} ^^5cwrite18{ls}")
    assert "\\catcode" not in result.text and "^^" not in result.text
    assert "\\write18" not in result.text
    assert [c.rule for c in result.changes] == ["exec-primitive", "exec-primitive"]


@pytest.mark.parametrize(
    "src",
    [
        "a\\csname\\empty special\\endcsname{pdf:fstream @x (/etc/passwd)}b",
        "a\\csname sp\\empty ecial\\endcsname{x}b",
        "a\\csname spec\\endcsname ial{x}b",
        "a\\expandafter\\csname\\string\\special\\endcsname{x}b",
        "a\\csname\\detokenize{special}\\endcsname{x}b",
        "a\\csname SPECIAL\\endcsname{x}b",
        "a\\lowercase{\\SPECIAL{pdf:fstream @x (/etc/passwd)}}b",
        "a\\uppercase{\\wRiTe18{ls}}b",
        "a\\scantokens{\\special{x}}b",
        "a\\lccode`\\A=`\\s \\lowercase{\\Apecial}b",
    ],
)
def test_built_names_of_primitives_are_stripped(src: str) -> None:
    """The early, friendly error for TeX-level spelling tricks (the .xdv gate
    is the guard): nothing that could become a primitive is left."""
    result = sanitize(src)
    out = result.text
    assert "special" not in out.lower() and "write" not in out.lower(), out
    assert "\\csname" not in out and "\\scantokens" not in out and "\\lccode" not in out
    assert result.changes and all(c.rule in EXEC_RULES for c in result.changes)


@pytest.mark.parametrize(
    "src",
    [
        "\\csname figurename\\endcsname",
        "\\csname thesection\\endcsname",
        "\\lowercase{ABC}",
    ],
)
def test_plain_csnames_and_case_maps_are_untouched(src: str) -> None:
    assert sanitize(src).text == src


@pytest.mark.parametrize(
    "src",
    [
        "\\input{sections/method}",
        "\\input{a}| b |",  # a table row with vertical bars
        "\\write\\myfile{text}",
        "\\immediate\\write\\tocfile{x}",
        "$|x| \\le 1$ and \\verb|code|",
        "\\include{chapter1}",
    ],
)
def test_legitimate_input_and_write_are_untouched(src: str) -> None:
    assert sanitize(src).text == src
    assert sanitize(src).changes == []


# --- pit: % inside a \def line ---------------------------------------------


def test_percent_inside_def_braces_is_closed_before_the_comment() -> None:
    result = sanitize("\\def\\partnerID{% TODO fill in}")
    assert result.text == "\\def\\partnerID{}% TODO fill in}"
    assert rules("\\def\\x{value % note}") == ["def-comment"]
    assert sanitize("\\newcommand{\\x}{a % b}").text == "\\newcommand{\\x}{a }% b}"


@pytest.mark.parametrize(
    "src",
    [
        "\\def\\x{%\n  multi-line body\n}",  # the idiom: nothing closes on the line
        "\\def\\x{a}% comment with } brace",  # % after the braces closed
        "\\def\\x{50\\% done}",  # escaped percent
        "Some text {with % a comment}",  # not a \def line
    ],
)
def test_def_comment_rule_is_narrow(src: str) -> None:
    assert sanitize(src).text == src


def test_def_comment_fix_turns_a_failed_compile_into_a_clean_one(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    doc = "\\documentclass{article}\n\\def\\partnerID{% TODO fill}\n\\begin{document}\nHello\\partnerID.\n\\end{document}\n"
    raw = compile_source(doc, build_root=tmp_path, engine=tex_engine, apply_sanitizer=False)
    assert raw.status == "failed"
    fixed = compile_source(doc, build_root=tmp_path, engine=tex_engine)
    assert fixed.status == "clean" and [c.rule for c in fixed.sanitized] == ["def-comment"]


# --- pit: bold math under unicode-math -------------------------------------


def test_bold_math_becomes_symbf_only_under_unicode_math() -> None:
    src = UM + "$\\mathbf{v} + \\boldsymbol{\\nabla} + \\bm{\\alpha}$"
    assert sanitize(src).text == UM + "$\\symbf{v} + \\symbf{\\nabla} + \\symbf{\\alpha}$"
    plain = "\\usepackage{amsmath}$\\mathbf{v}$"
    assert sanitize(plain).text == plain
    assert rules("\\documentclass{labwright-report}$\\mathbf{v}$") == ["bold-math"]
    assert sanitize("$\\mathbfit{v}\\bmod 2$", unicode_math=True).text == "$\\mathbfit{v}\\bmod 2$"
    assert sanitize("\\usepackage{bm}" + UM).text == "\\usepackage{bm}" + UM  # package names stay


def test_bold_math_fix_compiles_clean(tmp_path: Path, tex_engine: TexEngine) -> None:
    doc = minimal_doc(
        "$\\boldsymbol{\\nabla}\\cdot\\boldsymbol{E} = \\bm{\\alpha}\\,\\mathbf{v}$", UM
    )
    raw = compile_source(doc, build_root=tmp_path, engine=tex_engine, apply_sanitizer=False)
    assert raw.diagnostics.error_count > 0
    fixed = compile_source(doc, build_root=tmp_path, engine=tex_engine)
    assert fixed.status == "clean", fixed.diagnostics


# --- pit: bold inside accents -------------------------------------------------


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("$\\hat{\\boldsymbol{x}}$", "$\\hat{x}$"),
        ("$\\vec{\\mathbf{F}}$", "$\\vec{F}$"),
        ("$\\tilde\\bm{k}$", "$\\tilde{k}$"),
        ("$\\boldsymbol{\\hat{x}}$", "$\\hat{x}$"),
        ("$\\bm{\\dot q}$", "$\\dot{q}$"),
        ("$\\symbf{\\bar{\\alpha}}$", "$\\bar{\\alpha}$"),
    ],
)
def test_bold_inside_accent_keeps_the_accent(src: str, expected: str) -> None:
    assert sanitize(src, unicode_math=True).text == expected
    assert rules(src, unicode_math=True) == ["bold-in-accent"]


def test_accents_without_bold_are_untouched() -> None:
    src = "$\\hat{x} + \\symbf{x} + \\hat{\\alpha}$"
    assert sanitize(src, unicode_math=True).text == src


def test_bold_accent_fix_compiles_clean(tmp_path: Path, tex_engine: TexEngine) -> None:
    doc = minimal_doc("$\\hat{\\bm{x}} + \\boldsymbol{\\hat{x}}$", UM)
    raw = compile_source(doc, build_root=tmp_path, engine=tex_engine, apply_sanitizer=False)
    assert raw.diagnostics.error_count > 0
    fixed = compile_source(doc, build_root=tmp_path, engine=tex_engine)
    assert fixed.status == "clean", fixed.diagnostics


# --- pit: missing figures ----------------------------------------------------


def test_missing_figure_becomes_a_placeholder_naming_it(tmp_path: Path) -> None:
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "period.png").write_bytes(b"png")
    (tmp_path / "spectrum.pdf").write_bytes(b"pdf")
    src = (
        "\\includegraphics[width=5cm]{figs/period.png}\n"
        "\\includegraphics{figs/period}\n"
        "\\includegraphics{spectrum}\n"
        "\\includegraphics[width=\\linewidth]{figs/fit_residuals.png}\n"
        "\\includegraphics{/etc/passwd}\n"
    )
    result = sanitize(src, graphics_root=tmp_path)
    assert result.missing_figures == ["figs/fit_residuals.png", "/etc/passwd"]
    lines = result.text.splitlines()
    assert lines[:3] == src.splitlines()[:3]
    assert "\\includegraphics" not in lines[3] and "fit\\_residuals.png" in lines[3]
    assert [c.line for c in result.changes] == [4, 5]
    assert sanitize(src).changes == []  # without a root the rule is off


def test_placeholder_is_chinese_in_chinese_documents() -> None:
    assert "缺少图片" in placeholder_box("a.png", chinese=True)
    result = sanitize(
        "\\documentclass[zh]{labwright-report}\\includegraphics{a.png}",
        graphics_root=Path("/nonexistent"),
    )
    assert "缺少图片" in result.text


def test_missing_figure_document_still_gives_a_readable_pdf(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    doc = minimal_doc(
        "Before.\\begin{figure}[h]\\centering\\includegraphics{fig_missing.png}\\caption{Decay}\\end{figure}After.",
        "\\usepackage{graphicx}",
    )
    result = compile_source(doc, build_root=tmp_path, engine=tex_engine)
    assert result.pdf is not None
    text = pdf_text(result.pdf)
    assert "Figure not provided" in text and "fig_missing.png" in text and "After." in text
    assert result.status == "degraded"  # the PDF lacks a figure, and says so
    assert result.diagnostics.missing_figures == ["fig_missing.png"]
    assert result.diagnostics.error_count == 0


def test_graphicspath_directories_count_as_present(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "decay.png").write_bytes(b"png")
    src = "\\graphicspath{{figures/}{other/}}\n\\includegraphics{decay.png}\\includegraphics{gone.png}"
    assert sanitize(src, graphics_root=tmp_path).missing_figures == ["gone.png"]


# --- properties ----------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TOKENS = [
    "\\write18", "\\write", "18", "\\immediate", "\\wri", "te18", "{", "}", " ", "\n", "x", "ls",
    "\\input", "|", '"', "\\openout", "\\openin", "3", "=", "\\special", "\\spe", "cial",
    "\\directlua", "\\dir", "ectlua", "\\ShellEscape", "\\catcode", "`", "\\|", "0", "^^", "5c",
    "\\csname", "\\endcsname", "\\let", "\\def\\x", "%", "\\mathbf", "\\hat", "\\boldsymbol",
    "\\XeTeXpicfile", "\\luaexec", "$",
]  # fmt: skip
_DANGER = re.compile(
    r"\\(?:write\s*0*18(?!\d)|directlua|ShellEscape|special|luaexec|XeTeXpicfile|catcode)(?![A-Za-z])"
    r"|\^\^|\\(?:input|openout|openin)(?![A-Za-z@])\s*\d*\s*=?\s*\{?\s*\"?\|"
)
_texts = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(_texts)
def test_no_exec_primitive_survives(text: str) -> None:
    out = sanitize(text).text
    assert not _DANGER.search(out), (text, out)


@settings(max_examples=300, deadline=None)
@given(_texts)
def test_sanitize_is_idempotent(text: str) -> None:
    once = sanitize(text, unicode_math=True).text
    again = sanitize(once, unicode_math=True)
    assert again.text == once and again.changes == []
