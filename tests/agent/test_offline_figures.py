"""Figure choice rules, and the real trusted worker (confined) drawing them."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.agent.offline.figures import choose_x, is_counter, plan_figures
from labwright.agent.offline.render import PlotWorker
from labwright.ingest.types import Column, Dataset, ImageInfo, Provenance


def col(name: str, values: object, unit: str | None = None, file: str = "d.csv") -> Column:
    return Column(name, np.asarray(values), Provenance(file=file, column=name), unit)


def table(*cols: Column, name: str = "d") -> Dataset:
    return Dataset(name=name, source=cols[0].provenance.file, kind="table", columns=list(cols))


def test_counter_is_not_an_x_and_gives_a_histogram() -> None:
    rng = np.random.default_rng(0)
    ds = table(col("trial", np.arange(1, 21)), col("t_10", 14.2 + rng.normal(0, 0.1, 20), "s"))
    assert is_counter(ds.columns[0])
    assert choose_x(ds) is None
    (plan,) = plan_figures([ds], [])
    assert plan.kind == "histogram" and plan.series[0].y.name == "t_10"


def test_sorted_x_with_a_law_gives_a_fitted_scatter() -> None:
    x = np.linspace(0.2, 1.0, 9)
    ds = table(col("L", x, "m"), col("T2", 4.02 * x, "s^2"))
    (plan,) = plan_figures([ds], [])
    assert plan.kind == "xy" and plan.x is not None and plan.x.name == "L"
    assert plan.series[0].fit is not None and plan.series[0].fit.model.key == "linear"


def test_dense_time_series_without_law_is_a_line_plot() -> None:
    rng = np.random.default_rng(1)
    t = np.arange(0, 200.0)
    ds = table(col("t", t, "s"), col("T", 20 + rng.normal(0, 0.5, t.size), "K"))
    (plan,) = plan_figures([ds], [])
    assert plan.kind == "line" and plan.series[0].fit is None


def test_one_figure_per_unit_group() -> None:
    x = np.linspace(1, 2, 10)
    ds = table(
        col("L", x, "m"), col("T", x**0.5, "s"), col("t10", 10 * x**0.5, "s"), col("E", x**2, "J")
    )
    plans = plan_figures([ds], [])
    assert [[s.y.name for s in p.series] for p in plans] == [["T", "t10"], ["E"]]
    assert [p.key for p in plans] == ["fig01", "fig02"]


def test_matrix_figure_and_image_kinds() -> None:
    m = Dataset(name="map", source="m.npy", kind="matrix", matrix=np.arange(12.0).reshape(3, 4))
    fig = Dataset(
        name="ax1",
        source="plot.fig",
        kind="figure",
        columns=[col("x1", [0, 1, 2], file="plot.fig"), col("y1", [1, 3, 2], file="plot.fig")],
        pairs=[("x1", "y1")],
    )
    img = ImageInfo(source="photo.tif", format="TIFF", width=10, height=5, mode="RGB")
    kinds = [p.kind for p in plan_figures([m, fig], [img])]
    assert kinds == ["heatmap", "redraw", "image"]
    assert plan_figures([], [img])[0].file_name == "fig01.png"  # TIFF is converted


def test_text_only_dataset_has_no_figure() -> None:
    ds = table(col("sample", np.array(["a", "b", "c"])))
    assert plan_figures([ds], []) == []


def test_worker_draws_every_kind(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PIL import Image

    folder = tmp_path / "data"
    folder.mkdir()
    Image.new("RGB", (20, 10), (200, 10, 10)).save(folder / "photo.bmp")
    rng = np.random.default_rng(2)
    x = np.linspace(0, 5, 30)
    datasets = [
        table(col("t", x, "s"), col("U", 9 * np.exp(-x) + rng.normal(0, 0.01, x.size), "V")),
        table(col("n", np.arange(1, 31)), col("波长", 500 + rng.normal(0, 1, 30), "nm")),
        Dataset(name="map", source="m.npy", kind="matrix", matrix=rng.random((8, 9))),
    ]
    images = [ImageInfo(source="photo.bmp", format="BMP", width=20, height=10, mode="RGB")]
    plans = plan_figures(datasets, images)
    out = tmp_path / "figs"
    with PlotWorker() as worker:
        results = list(worker.render(plans, folder, out))
    assert [r.key for r in results] == [p.key for p in plans]
    assert all(r.ok for r in results), [r.error for r in results]
    for r in results:
        # Drawn figures are vector PDFs; converted images are PNGs.
        assert r.path is not None
        head = r.path.read_bytes()[:8]
        assert head[:5] == b"%PDF-" if r.path.suffix == ".pdf" else head == b"\x89PNG\r\n\x1a\n"
    # The worker's job files are cleaned up; only figures remain.
    assert sorted(p.name for p in out.iterdir()) == sorted(p.file_name for p in plans)


def test_worker_reports_a_broken_figure_and_draws_the_rest(tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "broken.png").write_bytes(b"not a png")
    x = np.linspace(1, 3, 10)
    plans = plan_figures(
        [table(col("x", x, "m"), col("y", 2 * x, "m"))],
        [ImageInfo(source="broken.png", format="GIF", width=1, height=1, mode="RGB")],
    )
    with PlotWorker() as worker:
        results = {r.key: r for r in worker.render(plans, folder, tmp_path / "out")}
    assert results["fig01"].ok
    assert not results["fig02"].ok and results["fig02"].error


@pytest.mark.parametrize("n", [0, 1])
def test_degenerate_columns_do_not_crash(n: int) -> None:
    ds = table(col("x", np.arange(n, dtype=float), "m"), col("y", np.arange(n, dtype=float), "m"))
    assert plan_figures([ds], []) == []


def test_worker_fits_match_fits_made_here(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from labwright.agent.offline.figures import fit_pairs_here

    rng = np.random.default_rng(13)
    x = np.linspace(0.1, 2, 25)
    pairs = [(x, 3 * np.exp(-x / 0.7) + rng.normal(0, 0.01, x.size)), (x, rng.normal(0, 1, x.size))]
    with PlotWorker() as worker:
        remote = worker.fit(pairs, tmp_path)
    local = fit_pairs_here(pairs)
    assert remote[1] is None and local[1] is None
    assert remote[0] is not None and local[0] is not None
    assert remote[0].model.key == local[0].model.key == "exponential"
    assert remote[0].params == pytest.approx(local[0].params)
    assert list(tmp_path.iterdir()) == []  # the job file is removed


def test_a_dead_worker_degrades_to_local_fits_and_a_fresh_worker(tmp_path) -> None:  # type: ignore[no-untyped-def]
    x = np.linspace(1, 3, 10)
    plans = plan_figures([table(col("x", x, "m"), col("y", 2 * x, "m"))], [])
    worker = PlotWorker()
    worker.kill()
    fits = worker.fit([(x, 2 * x)], tmp_path)
    assert fits[0] is not None and fits[0].model.key == "linear"
    results = list(worker.render(plans, tmp_path, tmp_path / "out"))
    assert [r.ok for r in results] == [True]
    worker.close()


def test_workers_that_keep_dying_mean_reported_figures(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from labwright.agent.offline import render
    from labwright.sandbox import trusted

    class Dying(trusted.TrustedWorker):
        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*args, **kwargs)
            self.kill()

    monkeypatch.setattr(render.trusted, "TrustedWorker", Dying)
    x = np.linspace(1, 3, 10)
    plans = plan_figures(
        [table(col("x", x, "m"), col("y", 2 * x, "m")), table(col("a", x, "s"), col("b", x, "V"))],
        [],
    )
    with PlotWorker() as worker:
        results = list(worker.render(plans, tmp_path, tmp_path / "out"))
    assert sorted(r.key for r in results) == sorted(p.key for p in plans)
    assert not any(r.ok for r in results) and all(r.error for r in results)


def test_long_series_are_thinned_for_drawing_only() -> None:
    from labwright.agent.offline.figures import MAX_DRAWN_POINTS, to_job

    t = np.arange(0, 50_000.0)
    ds = table(col("t", t, "s"), col("U", np.sin(t / 1000), "V"))
    plans = plan_figures([ds], [])
    _, arrays = to_job(plans, ".")
    assert len(arrays["fig01_0_y"]) <= MAX_DRAWN_POINTS
    assert arrays["fig01_0_x"][0] == 0 and len(arrays["fig01_0_x"]) == len(arrays["fig01_0_y"])


def test_redrawn_lines_keep_their_matlab_names() -> None:
    from labwright.agent.offline.figures import to_job

    fig = Dataset(
        name="cooling",
        source="cooling.fig",
        kind="figure",
        columns=[
            col("line1.x", [0, 1, 2], "s", "cooling.fig"),
            col("line1.y", [3, 2, 1], "K", "cooling.fig"),
        ],
        pairs=[("line1.x", "line1.y")],
        labels={"line1": "measured", "xlabel": "time (s)", "title": "Cooling"},
    )
    spec, _ = to_job(plan_figures([fig], []), ".")
    (figure,) = spec["figures"]
    assert figure["curves"][0]["label"] == "measured"
    assert figure["xlabel"] == "time (s)" and figure["title"] == "Cooling"


def test_worker_runs_through_the_frozen_self_dispatch(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Frozen, the app re-launches itself with LABWRIGHT_PYRUN naming the
    worker's bootstrap (simulated with `python -m labwright`, the same entry)."""
    import sys

    from labwright.sandbox import spawn, trusted

    def frozen_command(script, env):  # type: ignore[no-untyped-def]
        env[spawn.PYRUN_ENV] = str(script)
        return [sys.executable, "-m", "labwright"]

    monkeypatch.setattr(trusted, "python_command", frozen_command)
    x = np.linspace(1, 3, 10)
    plans = plan_figures([table(col("x", x, "m"), col("y", 2 * x + 1, "m"))], [])
    with PlotWorker() as worker:
        assert worker.fit([(x, 2 * x + 1)], tmp_path)[0] is not None
        (result,) = list(worker.render(plans, tmp_path, tmp_path / "out"))
    assert result.ok and result.path is not None and result.path.is_file()
