"""The plotting subprocess: one per build, started before the folder is read.

Importing matplotlib costs about half a second, so the build starts this
worker first and lets it import while the main process reads and fits; then it
sends one job (a JSON spec and an .npz of arrays) on stdin. The worker answers
with one JSON line per figure and a final {"done": true}.

The worker imports only numpy, matplotlib and Pillow (no labwright modules
beyond this file), and loads arrays with allow_pickle=False. It draws only
what the deterministic spec says; no code from the data folder runs here.
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

        with Image.open(spec["src"]) as img:
            img.seek(0)
            img = img.convert("RGBA" if "A" in img.getbands() else "RGB")
            img.save(target, format="PNG")
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


def run(stdin: Any = sys.stdin, stdout: Any = sys.stdout) -> int:
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    _style(plt)
    line = stdin.readline()
    if not line.strip():
        return 0
    request = json.loads(line)
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
    stdout.write(json.dumps({"done": True}) + "\n")
    stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(run())
