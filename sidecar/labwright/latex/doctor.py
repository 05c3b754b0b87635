"""`labwright doctor`: is this machine able to build reports, and if not, how to fix it.

Checks, each with one plain fix: the XeLaTeX engine, BibTeX, every TeX
package the templates load and every font they use (one `kpsewhich` call),
and finally a tiny probe document compiled with each template -- the only
check that proves the pieces work together (e.g. Chinese glyphs render).

Fonts are looked up with kpsewhich, not fc-list: XeTeX (through ctex and
fontspec) opens the Fandol and Latin Modern .otf files by file name from the
TeX tree, and Debian's texlive-lang-chinese does not register them with
fontconfig at all, so fc-list would report them missing when they work.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from labwright.latex.compile import _spawn_tex, compile_source, paranoid_env
from labwright.latex.diagnose import humanize
from labwright.latex.engine import ENV_VAR, TexEngine, resolve_engine
from labwright.latex.template import BIBLIOGRAPHY_STYLE, render_template, template_files
from labwright.resources import knowledge_path

#: Font files the class opens (ctex fontset=fandol, unicode-math, fontspec defaults).
TEMPLATE_FONTS: tuple[str, ...] = (
    "lmroman10-regular.otf",
    "latinmodern-math.otf",
    "FandolSong-Regular.otf",
    "FandolSong-Bold.otf",
    "FandolHei-Regular.otf",
    "FandolHei-Bold.otf",
    "FandolKai-Regular.otf",
    "FandolFang-Regular.otf",
)
#: Files the class needs indirectly (ctex's own dependencies, the .bst).
INDIRECT_FILES: tuple[str, ...] = ("xeCJK.sty", "zhnumber.sty", f"{BIBLIOGRAPHY_STYLE}.bst")

# file -> (TeX Live package for tlmgr, Debian package). Files not listed use
# their own stem as the tlmgr name and have no known Debian package.
_PACKAGE_OF: dict[str, tuple[str, str]] = {
    "ctex.sty": ("ctex", "texlive-lang-chinese"),
    "xeCJK.sty": ("xecjk", "texlive-lang-chinese"),
    "zhnumber.sty": ("zhnumber", "texlive-lang-chinese"),
    "fontspec.sty": ("fontspec", "texlive-latex-recommended"),
    "unicode-math.sty": ("unicode-math", "texlive-latex-recommended"),
    "amsmath.sty": ("amsmath", "texlive-latex-base"),
    "geometry.sty": ("geometry", "texlive-latex-base"),
    "graphicx.sty": ("graphics", "texlive-latex-base"),
    "booktabs.sty": ("booktabs", "texlive-latex-recommended"),
    "tabularx.sty": ("tools", "texlive-latex-base"),
    "float.sty": ("float", "texlive-latex-recommended"),
    "caption.sty": ("caption", "texlive-latex-recommended"),
    "xcolor.sty": ("xcolor", "texlive-latex-recommended"),
    "framed.sty": ("framed", "texlive-latex-extra"),
    "hyperref.sty": ("hyperref", "texlive-latex-base"),
    "bookmark.sty": ("bookmark", "texlive-latex-base"),
    "unsrt.bst": ("bibtex", "texlive-base"),
    "lmroman10-regular.otf": ("lm", "fonts-lmodern"),
    "latinmodern-math.otf": ("lm-math", "fonts-lmodern"),
}
_FANDOL = ("fandol", "texlive-lang-chinese")
_REQUIRE = re.compile(r"\\(?:RequirePackage|usepackage)\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}")


def package_of(filename: str) -> tuple[str, str | None]:
    """(tlmgr package, Debian package or None if unknown) that provides a TeX file."""
    if filename.startswith("Fandol"):
        return _FANDOL
    return _PACKAGE_OF.get(filename, (Path(filename).stem, None))


def required_files() -> list[str]:
    """Every .sty the templates load (read from the .cls/.tex themselves, so
    the list cannot drift from the templates), plus fonts and indirect files."""
    names: list[str] = []
    sources = [
        *template_files("en"),
        knowledge_path("templates", "report_en.tex"),
        knowledge_path("templates", "report_zh.tex"),
    ]
    for src in sources:
        for group in _REQUIRE.findall(src.read_text(encoding="utf-8")):
            for name in group.split(","):
                sty = name.strip() + ".sty"
                if name.strip() and sty not in names:
                    names.append(sty)
    return names + [f for f in (*INDIRECT_FILES, *TEMPLATE_FONTS) if f not in names]


@dataclass(frozen=True)
class DoctorCheck:
    name: str
    ok: bool
    detail: str
    fix: str | None = None


@dataclass
class DoctorReport:
    engine: TexEngine
    checks: list[DoctorCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def lines(self) -> list[str]:
        """One line per check, for the CLI."""
        out = []
        for c in self.checks:
            mark = "ok " if c.ok else "!! "
            line = f"{mark}{c.name}: {c.detail}"
            if c.fix:
                line += f" -> {c.fix}"
            out.append(line)
        return out


def _use_tlmgr(engine: TexEngine) -> bool:
    if (
        engine.bin_dir is not None
        and (engine.bin_dir / ("tlmgr" + (".bat" if sys.platform == "win32" else ""))).exists()
    ):
        return engine.source != "path" or shutil.which("apt-get") is None
    return False


def _install_hint(engine: TexEngine, files: list[str]) -> str:
    tl = sorted({package_of(f)[0] for f in files})
    deb = sorted({d for f in files if (d := package_of(f)[1])})
    unknown = [f for f in files if package_of(f)[1] is None]
    if _use_tlmgr(engine):
        return f"Run: tlmgr install {' '.join(tl)}"
    if sys.platform.startswith("linux") and shutil.which("apt-get"):
        if unknown:
            return f"Install the Debian package that ships {', '.join(unknown)} (find it with apt-file search)."
        return f"Install {', '.join(deb)}: sudo apt-get install {' '.join(deb)}"
    return f"Install the TeX Live packages {', '.join(tl)} (tlmgr install {' '.join(tl)})"


def _engine_check(engine: TexEngine) -> DoctorCheck:
    if engine.xelatex is None:
        if engine.source == "env":
            return DoctorCheck(
                "TeX engine",
                False,
                f"{ENV_VAR} is set but holds no usable xelatex",
                f"Point {ENV_VAR} at a TeX Live bin directory or unset it.",
            )
        if sys.platform.startswith("linux") and shutil.which("apt-get"):
            fix = (
                "Install XeTeX: sudo apt-get install texlive-xetex texlive-latex-recommended "
                "texlive-latex-extra texlive-lang-chinese texlive-fonts-recommended"
            )
        else:
            fix = f"Install TinyTeX or TeX Live with XeTeX, or set {ENV_VAR} to its bin directory."
        return DoctorCheck("TeX engine", False, "no xelatex found", fix)
    assert engine.xelatex is not None
    # An empty folder of its own: TeX programs run with a cap on their
    # folder's size (latex/texrun.py), which a user's full temp dir exceeds.
    with tempfile.TemporaryDirectory(prefix="lw-doctor-") as scratch:
        res = _spawn_tex(
            [str(engine.xelatex), "--version"], Path(scratch), paranoid_env(engine), 30
        )
    first = res.output.strip().splitlines()[0] if res.output.strip() else ""
    if res.returncode != 0 or not first:
        return DoctorCheck(
            "TeX engine", False, f"{engine.xelatex} does not run", "Reinstall the TeX engine."
        )
    return DoctorCheck("TeX engine", True, f"{first} at {engine.xelatex} ({engine.source})")


def check_files(engine: TexEngine, files: list[str]) -> tuple[DoctorCheck, DoctorCheck]:
    """(packages check, fonts check) from one kpsewhich call over `files`."""
    if engine.kpsewhich is None:
        skipped = DoctorCheck(
            "TeX packages", False, "kpsewhich not found", "Reinstall the TeX engine."
        )
        return skipped, DoctorCheck(
            "Fonts", False, "kpsewhich not found", "Reinstall the TeX engine."
        )
    with tempfile.TemporaryDirectory() as tmp:
        res = _spawn_tex([str(engine.kpsewhich), *files], Path(tmp), paranoid_env(engine), 60)
    found = {Path(line.strip()).name for line in res.output.splitlines() if line.strip()}
    missing = [f for f in files if f not in found]
    fonts = [f for f in files if f.endswith((".otf", ".ttf"))]
    checks = []
    for name, group in (("TeX packages", [f for f in files if f not in fonts]), ("Fonts", fonts)):
        lost = [f for f in group if f in missing]
        if lost:
            checks.append(
                DoctorCheck(name, False, f"missing {', '.join(lost)}", _install_hint(engine, lost))
            )
        else:
            checks.append(DoctorCheck(name, True, f"all {len(group)} found"))
    return checks[0], checks[1]


_PROBE_BODY = {
    "en": "\\section{Probe}Bold math $\\symbf{v}$, a table, a box.\\begin{authorbox}x\\end{authorbox}",
    "zh": "\\section{探测}中文字体与公式 $\\symbf{v}$ 正常。\\begin{authorbox}测试\\end{authorbox}",
}


def _probe(engine: TexEngine, lang: str) -> DoctorCheck:
    name = f"{'English' if lang == 'en' else 'Chinese'} template"
    tex = render_template(lang, {"title": "Labwright doctor", "body": _PROBE_BODY[lang]})  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory(prefix="labwright-doctor-") as tmp:
        result = compile_source(
            tex,
            files={p.name: p for p in template_files(lang)},  # type: ignore[arg-type]
            build_root=Path(tmp),
            engine=engine,
            wall_budget_s=120,
        )
    if result.status == "clean":
        return DoctorCheck(name, True, f"probe compiled in {result.elapsed_s:.1f} s")
    advice = humanize(result.diagnostics)
    fix = (
        advice[0] if advice else "Run `labwright doctor` again after installing the packages above."
    )
    return DoctorCheck(name, False, f"probe compile {result.status}", fix)


def run_doctor(*, engine: TexEngine | None = None, probe: bool = True) -> DoctorReport:
    """Check everything a build needs. `probe=False` skips the two test compiles."""
    engine = engine or resolve_engine()
    report = DoctorReport(engine)
    report.checks.append(_engine_check(engine))
    if engine.xelatex is None:
        return report
    if engine.bibtex is None:
        report.checks.append(
            DoctorCheck("BibTeX", False, "bibtex not found", _install_hint(engine, ["unsrt.bst"]))
        )
    else:
        report.checks.append(DoctorCheck("BibTeX", True, str(engine.bibtex)))
    if engine.xdvipdfmx is None:
        report.checks.append(
            DoctorCheck(
                "PDF driver",
                False,
                "xdvipdfmx not found beside xelatex",
                "Install xdvipdfmx with the TeX engine (Debian: sudo apt-get install "
                "texlive-binaries texlive-xetex; TeX Live: tlmgr install xetex); "
                "nothing is compiled without it.",
            )
        )
    else:
        report.checks.append(DoctorCheck("PDF driver", True, str(engine.xdvipdfmx)))
    report.checks.extend(check_files(engine, required_files()))
    if probe and engine.available:
        report.checks.extend(_probe(engine, lang) for lang in ("en", "zh"))
    return report
