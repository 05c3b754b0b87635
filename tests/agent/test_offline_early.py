"""The early compile: the report is typeset on blank pages while the figures
are drawn, and the result is used only when every drawn page is the page TeX
placed (agent/offline/early.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from labwright.agent.events import Done, FigureMade
from labwright.agent.offline import build as build_module
from labwright.agent.offline import build_offline
from labwright.agent.offline import early as early_module
from labwright.agent.offline.early import blank_page_pdf, page_size_pt
from labwright.agent.offline.figures import FigurePlan, drawn_page
from labwright.agent.offline.plot_worker import drawn_size
from labwright.agent.offline.render import FigureResult, PlotWorker
from labwright.latex.engine import resolve_engine

needs_tex = pytest.mark.skipif(
    not resolve_engine().available, reason="needs XeLaTeX (see labwright doctor)"
)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


# --- the page arithmetic ------------------------------------------------------------


@pytest.mark.parametrize("size", [(432.0, 273.6), (432.0, 316.8), (100.5, 20.25), (1.0, 1.0)])
def test_a_blank_page_reads_back_at_its_size(size: tuple[float, float]) -> None:
    assert page_size_pt(blank_page_pdf(*size)) == pytest.approx(size)


def test_a_blank_page_is_a_valid_pdf_for_a_reader() -> None:
    pypdf = pytest.importorskip("pypdf")
    import io

    reader = pypdf.PdfReader(io.BytesIO(blank_page_pdf(432, 273.6)))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((432, 273.6))


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"%PDF-1.4 not a pdf at all",
        # two pages: which one TeX places is not known
        blank_page_pdf(10, 10).replace(b"/Type /Page ", b"/Type /Page /Type /Page "),
        # a crop box: XeTeX would place that, not the media box
        blank_page_pdf(10, 10).replace(b"/MediaBox", b"/CropBox [0 0 5 5] /MediaBox"),
        blank_page_pdf(10, 10).replace(b"/MediaBox [0 0 10 10]", b"/MediaBox [0 0 x 10]"),
    ],
)
def test_a_page_that_cannot_be_told_for_certain_is_none(data: bytes) -> None:
    assert page_size_pt(data) is None


def test_drawn_page_of_a_plan_is_the_size_the_worker_is_given() -> None:
    """`drawn_page` (before drawing) and `to_job`'s size (what the worker
    draws at) come from one rule."""
    from labwright.agent.offline.figures import Series, to_job
    from labwright.analysis.fits import fit_xy
    from labwright.ingest.types import Column, Provenance

    prov = Provenance(file="d.csv")
    x = Column("x", np.linspace(0, 1, 9), prov)
    y = Column("y", np.linspace(1, 2, 9) ** 2, prov)

    fitted = FigurePlan(
        "fig01", "xy", "d.csv", "d", x=x, series=[Series(y, x, fit_xy(x.values, y.values))]
    )
    plain = FigurePlan("fig02", "line", "d.csv", "d", x=x, series=[Series(y, x)])
    panels = FigurePlan("fig03", "panels", "d.csv", "d", panels={"panels": [], "size": [7.0, 2.5]})
    spec, _ = to_job([fitted, plain, panels], "/nowhere")
    for plan, job in zip([fitted, plain, panels], spec["figures"], strict=True):
        assert drawn_page(plan) == drawn_size(job) == tuple(job["size"])
    assert drawn_page(fitted) != drawn_page(plain)  # the residual panel is taller


# --- whole builds -----------------------------------------------------------------


class _Outcomes:
    """Records what each early compile's gate decided."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.used: list[bool] = []
        original = early_module.EarlyCompile._settle

        def settle(early: early_module.EarlyCompile) -> list[str]:
            try:
                names = original(early)
            except early_module.Abandoned:
                self.used.append(False)
                raise
            self.used.append(True)
            return names

        monkeypatch.setattr(early_module.EarlyCompile, "_settle", settle)


def _figure_streams(pdf: Path) -> list[int]:
    """Byte sizes of the form XObjects (the embedded figures) in a PDF."""
    import pypdf

    sizes = []
    for page in pypdf.PdfReader(pdf).pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form":
                sizes.append(len(obj.get_data()))
    return sizes


@needs_tex
@pytest.mark.parametrize("example", ["pendulum", "rc-discharge", "plant-growth-zh", "sea-surface"])
def test_examples_are_typeset_while_their_figures_are_drawn(
    example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drawn pages match their stand-ins for every kind of figure the
    examples have, so the early result is used, and the PDF embeds the drawn
    figures, not the blank pages."""
    outcomes = _Outcomes(monkeypatch)
    events = list(build_offline(EXAMPLES / example, tmp_path / "out"))
    done = events[-1]
    assert isinstance(done, Done) and done.pdf_path, done
    assert outcomes.used == [True]
    figures = [e for e in events if isinstance(e, FigureMade)]
    streams = _figure_streams(Path(done.pdf_path))
    assert len(streams) >= len(figures) > 0
    assert min(streams) > 500  # a blank stand-in has an empty content stream
    assert not list((tmp_path / "out" / "figures").glob(".*"))  # no half-written files


@needs_tex
def test_a_drawn_page_of_another_size_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the stand-in's size was wrong, the early result is thrown away and
    the report compiled anew: the PDF is the one a normal compile makes."""
    outcomes = _Outcomes(monkeypatch)
    monkeypatch.setattr(build_module, "drawn_page", lambda plan: (5.0, 5.0))
    events = list(build_offline(EXAMPLES / "pendulum", tmp_path / "out"))
    done = events[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path, done
    assert outcomes.used == [False]
    assert min(_figure_streams(Path(done.pdf_path))) > 500


@needs_tex
def test_a_figure_that_fails_is_reported_and_the_report_is_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A figure the worker could not draw: the early compile (which assumed
    it) is abandoned before its driver, and the final report names the
    missing figure instead of showing a blank page."""
    outcomes = _Outcomes(monkeypatch)
    original = PlotWorker.render

    def render(
        self: PlotWorker, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Iterator[FigureResult]:
        for result in original(self, plans, folder, out_dir):
            if result.key == plans[0].key:
                assert result.path is not None
                result.path.unlink()
                yield FigureResult(result.key, False, None, "a test broke it")
            else:
                yield result

    monkeypatch.setattr(PlotWorker, "render", render)
    out = tmp_path / "out"
    events = list(build_offline(EXAMPLES / "pendulum", out))
    done = events[-1]
    assert isinstance(done, Done) and done.pdf_path, done
    assert outcomes.used == [False]
    tex = (out / "main.tex").read_text(encoding="utf-8")
    assert "a test broke it" in " ".join(done.problems) + tex or any(
        "a test broke it" in getattr(e, "message", "") for e in events
    )
    broken = sorted((out / "figures").glob("*.pdf"))
    included = {p.name for p in broken}
    assert all(name in tex for name in included)  # every included figure exists
    assert min(_figure_streams(Path(done.pdf_path))) > 500


@needs_tex
def test_a_run_that_fails_while_drawing_leaves_no_compile_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing ends in our own bug while TeX typesets the stand-ins: the run
    ends, the compile is stopped before its driver, no thread is left."""

    def render(
        self: PlotWorker, plans: list[FigurePlan], folder: Path, out_dir: Path
    ) -> Iterator[FigureResult]:
        raise RuntimeError("a bug in drawing")
        yield  # a generator, like the real one

    monkeypatch.setattr(PlotWorker, "render", render)
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="a bug in drawing"):
        list(build_offline(EXAMPLES / "pendulum", out))
    assert not [t for t in threading.enumerate() if t.name == "early-compile"]
    assert (out / "main.tex").is_file()  # it was typeset early ...
    assert not (out / "main.pdf").exists()  # ... and never converted
