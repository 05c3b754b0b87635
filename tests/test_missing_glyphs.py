"""No missing glyph in any example report, in either language.

Every example folder (examples/*) is built offline as an English and as a
Chinese report, and each PDF is checked three ways: XeTeX's log has no
"Missing character" line (a glyph the font lacks is dropped there, silently
in the PDF), every font is embedded, and the PDF's text has every CJK
character of the TeX source (pdftotext prints U+FFFD or nothing for a
glyph that is not there). An English report of a folder with Chinese file
and column names must print those names (the English template loads a CJK
font only then, latex/cjk.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline
from labwright.latex.cjk import CJK_CHARS
from labwright.latex.engine import resolve_engine

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
EXAMPLES = sorted(
    p.name for p in EXAMPLES_DIR.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not resolve_engine().available, reason="needs XeLaTeX (see labwright doctor)"
    ),
    pytest.mark.skipif(
        shutil.which("pdftotext") is None or shutil.which("pdffonts") is None,
        reason="needs poppler-utils (pdftotext, pdffonts)",
    ),
]

_COMMENT = re.compile(r"(?<!\\)%.*")


def _build(folder: Path, out: Path, lang: str) -> tuple[Path, Path]:
    """(main.tex, main.pdf) of the offline report of `folder` in `lang`."""
    events = list(build_offline(folder, out, lang=lang))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path and done.pdf_path, done
    return Path(done.tex_path), Path(done.pdf_path)


def _glyph_problems(tex: Path, pdf: Path) -> list[str]:
    """Every sign of a missing glyph in one built report (empty: none)."""
    problems: list[str] = []
    log = tex.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    problems += [line for line in log.splitlines() if line.startswith("Missing character")]
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    rows = fonts.stdout.strip().splitlines()[2:]
    assert rows, "pdffonts lists no font"
    # pdffonts' last five columns: emb sub uni object generation.
    problems += [f"font not embedded: {r.split()[0]}" for r in rows if r.split()[-5] != "yes"]
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    if "\ufffd" in text:
        problems.append("the PDF's text has U+FFFD (a glyph without its character)")
    # Character by character: a run of the source may be split in the PDF's
    # text by a float or a page break; a missing glyph drops the character.
    source = "\n".join(
        _COMMENT.sub("", line) for line in tex.read_text(encoding="utf-8").splitlines()
    )
    missing = set(CJK_CHARS.findall(source)) - set(text)
    if missing:
        problems.append(f"not in the PDF's text: {''.join(sorted(missing))}")
    return problems


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("example", EXAMPLES)
def test_no_page_of_an_example_report_misses_a_glyph(
    example: str, lang: str, tmp_path: Path
) -> None:
    tex, pdf = _build(EXAMPLES_DIR / example, tmp_path / "build", lang)
    assert _glyph_problems(tex, pdf) == []
    if lang == "zh":
        # Not vacuous: the Chinese report has CJK text, and it was checked above.
        assert CJK_CHARS.search(tex.read_text(encoding="utf-8"))


def test_an_english_report_prints_chinese_file_and_column_names(tmp_path: Path) -> None:
    folder = tmp_path / "摆的数据"
    shutil.copytree(EXAMPLES_DIR / "pendulum", folder)
    periods = folder / "periods.csv"
    lines = periods.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    header[0] = "摆长 " + header[0]
    (folder / "周期.csv").write_text(
        "\n".join([",".join(header), *lines[1:]]) + "\n", encoding="utf-8"
    )
    periods.unlink()
    tex, pdf = _build(folder, tmp_path / "build", "en")
    source = tex.read_text(encoding="utf-8")
    assert "\\documentclass[en]" in source
    assert _glyph_problems(tex, pdf) == []
    printed = re.sub(
        r"\s+",
        "",
        subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout,
    )
    for name in ("周期", "摆长"):
        assert name in printed, f"{name} is not printed in the English report"


def test_an_english_report_without_cjk_loads_no_cjk_font(tmp_path: Path) -> None:
    """The fallback costs every pass: it is loaded only when the text needs it."""
    tex, pdf = _build(EXAMPLES_DIR / "pendulum", tmp_path / "build", "en")
    fonts = subprocess.run(
        ["pdffonts", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    assert "\\lwcjk" not in tex.read_text(encoding="utf-8")
    assert "Fandol" not in fonts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_units_with_greek_letters_print(lang: str, tmp_path: Path) -> None:
    """A resistance in Ω and a concentration in µmol/L: unicode-math's
    \\mathrm asks the text font for the math letter, which it lacks."""
    folder = tmp_path / "ohm"
    folder.mkdir()
    (folder / "notes.txt").write_text(
        "Ohm's law U = R I. The current was read in µA. Find the resistance R.\n", encoding="utf-8"
    )
    rows = [
        f"{i / 1000 * 47.3 + 0.01 * (-1) ** k:.3f},{i:.1f}"
        for k, i in enumerate(range(10, 110, 10))
    ]
    (folder / "iv.csv").write_text("U (V),I (µA)\n" + "\n".join(rows) + "\n", encoding="utf-8")
    tex, pdf = _build(folder, tmp_path / "build", lang)
    assert "upOmega" in tex.read_text(encoding="utf-8")  # not vacuous: a unit in Ω is printed
    assert _glyph_problems(tex, pdf) == []
