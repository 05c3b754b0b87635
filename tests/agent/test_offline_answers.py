"""The report answers first (issue 20): the results table of the answer
sheet, the request in the method section, what was not answered, and the
discussion and conclusion written from the answers, in English and Chinese,
on synthetic answer sheets; one report with the table compiles (XeLaTeX)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from labwright.agent.offline.discussion import verdict
from labwright.agent.offline.figures import plan_figures
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger, unsourced_numbers
from labwright.agent.offline.render import FigureResult
from labwright.agent.offline.results_table import results_table
from labwright.agent.offline.text import ReportInput, assemble
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.schema import Text
from labwright.analysis.fits import MODELS
from labwright.analysis.plan import FolderAnalysis, analyse_folder
from labwright.analysis.request import AnalysisRequest, Unanswered
from labwright.analysis.results import Answer, AnswerSheet, Comparison, fit_quality
from labwright.ingest.types import Column, Dataset, DocumentText, Provenance, ReadResult
from labwright.latex.engine import resolve_engine
from labwright.latex.template import render_template
from labwright.verify.tags import find_tags

FORMULAS = tuple(m.formula for m in MODELS.values())
PROV = Provenance(file="kinetics.csv", column="v")
NOTES = "# Enzyme kinetics\n\nAim: find Km and Vmax. Expected Km = 2.0 mM.\n"


def _read() -> ReadResult:
    s = np.array([0.5, 1, 2, 4, 8, 16, 32.0])
    v = 10 * s / (2 + s) + np.random.default_rng(1).normal(0, 0.05, s.size)
    cols = [
        Column("S", s, Provenance(file="kinetics.csv", column="S"), "mM"),
        Column("v", v, PROV, "uM/s"),
    ]
    return ReadResult(
        datasets=[Dataset(name="kinetics", source="kinetics.csv", kind="table", columns=cols)],
        documents=[DocumentText(source="notes.md", text=NOTES)],
    )


def _answer(z_target: float | None = None, *, asked: bool = True, fit: bool = False) -> Answer:
    value, se = 2.1234, 0.0456
    comparison = None
    if z_target is not None:  # an expected value z_target combined SEs away
        unc = 0.03
        comparison = Comparison(
            value=value - z_target * float(np.hypot(se, unc)), uncertainty=unc, unit="mM",
            source="the notes",
        )  # fmt: skip
    quality = None
    if fit:
        x = np.linspace(0, 1, 30)
        quality = fit_quality(np.sin(8 * x) * 0.1, 2, sigma=np.full(30, 0.05), r2=0.99)
    return Answer(
        quantity="Km", label=Text("Michaelis constant", "米氏常数"), latex="K_m", value=value,
        se=se, unit="mM", method=Text("Michaelis-Menten least-squares fit of v on S",
                                      "对 v 与 S 作米氏方程最小二乘拟合"),
        model="michaelis_menten", asked=asked, comparison=comparison, sources=(PROV,), fit=quality,
    )  # fmt: skip


def _vmax() -> Answer:
    return Answer(
        quantity="Vmax", label=Text("maximum rate", "最大速率"), latex="V_{\\max}",
        value=10.04321, se=0.1234, unit="uM/s", method=Text("same fit", "同一拟合"),
        model="michaelis_menten", asked=False, sources=(PROV,),
    )  # fmt: skip


def _request() -> AnalysisRequest:
    ev = {"source": "notes.md", "phrase": "find Km", "reason": "the notes ask for 'find Km'"}
    return AnalysisRequest.model_validate({
        "asked": [{"quantity": "Km", "model": "michaelis_menten", "evidence": ev}],
        "models": [{"key": "michaelis_menten", "how": "quantity", "evidence": ev}],
        "bindings": [
            {"model": "michaelis_menten", "variable": "S", "file": "kinetics.csv", "column": "S",
             "unit": "mM", "evidence": {**ev, "phrase": "S", "reason": "the header is S"}},
        ],
        "constants": [{"symbol": "E0", "value": 0.05, "unit": "uM",
                       "evidence": {**ev, "phrase": "E0 = 0.05 uM"}}],
        "unanswered": [{"what": "kcat (catalytic constant)", "why": "the notes do not give E0"}],
    })  # fmt: skip


def _fa(sheet: AnswerSheet, request: AnalysisRequest | None = None) -> FolderAnalysis:
    fa = analyse_folder(_read())
    fa.sheet = sheet
    if request is not None:
        fa.request = request
    return fa


def _report(fa: FolderAnalysis, lang: str) -> tuple[str, Ledger, dict[str, str]]:
    read = _read()
    plans = plan_figures(read.datasets, read.images, analysis=fa, lang=lang)
    figs = {p.key: FigureResult(p.key, True, None) for p in plans}
    ledger = Ledger()
    fields = assemble(ReportInput(lang, "enzyme", read, plans, figs, analysis=fa), ledger)
    return fields["body"], ledger, fields


def _section(body: str, title: str) -> str:
    return body.split(f"\\section{{{title}}}", 1)[1].split("\\section", 1)[0]


def test_the_table_rounds_and_tags_every_number() -> None:
    ledger = Ledger()
    tex = results_table(AnswerSheet([_answer(1.0), _vmax()]), ledger, "en")
    printed = {t.printed for t in find_tags(tex)}
    # SE to two significant digits, the value to the same decimal place.
    assert {"2.123", "0.046", "10.04", "0.12"} <= printed
    assert "Expected" in tex and "$z$" in tex and "the notes" in tex
    assert "\\mathrm{mM}" in tex and "Michaelis constant" in tex and "$K_m$" in tex
    assert "$^{\\dagger}$" in tex  # Vmax was not asked
    z = next(e for e in ledger.entries if e.computation.startswith("difference of"))
    assert z.printed == "1.0" and abs(z.value - 1.0) < 1e-12
    # Every number of the table is a ledger entry, none bare.
    assert unsourced_numbers("\\begin{document}" + tex, ledger.to_dict(), FORMULAS) == []


def test_without_a_comparison_there_is_no_expected_column() -> None:
    tex = results_table(AnswerSheet([_answer(None)]), Ledger(), "zh")
    assert "期望值" not in tex and "$z$" not in tex
    assert "米氏常数" in tex and "物理量" in tex
    assert results_table(AnswerSheet(), Ledger(), "en") == ""


@pytest.mark.parametrize(
    ("z", "en", "zh"),
    [
        (1.0, "It agrees with the expected", "一致：两者之差"),
        (2.5, "the agreement is marginal", "一致性处于边缘"),
        (-4.2, "not consistent within the stated uncertainties", "在所给不确定度内两者不一致"),
    ],
)
def test_the_discussion_reads_the_difference_in_standard_errors(z: float, en: str, zh: str) -> None:
    for lang, words in (("en", en), ("zh", zh)):
        body, ledger, _ = _report(_fa(AnswerSheet([_answer(z)])), lang)
        discussion = _section(body, "Discussion" if lang == "en" else "讨论")
        assert words in discussion
        assert "authorbox" not in discussion
        sizes = [e for e in ledger.entries if e.computation.startswith("|difference|")]
        assert sizes and abs(sizes[0].value - abs(z)) < 1e-9


def test_verdict_limits() -> None:
    assert [verdict(z) for z in (0.0, -2.0, 2.01, 3.0, -3.5)] == [
        "consistent", "consistent", "marginal", "marginal", "inconsistent",
    ]  # fmt: skip
    assert verdict(None) is None and verdict(float("nan")) is None


def test_the_conclusion_restates_the_asked_quantities() -> None:
    body, ledger, _ = _report(_fa(AnswerSheet([_answer(2.5), _vmax()])), "en")
    conclusion = _section(body, "Conclusion")
    assert "Michaelis constant" in conclusion and "marginally consistent" in conclusion
    assert "maximum rate" not in conclusion  # customary, not asked
    # The value is one ledger entry wherever it is printed.
    values = [e for e in ledger.entries if e.printed == "2.123"]
    assert len(values) == 1
    assert body.count(f"\\lwnum{{{values[0].id}}}{{2.123}}") >= 3  # table, discussion, conclusion


def test_fit_quality_in_the_discussion() -> None:
    body, _, _ = _report(_fa(AnswerSheet([_answer(None, fit=True)])), "en")
    discussion = _section(body, "Discussion")
    assert "reduced $\\chi^2$" in discussion and "runs test" in discussion
    assert "long stretches of one sign" in discussion  # a sine of residuals is a pattern


def test_fit_quality_from_residuals() -> None:
    rng = np.random.default_rng(0)
    noise = rng.normal(0, 1.0, 200)
    fair = fit_quality(noise, 2, sigma=np.ones(200))
    assert fair.reduced_chi2 is not None and 0.7 < fair.reduced_chi2 < 1.3
    assert fair.runs_p is not None and fair.runs_p > 0.01
    wide = fit_quality(3 * noise, 2, sigma=np.ones(200))
    assert wide.chi2_p is not None and wide.chi2_p < 1e-6
    trend = fit_quality(np.linspace(-1, 1, 200) ** 2 - 0.33, 2)
    assert trend.runs_p is not None and trend.runs_p < 1e-6
    assert trend.reduced_chi2 is None and not trend.weighted  # unweighted: no chi-square


def test_the_method_section_states_the_request() -> None:
    for lang in ("en", "zh"):
        body, ledger, fields = _report(_fa(AnswerSheet([_answer(1.0)]), _request()), lang)
        method = body.split("\\section", 3)[2]
        entry = catalogue()["michaelis_menten"]
        assert entry.latex in method and entry.name(lang) in method
        assert "find Km" in method and "E0" in method
        assert ("the header is S" in method) == (lang == "en")
        assert "The notes ask for:" not in body and "笔记要求分析" not in body
        constant = next(e for e in ledger.entries if e.computation.startswith("constant E0"))
        assert constant.printed == "0.05" and constant.file == "notes.md"
        tex = render_template(lang, fields)  # type: ignore[arg-type]
        assert unsourced_numbers(tex, ledger.to_dict(), FORMULAS) == []


def test_what_was_not_answered_is_listed_with_why() -> None:
    sheet = AnswerSheet([_answer(1.0)], [Unanswered(what="kcat", why="the notes do not give E0")])
    body, _, _ = _report(_fa(sheet, _request()), "en")
    results = _section(body, "Results")
    assert (
        "Not answered" in results
        and "\\lwtext{kcat} --- \\lwtext{the notes do not give E0}" in results
    )
    assert results.index("The table below") < results.index("Not answered")
    assert "kcat" in _section(body, "Conclusion")
    # A variable no column holds is said from the catalogue's names in Chinese.
    zh_sheet = AnswerSheet([], [Unanswered(what="x", why="y", model="michaelis_menten",
                                           variable="S")])  # fmt: skip
    body_zh, _, _ = _report(_fa(zh_sheet, _request()), "zh")
    assert "没有一列给出" in _section(body_zh, "实验结果")


def test_an_empty_request_keeps_the_goals_and_an_honest_discussion() -> None:
    for lang, words in (("en", "What was computed"), ("zh", "所做的计算")):
        body, _, _ = _report(_fa(AnswerSheet()), lang)
        assert phrase(lang, "rt_intro") not in body
        assert "authorbox" not in body.split("\\section", 3)[3]  # results onwards
        discussion = _section(body, "Discussion" if lang == "en" else "讨论")
        assert words in discussion and "kinetics" in discussion
    aim = _report(_fa(AnswerSheet()), "en")[0].split("\\section", 2)[1]
    assert "The notes ask for" in aim or "no specific question" in aim  # the goals' fallback


def test_nothing_computed_keeps_the_authors_box() -> None:
    read = ReadResult(datasets=[], documents=[DocumentText("notes.md", "Aim: look.")])
    fa = analyse_folder(read)
    fields = assemble(ReportInput("en", "f", read, [], {}, analysis=fa), Ledger())
    assert _section(fields["body"], "Discussion").lstrip().startswith("\\begin{authorbox}")


@pytest.mark.smoke
@pytest.mark.skipif(not resolve_engine().available, reason="needs XeLaTeX")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_report_with_the_table_compiles(tmp_path: Path, lang: str) -> None:
    from labwright.latex.compile import compile_tex
    from labwright.latex.template import install_template_files
    from tests.latex.conftest import pdf_text

    # A value of many digits beside a long method and an expected value: the
    # table still fits the text width (it once stuck out of rc-discharge's).
    long_value = replace(_answer(-0.051), quantity="tau", latex="\\tau", value=2.2046,
                         se=0.0063, unit="uM/s")  # fmt: skip
    sheet = AnswerSheet(
        [_answer(2.5, fit=True), _vmax(), replace(_answer(-4.2), quantity="x", latex="t_{1/2}"),
         long_value],
        [Unanswered(what="kcat", why="the notes do not give E0")],
    )  # fmt: skip
    _, _, fields = _report(_fa(sheet, _request()), lang)
    install_template_files(lang, tmp_path)  # type: ignore[arg-type]
    (tmp_path / "main.tex").write_text(render_template(lang, fields), encoding="utf-8")  # type: ignore[arg-type]
    result = compile_tex(tmp_path / "main.tex")
    assert result.pdf is not None, result.log_text[-3000:]
    text = re.sub(r"\s+", " ", pdf_text(result.pdf))
    assert "2.123 ± 0.046" in text
    assert ("Michaelis constant" if lang == "en" else "米氏常数") in text
    closing = text.rsplit("Discussion" if lang == "en" else "讨论", 1)[1]
    assert "To be completed by the author" not in closing and "待作者完成" not in closing
    assert ("not consistent" if lang == "en" else "不一致") in closing
    overfull = r"Overfull \\hbox \(\d+\.\d+pt too wide\)"
    assert not re.search(overfull, result.log_text)


def test_the_rules_reasons_are_said_in_chinese_and_merged() -> None:
    from labwright.agent.offline.request_text import symbol_tex, unanswered_text

    what = "concentration of the analyte (c_analyte)"
    needs = "the notes do not give the {} ({}), which it needs"
    unanswered = [
        Unanswered(what=what, why=needs.format("concentration of the titrant", "c_titrant")),
        Unanswered(what=what, why=needs.format("volume of the sample", "V_sample")),
    ]
    zh = unanswered_text(unanswered, "zh")
    assert zh.count("\\item") == 1 and "待测物浓度" in zh and "滴定剂浓度" in zh
    assert "样品体积" in zh and "which it needs" not in zh
    en = unanswered_text(unanswered, "en")
    assert en.count("\\item") == 1 and "volume of the sample (V\\_sample)" in en
    # Wording the rules do not write is printed as recorded.
    other = unanswered_text([Unanswered(what="the colour", why="not a quantity")], "zh")
    assert "\\lwtext{the colour} —— \\lwtext{not a quantity}" in other
    assert [symbol_tex(n) for n in ("V", "pH", "V_eq")] == [
        "V", "\\mathrm{pH}", "V_{\\mathrm{eq}}",
    ]  # fmt: skip


def test_the_models_material_says_the_request_not_the_goals() -> None:
    from labwright.analysis.plan import analysis_digest

    digest = analysis_digest(_fa(AnswerSheet([_answer(1.0)]), _request()).record())
    assert 'The notes ask for: Km of michaelis_menten ("find Km")' in digest
    fallback = analysis_digest(_fa(AnswerSheet()).record())
    assert "The notes ask for: " in fallback and "find Km" not in fallback


@pytest.mark.parametrize(
    ("value", "sigma", "printed"),
    [
        (9.8123, 0.0456, ("9.812", "0.046")),
        (4702.0, 2870.0, ("4700", "2900")),  # two digits of sigma left of the point too
        (9.96, 0.0996, ("9.96", "0.10")),  # sigma's decade after its rounding
        (123456.0, 1234.0, ("123500", "1200")),  # plain below a million
        (299852.4, 7.9, ("299852.4", "7.9")),  # not 2.998524x10^5 +- 7.9x10^0
        (2.5e6, 9.96e4, ("2.50\\times10^{6}", "0.10\\times10^{6}")),  # one power of ten
        (1.234e-5, 5.6e-7, ("1.234\\times10^{-5}", "0.056\\times10^{-5}")),
        (6.674e-11, 1.5e-15, ("6.67400\\times10^{-11}", "1.5\\times10^{-15}")),  # far apart
        (9.99996e6, 2.0e4, ("1.0000\\times10^{7}", "0.0020\\times10^{7}")),  # carried a decade
    ],
)
def test_value_and_standard_error_rounding(
    value: float, sigma: float, printed: tuple[str, str]
) -> None:
    from labwright.agent.offline.provenance import format_sig, format_with_uncertainty

    assert format_with_uncertainty(value, sigma) == printed
    assert format_sig(0.99996, 4) == "1.000" and format_sig(0.999999, 2) == "1.0"


def test_answers_sharing_a_name_say_their_file() -> None:
    other = replace(_answer(None), sources=(Provenance(file="run2.csv", column="v"),), value=2.2)
    ledger = Ledger()
    tex = results_table(AnswerSheet([_answer(None), other]), ledger, "en")
    assert "(\\lwfile{kinetics.csv})" in tex and "(\\lwfile{run2.csv})" in tex
    alone = results_table(AnswerSheet([_answer(None)]), Ledger(), "en")
    assert "\\lwfile" not in alone
    body, _, _ = _report(_fa(AnswerSheet([_answer(None), other])), "en")
    assert "(\\lwfile{run2.csv}) is" in _section(body, "Discussion")


def test_a_quantity_asked_twice_is_listed_once_with_both_phrases() -> None:
    from labwright.agent.offline.request_text import _asked_items
    from labwright.analysis.request import AnalysisRequest, AskedQuantity, Evidence

    def ask(q: str, phrase: str, source: str = "README.md") -> AskedQuantity:
        return AskedQuantity(quantity=q, model="michaelis_menten",
                             evidence=Evidence(source=source, phrase=phrase, reason="-"))  # fmt: skip

    asked = [ask("Km", "Km"), ask("Vmax", "Vmax"), ask("Km", "Michaelis constant"),
             ask("Km", "米氏常数", "说明.md")]  # fmt: skip
    for lang in ("en", "zh"):
        items = _asked_items(asked, AnalysisRequest(asked=tuple(asked)), lang)
        assert len(items) == 2
        km = items[0]
        assert km.count("README.md") == 1 and "说明.md" in km
        assert "Michaelis constant" in km and "``\\lwtext{Km}''" in km
