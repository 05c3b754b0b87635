"""Adaptive passes, budgets and honest status, with the real XeLaTeX."""

from __future__ import annotations

from pathlib import Path

import pytest

from labwright.latex.compile import (
    PARANOID_SETTINGS,
    EngineNotFound,
    compile_source,
    compile_tex,
    paranoid_env,
)
from labwright.latex.engine import TexEngine
from tests.latex.conftest import minimal_doc, pdf_text

BIB = b"@article{smith2020, author={Jane Smith}, title={Damped Pendulums Revisited}, journal={Am. J. Phys.}, year={2020}}\n"


def _run(tmp_path: Path, engine: TexEngine, source: str, **kw: object):
    return compile_source(source, build_root=tmp_path, engine=engine, **kw)  # type: ignore[arg-type]


def test_no_references_compiles_in_one_pass(tmp_path: Path, tex_engine: TexEngine) -> None:
    result = _run(tmp_path, tex_engine, minimal_doc("\\section{Aim}Plain text, no labels."))
    assert result.pass_names == ["xelatex"]
    assert result.status == "clean" and result.ok
    assert result.pdf is not None and "Plain text" in pdf_text(result.pdf)


def test_cross_references_take_two_passes(tmp_path: Path, tex_engine: TexEngine) -> None:
    body = "\\section{Aim}\\label{sec:aim}See Section~\\ref{sec:aim}."
    result = _run(tmp_path, tex_engine, minimal_doc(body))
    assert result.pass_names == ["xelatex", "xelatex"]
    assert result.status == "clean"
    assert result.pdf is not None and "See Section 1" in pdf_text(result.pdf)


def test_table_of_contents_takes_two_passes(tmp_path: Path, tex_engine: TexEngine) -> None:
    result = _run(tmp_path, tex_engine, minimal_doc("\\tableofcontents\\section{Method}x"))
    assert result.pass_names == ["xelatex", "xelatex"]
    assert result.pdf is not None and "Method" in pdf_text(result.pdf).split("Method", 1)[1]


def test_citations_with_bib_run_bibtex(tmp_path: Path, tex_engine: TexEngine) -> None:
    body = "As shown before~\\cite{smith2020}.\\bibliographystyle{unsrt}\\bibliography{refs}"
    result = _run(tmp_path, tex_engine, minimal_doc(body), files={"refs.bib": BIB})
    assert result.pass_names == ["xelatex", "bibtex", "xelatex", "xelatex"]
    assert result.status == "clean", result.diagnostics
    assert result.pdf is not None and "[1] Jane Smith" in pdf_text(result.pdf)


def test_citations_without_bib_skip_bibtex_and_report_it(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    body = "As shown before~\\cite{smith2020}.\\bibliographystyle{unsrt}\\bibliography{refs}"
    result = _run(tmp_path, tex_engine, minimal_doc(body))
    assert "bibtex" not in result.pass_names
    assert result.pdf is not None
    assert result.status == "degraded"
    assert result.diagnostics.undefined_citations == ["smith2020"]


def test_pass_cap_stops_a_document_that_always_asks_for_a_rerun(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    body = (
        "x\\typeout{LaTeX Warning: Label(s) may have changed. Rerun to get cross-references right.}"
    )
    result = _run(tmp_path, tex_engine, minimal_doc(body), max_passes=3)
    assert result.pass_names == ["xelatex"] * 3
    assert result.stopped_by == "cap"
    assert result.pdf is not None


def test_pass_timeout_kills_a_looping_document(tmp_path: Path, tex_engine: TexEngine) -> None:
    result = _run(tmp_path, tex_engine, minimal_doc("\\def\\loop{\\loop}\\loop"), pass_timeout_s=2)
    assert result.stopped_by == "timeout"
    assert result.passes[-1].timed_out
    assert result.status == "failed" and result.pdf is None


def test_wall_budget_bounds_the_whole_compile(tmp_path: Path, tex_engine: TexEngine) -> None:
    result = _run(tmp_path, tex_engine, minimal_doc("\\def\\loop{\\loop}\\loop"), wall_budget_s=1.5)
    assert len(result.passes) == 1
    assert result.stopped_by in ("timeout", "budget")
    assert result.status == "failed"


def test_recoverable_error_still_gives_a_pdf_marked_degraded(
    tmp_path: Path, tex_engine: TexEngine
) -> None:
    source = minimal_doc("First line.\n\\undefinedmacro\nLast line.")
    result = _run(tmp_path, tex_engine, source)
    assert result.pdf is not None and "Last line" in pdf_text(result.pdf)
    assert not result.ok and result.status == "degraded"
    err = result.diagnostics.errors[0]
    assert "Undefined control sequence" in err.message
    assert err.line == source.splitlines().index("\\undefinedmacro") + 1


def test_fatal_error_is_failed_not_compiled(tmp_path: Path, tex_engine: TexEngine) -> None:
    result = _run(tmp_path, tex_engine, minimal_doc("text"), apply_sanitizer=False, files=None)
    assert result.ok  # control: the same call compiles a sound document
    broken = (
        "\\documentclass{article}\n\\def\\x{% TODO}\n\\begin{document}\nA\\x\n\\end{document}\n"
    )
    result = _run(tmp_path, tex_engine, broken, apply_sanitizer=False)
    assert result.pdf is None and result.status == "failed"
    assert result.diagnostics.fatal
    assert result.pass_names == ["xelatex"]


def test_each_compile_gets_its_own_build_directory(tmp_path: Path, tex_engine: TexEngine) -> None:
    a = _run(tmp_path, tex_engine, minimal_doc("A"))
    b = _run(tmp_path, tex_engine, minimal_doc("B"))
    assert a.build_dir != b.build_dir
    assert a.pdf is not None and b.pdf is not None
    assert "A" in pdf_text(a.pdf) and "B" in pdf_text(b.pdf)


def test_compile_tex_in_a_prepared_directory(tmp_path: Path, tex_engine: TexEngine) -> None:
    (tmp_path / "report.tex").write_text(minimal_doc("Prepared."), encoding="utf-8")
    result = compile_tex(tmp_path / "report.tex", engine=tex_engine)
    assert result.pdf == (tmp_path / "report.pdf").resolve()
    assert result.status == "clean"


def test_build_file_names_must_stay_inside(tmp_path: Path, tex_engine: TexEngine) -> None:
    for bad in ("../evil.tex", str((tmp_path / "abs.tex").resolve())):
        with pytest.raises(ValueError):
            compile_source(
                minimal_doc("x"), files={bad: b"x"}, build_root=tmp_path / "b", engine=tex_engine
            )
    assert not (tmp_path / "evil.tex").exists()


def test_missing_engine_raises_a_plain_error(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(minimal_doc("x"), encoding="utf-8")
    with pytest.raises(EngineNotFound, match="doctor"):
        compile_tex(tmp_path / "main.tex", engine=TexEngine(None, None, None, "none", None))


def test_without_a_pdf_driver_nothing_is_compiled(tmp_path: Path, tex_engine: TexEngine) -> None:
    """XeLaTeX driving itself would skip the .xdv gate: refused, in one sentence."""
    from dataclasses import replace

    (tmp_path / "main.tex").write_text(minimal_doc("x"), encoding="utf-8")
    engine = replace(tex_engine, xdvipdfmx=None)
    assert not engine.available
    with pytest.raises(EngineNotFound, match="xdvipdfmx") as err:
        compile_tex(tmp_path / "main.tex", engine=engine)
    assert str(err.value).count(". ") == 0 and "install" in str(err.value).lower()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main.tex"]


def test_paranoid_env_drops_tex_variables_and_sets_paranoia() -> None:
    engine = TexEngine(Path("/opt/tex/bin/xelatex"), None, None, "env", Path("/opt/tex/bin"))
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "TEXMFOUTPUT": "/",
        "TEXINPUTS": "/etc//",
        "SECRET_TOKEN": "x",
    }
    env = paranoid_env(engine, base)
    for key, value in PARANOID_SETTINGS.items():
        assert env[key] == value
    assert env["openin_any"] == "p" and env["openout_any"] == "p" and env["shell_escape"] == "f"
    assert "TEXMFOUTPUT" not in env and "TEXINPUTS" not in env and "SECRET_TOKEN" not in env
    assert env["PATH"].split(":")[0] == "/opt/tex/bin" or env["PATH"].startswith(
        str(Path("/opt/tex/bin"))
    )


def test_changed_aux_alone_triggers_a_rerun(tmp_path: Path, tex_engine: TexEngine) -> None:
    """Pass 2 (asked for by the label) writes an .aux that differs from the
    one it read, without any log message: that alone must cause pass 3, and
    the unchanged .aux after pass 3 must stop the loop."""
    preamble = (
        "\\makeatletter\\AtEndDocument{\\immediate\\write\\@auxout{\\string\\gdef\\string\\lwseen{"
        "\\ifdefined\\lwseen 2\\else 1\\fi}}}\\makeatother"
    )
    result = _run(
        tmp_path, tex_engine, minimal_doc("\\section{A}\\label{a}See \\ref{a}.", preamble)
    )
    assert result.pass_names == ["xelatex"] * 3
    assert [p.reason for p in result.passes] == [
        "first pass",
        "the log asked for a rerun",
        ".aux changed",
    ]
    assert result.status == "clean" and result.stopped_by is None


def test_pass_reasons_name_the_trigger(tmp_path: Path, tex_engine: TexEngine) -> None:
    body = "\\tableofcontents\\section{A}x~\\cite{smith2020}\\bibliographystyle{unsrt}\\bibliography{refs}"
    result = _run(tmp_path, tex_engine, minimal_doc(body), files={"refs.bib": BIB})
    reasons = [p.reason for p in result.passes]
    assert reasons[:3] == ["first pass", "citations and a .bib present", "bibliography"]
    assert result.status == "clean"


def test_driver_runs_once_after_the_last_pass(tmp_path: Path, tex_engine: TexEngine) -> None:
    if tex_engine.xdvipdfmx is None:
        pytest.skip("no xdvipdfmx beside xelatex")
    body = "\\section{Aim}\\label{sec:aim}See Section~\\ref{sec:aim}."
    result = _run(tmp_path, tex_engine, minimal_doc(body))
    assert result.pass_names == ["xelatex", "xelatex"]
    assert result.driver is not None and result.driver.name == "xdvipdfmx"
    assert result.pdf is not None and "See Section 1" in pdf_text(result.pdf)
