"""diagnose() on log lines taken from real XeLaTeX runs (TeX Live 2022,
-file-line-error, max_print_line=10000), and humanize()'s sentence shape."""

from __future__ import annotations

from pathlib import Path

from labwright.latex.compile import compile_source
from labwright.latex.diagnose import Diagnostics, diagnose, humanize
from labwright.latex.engine import TexEngine
from tests.latex.conftest import minimal_doc

DEGRADED_LOG = r"""
./g.tex:2: Package fontspec Error: The font "NoSuchFont Pro" cannot be found.

For immediate help type H <return>.
 ...

l.2 \begin
          {document}
./g.tex:2: Font TU/NoSuchFontPro(0)/m/n/10="NoSuchFont Pro" at 10.0pt not loadable: Metric (TFM) file or installed font not found.
./g.tex:3: LaTeX Error: File `nofig' not found.

See the LaTeX manual or LaTeX Companion for explanation.
Type  H <return>  for immediate help.
 ...

l.3 \includegraphics{nofig}

I could not locate the file with any of these extensions:
.pdf,.PDF,.ai,.AI,.png,.PNG,.jpg,.JPG,.jpeg,.JPEG,.jp2,.JP2,.jpf,.JPF,.bmp,.BMP
Try typing  <return>  to proceed.

LaTeX Warning: File `nofig2.png' not found on input line 3.
./g.tex:3: Unable to load picture or PDF file 'nofig2.png'.
<to be read again>
l.3 \includegraphics{nofig2.png}
LaTeX Warning: Reference `fig:decay' on page 1 undefined on input line 7.
LaTeX Warning: Citation `smith2020' on page 1 undefined on input line 9.
Package natbib Warning: Citation `jones99' on page 2 undefined on input line 12.
Missing character: There is no 中 ("4E2D) in font lmroman10-regular!
Missing character: There is no ? ("3F) in font nullfont!
Overfull \hbox (15.0pt too wide) in paragraph at lines 20--21
Overfull \vbox (3.2pt too high) has occurred while \output is active
LaTeX Warning: There were undefined references.
LaTeX Warning: Label(s) may have changed. Rerun to get cross-references right.
"""

FATAL_LOG = r"""
! LaTeX Error: File `nosuchpkg.sty' not found.

Type X to quit or <RETURN> to proceed,
or enter new name. (Default extension: sty)

Enter file name:
./h.tex:1: Emergency stop.
<read *>

l.1 ...tclass{article}\usepackage{nosuchpkg}\begin
                                                  {document}
*** (cannot \read from terminal in nonstop modes)
"""

RUNAWAY_LOG = r"""
! File ended while scanning definition of \partnerID.
<inserted text>
                }
<*> main.tex

! Emergency stop.
*** (job aborted, no legal \end found)
"""


def test_degraded_log_is_tallied() -> None:
    d = diagnose(DEGRADED_LOG)
    assert d.missing_fonts == ["NoSuchFont Pro"]
    assert d.missing_figures == ["nofig", "nofig2.png"]
    assert d.undefined_references == ["fig:decay"]
    assert d.undefined_citations == ["smith2020", "jones99"]
    assert d.missing_characters == ["中"]  # nullfont fallout is not a glyph gap
    assert d.overfull_boxes == 2
    assert d.rerun_requested
    assert not d.fatal
    assert d.error_count == 4
    assert [(e.file, e.line) for e in d.errors] == [
        ("./g.tex", 2),
        ("./g.tex", 2),
        ("./g.tex", 3),
        ("./g.tex", 3),
    ]
    assert d.errors[2].context == "\\includegraphics{nofig}"
    assert d.degraded


def test_missing_package_and_fatal_stop() -> None:
    d = diagnose(FATAL_LOG)
    assert d.missing_packages == ["nosuchpkg.sty"]
    assert d.fatal and d.degraded
    assert d.errors[-1].line == 1


def test_runaway_definition_is_fatal() -> None:
    d = diagnose(RUNAWAY_LOG)
    assert d.fatal
    assert d.errors[0].message.startswith("File ended while scanning definition")


def test_clean_log_has_nothing_to_report() -> None:
    d = diagnose("This is XeTeX, Version 3.141592653\nOutput written on main.xdv (1 page).\n")
    assert d == Diagnostics()
    assert not d.degraded and humanize(d) == []


def test_placeholder_figures_count_as_missing() -> None:
    d = diagnose("", placeholder_figures=["fig_a.png", "fig_a.png", "fig_b.png"])
    assert d.missing_figures == ["fig_a.png", "fig_b.png"] and d.degraded


def test_overfull_boxes_alone_do_not_degrade() -> None:
    d = diagnose("Overfull \\hbox (1.0pt too wide) in paragraph at lines 3--4\n")
    assert d.overfull_boxes == 1 and not d.degraded


def _is_sentence_plus_action(s: str) -> bool:
    # One finding sentence and one action sentence; no raw log lines.
    return s.endswith(".") and s.count(". ") >= 1 and "\n" not in s and not s.startswith("!")


def test_humanize_gives_one_sentence_and_one_action_per_finding() -> None:
    messages = humanize(diagnose(DEGRADED_LOG))
    assert all(_is_sentence_plus_action(m) for m in messages), messages
    joined = " ".join(messages)
    for name in ("NoSuchFont Pro", "nofig2.png", "fig:decay", "smith2020", "中"):
        assert name in joined
    # The font and figure errors are told once, in plain words, not echoed raw.
    assert "not loadable" not in joined and "Unable to load picture" not in joined
    assert any("margin" in m for m in messages)


def test_humanize_fatal_comes_first_and_known_errors_are_plain() -> None:
    messages = humanize(diagnose(RUNAWAY_LOG))
    assert messages[0].startswith("LaTeX stopped")
    assert any("never closed" in m for m in messages)
    assert all(_is_sentence_plus_action(m) for m in messages)


def test_humanize_caps_the_error_list() -> None:
    log = "\n".join(f"./main.tex:{i}: Something odd number {i}." for i in range(1, 13))
    messages = humanize(diagnose(log))
    assert len(messages) == 6 and messages[-1].startswith("7 further LaTeX errors")


def test_compiled_but_degraded_is_never_clean(tmp_path: Path, tex_engine: TexEngine) -> None:
    """A real compile with an undefined reference: a PDF exists, no TeX error,
    ok is True -- and still the status is degraded and humanize says why."""
    result = compile_source(
        minimal_doc("See Figure~\\ref{fig:nowhere}."), build_root=tmp_path, engine=tex_engine
    )
    assert result.pdf is not None and result.ok
    assert result.status == "degraded"
    assert result.diagnostics.undefined_references == ["fig:nowhere"]
    assert any("fig:nowhere" in m for m in humanize(result.diagnostics))


def test_driver_failure_is_reported() -> None:
    log = "[1\n\n] (./main.aux) )\nError 256 (driver return code) generating output;\nfile main.pdf may not be valid.\n"
    d = diagnose(log)
    assert d.driver_failed and d.degraded
    assert humanize(d)[0].startswith("The PDF writer (xdvipdfmx) failed")


# --- bounded work on hostile logs (issue 11) ----------------------------------


def _pathological_line(size: int) -> str:
    """One line built from the openings of every pattern, never completed:
    what made the earlier regexes backtrack."""
    parts = (
        "Missing character: There is no ",
        " in font x",
        'Font \\x="',
        "Citation `",
        "rerunfilecheck Warning: File ",
        "File `",
        "Reference `",
        'The font "',
        "a.tex",
    )
    out = []
    n = 0
    while n < size:
        for p in parts:
            out.append(p)
            n += len(p)
    return "".join(out)[:size]


def test_a_huge_pathological_line_is_read_in_bounded_pieces(tmp_path: Path) -> None:
    from labwright.latex.diagnose import MAX_ITEMS, MAX_LINE, diagnose_file

    size = 3_000_000
    line = "Missing character: There is no " + _pathological_line(size)
    log = tmp_path / "main.log"
    log.write_text(line + "\n", encoding="utf-8")
    d = diagnose_file(log, budget_s=None)
    # The work is bounded: the line is looked at in MAX_LINE pieces, each once.
    assert d.lines_read == -(-len(line) // MAX_LINE)
    assert not d.truncated
    for found in (d.missing_characters, d.missing_fonts, d.undefined_citations, d.errors):
        assert len(found) <= MAX_ITEMS
    same = diagnose(line)
    assert same.lines_read == d.lines_read


def test_many_errors_are_counted_but_kept_bounded() -> None:
    from labwright.latex.diagnose import MAX_ITEMS

    log = "".join(
        f"./main.tex:{i}: Undefined control sequence.\nl.{i} \\foo{i}\n" for i in range(1, 1001)
    )
    d = diagnose(log)
    assert d.error_count == 1000 and len(d.errors) == MAX_ITEMS
    assert any("further LaTeX errors" in m for m in humanize(d))


def test_the_diagnosis_stops_at_its_time_budget() -> None:
    log = "Overfull \\hbox (1.0pt too wide) in paragraph at lines 3--4\n" * 5000
    d = diagnose(log, budget_s=0.0)
    assert d.truncated and 0 < d.lines_read < 5000
    assert d.degraded  # an unread log is never "clean"
    (said,) = [m for m in humanize(d) if "too long to read" in m]
    assert said.count(". ") == 1


def test_a_huge_log_compiles_without_holding_it(tmp_path: Path, tex_engine: TexEngine) -> None:
    """A document printing ~20 MB: terminal output is capped on disk, the log
    excerpt in the result is bounded, and the diagnosis still finds the errors."""
    from labwright.latex.compile import TERMINAL_LOG
    from labwright.latex.texrun import OUTPUT_CAP_BYTES

    chunk = "y" * 990
    body = (
        "\\newcount\\n \\n=0 "
        f"\\loop\\message{{{chunk}}}\\advance\\n by 1 \\ifnum\\n<20000 \\repeat "
        "\\undefinedcommand done"
    )
    result = compile_source(minimal_doc(body), build_root=tmp_path, engine=tex_engine, max_passes=1)
    log = result.build_dir / "main.log"
    assert log.stat().st_size > 19_000_000
    assert (result.build_dir / TERMINAL_LOG).stat().st_size <= OUTPUT_CAP_BYTES
    assert len(result.log_text) < 1_000_000
    assert result.diagnostics.error_count == 1 and not result.diagnostics.truncated
    assert result.status == "degraded"
