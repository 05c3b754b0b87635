"""Review of issue 11, class 7: pathological TeX log lines. Timing lives in
benchmarks/tex_log_pathological.py; here the linear-time rewrite of the
"File `...' not found" search must find exactly what the regex found."""

from __future__ import annotations

import re

import pytest

from labwright.latex.diagnose import _not_found, diagnose

_REGEX = re.compile(r"File `(?P<name>[^'\n]{1,500})' not found")

MESSAGES = [
    "LaTeX Error: File `x.sty' not found.",
    "File `a b.png' not found",
    "File `' not found",
    "File `a\nb' not found",
    "File `" + "a" * 500 + "' not found",
    "File `" + "a" * 501 + "' not found",
    "File `a' not found File `b' not found",
    "' not found File `x' not found",
    "File `a'b' not found",
    "File `File `File `" * 300,
    "File `File `File `" * 300 + "z.sty' not found",
    "no match here",
]


@pytest.mark.parametrize("msg", MESSAGES)
def test_not_found_matches_the_regex(msg: str) -> None:
    m = _REGEX.search(msg)
    found = _not_found(msg)
    if m is None:
        assert found is None
    else:
        assert found is not None and found.endswith(m.group("name").split("File `")[-1])


def test_a_log_of_file_tick_lines_is_read_whole_and_still_finds_the_real_error() -> None:
    junk = ("! " + "File `" * 2000)[:10_000]
    real = "! LaTeX Error: File `missing.sty' not found."
    log = "\n".join([junk] * 300 + [real, "", "l.3 \\usepackage{missing}"])
    d = diagnose(log)
    assert not d.truncated
    assert d.error_total == 301
    assert d.missing_packages == ["missing.sty"]


def test_a_document_that_writes_file_after_file_is_stopped_at_the_build_cap(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """RLIMIT_FSIZE caps each file TeX writes, not their number: 30 files of
    20 MB each (600 MB; unbounded, ~27 GB fit in the wall budget) must be cut
    at the build folder's cap. Real XeLaTeX; the cap lowered to 40 MB."""
    from labwright.latex import texrun
    from labwright.latex.compile import compile_source
    from labwright.latex.engine import resolve_engine

    engine = resolve_engine()
    if not engine.available:
        pytest.skip("no XeLaTeX on this machine (run `labwright doctor`)")
    cap = 40 << 20
    monkeypatch.setattr(texrun, "BUILD_CAP_BYTES", cap)
    line = "y" * 999
    doc = (
        "\\documentclass{article}\\newwrite\\f\\newcount\\k\\newcount\\n\\begin{document}x"
        "\\k=0 \\loop\\immediate\\openout\\f=fill\\the\\k.txt "
        "\\n=0 {\\loop\\immediate\\write\\f{"
        + line
        + "}\\advance\\n by 1 \\ifnum\\n<20000 \\repeat}"
        "\\immediate\\closeout\\f\\advance\\k by 1 \\ifnum\\k<30 \\repeat\\end{document}"
    )
    result = compile_source(
        doc, build_root=tmp_path / "b", apply_sanitizer=False, engine=engine, max_passes=1
    )
    total = sum(p.stat().st_size for p in result.build_dir.rglob("*") if p.is_file())
    # One poll's worth of writing may land past the cap, never the whole payload.
    assert total < 4 * cap, f"{total} bytes in the build folder, cap {cap}"
    assert result.pdf is None
