"""Axis offsets and scales in the drawn figures: "×10⁻⁷" as mathtext (its
glyphs from the math font, which a Chinese text font lacks), tick labels
plain text (mathtext typeset every label and was the costliest part of
drawing a figure)."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.agent.offline.plot_worker import _offset_text, _setup_cjk, _style, _times_ten

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def _drawn_axis_texts(x: np.ndarray, y: np.ndarray) -> tuple[str, str, list[str]]:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    try:
        ax.plot(x, y, "o")
        _offset_text(ax)
        fig.canvas.draw()
        labels = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        return (ax.xaxis.get_offset_text().get_text(),
                ax.yaxis.get_offset_text().get_text(), labels)  # fmt: skip
    finally:
        plt.close(fig)


def test_a_tiny_scale_is_a_superscript_power_of_ten() -> None:
    x_off, y_off, labels = _drawn_axis_texts(np.linspace(0, 10, 20), np.linspace(1e-7, 9e-7, 20))
    assert x_off == ""
    assert y_off == r"$\times10^{-7}$"
    assert labels and not any("$" in label or "e" in label for label in labels)


def test_a_large_offset_is_written_out() -> None:
    _, y_off, labels = _drawn_axis_texts(np.arange(5.0), 299_700 + np.arange(5.0) * 0.5)
    assert y_off.startswith("$+") and "299" in y_off
    assert not any("$" in label for label in labels)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (299000.0, "299000"),
        (2.5e-7, r"2.5\times10^{-7}"),
        (1e8, "10^{8}"),
        (0.01, "0.01"),
        (3e6, r"3\times10^{6}"),
    ],
)
def test_numbers_with_a_power_of_ten(value: float, text: str) -> None:
    assert _times_ten(value) == text


def test_a_chinese_figure_draws_its_offset_without_a_missing_glyph(
    recwarn: pytest.WarningsRecorder,
) -> None:
    """FandolHei, the TeX distribution's Chinese font the worker falls back
    to, has no superscript minus or digits: the offset must not need them."""
    import shutil
    import subprocess

    import matplotlib.pyplot as plt

    kpse = shutil.which("kpsewhich")
    font = (
        subprocess.run(
            [kpse, "FandolHei-Regular.otf"], capture_output=True, text=True
        ).stdout.strip()
        if kpse
        else ""
    )
    if not font:
        pytest.skip("no FandolHei in this TeX distribution")
    with plt.rc_context():
        _style(plt)
        _setup_cjk(plt, font)
        fig, ax = plt.subplots()
        try:
            ax.plot(np.arange(5.0), np.arange(5.0) * 1e-3)
            ax.set_xlabel("时间")
            _offset_text(ax)
            fig.canvas.draw()
        finally:
            plt.close(fig)
    missing = [str(w.message) for w in recwarn if "missing from font" in str(w.message)]
    assert not missing, missing
