"""pyformat lays generated Python out as `ruff format` does (issue 23), for
the shapes the compendium emits: checked against ruff itself on samples of
each shape (the compendium tests check every example's whole script)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from labwright.agent.offline.pyformat import expression, format_code, normalize_quotes, width

SAMPLES = {
    "quotes": "x = 'a'\ny = 'it\\'s'\nz = 'say \"hi\"'\nw = f'{a!r} b'\nv = f'{d[\"k\"]}'\n",
    "long call": "report(f'standard uncertainty of mean of {what}', sample.std(ddof=1) / np.sqrt(sample.size))\n",
    "hugged args": "t = decimal_years(pd.Timestamp('2003-01-01 00:00:00') + pd.to_timedelta(df['Date'], unit='s'))\n",
    "collection in for": "for name, source in [('t', 'discharge.xlsx [R10k]: t'), ('U_C', 'discharge.xlsx [R10k]: U_C')]:\n    pass\n",
    "dict of lists": "PRINTED = {\n    'mean': [('4b4d5614f9', '3e2', 'hardness.csv: hardness'), ('c87048b607', '7.850', 'hardness.csv: density')],\n    'a much longer computation name that will not fit with its single entry': [('68ee8381c3', '0.001', '')],\n}\n",
    "ternary rhs": "def f():\n    fit = model.fit(cov_type='HAC', cov_kwds={'maxlags': maxlags}) if maxlags > 0 else model.fit()\n",
    "boolean if": "def f():\n    if n < max(5, k + 2) or not np.all(np.isfinite(errors)) or not np.all(np.isfinite(params)):\n        return None\n",
    "method chain": "data = df[['yield', 'temperature', 'pressure', 'catalyst']].astype(float).replace([np.inf, -np.inf], np.nan).dropna()\n",
    "paren then trailer": "t = (df['YEAR'].to_numpy(dtype=float)[:, None] + (np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) - 0.5) / 12).ravel()\n",
    "dict then method": "def f():\n    simpler = {'exponential_offset': ('exponential', 2), 'quadratic': ('linear', 0)}.get(best)\n",
    "one long string": 'print(f\'{printed:>14}  {value:<14.6g} {"ok" if ok else "DIFFERS"}  {computation} [{number}] and more text\')\n',
    "zip with strict": "for row, r_i, d_i in zip(flagged, studentized[data.index.isin(flagged)], cooks[data.index.isin(flagged)], strict=True):\n    pass\n",
    "wide characters": "def table(file, part=None):\n    if (file, part) == ('株高.csv', None):\n        return pd.read_csv(DATA / '株高.csv').set_axis(['编号', '处理', '株高', '叶数'], axis=1)\n",
    "comprehension": "unknowns = [(f'concentration of unknown {i}', [v]) for i, v in enumerate(yy, 1) if np.isfinite(v) and v > 0]\n",
    "multi-line template": "scans = np.column_stack([\n    table('a.csv')['y'].astype(float).to_numpy(),\n    table('b.csv')['y'].astype(float).to_numpy(),\n])\n",
    "hanging indent": "report(f'standard uncertainty of amplitude, {what} (sinusoid fit)',\n       np.hypot(p['a'].value * p['a'].stderr, p['b'].value * p['b'].stderr) / amp)\n",
    "trailing comment": "value = fit_law.params['v_tau']  # to s, the unit the report prints it in, which is long enough\n",
    "blank lines": "import numpy as np\nx = 1\ndef f(a):\n    return a\ny = f(x)\n\n\n\n\nz = 2\nfor i in range(3):\n\n    z += i\n# a comment\ndef g():\n    pass\n",
    "nested def": "def outer():\n    a = 1\n    def inner():\n        return a\n    return inner\n",
    "docstring": '"""Doc."""\nimport sys\n',
    "binary tail": "def law(x, a):\n    (t,) = x\n    return (a * exp(-t / a) + a * exp(-t / (2 * a)) + a * exp(-t / (3 * a))) / 1000.0\n",
    "subscript": "value = fit_law.params['v_T_env_long_name'].value * 1.0 + fit_law.params['v_T0_long_name'].stderr\n",
    "lambda": "number, printed, _ = min(candidates_with_a_long_name, key=lambda p: distance(value, p[1]) + other)\n",
    "long atom": "what = 'a computation so long that no parentheses would make it fit on one line of eighty-eight'\nshort = 'a string that fits once it is wrapped in parentheses of its own, as black does it'\n",
    "kwargs unpack": "params = model.make_params(**{'v_T_env': 0.05081745233073594, 'v_T0': 18.080130472894634, 'v_k': 0.0042043560287817})\n",
}

#: Laid out differently from ruff, on purpose, and left alone by ruff: a
#: trailing comment too long for its line goes above the statement (ruff
#: splits the statement to make room for it).
MOVED = {"trailing comment"}


def _ruff(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", *args, "-"],
        input=text, capture_output=True, text=True,
    )  # fmt: skip


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
@pytest.mark.parametrize("name", list(SAMPLES))
def test_the_layout_is_ruffs(name: str) -> None:
    source = SAMPLES[name]
    ours = format_code(source)
    compile(ours, name, "exec")
    assert _ruff(["--check"], ours).returncode == 0, ours  # ruff leaves it as it is
    assert format_code(ours) == ours  # a fixpoint, like ruff's
    if name not in MOVED:
        theirs = _ruff([], source).stdout
        assert ours == theirs, f"ours:\n{ours}\nruff:\n{theirs}"


def test_quotes_follow_blacks_rule() -> None:
    assert normalize_quotes("'a'") == '"a"'
    assert normalize_quotes("'say \"hi\"'") == "'say \"hi\"'"  # fewer escapes as it is
    assert normalize_quotes("'it\\'s'") == '"it\'s"'
    assert normalize_quotes("f'{d[\"k\"]}'") == "f\"{d['k']}\""  # the field's quotes flip
    assert normalize_quotes("rb'x'") == 'rb"x"'


def test_wide_characters_take_two_columns() -> None:
    assert width("株高.csv") == 8
    assert width("abc") == 3


def test_expressions_are_spaced_like_ruff() -> None:
    assert expression("v_V0*exp(-v_t/v_tau)") == "v_V0 * exp(-v_t / v_tau)"
    assert expression("a*x**2+b") == "a * x**2 + b"
    assert expression("(a+b)**2") == "(a + b) ** 2"
    assert expression("x**y**z") == "x**y**z"
