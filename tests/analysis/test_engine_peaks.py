"""Composite entries (analysis/engine_peaks.py): peaks of one shape over a
baseline, fitted with lmfit's built-in models; the number of peaks from the
notes or by AICc; centres, FWHM and areas with standard errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labwright.analysis.catalogue import example
from labwright.analysis.catalogue.load import entry_with, parse_text
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.engine import FitData, fit

LINE = """
[[model]]
key = "emission_line_test"
area = "spectroscopy"
name = { en = "emission line", zh = "发射谱线" }
asks = { en = ["line centre"], zh = ["谱线中心"] }
formula = "I = area*sqrt(4*log(2)/pi)/fwhm*exp(-4*log(2)*(x - center)**2/fwhm**2) + b"
latex = "I = \\\\ldots"
composite = { peak = "gaussian", baselines = ["constant", "linear"] }

[model.variables.x]
role = "independent"
name = { en = "wavelength", zh = "波长" }
unit = "nm"

[model.variables.I]
role = "response"
name = { en = "intensity", zh = "强度" }
unit = "count"

[model.parameters.center]
name = { en = "line centre", zh = "谱线中心" }
latex = "x_0"
unit = "{x}"
start = "at_max(x, I)"
asks = { en = ["centre"], zh = ["中心"] }

[model.parameters.fwhm]
name = { en = "full width at half maximum", zh = "半高全宽" }
latex = "w"
unit = "{x}"
min = 0
start = "fwhm(x, I)"
asks = { en = ["FWHM"], zh = ["半高宽"] }

[model.parameters.area]
name = { en = "line area", zh = "谱线面积" }
latex = "A"
unit = "{I}*{x}"
min = 0
start = "max(I)*fwhm(x, I)"
asks = { en = ["area"], zh = ["面积"] }

[model.parameters.b]
name = { en = "background", zh = "本底" }
latex = "b"
unit = "{I}"
start = "min(I)"
asks = { en = ["background"], zh = ["本底"] }

[model.example]
n = 81
noise = 2.0
ranges = { x = { min = 400, max = 600 } }
truth = { center = 503.0, fwhm = 18.0, area = 2000.0, b = 5.0 }
"""


def _entry() -> ModelEntry:
    entries, problems = parse_text(LINE, "test.toml")
    assert not problems, problems
    return entries[0]


def test_one_line_is_recovered_within_three_standard_errors() -> None:
    entry = _entry()
    truth = entry.example.truth_dict()  # type: ignore[union-attr]
    hits = dict.fromkeys(truth, 0)
    draws = example.draws(entry, 40, 11)
    for d in draws:
        result = fit(entry, d.data)
        assert result.ok, result.message
        for name, value in truth.items():
            hits[name] += abs(result.value(name) - value) <= 3 * result.se(name)
    assert all(k >= 36 for k in hits.values()), hits
    assert result.units["center"] == "nm" and result.units["area"] is not None
    assert result.value("height_1") == pytest.approx(
        result.value("area") / result.value("fwhm") * math.sqrt(4 * math.log(2) / math.pi),
        rel=1e-6,
    )


def test_the_number_of_peaks_is_chosen_by_aicc_and_ordered_by_centre() -> None:
    entry = entry_with(_entry(), parameters=_entry().parameters[:3])
    x = np.linspace(560, 600, 161)
    rng = np.random.default_rng(5)

    def line(c: float, w: float, a: float) -> np.ndarray:
        return a * np.sqrt(4 * np.log(2) / np.pi) / w * np.exp(-4 * np.log(2) * (x - c) ** 2 / w**2)

    # The Hg yellow doublet, 577.0 and 579.1 nm, each 1.2 nm wide.
    y = line(579.1, 1.2, 300.0) + line(577.0, 1.2, 500.0) + 3.0 + rng.normal(0, 2.0, x.size)
    result = fit(entry, FitData(variables={"x": x, "I": y}, units={"x": "nm", "I": "count"}))
    assert result.ok, result.message
    assert "center_2" in result.values and "center_3" not in result.values
    assert abs(result.value("center_1") - 577.0) < 3 * result.se("center_1")
    assert abs(result.value("center_2") - 579.1) < 3 * result.se("center_2")
    assert result.value("area_1") == pytest.approx(500.0, rel=0.1)
    one = fit(entry, FitData(variables={"x": x, "I": y}, units={"x": "nm", "I": "count"}, peaks=1))
    assert one.ok and one.aicc > result.aicc and "center_2" not in one.values


def test_noise_alone_has_no_peak_that_fits_better_than_its_scatter() -> None:
    entry = _entry()
    x = np.linspace(0, 1, 5)
    result = fit(entry, FitData(variables={"x": x, "I": x * 0 + 1.0}, units={}))
    assert not result.ok and result.message is not None
    assert result.message("zh") != result.message.en
