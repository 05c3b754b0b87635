"""Adaptive compile vs. the seed system's fixed XeLaTeX -> BibTeX -> XeLaTeX x2.

For each document, both strategies compile a fresh copy of the same build
directory, alternately, `--repeat` times; the script prints the passes the
adaptive compile chose, the median wall time of each, and the ratio
adaptive/fixed (below 1.0 = adaptive is faster). Both run in the same
process on the same machine, so the ratio is what to compare across machines.

Documents: the .tex paths given on the command line (each compiled with the
files of its own directory; the template class is added when missing). With
no paths: the final .tex of every example folder (examples/*/, written by the
offline writer into a temporary directory, without compiling), plus four
realistic reports rendered from the templates (English without references,
English with figure/table references, English with citations and a .bib,
Chinese with references) so that every pass pattern is measured.
"+driver": the adaptive compile lets XeLaTeX write .xdv and runs xdvipdfmx
once after the last pass (the fixed baseline writes a PDF on every pass).

Run: .venv/bin/python benchmarks/compile_passes.py [--repeat 3] [file.tex ...]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from labwright.latex.compile import compile_tex, run_fixed_sequence
from labwright.latex.engine import resolve_engine
from labwright.latex.template import CLASS_FILE, render_template, template_files

_SKIP_SUFFIXES = {
    ".aux",
    ".log",
    ".pdf",
    ".out",
    ".toc",
    ".bbl",
    ".blg",
    ".xdv",
    ".fls",
    ".synctex.gz",
}
REPO = Path(__file__).resolve().parent.parent

_PARAGRAPH = (
    "The period was timed over ten swings for each length; the spread of repeated "
    "timings gives the uncertainty. Values are listed in Table~\\ref{{tab:{n}}} and "
    "plotted in Figure~\\ref{{fig:{n}}}; the fit follows $T = 2\\pi\\sqrt{{L/g}}$.{cite}\n\n"
)


def _figure(dir_: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    L = np.linspace(0.2, 1.2, 11)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.errorbar(L, 2 * np.pi * np.sqrt(L / 9.81), yerr=0.01, fmt="o", label="measured")
    ax.plot(L, 2 * np.pi * np.sqrt(L / 9.81), label="fit")
    ax.set_xlabel("L (m)")
    ax.set_ylabel("T (s)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(dir_ / "period.pdf")
    plt.close(fig)


def _body(refs: bool, cite: bool, zh: bool, sections: int = 6) -> str:
    parts = []
    for n in range(sections):
        title = f"实验部分 {n + 1}" if zh else f"Measurement series {n + 1}"
        parts.append(f"\\section{{{title}}}\n")
        text = _PARAGRAPH.format(n=n, cite="~\\cite{smith2020}" if cite else "")
        if zh:
            text = f"本节记录第 {n + 1} 组测量，周期由十次摆动计时得到。" + text
        if not refs:
            text = text.replace(f"Table~\\ref{{tab:{n}}}", "the table").replace(
                f"Figure~\\ref{{fig:{n}}}", "the figure"
            )
        parts.append(text * 3)
        label = f"\\label{{tab:{n}}}" if refs else ""
        parts.append(
            f"\\begin{{table}}[H]\\centering\\caption{{Periods, series {n + 1}.}}{label}\n"
            "\\begin{tabular}{rrr}\\toprule $L$ (m) & $T$ (s) & $\\sigma_T$ (s)\\\\\\midrule\n"
            + "".join(
                f"{0.2 + 0.1 * i:.2f} & {2 * 3.14159 * ((0.2 + 0.1 * i) / 9.81) ** 0.5:.3f} & 0.004\\\\\n"
                for i in range(8)
            )
            + "\\bottomrule\\end{tabular}\\end{table}\n"
        )
        flabel = f"\\label{{fig:{n}}}" if refs else ""
        parts.append(
            "\\begin{figure}[H]\\centering\\includegraphics[width=0.7\\linewidth]{period.pdf}"
            f"\\caption{{Period against length, series {n + 1}.}}{flabel}\\end{{figure}}\n"
        )
    parts.append("\\section{Discussion}\n\\begin{authorbox}[Interpret the fit]\\end{authorbox}\n")
    return "".join(parts)


def builtin_documents(root: Path) -> list[Path]:
    """Realistic reports rendered from the templates into `root/<name>/main.tex`."""
    specs = {
        "en-no-refs": ("en", False, False),
        "en-refs": ("en", True, False),
        "en-refs-bib": ("en", True, True),
        "zh-refs": ("zh", True, False),
    }
    out = []
    for name, (lang, refs, cite) in specs.items():
        d = root / name
        d.mkdir(parents=True)
        _figure(d)
        for f in template_files(lang):  # type: ignore[arg-type]
            shutil.copy(f, d / f.name)
        fields = {
            "title": "Pendulum period and the local value of g"
            if lang == "en"
            else "单摆周期与重力加速度",
            "author": "Lab group 3",
            "date": "2026-11-29",
            "abstract": "Periods of a simple pendulum were timed for eleven lengths.",
            "body": _body(refs, cite, lang == "zh"),
        }
        if cite:
            fields["bibliography"] = "refs"
            (d / "refs.bib").write_text(
                "@article{smith2020, author={Jane Smith}, title={Damped pendulums revisited},"
                " journal={Am. J. Phys.}, volume={88}, pages={1--9}, year={2020}}\n",
                encoding="utf-8",
            )
        (d / "main.tex").write_text(render_template(lang, fields), encoding="utf-8")  # type: ignore[arg-type]
        out.append(d / "main.tex")
    return out


def example_documents(root: Path) -> list[Path]:
    """main.tex of each example, written by the offline writer (no compile)."""
    try:
        from labwright.agent.offline.build import build_offline
    except ImportError:
        return []
    out = []
    for folder in sorted(
        p for p in (REPO / "examples").iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
    ):
        tex_path = None
        for event in build_offline(folder, root / folder.name, tex_available=False):
            if getattr(event, "type", "") == "done":
                tex_path = getattr(event, "tex_path", None)
        if tex_path:
            out.append(Path(tex_path))
    return out


def _fresh_copy(tex: Path, dest_root: Path) -> Path:
    dest = Path(tempfile.mkdtemp(prefix="bench-", dir=dest_root))
    for item in tex.parent.iterdir():
        if item.suffix in _SKIP_SUFFIXES and item.stem == tex.stem:
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name)
        else:
            shutil.copy2(item, dest / item.name)
    if (
        CLASS_FILE in tex.read_text(encoding="utf-8", errors="replace")
        and not (dest / CLASS_FILE).exists()
    ):
        shutil.copy(template_files("en")[0], dest / CLASS_FILE)
    return dest / tex.name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tex", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    engine = resolve_engine()
    if not engine.available:
        print("No XeLaTeX found; run `labwright doctor`.")
        return 2
    with tempfile.TemporaryDirectory(prefix="labwright-bench-") as tmp:
        work = Path(tmp)
        docs = [p.resolve() for p in args.tex] or example_documents(
            work / "examples"
        ) + builtin_documents(work / "docs")
        print(f"engine: {engine.xelatex} ({engine.source}); {args.repeat} runs each, medians\n")
        header = f"{'document':<28} {'adaptive passes':<40} {'adaptive s':>10} {'fixed s':>8} {'ratio':>6}"
        print(header)
        print("-" * len(header))
        ratios = []
        for tex in docs:
            adaptive_t, fixed_t, names, status = [], [], "", ""
            for _ in range(args.repeat):
                a = _fresh_copy(tex, work)
                start = time.perf_counter()
                res = compile_tex(a, engine=engine)
                adaptive_t.append(time.perf_counter() - start)
                names = ",".join(res.pass_names) + (" +driver" if res.driver else "")
                status = res.status
                f = _fresh_copy(tex, work)
                start = time.perf_counter()
                run_fixed_sequence(f, engine=engine)
                fixed_t.append(time.perf_counter() - start)
            am, fm = statistics.median(adaptive_t), statistics.median(fixed_t)
            ratios.append(am / fm)
            label = tex.parent.name + "/" + tex.name if len(docs) > 1 else tex.name
            print(
                f"{label[:28]:<28} {names + ' (' + status + ')':<40} {am:>10.2f} {fm:>8.2f} {am / fm:>6.2f}"
            )
        print(f"\ngeometric-mean ratio adaptive/fixed: {statistics.geometric_mean(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
