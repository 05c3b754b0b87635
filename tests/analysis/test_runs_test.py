"""The runs test of a fit's residuals (analysis/results.runs_test_p) is
statsmodels' `runstest_1samp`, which the exported script calls, to the last
bit, and a fit's quality is computed without importing scipy.stats."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from statsmodels.sandbox.stats.runs import runstest_1samp

from labwright.analysis.results import fit_quality, runs_test_p


@pytest.mark.parametrize("size", [10, 11, 23, 49, 50, 51, 200])
def test_runs_p_is_statsmodels_runstest_1samp(size: int) -> None:
    rng = np.random.default_rng(size)
    for trial in range(60):
        # Independent signs, long runs (a missed trend) and alternation.
        kind = trial % 3
        if kind == 0:
            r = rng.normal(size=size)
        elif kind == 1:
            r = np.sin(np.linspace(0, rng.uniform(1, 6), size)) + 0.1 * rng.normal(size=size)
        else:
            r = np.where(np.arange(size) % 2 == 0, 1.0, -1.0) * rng.uniform(0.5, 1, size)
        above = r > 0
        if above.all() or not above.any():
            continue
        expected = runstest_1samp(r, cutoff=0.0, correction=size < 50)[1]
        assert runs_test_p(above) == expected


def test_fit_quality_matches_scipy_stats() -> None:
    from scipy import stats

    rng = np.random.default_rng(7)
    residuals = rng.normal(size=30)
    sigma = np.full(30, 0.9)
    quality = fit_quality(residuals, 2, sigma=sigma)
    chi2 = float(np.sum((residuals / sigma) ** 2))
    assert quality.chi2_p == float(stats.chi2.sf(chi2, 28))
    assert quality.runs_p == runstest_1samp(residuals, cutoff=0.0, correction=True)[1]


def test_a_fit_and_its_quality_leave_scipy_stats_unimported() -> None:
    """The point of both: lmfit's import and a catalogue fit's quality do not
    bring scipy.stats in (analysis/lmfit_import.py); lmfit still fits, and its
    functions that need a distribution still get scipy.stats when called."""
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from labwright.analysis.lmfit_import import import_lmfit\n"
        "from labwright.analysis.results import fit_quality\n"
        "lmfit = import_lmfit()\n"
        "x = np.linspace(0, 1, 30)\n"
        "y = 2 * np.exp(-x / 0.3) + 0.01 * np.sin(40 * x)\n"
        "model = lmfit.Model(lambda x, a, tau: a * np.exp(-x / tau))\n"
        "fit = model.fit(y, x=x, a=1, tau=1)\n"
        "q = fit_quality(fit.residual, 2, sigma=np.full(30, 0.01))\n"
        "assert q.runs_p is not None and q.chi2_p is not None\n"
        "assert 'scipy.stats' not in sys.modules, 'scipy.stats was imported'\n"
        "band = fit.eval_uncertainty(sigma=1)\n"  # lmfit's t distribution, on first use
        "assert band.shape == x.shape and np.all(np.isfinite(band))\n"
        "assert 'scipy.stats' in sys.modules\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
