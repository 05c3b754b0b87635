"""The compendium beside a build (issue 23): `labwright build --zip` puts
analysis/ (script, notebook, requirements, raw data) in the Overleaf zip, the
appendix names the line of analysis/analysis.py that recomputes each number,
the unpacked zip compiles with `latexmk -xelatex`, keeps every number link,
and its script runs from the unpacked folder. A Chinese report's appendix
says the computations in Chinese."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from labwright.agent.offline.appendix import APPENDIX_FILE, appendix_tex
from labwright.agent.offline.compendium import report_record
from labwright.agent.offline.compendium_build import SCRIPT_PATH, document_lang
from labwright.agent.offline.computation_words import computation_text, covered
from labwright.latex.engine import resolve_engine
from tests.agent.test_compendium import RUFF_RULES
from tests.latex.conftest import pdf_text
from tests.latex.overleaf import compile_as_overleaf
from tests.latex.test_number_appendix import _check_links_reach_entries

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FOLDERS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_"))
needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="needs XeLaTeX")
needs_latexmk = pytest.mark.skipif(shutil.which("latexmk") is None, reason="needs latexmk")


def test_the_report_language_is_read_from_the_class_option() -> None:
    assert document_lang("\\documentclass[zh]{labwright-report}[2026/12/02]") == "zh"
    assert document_lang("\\documentclass[en]{labwright-report}") == "en"
    assert document_lang("\\documentclass{article}") == "en"


def test_the_appendix_names_the_script_line_in_both_languages() -> None:
    record = {
        "numbers": [
            {"id": "a1b2c3d4e5", "printed": "9.81", "value": 9.81, "computation": "mean"},
            {"id": "b1b2c3d4e5", "printed": "3", "value": 3.0, "computation": "minimum"},
        ]
    }
    en = appendix_tex(record, "en", script_lines={"a1b2c3d4e5": 42}, script=SCRIPT_PATH)
    assert "computed as: mean (line 42 of \\texttt{analysis/analysis.py})" in en
    assert en.count("analysis/analysis.py") == 1  # the unrecomputed one names no line
    zh = appendix_tex(record, "zh", script_lines={"a1b2c3d4e5": 42}, script=SCRIPT_PATH)
    assert "计算方式: 平均值（\\texttt{analysis/analysis.py} 第 42 行）" in zh
    assert "最小值" in zh and "mean" not in zh


def test_composed_phrases_are_said_whole_or_not_at_all() -> None:
    said = computation_text("standard uncertainty of mean of 株高 in group 对照", "zh")
    assert said == "组 对照 中 株高 的平均值的标准不确定度"
    assert computation_text("standard uncertainty of mean", "en") == "standard uncertainty of mean"
    # No shape for the inner phrase: the whole stays English, never half Chinese.
    odd = "standard uncertainty of a quantity nobody catalogued"
    assert not covered(odd) and computation_text(odd, "zh") == odd


def test_every_example_computation_has_a_chinese_form() -> None:
    missing = {
        name: sorted(
            {
                e["computation"]
                for e in report_record(EXAMPLES / name, lang="zh")["numbers"]
                if not covered(e["computation"])
            }
        )
        for name in FOLDERS
    }
    assert {k: v for k, v in missing.items() if v} == {}


def _build_zip(name: str, tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable, "-m", "labwright", "build", str(EXAMPLES / name),
            "-o", str(out / "report.pdf"), "--zip", str(out / "report.zip"), "--keep-build",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return out, Path(re.findall(r"Build folder \(main.tex, main.log\): (\S+)", done.stderr)[-1])


@needs_tex
@needs_latexmk
@pytest.mark.smoke
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "lang"), [("pendulum", "en"), ("plant-growth-zh", "zh")])
def test_the_zip_carries_the_compendium_and_compiles_with_its_lines(
    name: str, lang: str, tmp_path: Path
) -> None:
    out, build = _build_zip(name, tmp_path)
    try:
        names = zipfile.ZipFile(out / "report.zip").namelist()
        for member in ("analysis/analysis.py", "analysis/analysis.ipynb"):
            assert member in names
        assert "analysis/requirements.txt" in names
        assert any(n.startswith("analysis/data/") and n.endswith(".csv") for n in names)
        unpacked = tmp_path / "unpacked"
        zipfile.ZipFile(out / "report.zip").extractall(unpacked)
        script = (unpacked / "analysis" / "analysis.py").read_text(encoding="utf-8").splitlines()
        # The build's own compendium (its analysis, with the notes' request:
        # pendulum's law fit imported nine unused numpy names) is ruff-clean.
        lint = subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--isolated", "--select", RUFF_RULES,
             str(unpacked / "analysis" / "analysis.py")],
            capture_output=True, text=True,
        )  # fmt: skip
        assert lint.returncode == 0, lint.stdout

        # The appendix names, for numbers the script recomputes, a line that states it.
        appendix = (unpacked / APPENDIX_FILE).read_text(encoding="utf-8")
        pattern = (
            r"line (\d+) of \\texttt\{analysis/analysis\.py\}"
            if lang == "en"
            else r"\\texttt\{analysis/analysis\.py\} 第 (\d+) 行"
        )
        lines = [int(n) for n in re.findall(pattern, appendix)]
        assert lines and all("report(" in script[n - 1] for n in lines)

        # Overleaf's compile: latexmk -xelatex in the unpacked folder keeps the links.
        shutil.copyfile(out / "report.provenance.json", unpacked / "provenance.json")
        compile_as_overleaf(unpacked)
        _check_links_reach_entries(unpacked, unpacked / "main.pdf", lang)
        # The delivered PDF was compiled with the same appendix.
        text = re.sub(r"\s+", "", pdf_text(out / "report.pdf"))
        assert "analysis/analysis.py" in text
        if lang == "zh":
            assert "计算方式" in text and "平均值" in text

        # The script runs from the unpacked zip and agrees with the report.
        done = subprocess.run(
            [sys.executable, "analysis.py"],
            cwd=unpacked / "analysis",
            capture_output=True,
            text=True,
            timeout=300,
            env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg"},
        )
        assert done.returncode == 0, done.stdout[-2000:]
        record = json.loads((out / "report.provenance.json").read_text(encoding="utf-8"))
        assert record["numbers"]
    finally:
        shutil.rmtree(build, ignore_errors=True)


@needs_tex
@pytest.mark.smoke
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_offline_build_writes_the_compendium_before_its_one_compile(tmp_path: Path) -> None:
    """`build --zip` adds no compile: the appendix with script lines is in the
    PDF that build_offline alone compiled (it never recompiles). Written after
    the compile it took a second compile of two passes for alloy-hardness."""
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline
    from labwright.agent.offline.compendium_build import has_compendium

    done = list(build_offline(EXAMPLES / "alloy-hardness", tmp_path, compendium=True))[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path is not None
    assert has_compendium(tmp_path)
    script = (tmp_path / "analysis" / "analysis.py").read_text(encoding="utf-8").splitlines()
    appendix = (tmp_path / APPENDIX_FILE).read_text(encoding="utf-8")
    lines = [
        int(n) for n in re.findall(r"line (\d+) of \\texttt\{analysis/analysis\.py\}", appendix)
    ]
    assert lines and all("report(" in script[n - 1] for n in lines)
    assert "analysis/analysis.py" in re.sub(r"\s+", "", pdf_text(Path(done.pdf_path)))
    # Without the request, the build is the main job's: no analysis/.
    plain = list(
        build_offline(EXAMPLES / "alloy-hardness", tmp_path / "plain", tex_available=False)
    )
    assert not has_compendium(tmp_path / "plain") and isinstance(plain[-1], Done)
