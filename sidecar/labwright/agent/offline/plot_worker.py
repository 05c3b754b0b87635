"""The plotting subprocess: one per build, started before the folder is read.

Importing matplotlib costs about half a second, so the build starts this
worker first and lets it import while the main process imports and reads;
then it sends requests (a JSON line pointing at an .npz of arrays) on stdin.

It also runs the least-squares fits (labwright.agent.offline.fits), because
importing scipy.optimize costs as much as importing matplotlib and here it
overlaps the main process's own imports. Arrays are loaded with
allow_pickle=False. The worker draws only what the deterministic spec says;
no code from the data folder runs here.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

_CJK_FONTS = (
    "Noto Sans CJK SC", "Noto Serif CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei", "AR PL UMing CN", "AR PL SungtiL GB", "AR PL UKai CN",
    "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "STHeiti",
)  # fmt: skip


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def _setup_cjk(plt: Any) -> None:
    """Give matplotlib a font with Chinese glyphs: an installed system font,
    else the Fandol font that ships with the TeX distribution."""
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    chosen = [n for n in _CJK_FONTS if n in names]
    if not chosen:
        import shutil
        import subprocess

        kpse = shutil.which("kpsewhich")
        if kpse:
            try:
                out = subprocess.run(
                    [kpse, "FandolHei-Regular.otf"], capture_output=True, text=True, timeout=10
                ).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                out = ""
            if out and Path(out).is_file():
                font_manager.fontManager.addfont(out)
                chosen = [font_manager.FontProperties(fname=out).get_name()]
    if chosen:
        plt.rcParams["font.sans-serif"] = chosen + list(plt.rcParams["font.sans-serif"])
        plt.rcParams["axes.unicode_minus"] = False


def _style(plt: Any) -> None:
    plt.rcParams.update(
        {
            "figure.figsize": (6.0, 3.8),
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "font.size": 10,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "font.family": "sans-serif",
        }
    )


def _draw(plt: Any, spec: dict[str, Any], arrays: Any, out_dir: Path) -> None:
    import numpy as np

    kind = spec["kind"]
    target = out_dir / spec["file"]
    if kind == "image":
        from PIL import Image

        with Image.open(spec["src"]) as src:
            src.seek(0)
            # A camera frame of tens of megapixels adds nothing at 0.8 textwidth
            # and slows TeX down; 3000 px on the long side is print quality.
            src.thumbnail((3000, 3000))
            if target.suffix == ".jpg":  # a large JPEG stays a JPEG
                src.convert("RGB").save(target, format="JPEG", quality=90)
            else:
                converted = src.convert("RGBA" if "A" in src.getbands() else "RGB")
                converted.save(target, format="PNG")
        return
    fig, ax = plt.subplots()
    try:
        if kind == "heatmap":
            m = arrays[spec["key"] + "_m"]
            im = ax.imshow(
                m, aspect="auto", origin="lower", cmap="viridis", interpolation="nearest"
            )
            fig.colorbar(im, ax=ax)
            ax.set_xlabel("column index")
            ax.set_ylabel("row index")
            ax.grid(False)
        elif kind == "histogram":
            y = arrays[spec["curves"][0]["name"] + "_y"]
            y = y[np.isfinite(y)]
            bins = int(min(max(np.sqrt(y.size), 5), 40))
            ax.hist(y, bins=bins, color="tab:blue", alpha=0.8, edgecolor="white")
            ax.set_xlabel(spec.get("xlabel", ""))
            ax.set_ylabel("count")
        else:
            many = len(spec["curves"]) > 1
            for i, curve in enumerate(spec["curves"]):
                colour = f"C{i}"
                x = arrays.get(curve["name"] + "_x")
                y = arrays[curve["name"] + "_y"]
                if x is None:
                    x = np.arange(y.size)
                label = curve["label"] if many else None
                if kind == "xy":
                    ax.plot(x, y, "o", ms=4, color=colour, label=label)
                else:
                    ax.plot(x, y, "-", lw=1.0, color=colour, label=label)
                if curve.get("fit"):
                    ax.plot(
                        arrays[curve["name"] + "_fx"], arrays[curve["name"] + "_fy"],
                        "-", lw=1.2, color=colour, alpha=0.8,
                    )  # fmt: skip
            ax.set_xlabel(spec.get("xlabel", ""))
            ax.set_ylabel(spec.get("ylabel", "") if not many else "")
            if spec.get("title"):
                ax.set_title(spec["title"])
            if many:
                ax.legend(frameon=False)
        # Fixed margins instead of tight_layout(): the layout solver draws the
        # figure once more and nearly doubled the time per figure.
        fig.subplots_adjust(
            left=0.13, right=0.97, bottom=0.13, top=0.93 if spec.get("title") else 0.96
        )
        fig.savefig(target)
    finally:
        plt.close(fig)


def _texts(spec: dict[str, Any]) -> str:
    parts = [spec.get("xlabel", ""), spec.get("ylabel", ""), spec.get("title", "")]
    parts += [c.get("label", "") for c in spec.get("curves", [])]
    return " ".join(parts)


def _fit(request: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    from labwright.agent.offline.fits import fit_xy

    with np.load(request["arrays"], allow_pickle=False) as npz:
        n = int(request["count"])
        results = [fit_xy(npz[f"x{i}"], npz[f"y{i}"]) for i in range(n)]
    return {"fits": [r.to_dict() if r is not None else None for r in results]}


def _render(plt: Any, request: dict[str, Any], stdout: Any) -> None:
    import numpy as np

    out_dir = Path(request["out_dir"])
    job = json.loads(Path(request["spec"]).read_text(encoding="utf-8"))
    with np.load(request["arrays"], allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    if any(_has_cjk(_texts(s)) for s in job["figures"]):
        _setup_cjk(plt)
    for spec in job["figures"]:
        try:
            _draw(plt, spec, arrays, out_dir)
            msg = {"key": spec["key"], "ok": True, "file": spec["file"]}
        except Exception as exc:  # one bad figure must not stop the others
            msg = {"key": spec["key"], "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(msg) + "\n")
        stdout.flush()


def run(stdin: Any = sys.stdin, stdout: Any = sys.stdout) -> int:
    """Serve requests, one JSON line each, until stdin closes:
    {"op": "fit", "arrays": npz, "count": n} -> one line {"fits": [...]};
    {"op": "render", "spec": json, "arrays": npz, "out_dir": dir} -> one line
    per figure, then {"done": true}."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    # Import everything up front: this runs while the main process imports
    # pandas and reads the folder, so none of it is on the critical path.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import scipy.optimize  # noqa: F401  (warm the import for the fits)

    _style(plt)
    for line in stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "fit":
            try:
                reply = _fit(request)
            except Exception as exc:
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            stdout.write(json.dumps(reply) + "\n")
            stdout.flush()
        else:
            _render(plt, request, stdout)
            stdout.write(json.dumps({"done": True}) + "\n")
            stdout.flush()
    return 0


if __name__ == "__main__":
    code = run()
    # Every reply is written and flushed; skip the interpreter's teardown of
    # matplotlib and scipy (~0.15 s), which a build would otherwise wait for.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
