"""latex/cjk.py: an English document gets CJK fonts exactly when its text needs them."""

from __future__ import annotations

from labwright.latex.cjk import CJK_COMMAND, has_cjk, with_cjk_fallback
from labwright.latex.sanitize import sanitize
from labwright.latex.template import render_template

EN_HEAD = "\\documentclass[en]{labwright-report}[2026/12/02]\n\\title{T}\n"


def test_cjk_text_in_an_english_report_loads_the_class_fallback_without_moving_a_line() -> None:
    tex = EN_HEAD + "\\begin{document}\nThe file \\lwfile{株高.csv} has 9 rows.\n\\end{document}\n"
    out = with_cjk_fallback(tex)
    assert out.count(CJK_COMMAND) == 1
    assert out.index(CJK_COMMAND) < out.index("\\begin{document}")
    assert out.splitlines()[3:] == tex.splitlines()[3:] and len(out.splitlines()) == len(
        tex.splitlines()
    )
    assert with_cjk_fallback(out) == out  # once


def test_a_cjk_title_counts_and_kana_and_hangul_count() -> None:
    for text in ("株高", "カタカナ", "한국어", "全角（括号）", "50\\% 株高"):
        tex = EN_HEAD.replace("{T}", "{" + text + "}") + "\\begin{document}\nx\n\\end{document}\n"
        assert CJK_COMMAND in with_cjk_fallback(tex), text


def test_no_cjk_or_cjk_only_in_comments_changes_nothing() -> None:
    for body in (
        "Plain English, 9.81 m/s², café, Ω.",
        "x % 注释 only a comment",
        "50\\% of the rows",
    ):
        tex = EN_HEAD + "\\begin{document}\n" + body + "\n\\end{document}\n"
        assert with_cjk_fallback(tex) == tex, body
    assert not has_cjk("% 株高\nplain")


def test_documents_that_set_cjk_fonts_already_are_left_alone() -> None:
    body = "\\begin{document}\n株高\n\\end{document}\n"
    for head in (
        "\\documentclass[zh]{labwright-report}[2026/12/02]\n",
        "\\documentclass{ctexart}\n",
        "\\documentclass{article}\n\\usepackage{xeCJK}\n",
        "\\documentclass{article}\n\\usepackage[UTF8]{ctex}\n",
        EN_HEAD + "\\lwcjk\n",
    ):
        assert with_cjk_fallback(head + body) == head + body, head


def test_another_class_gets_xecjk_with_the_fandol_fonts() -> None:
    tex = "\\documentclass{article}\n\\begin{document}\n株高\n\\end{document}\n"
    out = with_cjk_fallback(tex)
    assert "\\usepackage{xeCJK}" in out and "FandolSong" in out and CJK_COMMAND not in out


def test_the_sanitizer_adds_it_and_lists_no_change() -> None:
    """Every document passes the sanitizer before a compile: the writer's,
    the model's and an edited one alike; a font is not a change to report."""
    tex = render_template("en", {"title": "Plant height", "body": "Column 株高 (cm)."})
    cleaned = sanitize(tex)
    assert CJK_COMMAND in cleaned.text and cleaned.changes == []
    plain = render_template("en", {"title": "Plant height", "body": "Column h (cm)."})
    assert sanitize(plain).text == plain
