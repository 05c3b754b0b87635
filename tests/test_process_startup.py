"""What a Labwright process changes at its start: SciPy's import (docstrings
kept as written, numpy's f2py and testing loaded on first use), statsmodels'
formula engine (patsy, formulaic left out, as in the frozen app) and the garbage
collector's pace of a one-job process. Each check that needs a fresh
interpreter runs one; the effects asserted are what the rest of the program
can observe (functions work, docstrings read, modules load when used)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from labwright.collector import ONE_JOB_THRESHOLD, pace_for_one_job


def _fresh(code: str) -> dict[str, Any]:
    """Run `code` (which prints one JSON line last) in a new interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_scipy_imported_after_install_works_and_skipped_only_the_unused_work() -> None:
    seen = _fresh(
        """
        import json, sys, inspect
        from labwright.lean_imports import KeptDocstring, install
        install()
        import scipy.stats, scipy.optimize
        import scipy._lib._array_api as api
        f2py_ran = "numpy.f2py.f2py2e" in sys.modules
        testing_ran = "numpy.testing._private.utils" in sys.modules
        res = scipy.stats.ttest_ind([1.0, 2.0, 3.0, 4.0], [2.0, 3.5, 4.0, 5.5])
        fit = scipy.optimize.curve_fit(lambda x, a: a * x, [1.0, 2.0, 3.0], [2.1, 3.9, 6.0])
        import numpy.testing
        numpy.testing.assert_allclose(1.0, 1.0)
        print(json.dumps({
            "replaced": api.FunctionDoc is KeptDocstring,
            "f2py_ran": f2py_ran,
            "testing_ran": testing_ran,
            "testing_now": "numpy.testing._private.utils" in sys.modules,
            "p": float(res.pvalue),
            "slope": float(fit[0][0]),
            "doc": scipy.stats.ttest_ind.__doc__[:40],
            "source": len(inspect.getsource(api)),
        }))
        """
    )
    # The locked SciPy is the one this module was written for: a SciPy that
    # moves its docstring parser makes this fail (the speed-up is lost, loudly).
    assert seen["replaced"] is True
    assert seen["f2py_ran"] is False and seen["testing_ran"] is False
    assert seen["testing_now"] is True  # loaded when used
    assert 0.0 < float(seen["p"]) < 1.0
    assert abs(float(seen["slope"]) - 2.0) < 0.1
    assert str(seen["doc"]).startswith("Calculate the T-test")
    assert int(seen["source"]) > 1000  # the wrapped loader still serves the source


def test_the_same_results_with_and_without_install() -> None:
    code = """
        import json, sys
        if {install}:
            from labwright.lean_imports import install
            install()
        import numpy as np, scipy.stats, scipy.signal
        t = np.linspace(0, 20, 200)
        y = np.sin(1.3 * t) + 0.1 * np.cos(7 * t)
        print(json.dumps({{
            "ls": scipy.signal.lombscargle(t, y, np.array([1.0, 1.3, 2.0])).tolist(),
            "norm": float(scipy.stats.norm.ppf(0.975)),
            "doc": scipy.stats.norm.ppf.__doc__ is not None,
        }}))
        """
    assert _fresh(code.format(install=True)) == _fresh(code.format(install=False))


def test_install_is_once_and_leaves_an_imported_scipy_alone() -> None:
    seen = _fresh(
        """
        import json, sys
        import scipy.stats
        from labwright.lean_imports import _Watch, install
        install(); install()
        import scipy._lib._array_api as api
        print(json.dumps({
            "watchers": sum(isinstance(f, _Watch) for f in sys.meta_path),
            "parser": api.FunctionDoc.__name__,
        }))
        """
    )
    assert seen == {"watchers": 0, "parser": "FunctionDoc"}


def test_statsmodels_fits_formulas_on_patsy_without_importing_formulaic() -> None:
    seen = _fresh(
        """
        import json, os, sys
        import numpy as np, pandas as pd
        os.environ["SM_FORMULA_ENGINE"] = "formulaic"  # a user's environment asks for it
        from labwright.lean_imports import install
        install()
        import statsmodels.formula.api as smf
        data = pd.DataFrame({"x": np.arange(8.0), "g": list("abababab")})
        data["y"] = 2 * data["x"] + (data["g"] == "b") + 0.01 * np.sin(data["x"])
        fit = smf.ols("y ~ x + C(g)", data=data).fit()
        print(json.dumps({
            "formulaic": "formulaic" in sys.modules and sys.modules["formulaic"] is not None,
            "engine": os.environ["SM_FORMULA_ENGINE"],
            "slope": float(fit.params["x"]),
        }))
        """
    )
    assert seen["formulaic"] is False and seen["engine"] == "patsy"
    assert abs(seen["slope"] - 2.0) < 0.01


@pytest.fixture
def restored_threshold() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


@pytest.mark.usefixtures("restored_threshold")
def test_a_one_job_process_collects_its_young_generation_rarely_but_still_collects() -> None:
    _, middle, oldest = gc.get_threshold()
    pace_for_one_job()
    assert gc.get_threshold() == (ONE_JOB_THRESHOLD, middle, oldest)
    assert gc.isenabled()


def test_the_command_line_runs_at_a_one_job_pace_and_imports_scipy_lean() -> None:
    seen = _fresh(
        """
        import gc, json, sys
        import labwright.cli
        seen = {}
        def entry():
            import scipy._lib._array_api as api
            seen["threshold"] = gc.get_threshold()[0]
            seen["parser"] = api.FunctionDoc.__name__
        labwright.cli.entry = entry
        from labwright.__main__ import _entry
        sys.argv = ["labwright", "doctor"]
        _entry()
        print(json.dumps(seen))
        """
    )
    assert seen == {"threshold": ONE_JOB_THRESHOLD, "parser": "KeptDocstring"}
