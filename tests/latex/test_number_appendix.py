"""The "Sources of the numbers" appendix (issue 23): every traced number in the
PDF of every example folder, in English and Chinese, is a link to its appendix
entry, and that entry names the number's file, column (sheet, variable, rows
where the record has them) and computation. The Overleaf zip keeps it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from labwright.agent.offline.appendix import APPENDIX_FILE, appendix_tex
from labwright.latex.engine import resolve_engine
from labwright.verify.tags import find_tags
from tests.latex.conftest import pdf_text
from tests.latex.overleaf import compile_as_overleaf
from tests.pdf_links import destinations, number_links

EXAMPLES_ROOT = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = sorted(p.name for p in EXAMPLES_ROOT.iterdir() if p.is_dir())
TITLE = {"en": "Sources of the numbers", "zh": "数字来源"}

needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="needs XeLaTeX")


def _squash(text: str) -> str:
    """PDF text without line breaks, hyphenation or spaces (names wrap)."""
    return re.sub(r"\s+", "", text.replace("-\n", ""))


def test_the_appendix_escapes_names_and_keeps_only_the_asked_ids() -> None:
    record = {
        "numbers": [
            {
                "id": "a1b2c3d4e5",
                "printed": "9.81",
                "value": 9.81,
                "computation": "mean of 5% runs",
                "file": "run_1 {x}.csv",
                "column": "T_s",
            },
            {"id": "ffffffffff", "printed": "3", "value": 3.0, "computation": "count of rows"},
            {"id": "not an id}", "printed": "1", "value": 1.0, "computation": "x"},
        ]
    }
    tex = appendix_tex(record, "en")
    assert "\\hypertarget{lwnum.a1b2c3d4e5}{}" in tex and "\\hypertarget{lwnum.ffffffffff}{}" in tex
    assert "run\\_1 \\{x\\}.csv" in tex and "T\\_s" in tex and "5\\% runs" in tex
    assert "not an id" not in tex  # a malformed id never becomes a TeX argument
    only = appendix_tex(record, "zh", ids=["ffffffffff"])
    assert "a1b2c3d4e5" not in only and "lwnum.ffffffffff" in only and TITLE["zh"] in only


_BUILT: dict[tuple[str, str], Path] = {}


def _build(name: str, lang: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline

    if (name, lang) not in _BUILT:
        out = tmp_path_factory.mktemp(f"appendix-{name}-{lang}")
        done = list(build_offline(EXAMPLES_ROOT / name, out, lang=lang))[-1]
        assert isinstance(done, Done) and done.pdf_path is not None, done
        _BUILT[(name, lang)] = out
    return _BUILT[(name, lang)]


def _check_links_reach_entries(build: Path, pdf: Path, lang: str) -> None:
    tex = (build / "main.tex").read_text(encoding="utf-8")
    record = json.loads((build / "provenance.json").read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in record["numbers"]}
    tags = find_tags(tex)
    assert tags and {t.id for t in tags} <= set(entries)
    links = number_links(pdf)
    assert Counter(link.id for link in links) == Counter(t.id for t in tags)
    dests = destinations(pdf)
    from pypdf import PdfReader

    pages = [_squash(pdf_text_page(pdf, i)) for i in range(len(PdfReader(pdf).pages))]
    for link in links:
        page = dests.get(f"lwnum.{link.id}")
        assert page is not None, link
        # The destination's page holds the entry: its id, then its source.
        text = pages[page]
        at = text.find(link.id)
        assert at >= 0, (link.id, page)
        entry = entries[link.id]
        segment = text[at : at + 400]
        for key in ("file", "sheet", "variable", "column", "rows"):
            if entry.get(key):
                assert _squash(str(entry[key])) in segment, (key, entry, segment)
    assert _squash(TITLE[lang]) in "".join(pages)


def pdf_text_page(pdf: Path, index: int) -> str:
    """One page's text in reading order (-layout: with CJK fonts the raw
    order interleaves an entry's words with its neighbours')."""
    out = subprocess.run(
        [
            "pdftotext",
            "-layout",
            "-enc",
            "UTF-8",
            "-f",
            str(index + 1),
            "-l",
            str(index + 1),
            str(pdf),
            "-",
        ],
        capture_output=True,
        check=True,
    )
    return out.stdout.decode("utf-8", errors="replace")


@needs_tex
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_traced_number_links_to_an_entry_naming_its_source(
    name: str, lang: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    build = _build(name, lang, tmp_path_factory)
    assert (build / APPENDIX_FILE).is_file()
    _check_links_reach_entries(build, build / "main.pdf", lang)


@needs_tex
@pytest.mark.skipif(shutil.which("latexmk") is None, reason="needs latexmk")
def test_the_overleaf_zip_keeps_the_appendix_and_its_links(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`latexmk -xelatex` on the unpacked zip, as Overleaf runs it."""
    from labwright.export import export_overleaf_zip

    build = _build("pendulum", "en", tmp_path_factory)
    archive = export_overleaf_zip(build / "main.tex", tmp_path / "report.zip")
    assert APPENDIX_FILE in zipfile.ZipFile(archive).namelist()
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(archive).extractall(unpacked)
    # The record is not in the zip; the check reads it from the build.
    shutil.copyfile(build / "provenance.json", unpacked / "provenance.json")
    compile_as_overleaf(unpacked)
    _check_links_reach_entries(unpacked, unpacked / "main.pdf", "en")
    assert "Sources of the numbers" in pdf_text(unpacked / "main.pdf")
