"""A traced number in the PDF is a link named `lwnum.ID` over exactly that number,
in running text, math, `\\pm` pairs, tables, captions and display math, in both
languages, with nothing visible in print (real XeLaTeX)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from labwright.latex.compile import compile_tex
from labwright.latex.engine import resolve_engine
from labwright.latex.template import install_template_files, render_template
from labwright.verify.tags import find_tags, tag
from tests.latex.overleaf import compile_as_overleaf
from tests.pdf_links import covered_text, destinations, digits, number_links, words

pytestmark = [
    pytest.mark.smoke,
    pytest.mark.skipif(not resolve_engine().available, reason="needs XeLaTeX"),
]

NUMBERS = {
    "a1": "9.81",
    "a2": "0.046",
    "b1": "-1.23\\times10^{-4}",
    "c1": "20",
    "d1": "3.5",
    "e1": "1.25",
    "f1": "2.50",
    "f2": "4.2\\times10^{6}",
}


def _body() -> str:
    n = {k: tag(f"{k}00", v) for k, v in NUMBERS.items()}
    return (
        "\\section{Results}\n"
        f"We find $g = {n['a1']} \\pm {n['a2']}$, a slope of ${n['b1']}$ and "
        f"{n['c1']} rows in running text.\n"
        "\\begin{table}[H]\n\\centering\n"
        f"\\caption{{Mean {n['d1']} of the runs.}}\n"
        "\\begin{tabular}{lr}\\toprule\n"
        f"Mean & ${n['e1']}$ \\\\\nMax & ${n['f2']}$ \\\\\n\\bottomrule\\end{{tabular}}\n"
        "\\end{table}\n"
        f"\\[ y = {n['f1']}\\,x \\]\n"
        f"Again $g = {n['a1']}$.\n"
    )


def _compile(tmp_path: Path, lang: str, appendix: str | None = None) -> Path:
    out = tmp_path / lang
    out.mkdir()
    install_template_files(lang, out)  # type: ignore[arg-type]
    tex = render_template(lang, {"title": "Links", "body": _body()})  # type: ignore[arg-type]
    (out / "main.tex").write_text(tex, encoding="utf-8")
    if appendix is not None:
        (out / "labwright-numbers.tex").write_text(appendix, encoding="utf-8")
    result = compile_tex(out / "main.tex")
    assert result.pdf is not None, result.log_text[-2000:]
    return result.pdf


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_tag_is_an_invisible_link_over_its_number(tmp_path: Path, lang: str) -> None:
    pdf = _compile(tmp_path, lang)
    links = number_links(pdf)
    source_tags = find_tags(_body())
    # One link per place the number is printed, and no other.
    assert sorted(link.id for link in links) == sorted(t.id for t in source_tags)
    all_words = words(pdf)
    for link in links:
        printed = NUMBERS[link.id.removesuffix("00")]
        mantissa = printed.split("\\times")[0]
        assert digits(mantissa) in digits(covered_text(link, all_words)), (link, printed)
        assert link.border == (0.0, 0.0, 0.0)  # no frame in print
    # Without the appendix, each id is a destination too (its first place),
    # so no link points nowhere.
    dests = destinations(pdf)
    assert {t.id for t in source_tags} <= {d.removeprefix("lwnum.") for d in dests}
    # Nothing changes in print: no link colour (hidelinks), same text.
    text = " ".join(w.text for w in all_words)
    assert "9.81" in text and "lwnum" not in text


def test_with_the_appendix_each_link_leads_to_its_entry(tmp_path: Path) -> None:
    entries = "".join(
        f"\\noindent\\hypertarget{{lwnum.{k}00}}{{}}Entry {k}\\par\n" for k in NUMBERS
    )
    pdf = _compile(tmp_path, "en", "\\section*{Numbers}\n" + entries)
    dests = destinations(pdf)
    last = max(dests.values())
    assert all(dests[f"lwnum.{k}00"] == last for k in NUMBERS)
    links = number_links(pdf)
    assert links and all(link.page < last for link in links)


def test_the_overleaf_zip_keeps_the_links(tmp_path: Path) -> None:
    """latexmk -xelatex on the exported folder, as Overleaf runs it."""
    if shutil.which("latexmk") is None:
        pytest.skip("needs latexmk")
    import zipfile

    from labwright.export import export_overleaf_zip

    pdf = _compile(tmp_path, "en")
    archive = export_overleaf_zip(pdf.parent / "main.tex", tmp_path / "report.zip")
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(archive).extractall(unpacked)
    compile_as_overleaf(unpacked, timeout=240)
    again = number_links(unpacked / "main.pdf")
    assert sorted(link.id for link in again) == sorted(link.id for link in number_links(pdf))
