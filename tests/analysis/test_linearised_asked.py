"""The notes ask for a law's linearised method when they write the plot's
ordinate as a plot or as the left side of the line's equation; the law
written with the same term ("1/f = 1/u + 1/v") asks for no plot."""

from __future__ import annotations

import pytest

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.linearised import asks_linearised


@pytest.mark.parametrize(
    ("key", "notes", "asked"),
    [
        ("thin_lens", "Real-is-positive convention: 1/f = 1/u + 1/v\nFind f.", False),
        ("thin_lens", "Use the thin-lens equation 1/f = 1/u + 1/v to find f.", False),
        ("thin_lens", "Plot 1/v against 1/u and find f from the intercept.", True),
        ("thin_lens", "以 1/v 对 1/u 作图，由截距求焦距。", True),
        ("thin_lens", "Graph the reciprocals: 1/v, 1/u.", True),
        ("clausius_clapeyron", "ln p = −ΔH/(R T) + C, to find ΔH.", True),
        ("clausius_clapeyron", "以 ln p 对 1/T 作图，由直线斜率求汽化焓。", True),
        ("clausius_clapeyron", "Find ΔH from p(T); the law is p = p0 exp(−ΔH/(RT)).", False),
    ],
)
def test_a_plot_is_asked_only_as_a_plot_or_the_lines_equation(
    key: str, notes: str, asked: bool
) -> None:
    assert asks_linearised(catalogue()[key], notes) is asked
