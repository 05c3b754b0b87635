"""Assemble the report's text from facts only.

Aim and method are quoted verbatim from the folder's notes (the quotes are
recorded in the ledger); the material list names every file that was read;
results open with the table of answers (results_table.py) and describe
each table and figure with numbers from the ledger; the discussion and
conclusion are written from the answers (discussion.py), an author box only
where nothing was computed. Anything
taken from the folder (names, units, quotes) is LaTeX-escaped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from labwright.agent.offline.escape import escape_text
from labwright.agent.offline.figures import FigurePlan, Series
from labwright.agent.offline.language import find_aim, find_method, find_title
from labwright.agent.offline.phrases import phrase
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.render import FigureResult
from labwright.agent.offline.tables import (
    dataset_title,
    src_file,
    src_text,
    stats,
    summary_table,
)
from labwright.analysis.fits import MIN_R2
from labwright.ingest.types import Column, Dataset, Inventory, Provenance, ReadResult

if TYPE_CHECKING:
    from labwright.analysis.jobs import Analysis
    from labwright.analysis.plan import FolderAnalysis

FIGURE_DIR = "figures"

#: Defined in the preamble slot: \lwfile for paths, \lwtext for any other text
#: taken verbatim from the material. Keeping quoted material inside these two
#: macros lets the provenance check tell quoted text from computed numbers.
PREAMBLE = (
    "\\providecommand{\\lwfile}[1]{\\texorpdfstring{\\texttt{#1}}{#1}}\n"
    "\\providecommand{\\lwtext}[1]{#1}"
)


@dataclass
class ReportInput:
    lang: str
    folder_name: str
    read: ReadResult
    plans: list[FigurePlan]
    figures: dict[str, FigureResult] = field(default_factory=dict)
    inventory: Inventory | None = None
    # Roles, question, request, analyses and answers.
    analysis: FolderAnalysis | None = None
    fit_explained: bool = False
    coefficient_explained: bool = False  # the first coefficient sentence says why

    def in_series(self, ds: Dataset) -> bool:
        # Identity, not ==: dataclass equality would compare the value arrays.
        return self.analysis is not None and any(
            d is ds for fs in self.analysis.series for d in fs.datasets
        )


def _quote(ledger: Ledger, source: str, text: str) -> str:
    ledger.quote(source, text)
    return f"\\begin{{quote}}\n{escape_text(text)}\n\\end{{quote}}\n"


def _aim(inp: ReportInput, ledger: Ledger) -> str:
    out = f"\\section{{{phrase(inp.lang, 'sec_aim')}}}\n"
    aim = find_aim(inp.read.documents)
    if aim is None:
        return (
            out + f"\\begin{{authorbox}}\n{phrase(inp.lang, 'aim_missing')}\n\\end{{authorbox}}\n"
        )
    out += phrase(inp.lang, "aim_quoted", file=src_file(aim.source)) + "\n"
    out += _quote(ledger, aim.source, aim.text)
    if inp.analysis is not None and inp.analysis.request.is_empty:
        # Without a request, the goals the notes' phrases suggest; with one,
        # the method section states it (request_text.py).
        from labwright.agent.offline.analysis_text import question_text

        out += question_text(inp.analysis, ledger, inp.lang)
    return out


def _columns_list(ds: Dataset, analysis: FolderAnalysis | None = None) -> str:
    # A date column read as seconds since its origin is a date to the reader,
    # not a quantity in s.
    roles = analysis.roles_of(ds) if analysis is not None else None
    dates = {c.name for c in roles.of("time")} if roles is not None else set()
    names = [src_text(c.name if c.name in dates else c.label) for c in ds.columns[:12]]
    if len(ds.columns) > 12:
        names.append("\\ldots")
    return ", ".join(names)


def _material_items(inp: ReportInput, ledger: Ledger) -> list[str]:
    lang = inp.lang
    items: list[str] = []
    if inp.analysis is not None:
        for fs in inp.analysis.series:
            n = ledger.count(len(fs.datasets), None, "files in the series")
            rows = ledger.count(
                fs.datasets[0].n_rows, fs.datasets[0].provenance, "rows of the first file"
            )
            items.append(
                phrase(
                    lang,
                    "item_series",
                    pattern=src_text(fs.pattern),
                    n=n,
                    rows=rows,
                    columns=_columns_list(fs.datasets[0]),
                )  # fmt: skip
            )
    for ds in inp.read.datasets:
        if inp.in_series(ds):
            continue
        prov = ds.provenance or Provenance(file=ds.source)
        if ds.kind == "matrix" and ds.matrix is not None:
            m = np.asarray(ds.matrix)
            rows = ledger.count(m.shape[0], prov, "matrix rows")
            cols = ledger.count(m.shape[1] if m.ndim > 1 else 1, prov, "matrix columns")
            items.append(phrase(lang, "item_matrix", file=dataset_title(ds), rows=rows, cols=cols))
        elif ds.kind == "figure":
            lines = ledger.count(len(ds.pairs), prov, "lines in the figure")
            items.append(phrase(lang, "item_figure", file=dataset_title(ds), lines=lines))
        elif (long := _read_long(inp, ds, ledger)) is not None:
            rows = ledger.count(ds.n_rows, prov, "number of rows read long")
            items.append(phrase(lang, "item_long", file=dataset_title(ds), rows=rows, **long))
        else:
            rows = ledger.count(ds.n_rows, prov, "number of rows")
            items.append(
                phrase(
                    lang,
                    "item_table",
                    file=dataset_title(ds),
                    rows=rows,
                    columns=_columns_list(ds, inp.analysis),
                )
            )
    for img in inp.read.images:
        prov = Provenance(file=img.source)
        items.append(
            phrase(
                lang,
                "item_image",
                file=src_file(img.source),
                w=ledger.count(img.width, prov, "image width in pixels"),
                h=ledger.count(img.height, prov, "image height in pixels"),
                fmt=src_text(img.format),
            )
        )
    for doc in inp.read.documents:
        items.append(phrase(lang, "item_doc", file=src_file(doc.source)))
    return items


def _read_long(inp: ReportInput, ds: Dataset, ledger: Ledger) -> dict[str, str] | None:
    """The words of a table read long (numbered columns as one quantity at
    its count, `analysis/numbered_columns.py`), its numbers traced to the
    columns' names; None for any other table."""
    from labwright.analysis.numbered_columns import spec_of

    spec = spec_of(inp.analysis.request.numbered, ds) if inp.analysis is not None else None
    if spec is None:
        return None
    columns = ", ".join(spec.columns)
    prov = Provenance(file=spec.file, sheet=spec.sheet, column=columns)
    what = f"{spec.count} in the name of a column"
    traced = ", ".join(ledger.count(n, prov, what) for n in spec.numbers)
    return {
        "source": src_file(spec.file),
        "columns": src_text(columns),
        "name": src_text(spec.response),
        "count": src_text(spec.count),
        "numbers": f"${traced}$",
    }


def _method(inp: ReportInput, ledger: Ledger) -> str:
    lang = inp.lang
    out = f"\\section{{{phrase(lang, 'sec_method')}}}\n"
    if inp.inventory is not None:
        n_files = len(inp.inventory.files)
        n = ledger.count(n_files, Provenance(file="."), "files in the folder inventory")
    else:
        n = ledger.count(
            len(inp.read.datasets) + len(inp.read.images) + len(inp.read.documents),
            Provenance(file="."),
            "files read",
        )
    out += phrase(lang, "material", folder=src_file(inp.folder_name), n=f"${n}$") + "\n"
    items = _material_items(inp, ledger)
    if items:
        out += "\\begin{itemize}\n" + "".join(f"\\item {i}\n" for i in items) + "\\end{itemize}\n"
    passages = find_method(inp.read.documents)
    for p in passages:
        out += phrase(lang, "method_quoted", file=src_file(p.source)) + "\n"
        out += _quote(ledger, p.source, p.text)
    if not passages:
        out += f"\\begin{{authorbox}}\n{phrase(lang, 'method_missing')}\n\\end{{authorbox}}\n"
    if inp.analysis is not None:
        from labwright.agent.offline.request_text import request_text

        out += request_text(inp.analysis.request, ledger, lang)
    return out


def _unit_of(col: Column | None) -> str:
    return col.unit or "" if col is not None else ""


def _param_units(key: str, x: Column | None, y: Column) -> list[str]:
    ux, uy = _unit_of(x), _unit_of(y)
    if key == "linear":
        return [f"{uy}/{ux}" if uy and ux else uy if uy else "", uy]
    if key == "exponential":
        return [uy, ux]
    if key == "exponential_offset":
        return [uy, ux, uy]
    if key == "quadratic":
        return ["", "", uy]
    return ["", ""]


def _fit_sentence(lang: str, s: Series, ledger: Ledger, short: bool = False) -> str:
    fit = s.fit
    assert fit is not None and s.x is not None
    prov = s.y.provenance
    what = f"{fit.model.key} least-squares fit of {s.y.name} against {s.x.name}"
    params = []
    for sym, value, sigma, unit in zip(
        fit.model.params, fit.params, fit.sigmas, _param_units(fit.model.key, s.x, s.y), strict=True
    ):
        text = f"${sym} = {ledger.measured(value, sigma, prov, f'parameter {sym} of the {what}')}$"
        if unit:
            text += f"~{src_text(unit)}"
        params.append(text)
    return phrase(
        lang,
        "res_fit_short" if short else "res_fit",
        y=src_text(s.y.name),
        x=src_text(s.x.name),
        formula=fit.model.formula,
        n=f"${ledger.count(fit.n, prov, f'points in the {what}')}$",
        params=", ".join(params),
        r2=ledger.num(fit.r2, prov, f"coefficient of determination of the {what}", sig=4),
    )


def _figure_float(plan: FigurePlan, caption: str) -> str:
    wide = (
        plan.kind == "panels" and plan.panels is not None and int(plan.panels.get("ncols", 1)) > 1
    )
    width = "\\linewidth" if wide else "0.8\\linewidth"
    opts = f"width={width},height=0.45\\textheight,keepaspectratio"
    return (
        "\\begin{figure}[H]\n\\centering\n"
        f"\\includegraphics[{opts}]{{{FIGURE_DIR}/{plan.file_name}}}\n"
        f"\\caption{{{caption}}}\n\\end{{figure}}\n"
    )


def _figure_caption(lang: str, plan: FigurePlan) -> str:
    file = src_file(plan.source)
    if plan.kind == "panels":
        return plan.caption
    if plan.kind == "image":
        return phrase(lang, "fig_image", file=file)
    if plan.kind == "heatmap":
        return phrase(lang, "fig_heatmap", file=file, name=src_text(plan.title))
    if plan.kind == "redraw":
        return phrase(lang, "fig_redraw", file=file)
    ys = ", ".join(src_text(s.y.label) for s in plan.series)
    if plan.kind == "histogram":
        return phrase(lang, "fig_hist", y=ys, file=file)
    assert plan.x is not None
    cap = phrase(
        lang,
        "fig_xy" if plan.kind == "xy" else "fig_line",
        y=ys,
        x=src_text(plan.x.label),
        file=file,
    )
    return cap + (phrase(lang, "fig_fitted") if plan.fits else "")


def _figure_text(inp: ReportInput, plan: FigurePlan, ledger: Ledger) -> str:
    lang = inp.lang
    out = ""
    if plan.kind == "image" and plan.image is not None:
        prov = Provenance(file=plan.image.source)
        out += phrase(
            lang,
            "res_image",
            file=src_file(plan.source),
            w=f"${ledger.count(plan.image.width, prov, 'image width in pixels')}$",
            h=f"${ledger.count(plan.image.height, prov, 'image height in pixels')}$",
        )
    elif plan.kind == "heatmap" and plan.dataset is not None:
        m = np.asarray(plan.dataset.matrix, dtype=float)
        prov = plan.dataset.provenance or Provenance(file=plan.source, variable=plan.title)
        st = stats(m)
        if st is not None:
            out += phrase(
                lang,
                "res_heatmap",
                name=src_text(plan.title),
                rows=f"${ledger.count(m.shape[0], prov, 'matrix rows')}$",
                cols=f"${ledger.count(m.shape[1], prov, 'matrix columns')}$",
                min=f"${ledger.num(st.min, prov, 'minimum')}$",
                max=f"${ledger.num(st.max, prov, 'maximum')}$",
            )
    elif plan.kind == "redraw":
        prov = Provenance(file=plan.source)
        out += phrase(
            lang,
            "res_redraw",
            file=src_file(plan.source),
            lines=f"${ledger.count(len(plan.series), prov, 'lines in the figure')}$",
        )
    elif plan.kind == "histogram":
        col = plan.series[0].y
        st = stats(col.values)
        if st is not None and np.isfinite(st.std):
            mean, std = ledger.mean_and_spread(st.mean, st.std, col.provenance)
            out += phrase(
                lang,
                "res_hist",
                y=src_text(col.label),
                n=f"${ledger.count(st.n, col.provenance, 'number of finite values')}$",
                mean=f"${mean}$",
                std=f"${std}$",
            )
    else:
        sentences = []
        for s in plan.series:
            if s.fit is not None:
                # The model-choice rule is explained once per report; later
                # fits say only what was chosen (no repeated sentences).
                sentences.append(_fit_sentence(lang, s, ledger, short=inp.fit_explained))
                inp.fit_explained = True
                if inp.analysis is not None and inp.analysis.rc is not None:
                    from labwright.agent.offline.writers.xy import rc_sentence

                    ds = plan.dataset
                    rc = rc_sentence(inp.analysis.rc, plan.source, ds.name if ds else "", s.fit,
                                     s.x.unit if s.x else None, ledger, lang)  # fmt: skip
                    if rc:
                        sentences.append(rc)
                if inp.analysis is not None and inp.analysis.coefficients:
                    from labwright.agent.offline.writers.xy import coefficient_sentences

                    said = coefficient_sentences(
                        inp.analysis, plan.source, s.fit, s.x, s.y, ledger, lang,
                        short=inp.coefficient_explained,
                    )  # fmt: skip
                    inp.coefficient_explained |= bool(said)
                    sentences += said
            elif s.x is not None:
                threshold = ledger.num(
                    MIN_R2, None, "R^2 threshold for reporting a fit (constant)", sig=2
                )
                sentences.append(
                    phrase(
                        lang,
                        "res_nofit",
                        y=src_text(s.y.name),
                        x=src_text(s.x.name),
                        min_r2=threshold,
                    )
                )
        out += "\n\n".join(sentences)
    out += "\n"
    result = inp.figures.get(plan.key)
    if result is not None and result.ok:
        out += _figure_float(plan, _figure_caption(lang, plan))
    else:
        reason = result.error if result is not None else "not rendered"
        out += (
            phrase(lang, "fig_failed", file=src_file(plan.source), reason=src_text(reason)) + "\n"
        )
    return out


# Analyses of a series of files: a section of their own, after the tables.
_SERIES_KINDS = ("series", "run_series")


def _results(inp: ReportInput, ledger: Ledger) -> str:
    lang = inp.lang
    out = f"\\section{{{phrase(lang, 'sec_results')}}}\n"
    if inp.analysis is not None:
        # Answers first: the asked quantities, then what could not be answered.
        from labwright.agent.offline.request_text import unanswered_text
        from labwright.agent.offline.results_table import results_table

        out += results_table(inp.analysis.sheet, ledger, lang)
        out += unanswered_text(inp.analysis.sheet.unanswered, lang)
    by_dataset: dict[int, list[FigurePlan]] = {}
    for plan in inp.plans:
        if plan.dataset is not None:
            by_dataset.setdefault(id(plan.dataset), []).append(plan)
    fa = inp.analysis
    for ds in inp.read.datasets:
        if inp.in_series(ds):
            continue
        out += f"\\subsection{{{dataset_title(ds)}}}\n"
        if (long := _read_long(inp, ds, ledger)) is not None:
            # A view of a table summarised above: how it was read, then its analyses.
            out += phrase(lang, "res_long", **long) + "\n\n"
            if fa is not None and id(ds) in fa.handled:
                out += _analyses_of(inp, ledger, [a for a in fa.analyses if a.kind not in _SERIES_KINDS
                                                  and _written_with(a, ds)])  # fmt: skip
            continue
        roles = fa.roles_of(ds) if fa is not None else None
        measurements = {c.name for c in roles.measurements} if roles is not None else None
        if fa is not None:
            from labwright.agent.offline.analysis_text import roles_sentence

            out += roles_sentence(fa, ds, ledger, lang)
        table = summary_table(ds, ledger, lang, measurements, _settings(fa, ds))
        if table:
            if ds.numeric_columns or ds.kind == "matrix":
                out += phrase(lang, "res_table", name=dataset_title(ds)) + "\n"
            else:
                out += phrase(lang, "res_text_only", name=dataset_title(ds)) + "\n"
            out += table
        if fa is not None and id(ds) in fa.handled:
            # An analysis of several tables (standards and unknowns) is
            # written with the first; a series of files has its own section.
            out += _analyses_of(inp, ledger, [a for a in fa.analyses if a.kind not in _SERIES_KINDS
                                              and _written_with(a, ds)])  # fmt: skip
            continue
        for plan in by_dataset.get(id(ds), []):
            out += _figure_text(inp, plan, ledger) + "\n"
    if fa is not None:
        for a in fa.analyses:
            if a.kind in _SERIES_KINDS:
                out += f"\\subsection{{{src_text(a.source)}}}\n"
                out += _analyses_of(inp, ledger, [a])
    for plan in inp.plans:
        if plan.kind == "image":
            out += f"\\subsection{{{src_file(plan.source)}}}\n"
            out += _figure_text(inp, plan, ledger) + "\n"
    return out


def _written_with(a: Analysis[Any, Any], ds: Dataset) -> bool:
    """An analysis is written with the first table it read, or with the
    table whose group of rows it read (a law fitted group by group)."""
    if not a.job.datasets:
        return False
    first = a.job.datasets[0]
    if first is ds:
        return True
    sheet = ds.provenance.sheet if ds.provenance else None
    return (
        first.subset is not None
        and ds.subset is None
        and first.source == ds.source
        and (first.provenance.sheet if first.provenance else None) == sheet
    )


def _settings(fa: FolderAnalysis | None, ds: Dataset) -> set[str]:
    """The columns of `ds` an analysis takes as an independent variable: what
    the experiment set (a length, a dose), summarised by its levels."""
    if fa is None:
        return set()
    return {c.name for a in fa.analyses if any(d is ds for d in a.job.datasets) for c in a.uses.x}


def _figure_or_failure(inp: ReportInput, plan: FigurePlan) -> str:
    result = inp.figures.get(plan.key)
    if result is not None and result.ok:
        return _figure_float(plan, _figure_caption(inp.lang, plan))
    reason = result.error if result is not None else "not rendered"
    return (
        phrase(inp.lang, "fig_failed", file=src_file(plan.source), reason=src_text(reason)) + "\n"
    )


def _analyses_of(inp: ReportInput, ledger: Ledger, which: list[Analysis[Any, Any]]) -> str:
    from labwright.agent.offline.analysis_text import analysis_block

    def block(plan: FigurePlan) -> str:
        return _figure_or_failure(inp, plan)

    out = ""
    for a in which:
        if a.kind != "xy":
            out += analysis_block(a, inp.plans, ledger, inp.lang, block) + "\n"
    return out


def _appendix(inp: ReportInput) -> str:
    if inp.analysis is None:
        return ""
    from labwright.agent.offline.analysis_text import appendix_block

    return appendix_block(inp.analysis, inp.plans, inp.lang, lambda p: _figure_or_failure(inp, p))


def _closing_sections(inp: ReportInput, ledger: Ledger) -> str:
    """Discussion and conclusion written from the answers (discussion.py);
    the author's box only where nothing was computed to speak of."""
    from labwright.agent.offline.discussion import conclusion, discussion

    lang = inp.lang
    out = ""
    for sec, hint, write in (
        ("sec_discussion", "discussion_hint", discussion),
        ("sec_conclusion", "conclusion_hint", conclusion),
    ):
        out += f"\\section{{{phrase(lang, sec)}}}\n"
        text = write(inp.analysis, ledger, lang)
        out += text or f"\\begin{{authorbox}}\n{phrase(lang, hint)}\n\\end{{authorbox}}\n"
    return out


def _unread(inp: ReportInput) -> str:
    if not inp.read.skipped:
        return ""
    out = f"\\section*{{{phrase(inp.lang, 'sec_unread')}}}\n{phrase(inp.lang, 'unread_intro')}\n"
    out += "\\begin{itemize}\n"
    for sk in inp.read.skipped:
        out += f"\\item {src_file(sk.source)}: {src_text(sk.reason)}\n"
    return out + "\\end{itemize}\n"


def title_of(inp: ReportInput) -> str:
    found = find_title(inp.read.documents)
    if found:
        return escape_text(found)
    return phrase(inp.lang, "title_fallback", folder=escape_text(inp.folder_name))


def assemble(inp: ReportInput, ledger: Ledger) -> dict[str, str]:
    """Template fields (see labwright.latex.template.SLOTS) for the report."""
    if inp.analysis is not None:
        ledger.analysis = inp.analysis.record()
    body = "".join(
        [
            _aim(inp, ledger),
            _method(inp, ledger),
            _results(inp, ledger),
            _closing_sections(inp, ledger),
            _appendix(inp),
            _unread(inp),
        ]
    )
    return {
        "preamble": PREAMBLE,
        "title": title_of(inp),
        "author": "",
        "date": "\\today",
        "body": body,
    }


def folder_display_name(folder: Path) -> str:
    return folder.resolve().name or str(folder)
