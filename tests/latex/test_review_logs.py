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
