"""The early compile: the report is typeset on blank pages while the figures
are drawn, and the result is used only when every drawn page is the page TeX
placed (agent/offline/early.py)."""

from __future__ import annotations

import os
import threading
import time
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


# --- typesetting the head while the data is analysed -------------------------------


def test_a_stream_nobody_reads_ends_and_leaves_nothing(tmp_path: Path) -> None:
    """XeLaTeX never started: closing the stream does not hang on the pipe,
    and the pipe is gone from the folder."""
    from labwright.agent.offline.early import TexStream

    if not TexStream.available():
        pytest.skip("named pipes exist only on POSIX systems")
    stream = TexStream(tmp_path / "main.tex", "\\documentclass{article}\n")
    stream.start()
    stream.close()
    assert not (tmp_path / "main.tex").exists()
    assert not [t for t in threading.enumerate() if t.name == "tex-stream"]


def test_a_report_that_does_not_begin_with_the_head_is_refused(tmp_path: Path) -> None:
    from labwright.agent.offline.early import TexStream

    if not TexStream.available():
        pytest.skip("named pipes exist only on POSIX systems")
    stream = TexStream(tmp_path / "main.tex", "\\documentclass{article}\n")
    stream.start()
    assert not stream.send("\\documentclass{report}\n\\begin{document}x\\end{document}\n")
    stream.close()
    assert not (tmp_path / "main.tex").exists()


@needs_tex
@pytest.mark.parametrize("example", ["pendulum", "plant-growth-zh"])
def test_the_report_streams_into_a_compile_started_on_its_head(
    example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """English and Chinese: XeLaTeX is started on the class line before the
    report exists; the final main.tex is a regular file holding exactly the
    report (no byte-order mark), and the compile is clean."""
    started: list[str | None] = []
    original = early_module.EarlyCompile.start.__func__  # type: ignore[attr-defined]

    def start(cls: type, main_tex: Path, *, head: str | None = None) -> object:
        started.append(head)
        return original(cls, main_tex, head=head)

    monkeypatch.setattr(early_module.EarlyCompile, "start", classmethod(start))
    out = tmp_path / "out"
    events = list(build_offline(EXAMPLES / example, out))
    done = events[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path, done
    assert len(started) == 1 and started[0] and "\\documentclass" in started[0]
    tex = out / "main.tex"
    assert tex.is_file() and not tex.is_symlink()
    data = tex.read_bytes()
    assert data.startswith(started[0].encode("utf-8"))  # no BOM in the file
    assert b"\\end{document}" in data
    assert not list(out.glob(".*.part"))
    assert min(_figure_streams(Path(done.pdf_path))) > 500


@needs_tex
def test_the_inputs_are_hashed_before_the_started_compile_runs_beside_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CI once saw the class reported as overwritten by the document: the
    compile thread hashed it while the writer was copying it again. The
    snapshot is taken by the thread that writes, before the compile starts."""
    threads: list[str] = []
    real = early_module.snapshot_inputs

    def snapshot(build_dir: Path, stem: str) -> dict[str, str]:
        threads.append(threading.current_thread().name)
        return real(build_dir, stem)

    monkeypatch.setattr(early_module, "snapshot_inputs", snapshot)
    done = list(build_offline(EXAMPLES / "rc-discharge", tmp_path / "out"))[-1]
    assert isinstance(done, Done) and done.ok, done
    assert threads and "early-compile" not in threads


@needs_tex
def test_files_the_build_rewrites_beside_the_started_compile_are_its_inputs(
    tmp_path: Path,
) -> None:
    """A folder built before holds an older provenance record; the build
    writes the new one while XeLaTeX runs, and that is not the document
    overwriting its inputs."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "provenance.json").write_text("{}", encoding="utf-8")
    done = list(build_offline(EXAMPLES / "pendulum", out))[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path, done
    assert (out / "provenance.json").read_text(encoding="utf-8") != "{}"


def test_the_class_is_copied_only_when_it_differs(tmp_path: Path) -> None:
    """A compile may be reading the class: an identical one is not touched,
    a different one is replaced in one step (a new file, never truncated)."""
    from labwright.latex.template import CLASS_FILE, install_template_files

    install_template_files("en", tmp_path)
    cls = tmp_path / CLASS_FILE
    first = cls.stat()
    install_template_files("zh", tmp_path)
    again = cls.stat()
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    cls.write_text("% stale", encoding="utf-8")
    stale = cls.stat().st_ino
    install_template_files("en", tmp_path)
    assert cls.stat().st_ino != stale
    assert b"\\ProvidesClass" in cls.read_bytes()
    assert not list(tmp_path.glob(".*.part"))


@needs_tex
def test_a_head_that_is_not_the_reports_falls_back_to_a_normal_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_module, "fixed_head", lambda lang: "\\documentclass{article}\n")
    out = tmp_path / "out"
    events = list(build_offline(EXAMPLES / "pendulum", out))
    done = events[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path, done
    assert (out / "main.tex").is_file()
    assert (out / "main.tex").read_text(encoding="utf-8").startswith("% Labwright")
    assert not [t for t in threading.enumerate() if t.name in ("tex-stream", "early-compile")]


@needs_tex
def test_a_run_that_fails_while_analysing_stops_the_started_tex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """XeLaTeX is already reading the head when the analysis fails: the
    stream ends, TeX stops, no thread, pipe or PDF is left."""

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the analysis")

    monkeypatch.setattr(build_module, "plan_report", broken)
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="a bug in the analysis"):
        list(build_offline(EXAMPLES / "pendulum", out))
    assert not [t for t in threading.enumerate() if t.name in ("tex-stream", "early-compile")]
    assert not (out / "main.tex").exists()
    assert not (out / "main.pdf").exists()


@needs_tex
def test_a_tex_that_never_reads_the_stream_does_not_hang_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first XeLaTeX exits without opening main.tex (here: it only prints
    its version): the stream is closed, the build compiles the file instead."""
    import labwright.latex.compile as compile_module

    real = compile_module._xelatex_argv
    calls: list[int] = []

    def argv(engine: object, tex_name: str, *, xdv: bool = False) -> list[str]:
        calls.append(1)
        full = real(engine, tex_name, xdv=xdv)  # type: ignore[arg-type]
        return [full[0], "-version"] if len(calls) == 1 else full

    monkeypatch.setattr(compile_module, "_xelatex_argv", argv)
    out = tmp_path / "out"
    events = list(build_offline(EXAMPLES / "pendulum", out))
    done = events[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path, done
    assert len(calls) == 2
    assert (out / "main.tex").is_file()


def test_fits_are_made_here_once_an_analysis_has_loaded_the_fitting_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """statsmodels brings scipy.optimize into the backend: the fits then do
    not wait for the worker to import it as well."""
    import scipy.optimize  # noqa: F401 - what a statsmodels analysis leaves loaded

    from labwright.sandbox import trusted

    def no_request(*args: object, **kwargs: object) -> Iterator[dict[str, object]]:
        raise AssertionError("the worker was asked to fit")

    monkeypatch.setattr(trusted.TrustedWorker, "request", no_request)
    x = np.linspace(1, 10, 20)
    with PlotWorker(tmp_path) as worker:
        (fit,) = worker.fit([(x, 3 * x + 1)])
    assert fit is not None and fit.model.key == "linear"
    assert fit.params == pytest.approx((3.0, 1.0))


def _tex_descendant() -> int | None:
    """The pid of a XeTeX process started below this one, if one runs."""
    me, parents, exes = os.getpid(), {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parents[int(entry.name)] = int(
                (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
            )
            exes[int(entry.name)] = os.readlink(entry / "exe")
        except (OSError, ValueError, IndexError):
            continue
    for pid, exe in exes.items():
        if Path(exe).name not in ("xetex", "xelatex"):
            continue
        up = parents.get(pid)
        while up is not None and up > 1:
            if up == me:
                return pid
            up = parents.get(up)
    return None


def _open_files(pid: int) -> list[str]:
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return []
    found = []
    for fd in fds:
        try:
            found.append(os.readlink(fd))
        except OSError:
            continue
    return found


@needs_tex
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_xelatex_loads_the_class_from_the_head_alone(lang: str, tmp_path: Path) -> None:
    """The point of streaming: XeLaTeX loads the class (every package, every
    font) while the data is still being analysed. Given only the fixed head,
    it must get past the class line and open the class's packages; LaTeX
    would wait for the next line (which only the finished report gives)
    if the class line did not end in the class date."""
    from labwright.agent.offline.early import EarlyCompile, TexStream
    from labwright.latex.template import fixed_head, install_template_files

    if not TexStream.available():
        pytest.skip("the streamed compile runs only on Linux with confinement")
    install_template_files(lang, tmp_path)  # type: ignore[arg-type]
    early = EarlyCompile.start(tmp_path / "main.tex", head=fixed_head(lang))  # type: ignore[arg-type]
    packages: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while not packages and time.monotonic() < deadline:
            pid = _tex_descendant()
            if pid is not None:
                packages = [
                    f
                    for f in _open_files(pid)
                    if f.endswith((".cls", ".sty", ".cfg", ".def", ".fd"))
                ]
            time.sleep(0.002)
    finally:
        early.abandon()
        assert early.result() is None
    assert packages, "XeLaTeX loaded nothing of the class before the report was sent"
    assert not [t for t in threading.enumerate() if t.name in ("tex-stream", "early-compile")]
    assert not (tmp_path / "main.tex").exists()
