"""Text assembly: language choice, quoted aim, author boxes, escaping, no invented numbers."""

from __future__ import annotations

import numpy as np

from labwright.agent.offline.figures import plan_figures
from labwright.agent.offline.language import detect_lang, find_aim
from labwright.agent.offline.provenance import Ledger, unsourced_numbers
from labwright.agent.offline.render import FigureResult
from labwright.agent.offline.text import ReportInput, assemble
from labwright.analysis.fits import MODELS
from labwright.ingest.types import Column, Dataset, DocumentText, Provenance, ReadResult, Skipped
from labwright.latex.template import render_template

FORMULAS = tuple(m.formula for m in MODELS.values())


def _read(notes: str | None, note_name: str = "notes.md") -> ReadResult:
    rng = np.random.default_rng(3)
    x = np.linspace(0.1, 1.0, 10)
    cols = [
        Column("L", x, Provenance(file="run_2.csv", column="L"), "m"),
        Column(
            "T",
            2.006 * np.sqrt(x) + rng.normal(0, 0.003, x.size),
            Provenance(file="run_2.csv", column="T"),
            "s",
        ),
    ]
    docs = [DocumentText(source=note_name, text=notes)] if notes is not None else []
    return ReadResult(
        datasets=[Dataset(name="run_2", source="run_2.csv", kind="table", columns=cols)],
        documents=docs,
        skipped=[Skipped("bad_3.mat", "bad_3.mat is truncated (2 bytes).")],
    )


def _report(read: ReadResult, lang: str) -> tuple[dict[str, str], Ledger]:
    plans = plan_figures(read.datasets, read.images)
    figs = {p.key: FigureResult(p.key, True, None) for p in plans}
    ledger = Ledger()
    inp = ReportInput(lang=lang, folder_name="lab 1", read=read, plans=plans, figures=figs)
    return assemble(inp, ledger), ledger


def test_language_follows_the_notes() -> None:
    assert detect_lang([DocumentText("notes.md", "Aim: measure g with a pendulum.")]) == "en"
    assert (
        detect_lang(
            [DocumentText("记录.md", "实验目的：测量重力加速度，使用单摆在不同摆长下的周期。")]
        )
        == "zh"
    )
    assert detect_lang([]) == "en"


def test_aim_is_quoted_verbatim_and_recorded() -> None:
    fields, ledger = _report(_read("# Pendulum\n\n## Aim\n\nMeasure g from 9 lengths.\n"), "en")
    assert "\\begin{quote}\nMeasure g from 9 lengths.\n\\end{quote}" in fields["body"]
    assert ledger.quotes[0].file == "notes.md"
    assert fields["title"] == "Pendulum"


def test_labelled_aim_in_chinese() -> None:
    aim = find_aim([DocumentText("说明.txt", "实验目的：测量汞灯谱线。\n\n仪器：光谱仪。")])
    assert aim is not None and aim.text == "测量汞灯谱线。"


def test_without_notes_the_aim_and_method_are_author_boxes() -> None:
    fields, _ = _report(_read(None), "en")
    body = fields["body"]
    assert body.count("\\begin{authorbox}") == 4  # aim, method, discussion, conclusion
    assert fields["title"] == "Report on lab 1"


def test_without_an_analysis_discussion_and_conclusion_are_boxes() -> None:
    # Nothing was analysed (no FolderAnalysis): nothing to discuss but the box.
    fields, _ = _report(_read("Aim: measure g."), "zh")
    body = fields["body"]
    for title in ("讨论", "结论"):
        section = body.split(f"\\section{{{title}}}", 1)[1]
        assert section.lstrip().startswith("\\begin{authorbox}")


def test_every_number_in_the_text_is_in_the_ledger() -> None:
    for lang in ("en", "zh"):
        fields, ledger = _report(_read("Aim: measure g at 10 lengths (0.1 m to 1 m)."), lang)
        tex = render_template(lang, fields)  # type: ignore[arg-type]
        assert unsourced_numbers(tex, ledger.to_dict(), FORMULAS) == []
        # The power law is fitted and reported with uncertainties.
        assert "\\pm" in fields["body"] and "y = a x^{b}" in fields["body"]


def test_file_content_is_escaped() -> None:
    hostile = "Aim: \\input{/etc/passwd} 100% $x$ #1 ~ ^ _"
    read = _read(hostile)
    read.datasets[0].columns[0].name = "\\write18{rm -rf ~}"
    fields, _ = _report(read, "en")
    body = fields["body"]
    assert "\\input{" not in body and "\\write18{" not in body
    assert "\\textbackslash{}input\\{/etc/passwd\\} 100\\% \\$x\\$ \\#1" in body


def test_skipped_files_are_listed_with_their_reason() -> None:
    fields, _ = _report(_read("Aim: x."), "en")
    assert "\\lwfile{bad\\_3.mat}: \\lwtext{bad\\_3.mat is truncated (2 bytes).}" in fields["body"]


def test_failed_figure_is_said_not_included() -> None:
    read = _read("Aim: x.")
    plans = plan_figures(read.datasets, [])
    figs = {p.key: FigureResult(p.key, False, None, "ValueError: boom") for p in plans}
    fields = assemble(ReportInput("en", "f", read, plans, figs), Ledger())
    assert "\\includegraphics" not in fields["body"]
    assert "could not be drawn" in fields["body"]
