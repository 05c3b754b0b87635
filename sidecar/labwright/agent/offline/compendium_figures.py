"""The compendium's figures (issue 23): the script redraws every figure of
the report with matplotlib from the data it recomputes, and compares what
it plots with what the report plotted.

The report's plotted data is its record's "figures" (`figure_record.py`),
shipped beside the script as report-figures.json. Each figure of the
script is one call, `figure(key, *panels)`, each panel a list of layers
`("scatter", x, y)`, `("line", x, y)`, `("errorbar", x, y, yerr)`, ...
whose arrays the block before it computed; the function draws them with
the labels, layout and style the record gives (the look is the report's,
the data the script's own), saves figures/KEY.png and compares every array
with the recorded one: equal within a relative 1e-6 of the array's largest
value (the same numbers reached by other code: lmfit started at the
report's values, another summation order), NaN where the report has none
counts as a difference. A figure that differs is a failure like a number.

The kind writers emit the calls (their `drawing` hook), after the block
whose variables they use; this module writes the shared helper, only with
the layer kinds the report uses, and the calls for the figures no analysis
draws (the x-y path's line plots, histograms and heatmaps of a table, an
image shown as it is).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from labwright.agent.offline.compendium_run import FIGURE_RTOL
from labwright.agent.offline.figure_record import DATA_FIELDS
from labwright.agent.offline.writers.script import KindScript

FIGURE_FILE = "report-figures.json"
#: Fonts with Chinese glyphs, in the order the plot worker prefers them.
CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "AR PL UMing CN")  # fmt: skip
FIGURE_DIR = "figures"

#: How each layer kind is drawn (the plot worker's look, simplified).
_DRAW: dict[str, str] = {
    "scatter": """    if kind == "scatter":
        ax.plot(*data, style.get("marker", "o"), ms=4, color=color, label=label)""",
    "line": """    if kind == "line":
        ax.plot(*data, "-", lw=style.get("lw", 1.0), color=color, label=label)""",
    "ring": """    if kind == "ring":
        ax.plot(*data, "o", ms=9, mfc="none", mew=1.4, color=color, label=label)""",
    "stem": """    if kind == "stem":
        ax.vlines(data[0], 0, data[1], color=color, lw=1.2)
        ax.plot(*data, "o", ms=3, color=color)""",
    "errorbar": """    if kind == "errorbar":
        x, y, yerr = data
        ax.errorbar(x, y, yerr=yerr, fmt="o-", ms=4, capsize=3, color=color, label=label)""",
    "hline": """    if kind == "hline":
        ax.axhline(data[0], color=color or "#888888", lw=1.0, ls="--")""",
    "vline": """    if kind == "vline":
        ax.axvline(data[0], color=color or "#888888", lw=1.0, ls="--")""",
    "band": """    if kind == "band":
        ax.axhspan(data[0], data[1], color=color or "#888888", alpha=0.12)""",
    "hist": """    if kind == "hist":
        values = np.asarray(data[0], dtype=float)
        values = values[np.isfinite(values)]
        bins = int(min(max(np.sqrt(values.size), 5), 40))
        ax.hist(values, bins=bins, color="#1f77b4", alpha=0.8, edgecolor="white")""",
    "box": """    if kind == "box":
        ax.boxplot(data[0], tick_labels=style["labels"], showfliers=False, widths=0.5)""",
    "heatmap": """    if kind == "heatmap":
        image = ax.imshow(data[0], aspect="auto", origin=style.get("origin", "upper"))
        ax.figure.colorbar(image, ax=ax)""",
}

_COMPARE = """def largest(value):
    \"\"\"The largest finite magnitude in a recorded array (nested lists, None for NaN).\"\"\"
    if isinstance(value, list):
        return max((largest(v) for v in value), default=0.0)
    return abs(value) if value is not None and np.isfinite(value) else 0.0


def scales(spec):
    \"\"\"Each array name's largest magnitude over the figure: residuals are data
    minus model, so they are compared at the precision of the data they
    come from, not at a millionth of their own (smaller) size.\"\"\"
    out = {}
    for panel in spec["panels"]:
        for layer in panel["layers"]:
            for name in FIELDS.get(layer["type"], ()):
                out[name] = max(out.get(name, 0.0), largest(layer[name]))
    return out


def differences(kind, data, recorded, scale):
    \"\"\"The arrays of one layer that differ from the ones the report plotted.\"\"\"
    out = []
    for name, ours in zip(FIELDS[kind], data, strict=True):
        theirs = recorded[name]
        pairs = zip(ours, theirs, strict=True) if kind == "box" else [(ours, theirs)]
        for a, b in pairs:
            a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
            atol = FIGURE_RTOL * max(scale.get(name, 0.0), 1e-300)
            same = a.shape == b.shape and np.allclose(a, b, rtol=0.0, atol=atol, equal_nan=True)
            if not same:
                out.append(f"{kind} {name}")
    return out"""

_FIGURE = '''def figure(key, *panels):
    """Draw figure `key` of the report from recomputed layers, one list of
    ("kind", *arrays) per panel, with the report's labels and layout; save
    it in figures/ and compare every array with the report's."""
    spec = FIGURES[key]
    ncols = spec.get("ncols", 1)
    rows = -(-len(spec["panels"]) // ncols)
    grid = {"height_ratios": spec["height_ratios"]} if spec.get("height_ratios") else None
    fig, axes = plt.subplots(
        rows,
        ncols,
        figsize=spec.get("size") or (6.0, 3.8),
        squeeze=False,
        sharex=spec.get("sharex", False),
        gridspec_kw=grid,
    )
    problems, scale = [], scales(spec)
    if len(panels) != len(spec["panels"]):
        problems.append(f"{len(panels)} panels, the report has {len(spec['panels'])}")
    for ax, layers, recorded in zip(axes.ravel(), panels, spec["panels"], strict=False):
        if len(layers) != len(recorded["layers"]):
            problems.append(f"{len(layers)} layers, the report has {len(recorded['layers'])}")
        for (kind, *data), style in zip(layers, recorded["layers"], strict=False):
            draw(ax, kind, data, style)
            problems += differences(kind, data, style, scale)
        dress(ax, recorded)
    for ax in axes.ravel()[len(panels) :]:
        ax.set_visible(False)
    fig.tight_layout()
    FIGURE_DIR.mkdir(exist_ok=True)
    fig.savefig(FIGURE_DIR / f"{key}.png", dpi=100)
    plt.close(fig)
    said = "DIFFERS" if problems else "ok"
    print(f"{key:>14}  {'plotted data':<14} {said}  figure {key} {'; '.join(problems)}")
    if problems:
        failures.append(f"figure {key}: {'; '.join(problems)}")'''

_DRESS = '''def dress(ax, panel):
    """A panel's labels, ticks, scales and legend as the report has them."""
    ax.set_xlabel(panel.get("xlabel", ""))
    ax.set_ylabel(panel.get("ylabel", ""))
    ax.set_title(panel.get("title", ""))
    if panel.get("xdate"):
        ax.xaxis_date()
    if panel.get("xticks"):
        ax.set_xticks(panel["xticks"], panel.get("xticklabels") or panel["xticks"])
    if panel.get("xlog"):
        ax.set_xscale("log")
    if panel.get("ylog"):
        ax.set_yscale("log")
    if panel.get("legend") and ax.get_legend_handles_labels()[0]:
        ax.legend(frameon=False, fontsize=8)'''

_PICTURE = '''def picture(key, file):
    """An image the report shows as it is: read from data/ (its pixel size
    is stated in the report), saved in figures/ and compared by size."""
    pixels = plt.imread(DATA / file)
    height, width = pixels.shape[:2]
    FIGURE_DIR.mkdir(exist_ok=True)
    plt.imsave(FIGURE_DIR / f"{key}.png", pixels)
    spec = FIGURES[key]
    same = (width, height) == (spec["width"], spec["height"])
    said = "ok" if same else "DIFFERS"
    print(f"{key:>14}  {'image':<14} {said}  figure {key}: {file}, {width} x {height} pixels")
    if not same:
        failures.append(f"figure {key}: {file} is {width} x {height} pixels")
    return width, height'''


def uses_cjk(figures: Mapping[str, Any]) -> bool:
    return bool(re.search(r"[\u3400-\u9fff]", json.dumps(figures, ensure_ascii=False)))


def helper(figures: Mapping[str, Any]) -> str:
    """The script's figure helpers for the layer kinds `figures` uses."""
    kinds = {
        layer["type"]
        for spec in figures.values()
        for panel in spec.get("panels", [])
        for layer in panel["layers"]
    }
    parts = []
    fields = {k: list(DATA_FIELDS[k]) for k in DATA_FIELDS if k in kinds}
    head = [
        'FIGURES = json.loads((HERE / "report-figures.json").read_text(encoding="utf-8"))',
        'FIGURE_DIR = HERE / "figures"',
        "# Plotted data match when they agree to 1e-5 of the largest value the figure",
        "# plots under that name: far below a pixel, above the spread of two",
        "# optimizers stopping on one flat minimum (the same numbers, other code).",
        f"FIGURE_RTOL = {FIGURE_RTOL!r}",
        "# The arrays each kind of layer plots, in the order the layers give them.",
        f"FIELDS = {fields!r}",
    ]
    if uses_cjk(figures):
        head += [
            "# Chinese labels: the first installed font that has the glyphs.",
            "installed = {f.name for f in font_manager.fontManager.ttflist}",
            f"chinese = [name for name in {list(CJK_FONTS)!r} if name in installed]",
            'plt.rcParams["font.sans-serif"] = chinese + plt.rcParams["font.sans-serif"]',
            'plt.rcParams["axes.unicode_minus"] = False',
        ]
    parts.append("\n".join(head))
    if kinds:
        draw = [
            "def draw(ax, kind, data, style):",
            '    """One layer of a panel, drawn as the report drew it."""',
            '    color, label = style.get("color"), style.get("label")',
            *(_DRAW[k] for k in DATA_FIELDS if k in kinds),
        ]
        parts += ["\n".join(draw), _COMPARE, _DRESS, _FIGURE]
    if any("image" in spec for spec in figures.values()):
        parts.append(_PICTURE)
    return "\n\n\n".join(parts) + "\n"


def caption_comment(key: str, caption: str) -> str:
    """The report's caption of a figure as a comment line (LaTeX taken out)."""
    return f"# Figure {key}: {plain(caption)}" if caption else f"# Figure {key}."


def plain(tex: str) -> str:
    """A caption's LaTeX as plain text: \\texttt{x}, \\lwtext{x} -> x; $..$ kept bare."""
    text = re.sub(r"\\(?:texttt|lwtext|emph|textit|textbf|mbox)\{([^{}]*)\}", r"\1", tex)
    text = text.replace("\\_", "_").replace("\\%", "%").replace("\\&", "&").replace("\\#", "#")
    text = text.replace("~", " ").replace("\\,", " ").replace("$", "")
    text = re.sub(r"\\[a-zA-Z]+\s*", "", text)
    return re.sub(r"\s+", " ", text.replace("{", "").replace("}", "")).strip()


def call(key: str, panels: Sequence[Sequence[str]]) -> str:
    """`figure(key, [layer, ...], ...)` with each layer's code as given."""
    inner = ", ".join("[" + ", ".join(layers) + "]" for layers in panels)
    return f"figure({key!r}, {inner})"


def loose_figures(plans: Sequence[Any], printed: Collection[tuple[str, str]]) -> KindScript:
    """The calls for the figures no analysis draws: an image shown as it is
    (and the pixel size the report states of it)."""
    lines: list[str] = []
    for plan in plans:
        if plan.kind != "image" or plan.image is None:
            continue
        src = plan.source
        lines.append(caption_comment(plan.key, f"the image {src}, shown as it is"))
        lines.append(f"width, height = picture({plan.key!r}, {src!r})")
        for what, var in (("image width in pixels", "width"), ("image height in pixels", "height")):
            if (what, src) in printed:
                lines.append(f"report({what!r}, {var}, {src!r})")
    return KindScript(code="\n".join(lines) + "\n" if lines else "")
