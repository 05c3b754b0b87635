"""The offline writer's drawing and fitting code, run inside the trusted worker.

The process around it (start early, confine, request/reply) is
`labwright.sandbox.trusted`; this module holds only what is drawn and fitted,
as two handlers the worker calls (`fit`, `render`). Both read a JSON spec and
an .npz of arrays that the backend wrote (`figures.to_job`), loaded with
allow_pickle=False, and write figures only into the worker's own directory.
The worker draws only what the deterministic spec says; no code from the data
folder runs here. User images are decoded here too (`sandbox.images`), so a
hostile file meets a confined process, not the backend.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labwright.sandbox.trusted_worker import WorkerContext

_CJK_FONTS = (
    "Noto Sans CJK SC", "Noto Serif CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei", "AR PL UMing CN", "AR PL SungtiL GB", "AR PL UKai CN",
    "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "STHeiti",
)  # fmt: skip


def has_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def _setup_cjk(plt: Any, fallback_font: str | None) -> None:
    """Give matplotlib a font with Chinese glyphs: an installed system font,
    else the Fandol font of the TeX distribution (the backend looks it up and
    hands it over; this process may not run kpsewhich)."""
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    chosen = [n for n in _CJK_FONTS if n in names]
    if not chosen and fallback_font and Path(fallback_font).is_file():
        font_manager.fontManager.addfont(fallback_font)
        chosen = [font_manager.FontProperties(fname=fallback_font).get_name()]
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
        from labwright.sandbox.images import convert_image

        # A camera frame of tens of megapixels adds nothing at 0.8 textwidth
        # and slows TeX down; 3000 px on the long side is print quality.
        convert_image(spec["src"], str(target), max_side=3000)
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


def spec_texts(spec: dict[str, Any]) -> str:
    parts = [spec.get("xlabel", ""), spec.get("ylabel", ""), spec.get("title", "")]
    parts += [c.get("label", "") for c in spec.get("curves", [])]
    return " ".join(parts)


def fit(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """{"arrays": npz with x0, y0, x1, ..., "count": n} -> one line {"fits": [...]}."""
    import numpy as np

    from labwright.agent.offline.fits import fit_xy

    with np.load(request["arrays"], allow_pickle=False) as npz:
        n = int(request["count"])
        results = [fit_xy(npz[f"x{i}"], npz[f"y{i}"]) for i in range(n)]
    yield {"fits": [r.to_dict() if r is not None else None for r in results]}


def render(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """{"spec": json, "arrays": npz, "cjk_font": path or null} -> one line per
    figure {"key", "ok", "file" | "error"}; figures go to the worker's folder."""
    import matplotlib.pyplot as plt
    import numpy as np

    _style(plt)
    out_dir = Path(context.out_dir)
    job = json.loads(Path(request["spec"]).read_text(encoding="utf-8"))
    with np.load(request["arrays"], allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    if any(has_cjk(spec_texts(s)) for s in job["figures"]):
        _setup_cjk(plt, request.get("cjk_font"))
    for spec in job["figures"]:
        try:
            _draw(plt, spec, arrays, out_dir)
            yield {"key": spec["key"], "ok": True, "file": spec["file"]}
        except Exception as exc:  # one bad figure must not stop the others
            yield {"key": spec["key"], "ok": False, "error": f"{type(exc).__name__}: {exc}"}
