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

import functools
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labwright.sandbox.trusted_worker import WorkerContext

_CJK_FONTS = (
    "Noto Sans CJK SC", "Noto Serif CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei", "AR PL UMing CN", "AR PL SungtiL GB", "AR PL UKai CN",
    "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "STHeiti",
)  # fmt: skip
# Fonts with the Japanese kanji and kana a Chinese font lacks; matplotlib falls
# back glyph by glyph along the family list, so one of these follows the
# Chinese font.
_JA_FONTS = (
    "IPAexGothic",
    "IPAGothic",
    "Noto Sans CJK JP",
    "Yu Gothic",
    "Hiragino Sans",
    "MS Gothic",
)


DEFAULT_SIZE = (6.0, 3.8)
RESIDUAL_SIZE = (6.0, 4.4)  # room for the residual panel
# Fit lines: dark, saturated colours that stand out against the C0..C3 markers.
_FIT_COLOURS = ("#b2182b", "#111111", "#5e3c99", "#006837")


def has_cjk(text: str) -> bool:
    """Chinese, Japanese kanji and kana (the fallback font covers the latter)."""
    return any(
        "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"
        for ch in text
    )


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
    chosen += [n for n in _JA_FONTS if n in names]
    if chosen:
        plt.rcParams["font.sans-serif"] = chosen + list(plt.rcParams["font.sans-serif"])
        plt.rcParams["axes.unicode_minus"] = False


def _style(plt: Any) -> None:
    plt.rcParams.update(
        {
            "figure.figsize": DEFAULT_SIZE,
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "font.size": 10,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "font.family": "sans-serif",
            # Mathtext for every tick label costs more than the rest of a figure;
            # `_offset_text` typesets only the offset text.
            "axes.formatter.use_mathtext": False,
            "axes.formatter.limits": (-3, 4),
            # Type 3 fonts: TrueType embedding cost ~0.1 s per figure.
            "pdf.fonttype": 3,
        }
    )


def _times_ten(value: float) -> str:
    """A positive number as mathtext, with its power of ten written out when
    it is large or tiny: 299000 → "299000", 2.5e-07 → "2.5\\times10^{-7}",
    1e8 → "10^{8}"."""
    exponent = math.floor(math.log10(value))
    if -4 <= exponent < 6:
        return f"{value:.10g}"
    mantissa = f"{value / 10.0**exponent:.10g}"
    power = f"10^{{{exponent}}}"
    return power if mantissa == "1" else f"{mantissa}\\times{power}"


@functools.cache
def _offset_formatter() -> Any:
    """ScalarFormatter whose offset text alone is mathtext (made on first
    use: this module is imported by the backend too, which never draws)."""
    from matplotlib.ticker import ScalarFormatter

    class OffsetMathFormatter(ScalarFormatter):
        def get_offset(self) -> str:
            # The ticks and the power of ten have no public accessor:
            # matplotlib 3.11 made `locs` and `orderOfMagnitude` private
            # (removed in 3.13); read the instance's own attributes under
            # either name, never the deprecated properties.
            state = vars(self)
            ticks = state.get("_locs", state.get("locs", ()))
            order = int(state.get("_orderOfMagnitude", state.get("orderOfMagnitude", 0)))
            if not len(ticks) or not (order or self.offset):
                return ""
            scale = f"\\times10^{{{order}}}" if order else ""
            shift = ""
            if self.offset:
                shift = ("+" if self.offset > 0 else "-") + _times_ten(abs(self.offset))
            return f"${scale}{shift}$"

    return OffsetMathFormatter


def _offset_text(ax: Any) -> None:
    """Offsets and scales as "×10⁸" with a real superscript, not "1e8", and
    the tick labels plain text.

    Matplotlib's own way (`useMathText`) typesets *every* tick label of the
    axis as mathtext: each distinct label is a pyparsing run, 0.7 s of the
    3.0 s that a daily series' eight figures took to draw. Only the offset
    text is mathtext here: its glyphs come from the math font, so a Chinese
    figure, whose text font (FandolHei) has no superscript minus or digits,
    still draws it."""
    from matplotlib.ticker import ScalarFormatter

    for axis in (ax.xaxis, ax.yaxis):
        if type(axis.get_major_formatter()) is ScalarFormatter:
            axis.set_major_formatter(_offset_formatter()())


def _layer(ax: Any, layer: dict[str, Any], arrays: Any) -> None:
    """One layer of a panel (see analysis_figures for the spec)."""
    import numpy as np

    kind = layer["type"]
    colour = layer.get("color")
    label = layer.get("label")
    if kind in ("line", "scatter", "ring"):
        x, y = arrays[layer["x"]], arrays[layer["y"]]
        many = x.size > 500  # a point cloud: rasterized inside the vector PDF
        if kind == "line":
            ax.plot(
                x,
                y,
                "-",
                lw=layer.get("lw", 1.0),
                color=colour,
                label=label,
                zorder=3 if layer.get("lw", 1.0) > 1.2 else 2,
            )
        elif kind == "scatter":
            ax.plot(x, y, layer.get("marker", "o"), ms=2.5 if many else 4.5, alpha=0.6 if many else 0.85,
                    color=colour, label=label, rasterized=many, zorder=2)  # fmt: skip
        else:
            ax.plot(x, y, "o", ms=9, mfc="none", mew=1.4, color=colour, label=label, zorder=4)
            for xi, yi, text in zip(x, y, layer.get("labels", []), strict=False):
                ax.annotate(text, (xi, yi), textcoords="offset points", xytext=(5, 5), fontsize=8)
    elif kind == "errorbar":
        ax.errorbar(arrays[layer["x"]], arrays[layer["y"]], yerr=arrays[layer["yerr"]], fmt="o-",
                    ms=4, lw=1.0, capsize=3, color=colour, label=label)  # fmt: skip
    elif kind == "hline":
        ax.axhline(layer["y"], color=colour or "#888888", lw=1.0, ls="--", zorder=1)
    elif kind == "vline":
        ax.axvline(layer["x"], color=colour or "#888888", lw=1.0, ls="--", zorder=1)
    elif kind == "band":
        ax.axhspan(layer["y0"], layer["y1"], color=colour or "#888888", alpha=0.12, zorder=0)
    elif kind == "hist":
        y = arrays[layer["y"]]
        y = y[np.isfinite(y)]
        bins = int(min(max(np.sqrt(y.size), 5), 40))
        ax.hist(y, bins=bins, color="#1f77b4", alpha=0.8, edgecolor="white")
    elif kind == "stem":
        ax.vlines(arrays[layer["x"]], 0, arrays[layer["y"]], color=colour, lw=1.2)
        ax.plot(arrays[layer["x"]], arrays[layer["y"]], "o", ms=3, color=colour)
    elif kind == "box":
        data = [arrays[n] for n in layer["data"]]
        ax.boxplot(data, tick_labels=layer["labels"], showfliers=False, widths=0.5)
        rng = np.random.default_rng(0)  # fixed jitter: the same figure every build
        for i, d in enumerate(data, start=1):
            ax.plot(
                i + rng.uniform(-0.12, 0.12, d.size), d, "o", ms=3, alpha=0.6, color="C0", zorder=3
            )
        ax.grid(False, axis="x")
        labels = [str(x) for x in layer["labels"]]
        if len(labels) * max(len(x) for x in labels) > 24:
            # Eleven firm names side by side overprint one another.
            ax.tick_params(axis="x", labelrotation=60)
            for t in ax.get_xticklabels():
                t.set_horizontalalignment("right")
                t.set_rotation_mode("anchor")
    elif kind == "heatmap":
        m = arrays[layer["m"]]
        im = ax.imshow(m, aspect="auto", origin="upper", cmap="viridis", interpolation="nearest")
        ax.figure.colorbar(im, ax=ax)
        ax.grid(False)
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ticks = layer.get("xticklabels")
        if ticks:
            ax.set_xticks(range(len(ticks)))
            ax.set_xticklabels(ticks, fontsize=7, rotation=90 if len(ticks) > 12 else 0)
        if "y0" in layer:
            y0 = layer["y0"]
            ax.yaxis.set_major_formatter(lambda v, _pos: f"{int(round(v + y0))}")


def _log_axis(ax: Any, axis: Any, which: str) -> None:
    """A log axis labelled 10, 20, 50 (not 2×10¹ over 3×10¹ at every minor tick)."""
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ScalarFormatter())
    axis.set_minor_formatter(NullFormatter())


def _panels(plt: Any, spec: dict[str, Any], arrays: Any, target: Path) -> None:
    panels = spec["panels"]
    ncols = int(spec.get("ncols", 1))
    nrows = -(-len(panels) // ncols)
    size = drawn_size(spec) or DEFAULT_SIZE
    fig, axes = plt.subplots(nrows, ncols, figsize=tuple(size), squeeze=False,
                             sharex=bool(spec.get("sharex")))  # fmt: skip
    try:
        for ax, panel in zip(axes.ravel(), panels, strict=False):
            for layer in panel["layers"]:
                _layer(ax, layer, arrays)
            if panel.get("xdate"):
                import matplotlib.dates as mdates

                loc = mdates.AutoDateLocator()  # type: ignore[no-untyped-call]
                ax.xaxis.set_major_locator(loc)
                ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(loc))  # type: ignore[no-untyped-call]
            if panel.get("integer_x"):
                from matplotlib.ticker import MaxNLocator

                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if panel.get("xticks"):
                ax.set_xticks(panel["xticks"])
                ax.set_xticklabels(panel.get("xticklabels") or [str(t) for t in panel["xticks"]])
            # Log axes the notes ask for ("on log scales"): set after the
            # layers, only where every value drawn is positive.
            for axis, flag in ((ax.xaxis, "xlog"), (ax.yaxis, "ylog")):
                if panel.get(flag):
                    _log_axis(ax, axis, flag[0])
            ax.set_xlabel(panel.get("xlabel", ""))
            ax.set_ylabel(panel.get("ylabel", ""))
            if panel.get("title"):
                ax.set_title(panel["title"], fontsize=8 if panel.get("small") else 10)
            if panel.get("small"):
                ax.tick_params(labelsize=7)
            if panel.get("legend") and ax.get_legend_handles_labels()[0]:
                ax.legend(frameon=False, fontsize=8)
        for ax in axes.ravel()[len(panels) :]:
            ax.set_visible(False)
        for ax in axes.ravel()[: len(panels)]:
            _offset_text(ax)
        fig.tight_layout() if len(panels) > 1 else fig.subplots_adjust(
            left=0.13, right=0.97, bottom=0.13, top=0.95
        )
        fig.savefig(target)
    finally:
        plt.close(fig)


def has_residual_panel(spec: dict[str, Any]) -> bool:
    """An x-y figure of one fitted curve shows its residuals below it."""
    curves = spec.get("curves") or []
    return spec.get("kind") == "xy" and len(curves) == 1 and bool(curves[0].get("fit"))


def drawn_size(spec: dict[str, Any]) -> tuple[float, float] | None:
    """The page size (inches) a spec is drawn at; None for an image (its own).

    Figures are saved as the whole page (no tight bounding box), so the PDF's
    page is known before the figure is drawn: the backend typesets the first
    TeX pass on a blank page of this size while the worker draws
    (offline/early.py), and checks the drawn page against it afterwards."""
    if spec.get("kind") == "image":
        return None
    if spec.get("size"):
        width, height = spec["size"]
        return float(width), float(height)
    return RESIDUAL_SIZE if has_residual_panel(spec) else DEFAULT_SIZE


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
    if kind == "panels":
        _panels(plt, spec, arrays, target)
        return
    size = drawn_size(spec)
    resid = has_residual_panel(spec)
    if resid:  # one fitted curve: its residuals in a panel below
        fig, (ax, rax) = plt.subplots(
            2, 1, sharex=True, figsize=size, gridspec_kw={"height_ratios": [3, 1]}
        )
    else:
        fig, ax = plt.subplots(figsize=size)
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
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
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
                dense = y.size > 500
                if kind == "xy":
                    ax.plot(x, y, "o", ms=2.5 if dense else 4.5, alpha=0.5 if dense else 0.85,
                            color=colour, label=label, rasterized=dense, zorder=2)  # fmt: skip
                else:
                    ax.plot(x, y, "-", lw=1.0, color=colour, label=label)
                if curve.get("fit"):
                    # Above the markers, in a contrasting dark colour with a
                    # light halo, so the fit is visible under thousands of points.
                    fx, fy = arrays[curve["name"] + "_fx"], arrays[curve["name"] + "_fy"]
                    ax.plot(fx, fy, "-", lw=3.2, color="white", alpha=0.9, zorder=3)
                    ax.plot(
                        fx, fy, "-", lw=1.5, color=_FIT_COLOURS[i % len(_FIT_COLOURS)], zorder=4
                    )
                    if resid and curve["name"] + "_rx" in arrays:
                        rax.plot(arrays[curve["name"] + "_rx"], arrays[curve["name"] + "_ry"], "o",
                                 ms=2.5 if dense else 4, color=colour, alpha=0.7, rasterized=dense)  # fmt: skip
                        rax.axhline(0.0, color="#555555", lw=1.0, ls="--")
                        rax.set_ylabel("residual")
            (rax if resid else ax).set_xlabel(spec.get("xlabel", ""))
            ax.set_ylabel(spec.get("ylabel", "") if not many else "")
            if spec.get("title"):
                ax.set_title(spec["title"])
            if many:
                ax.legend(frameon=False)
        _offset_text(ax)
        if resid:
            _offset_text(rax)
        # Fixed margins instead of tight_layout(): the layout solver draws the
        # figure once more and nearly doubled the time per figure.
        fig.subplots_adjust(
            left=0.13,
            right=0.97,
            bottom=0.13,
            top=0.93 if spec.get("title") else 0.96,
            hspace=0.08,
        )
        fig.savefig(target)
    finally:
        plt.close(fig)


def spec_texts(spec: dict[str, Any]) -> str:
    """Every text of a spec (labels, titles, legend and tick labels, nested
    panels included): the whole JSON, which holds nothing else but numbers."""
    return json.dumps(spec, ensure_ascii=False)


def fit(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """{"arrays": npz with x0, y0, x1, ..., "count": n} -> one line {"fits": [...]}."""
    import numpy as np

    from labwright.analysis.fits import fit_xy

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
