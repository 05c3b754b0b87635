"""The templates are real .tex/.cls files; every one is rendered and compiled."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labwright.latex.compile import compile_source
from labwright.latex.engine import TexEngine
from labwright.latex.template import (
    SLOTS,
    TemplateError,
    fixed_head,
    latex_escape,
    render_template,
    template_files,
    template_path,
)
from tests.latex.conftest import pdf_text

BODY_EN = r"""
\section{Method}
The period $T$ of a pendulum of length $L$ follows $T = 2\pi\sqrt{L/g}$ (Table~\ref{tab:t}).
\begin{table}[H]\centering
\caption{Measured periods.}\label{tab:t}
\begin{tabular}{lrr}\toprule $L$ (m) & $T$ (s) & $\sigma_T$ (s)\\\midrule 0.50 & 1.419 & 0.004\\\bottomrule\end{tabular}
\end{table}
\section{Discussion}
\begin{authorbox}[Discuss the error sources]
Compare $g$ with the local value.
\end{authorbox}
"""

BODY_ZH = r"""
\section{实验方法}
单摆周期满足 $T = 2\pi\sqrt{L/g}$，测量结果见表~\ref{tab:t}。
\begin{table}[H]\centering
\caption{周期测量结果}\label{tab:t}
\begin{tabular}{lr}\toprule 摆长 (m) & 周期 (s)\\\midrule 0.50 & 1.419\\\bottomrule\end{tabular}
\end{table}
\section{讨论}
\begin{authorbox}
请分析误差来源。
\end{authorbox}
"""


def _files(lang: str) -> dict[str, Path]:
    return {p.name: p for p in template_files(lang)}  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_template_files_exist_and_every_slot_is_known(lang: str) -> None:
    assert template_path(lang).is_file()  # type: ignore[arg-type]
    assert all(p.is_file() for p in template_files(lang))  # type: ignore[arg-type]
    slots = set(re.findall(r"<<([a-z_]+)>>", template_path(lang).read_text(encoding="utf-8")))  # type: ignore[arg-type]
    assert slots == set(SLOTS)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_render_fills_every_slot(lang: str) -> None:
    tex = render_template(
        lang, {"title": "T-123", "body": "BODY-XYZ", "author": "A. Author", "abstract": "ABS"}
    )  # type: ignore[arg-type]
    assert "<<" not in tex and ">>" not in tex
    assert "\\title{T-123}" in tex and "BODY-XYZ" in tex and "\\reportabstract{ABS}" in tex
    assert f"\\documentclass[{lang}]{{labwright-report}}" in tex
    assert "\\bibliography" not in tex


def test_render_is_single_pass() -> None:
    tex = render_template("en", {"title": "<<body>>", "body": "x <<title>> y"})
    assert "\\title{<<body>>}" in tex and "x <<title>> y" in tex


def test_render_rejects_unknown_and_missing_slots() -> None:
    with pytest.raises(TemplateError, match="titel"):
        render_template("en", {"titel": "x", "body": "y"})
    with pytest.raises(TemplateError, match="body"):
        render_template("en", {"title": "x", "body": "  "})
    with pytest.raises(TemplateError):
        render_template("fr", {"title": "x", "body": "y"})  # type: ignore[arg-type]


def test_bibliography_slot_takes_bib_names() -> None:
    tex = render_template("en", {"title": "x", "body": "y", "bibliography": "refs.bib, extra"})
    assert "\\bibliographystyle{unsrt}\n\\bibliography{refs,extra}" in tex


def test_latex_escape_prints_specials_verbatim() -> None:
    assert latex_escape("50% of $x_1 & #2 {a} ~ ^ \\") == (
        r"50\% of \$x\_1 \& \#2 \{a\} \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )


@pytest.mark.parametrize(
    ("lang", "body", "expect"),
    [
        (
            "en",
            BODY_EN,
            ["Pendulum timing", "Method", "Table 1", "To be completed by the author", "Abstract"],
        ),
        ("zh", BODY_ZH, ["单摆实验", "实验方法", "表 1", "待作者完成", "摘要", "请分析误差来源"]),
    ],
)
def test_both_templates_compile_clean(
    tmp_path: Path, tex_engine: TexEngine, lang: str, body: str, expect: list[str]
) -> None:
    title = "Pendulum timing" if lang == "en" else "单摆实验"
    tex = render_template(
        lang,
        {
            "title": title,
            "author": "Lab group 3",
            "date": "2026-11-29",
            "abstract": "We timed it. 我们计时。" if lang == "zh" else "We timed it.",
            "body": body,
        },
    )  # type: ignore[arg-type]
    result = compile_source(tex, files=_files(lang), build_root=tmp_path, engine=tex_engine)
    assert result.status == "clean", (result.diagnostics, result.log_text[-2000:])
    assert result.pass_names == ["xelatex", "xelatex"]  # one \ref -> exactly one rerun
    assert result.pdf is not None
    text = pdf_text(result.pdf)
    for needle in expect:
        assert needle in text, needle
    assert not result.diagnostics.missing_characters


def test_english_template_without_references_needs_one_pass(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    tex = render_template("en", {"title": "One pass", "body": "\\section{Aim}No references here."})
    result = compile_source(tex, files=_files("en"), build_root=tmp_path, engine=tex_engine)
    assert result.pass_names == ["xelatex"] and result.status == "clean"


def test_text_in_a_script_no_font_has_is_reported(tmp_path: Path, tex_engine: TexEngine) -> None:
    """Control for the font checks: text in a script no bundled font has
    (Hangul; the English report loads the Chinese fonts for CJK ideographs
    since xeCJK became its fallback) prints blank, and diagnose says so (so
    the zh test above really checks the fonts)."""
    tex = render_template("en", {"title": "x", "body": "한국어"})
    result = compile_source(tex, files=_files("en"), build_root=tmp_path, engine=tex_engine)
    assert result.status == "degraded"
    assert "한" in result.diagnostics.missing_characters


_REQUESTED = re.compile(
    r"^\\documentclass\[[^\]]*\]\{labwright-report\}\[(\d{4}/\d{2}/\d{2})\]$", re.M
)
_PROVIDED = re.compile(r"\\ProvidesClass\{labwright-report\}\[(\d{4}/\d{2}/\d{2})")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_skeleton_asks_for_the_class_by_a_date_the_class_has(lang: str) -> None:
    """The class line ends in the class date: LaTeX then loads the class
    without looking ahead to the next line (a slot), which lets a build start
    XeLaTeX on the fixed head alone; the date is never newer than the class's
    own, or every report would carry LaTeX's "requested version" warning."""
    requested = _REQUESTED.search(template_path(lang).read_text(encoding="utf-8"))  # type: ignore[arg-type]
    cls = next(p for p in template_files(lang) if p.suffix == ".cls")  # type: ignore[arg-type]
    provided = _PROVIDED.search(cls.read_text(encoding="utf-8"))
    assert requested is not None and provided is not None
    assert requested.group(1) <= provided.group(1)  # YYYY/MM/DD sorts as text
    head_lines = [
        line
        for line in fixed_head(lang).splitlines()
        if line and not line.startswith("%")  # type: ignore[arg-type]
    ]
    assert head_lines[-1] == requested.group(0)
