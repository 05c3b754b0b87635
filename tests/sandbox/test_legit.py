"""Realistic plotting scripts a model would write: all must succeed, confined.

They run through the public `make_figure` (both layers on), in fork-server
mode; a few also run cold to show the two paths behave the same.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from labwright.sandbox import make_figure
from labwright.sandbox.runner import run_code

from .conftest import requires_confinement

pytestmark = [pytest.mark.smoke, requires_confinement]


def _cjk_family() -> str | None:
    """A Chinese-capable font family known to fontconfig (Fandol, Noto, AR PL...)."""
    try:
        out = subprocess.run(
            ["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    families = [line.split(",")[0].strip() for line in out.splitlines() if line.strip()]
    for preferred in ("FandolSong", "Noto Sans CJK SC", "Noto Serif CJK SC", "AR PL SungtiL GB"):
        if preferred in families:
            return preferred
    return families[0] if families else None


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from scipy.io import savemat

    d = tmp_path_factory.mktemp("legit-data")
    rng = np.random.default_rng(0)
    t = np.linspace(0, 10, 200)
    (d / "decay.csv").write_text(
        "t,v,err\n"
        + "\n".join(f"{a:.4f},{3 * np.exp(-a / 2.5) + rng.normal(0, 0.03):.5f},0.03" for a in t),
        encoding="utf-8",
    )
    groups = ["A", "B", "C"]
    rows = [f"{g},{i},{rng.normal(i, 1):.4f}" for g in groups for i in range(30)]
    (d / "groups.csv").write_text("group,trial,value\n" + "\n".join(rows), encoding="utf-8")
    x, y = np.meshgrid(np.linspace(-2, 2, 64), np.linspace(-2, 2, 64))
    savemat(d / "field.mat", {"B": np.exp(-(x**2 + y**2)), "x": x[0], "y": y[:, 0]})
    np.savez(
        d / "spectrum.npz",
        f=np.logspace(1, 5, 100),
        a=1 / (1 + (np.logspace(1, 5, 100) / 1e3) ** 2),
    )
    (d / "meta.json").write_text(json.dumps({"sample": "Si-3", "T": 295}), encoding="utf-8")
    sub = d / "runs"
    sub.mkdir()
    for k in range(3):
        (sub / f"run{k}.txt").write_text(
            "\n".join(f"{i} {i * (k + 1) + rng.normal(0, 0.5):.3f}" for i in range(20)),
            encoding="utf-8",
        )
    return d


CJK = _cjk_family()

SCRIPTS: dict[str, str] = {
    "line": "x = np.linspace(0, 2 * np.pi, 100)\nplt.plot(x, np.sin(x))\nplt.savefig(OUT)",
    "subplots": (
        "fig, axes = plt.subplots(2, 2, figsize=(8, 6))\n"
        "for k, ax in enumerate(axes.flat):\n    ax.plot(np.arange(10) ** (k + 1))\n    ax.set_title(f'power {k + 1}')\n"
        "fig.tight_layout()\nfig.savefig(OUT, dpi=100)"
    ),
    "errorbars": (
        "import pandas as pd\ndf = pd.read_csv(srcpath('decay.csv'))\n"
        "plt.errorbar(df['t'][::10], df['v'][::10], yerr=df['err'][::10], fmt='o', capsize=3)\n"
        "plt.xlabel('t (s)')\nplt.ylabel('V (V)')\nplt.savefig(OUT)"
    ),
    "curve-fit": (
        "import pandas as pd\nfrom scipy.optimize import curve_fit\n"
        "df = pd.read_csv(srcpath('decay.csv'))\n"
        "def model(t, a, tau):\n    return a * np.exp(-t / tau)\n"
        "p, cov = curve_fit(model, df['t'], df['v'], p0=(1, 1))\n"
        "plt.plot(df['t'], df['v'], '.', label='data')\n"
        "plt.plot(df['t'], model(df['t'], *p), label=f'tau = {p[1]:.2f} s')\nplt.legend()\nplt.savefig(OUT)"
    ),
    "groupby-bar": (
        "import pandas as pd\ndf = pd.read_csv(srcpath('groups.csv'))\n"
        "stats = df.groupby('group')['value'].agg(['mean', 'std'])\n"
        "plt.bar(stats.index, stats['mean'], yerr=stats['std'], capsize=4)\nplt.savefig(OUT)"
    ),
    "groupby-lines": (
        "import pandas as pd\ndf = pd.read_csv(srcpath('groups.csv'))\n"
        "for name, g in df.groupby('group'):\n    plt.plot(g['trial'], g['value'], label=name)\n"
        "plt.legend(title='group')\nplt.savefig(OUT)"
    ),
    "imshow-mat": (
        "from scipy.io import loadmat\nm = loadmat(srcpath('field.mat'))\n"
        "im = plt.imshow(m['B'], extent=[m['x'].min(), m['x'].max(), m['y'].min(), m['y'].max()], origin='lower', cmap='viridis')\n"
        "plt.colorbar(im, label='B (T)')\nplt.savefig(OUT)"
    ),
    "contour-mat": (
        "import scipy.io as sio\nm = sio.loadmat(srcpath('field.mat'))\n"
        "cs = plt.contour(m['x'].ravel(), m['y'].ravel(), m['B'], levels=8)\nplt.clabel(cs)\nplt.savefig(OUT)"
    ),
    "log-axes": (
        "d = np.load(srcpath('spectrum.npz'))\nplt.loglog(d['f'], d['a'])\n"
        "plt.grid(True, which='both', alpha=0.3)\nplt.xlabel('f (Hz)')\nplt.savefig(OUT)"
    ),
    "semilog": "x = np.linspace(0, 5, 50)\nplt.semilogy(x, np.exp(x))\nplt.savefig(OUT)",
    "mathtext": (
        "x = np.linspace(0.1, 3, 100)\nplt.plot(x, x ** 2 * np.exp(-x))\n"
        "plt.xlabel(r'$\\omega / \\omega_0$')\nplt.ylabel(r'$\\chi^{\\prime\\prime}(\\omega)$')\n"
        "plt.title(r'$\\int_0^\\infty \\alpha\\,\\mathrm{d}t$')\nplt.savefig(OUT)"
    ),
    "multi-panel-gridspec": (
        "fig = plt.figure(figsize=(9, 6))\ngs = fig.add_gridspec(2, 3)\n"
        "ax1 = fig.add_subplot(gs[0, :])\nax1.plot(np.random.default_rng(1).normal(size=200).cumsum())\n"
        "for k in range(3):\n    ax = fig.add_subplot(gs[1, k])\n    ax.hist(np.random.default_rng(k).normal(size=500), bins=20)\n"
        "fig.suptitle('overview')\nfig.savefig(OUT)"
    ),
    "walkfiles-runs": (
        "files = [f for f in walkfiles() if f.startswith('runs/')]\n"
        "for f in files:\n    d = np.loadtxt(srcpath(f))\n    plt.plot(d[:, 0], d[:, 1], label=f)\n"
        "plt.legend()\nplt.savefig(OUT)"
    ),
    "listdir-json": (
        "import json\nnames = listdir('runs')\n"
        "with plt.rc_context({'font.size': 9}):\n"
        "    meta = json.loads(np.loadtxt(srcpath('meta.json'), dtype=str, delimiter='|', comments=None).item())\n"
        "    plt.bar(range(len(names)), [len(n) for n in names])\n    plt.title(meta['sample'])\n"
        "plt.savefig(OUT)"
    ),
    "scatter-colormap": (
        "rng = np.random.default_rng(3)\nx, y = rng.normal(size=(2, 300))\n"
        "sc = plt.scatter(x, y, c=np.hypot(x, y), cmap='plasma', s=12)\nplt.colorbar(sc)\nplt.savefig(OUT)"
    ),
    "histogram-fit": (
        "from scipy import stats\nrng = np.random.default_rng(4)\nv = rng.normal(2, 0.5, 2000)\n"
        "mu, sigma = stats.norm.fit(v)\nplt.hist(v, bins=40, density=True, alpha=0.6)\n"
        "x = np.linspace(0, 4, 200)\nplt.plot(x, stats.norm.pdf(x, mu, sigma))\nplt.savefig(OUT)"
    ),
    "twin-axes": (
        "fig, ax = plt.subplots()\nt = np.linspace(0, 10, 100)\nax.plot(t, np.sin(t), 'b')\n"
        "ax2 = ax.twinx()\nax2.plot(t, np.exp(t / 5), 'r')\nfig.savefig(OUT)"
    ),
    "interp-smooth": (
        "from scipy.interpolate import make_interp_spline\nfrom scipy.signal import savgol_filter\n"
        "import pandas as pd\ndf = pd.read_csv(srcpath('decay.csv'))\n"
        "s = savgol_filter(df['v'], 21, 3)\nspl = make_interp_spline(df['t'], s)\n"
        "tt = np.linspace(0, 10, 500)\nplt.plot(tt, spl(tt))\nplt.savefig(OUT)"
    ),
    "pandas-pivot-heatmap": (
        "import pandas as pd\ndf = pd.read_csv(srcpath('groups.csv'))\n"
        "df['block'] = df['trial'] // 10\npv = df.pivot_table(index='group', columns='block', values='value')\n"
        "plt.imshow(pv.values, aspect='auto')\nplt.yticks(range(len(pv.index)), pv.index)\nplt.colorbar()\nplt.savefig(OUT)"
    ),
    "polar": (
        "th = np.linspace(0, 2 * np.pi, 200)\nax = plt.subplot(projection='polar')\n"
        "ax.plot(th, 1 + 0.5 * np.cos(3 * th))\nplt.savefig(OUT)"
    ),
    "3d-surface": (
        "from mpl_toolkits.mplot3d import Axes3D\nfrom scipy.io import loadmat\nm = loadmat(srcpath('field.mat'))\n"
        "X, Y = np.meshgrid(m['x'].ravel(), m['y'].ravel())\nax = plt.figure().add_subplot(projection='3d')\n"
        "ax.plot_surface(X, Y, m['B'], cmap='coolwarm')\nplt.savefig(OUT)"
    ),
    "fill-between-stats": (
        "import statistics\nx = np.arange(20)\nm = np.array([statistics.mean([i, i + 1, i + 2]) for i in x])\n"
        "plt.plot(x, m)\nplt.fill_between(x, m - 1, m + 1, alpha=0.3)\nplt.savefig(OUT)"
    ),
    "chinese-labels": (
        f"plt.rcParams['font.sans-serif'] = [{CJK!r}, 'DejaVu Sans']\n"
        "plt.rcParams['axes.unicode_minus'] = False\n"
        "plt.plot([1, 2, 3], [2, 4, 3])\nplt.title('温度随时间的变化')\nplt.xlabel('时间 (s)')\n"
        "plt.ylabel('温度 (K)')\nplt.savefig(OUT)"
    ),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_legit_script_succeeds(
    fork_server: None, data_dir: Path, tmp_path: Path, name: str
) -> None:
    if name == "chinese-labels" and CJK is None:
        pytest.skip("no Chinese font known to fontconfig (install fonts-noto-cjk or Fandol)")
    res = make_figure(name, SCRIPTS[name], data_root=data_dir, out_dir=tmp_path, mode="fork")
    assert res.ok, res.error
    assert res.path == tmp_path / f"{name}.png"
    with Image.open(res.path) as img:
        assert img.format == "PNG" and img.width > 100 and img.height > 100
        # Not a blank canvas: something was drawn.
        low, high = img.convert("L").getextrema()
        assert high - low > 10


def test_chinese_labels_render_without_missing_glyph_warning(
    fork_server: None, data_dir: Path, tmp_path: Path
) -> None:
    if CJK is None:
        pytest.skip("no Chinese font known to fontconfig")
    res = run_code(
        SCRIPTS["chinese-labels"], data_root=data_dir, work_dir=tmp_path / "w", mode="fork"
    )
    assert res.ok, res.stderr
    assert "missing from" not in res.stderr, res.stderr


@pytest.mark.parametrize("name", ["curve-fit", "imshow-mat", "groupby-bar"])
def test_legit_script_cold(data_dir: Path, tmp_path: Path, name: str) -> None:
    res = make_figure(name, SCRIPTS[name], data_root=data_dir, out_dir=tmp_path, mode="cold")
    assert res.ok, res.error


def test_suite_size() -> None:
    assert len(SCRIPTS) >= 20
