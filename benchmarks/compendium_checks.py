"""Issue 23's Done-when lines, checked for every example folder in both languages.

Per folder and language, `labwright build FOLDER --lang L --zip` (the path a
user takes to get the compendium), then:

- links: every `\\lwnum` tag of main.tex is a link annotation in the PDF whose
  destination page holds the number's appendix entry naming its file, column
  (sheet, variable) and rows (tests/latex/test_number_appendix.py's check);
- zip: the unpacked zip compiles with `latexmk -xelatex` and its PDF keeps
  every link the same way;
- lines: every script line the appendix names is a `report(` line of
  analysis/analysis.py;
- passes: XeLaTeX passes of the build's document compiled with and without
  its appendix file (compile_tex, fresh copies), so "the appendix adds at most
  one compile pass" is measured, not assumed;
- script: `ruff check` (the exported-script rules) and `ruff format --check`
  of analysis.py, and no Labwright import in it.

It prints one row per folder and language and a summary; exit 1 when a
Done-when line fails somewhere. Slow (a TeX build and a latexmk run each):
a measurement, not a test; the tests pin the same checks on a few folders.

Run: PYTHONPATH=. .venv/bin/python benchmarks/compendium_checks.py [folder ...]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
RUFF_RULES = "E4,E7,E9,F,I,B,UP"  # tests/agent/test_compendium.py
_BUILD_DIR = re.compile(r"Build folder \(main.tex, main.log\): (\S+)")


def _build(name: str, lang: str, out: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "labwright", "build", str(EXAMPLES / name), "--lang", lang,
         "-o", str(out / "report.pdf"), "--zip", str(out / "report.zip"), "--keep-build"],
        cwd=out, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"build exit {done.returncode}: {done.stderr[-500:]}")
    return Path(_BUILD_DIR.findall(done.stderr)[-1])


def _check(what: str, fn: object, *args: object) -> str:
    try:
        fn(*args)  # type: ignore[operator]
    except AssertionError as exc:
        return f"FAIL {what}: {str(exc)[:200]}"
    return "ok"


def _passes(build: Path, with_appendix: bool, work: Path) -> int:
    from labwright.agent.offline.appendix import APPENDIX_FILE
    from labwright.latex.compile import compile_tex

    copy = work / ("with" if with_appendix else "without")
    # The document's own outputs go (a fresh compile); its inputs (figures) stay.
    outputs = {f"main{s}" for s in (".aux", ".pdf", ".xdv", ".out", ".toc", ".log")}
    shutil.copytree(build, copy, ignore=lambda d, names: [n for n in names if n in outputs])
    if not with_appendix:
        (copy / APPENDIX_FILE).unlink(missing_ok=True)
    result = compile_tex(copy / "main.tex")
    assert result.ok, f"compile failed ({copy.name} appendix): {result.diagnostics}"[:600]
    return len(result.passes)


def check(name: str, lang: str, work: Path) -> dict[str, object]:
    from tests.latex.test_number_appendix import _check_links_reach_entries

    from labwright.agent.offline.appendix import APPENDIX_FILE

    out = work / "out"
    out.mkdir(parents=True)
    build = _build(name, lang, out)
    row: dict[str, object] = {"folder": name, "lang": lang}
    try:
        row["links"] = _check(
            "pdf links", _check_links_reach_entries, build, out / "report.pdf", lang
        )
        from tests.pdf_links import number_links

        row["n_links"] = len(number_links(out / "report.pdf"))
        unpacked = work / "unpacked"
        zipfile.ZipFile(out / "report.zip").extractall(unpacked)
        shutil.copyfile(build / "provenance.json", unpacked / "provenance.json")
        mk = subprocess.run(
            ["latexmk", "-xelatex", "-interaction=nonstopmode", "main.tex"],
            cwd=unpacked, capture_output=True, timeout=600,
        )  # fmt: skip
        row["zip"] = (
            _check("zip links", _check_links_reach_entries, unpacked, unpacked / "main.pdf", lang)
            if mk.returncode == 0
            else f"FAIL latexmk exit {mk.returncode}"
        )
        script_path = unpacked / "analysis" / "analysis.py"
        script = script_path.read_text(encoding="utf-8")
        appendix = (unpacked / APPENDIX_FILE).read_text(encoding="utf-8")
        pattern = (
            r"line (\d+) of \\texttt\{analysis/analysis\.py\}"
            if lang == "en"
            else r"\\texttt\{analysis/analysis\.py\} 第 (\d+) 行"
        )
        named = [int(n) for n in re.findall(pattern, appendix)]
        lines = script.splitlines()
        bad = [n for n in named if not 0 < n <= len(lines) or "report(" not in lines[n - 1]]
        row["lines"] = f"{len(named)} named" + (
            f", FAIL {len(bad)} not report(" if bad or not named else ""
        )
        ruff = [sys.executable, "-m", "ruff"]
        chk = subprocess.run(
            [*ruff, "check", "--isolated", "--select", RUFF_RULES, str(script_path)],
            capture_output=True,
        )
        fmt = subprocess.run(
            [*ruff, "format", "--isolated", "--check", str(script_path)], capture_output=True
        )
        row["ruff_check"] = "ok" if chk.returncode == 0 else "FAIL"
        row["ruff_format"] = "ok" if fmt.returncode == 0 else "FAIL"
        imports = re.findall(r"^\s*(?:import|from)\s+labwright\b", script, re.M)
        row["no_labwright"] = "ok" if not imports and "labwright" not in script.lower() else "FAIL"
        with_a = _passes(build, True, work)
        without = _passes(build, False, work)
        row["passes"] = f"{without}->{with_a}"
        row["passes_ok"] = "ok" if with_a - without <= 1 else "FAIL"
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return row


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="*")
    parser.add_argument("--lang", action="append", choices=["en", "zh"])
    args = parser.parse_args()
    names = args.folders or sorted(
        p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_")
    )
    failed = False
    for name in names:
        for lang in args.lang or ["en", "zh"]:
            with tempfile.TemporaryDirectory(prefix="lw-cc-") as tmp:
                try:
                    row = check(name, lang, Path(tmp))
                except Exception as exc:  # noqa: BLE001 - one row per folder, go on
                    row = {"folder": name, "lang": lang, "error": f"FAIL {exc}"[:300]}
            failed |= any(str(v).startswith("FAIL") or "FAIL" in str(v) for v in row.values())
            print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
