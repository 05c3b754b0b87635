"""Axis offsets and scales in the drawn figures: "×10⁻⁷" in the axis font,
tick labels plain text (mathtext typeset every label and was the costliest
part of drawing a figure)."""

from __future__ import annotations

import numpy as np
import pytest

from labwright.agent.offline.plot_worker import _times_ten, _unicode_offsets

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def _drawn_axis_texts(x: np.ndarray, y: np.ndarray) -> tuple[str, str, list[str]]:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    try:
        ax.plot(x, y, "o")
        _unicode_offsets(ax)
        fig.canvas.draw()
        labels = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        return (ax.xaxis.get_offset_text().get_text(),
                ax.yaxis.get_offset_text().get_text(), labels)  # fmt: skip
    finally:
        plt.close(fig)


def test_a_tiny_scale_is_a_superscript_power_of_ten() -> None:
    x_off, y_off, labels = _drawn_axis_texts(np.linspace(0, 10, 20), np.linspace(1e-7, 9e-7, 20))
    assert x_off == ""
    assert y_off.startswith("×10") and y_off.endswith("⁻⁷")
    assert labels and not any("$" in label or "e" in label for label in labels)


def test_a_large_offset_is_written_out() -> None:
    _, y_off, labels = _drawn_axis_texts(np.arange(5.0), 299_700 + np.arange(5.0) * 0.5)
    assert y_off.startswith("+") and "299" in y_off and "$" not in y_off
    assert not any("$" in label for label in labels)


@pytest.mark.parametrize(
    ("value", "text"),
    [(299000.0, "299000"), (2.5e-7, "2.5×10⁻⁷"), (1e8, "10⁸"), (0.01, "0.01"), (3e6, "3×10⁶")],
)
def test_numbers_with_a_power_of_ten(value: float, text: str) -> None:
    assert _times_ten(value) == text
