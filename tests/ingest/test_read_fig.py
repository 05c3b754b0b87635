from pathlib import Path

import numpy as np
import scipy.io

from labwright.ingest import Dataset, Skipped, read_file

from .conftest import write_fig

T = np.linspace(0, 1e-3, 30)


def test_fig_lines_and_labels_are_extracted(data_dir: Path) -> None:
    path = write_fig(
        data_dir / "discharge.fig",
        [(T, 5 * np.exp(-T / 2e-4), "measured"), (None, np.array([3.0, 2.0, 1.0]), "model")],
        xlabel="Time (s)",
        ylabel="U / V",
        title="RC discharge",
    )
    # The file is a MAT file whose root is MATLAB's handle-graphics struct.
    raw = scipy.io.loadmat(path, squeeze_me=True, struct_as_record=False)["hgS_070000"]
    assert raw.type == "figure" and raw.children.type == "axes"

    (fig,) = read_file(path, "discharge.fig")
    assert isinstance(fig, Dataset)
    assert fig.kind == "figure" and fig.name == "discharge"
    assert fig.pairs == [("line1.x", "line1.y"), ("line2.x", "line2.y")]
    assert fig.labels["title"] == "RC discharge"
    assert fig.labels["xlabel"] == "Time (s)" and fig.labels["ylabel"] == "U / V"
    assert fig.labels["line1"] == "measured" and fig.labels["line2"] == "model"
    np.testing.assert_allclose(fig.column("line1.y").values, 5 * np.exp(-T / 2e-4))
    # plot(y) has no XData: MATLAB draws it against 1..N.
    np.testing.assert_allclose(fig.column("line2.x").values, [1, 2, 3])
    assert fig.column("line1.x").unit == "s" and fig.column("line1.y").unit == "V"
    assert fig.column("line1.y").provenance.column == "YData"


def test_fig_image_becomes_a_matrix(data_dir: Path) -> None:
    cdata = np.arange(12.0).reshape(3, 4)
    path = write_fig(data_dir / "map.fig", [], "x (mm)", "y (mm)", "Intensity", image=cdata)
    (item,) = read_file(path, "map.fig")
    assert isinstance(item, Dataset) and item.kind == "matrix" and item.name == "map:image1"
    np.testing.assert_array_equal(item.matrix, cdata)
    assert item.labels["title"] == "Intensity"


def test_mat_file_named_fig_without_figure_tree(data_dir: Path) -> None:
    path = data_dir / "notafig.fig"
    scipy.io.savemat(path, {"x": np.arange(3.0)})
    (item,) = read_file(path, "notafig.fig")
    assert isinstance(item, Skipped) and "hgS_070000" in item.reason


def test_corrupt_fig_is_skipped(data_dir: Path) -> None:
    good = write_fig(data_dir / "good.fig", [(T, T, "a")], "x", "y", "t")
    bad = data_dir / "bad.fig"
    bad.write_bytes(good.read_bytes()[:300])
    (item,) = read_file(bad, "bad.fig")
    assert isinstance(item, Skipped)


def test_labels_from_axes_properties_take_precedence(data_dir: Path) -> None:
    """Label handles named in the axes' own properties win over `special`'s order."""
    path = write_fig(
        data_dir / "p.fig",
        [(T, T, "a")],
        "first text",
        "second text",
        "fourth text",
        axes_props={"XLabel": 202.0, "YLabel": 201.0},  # swapped on purpose
    )
    (fig,) = read_file(path, "p.fig")
    assert isinstance(fig, Dataset)
    assert fig.labels["xlabel"] == "second text"
    assert fig.labels["ylabel"] == "first text"
    assert fig.labels["title"] == "fourth text"  # not in properties: from `special`
