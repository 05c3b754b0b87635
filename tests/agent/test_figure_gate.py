"""The model-path gate: computed figures and tables, and the template's
preamble, survive a draft that drops them (unit), and a whole run against the
fake OpenAI-compatible server whose draft has its own preamble and no figure
(integration, real XeLaTeX)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from labwright.agent.events import Done
from labwright.agent.figure_gate import enforce
from labwright.agent.pipeline import AgentOptions, run_agent
from labwright.latex.engine import resolve_engine

from .conftest import ScriptedLab

REFERENCE = r"""\documentclass[en]{labwright-report}
\providecommand{\lwfile}[1]{\texttt{#1}}
\title{Report on data}
\begin{document}
\maketitle
\section{Aim}
Measure things.
\section{Results}
\subsection{\lwfile{a.csv}}
Text about a.
\begin{table}[H]
\caption{Summary of \lwfile{a.csv}.}
\begin{tabular}{lr}
x & 1 \\
\end{tabular}
\end{table}
\begin{figure}[H]
\includegraphics[width=0.8\linewidth]{figures/fig01.pdf}
\caption{y against x, from \lwfile{a.csv}.}
\end{figure}
\subsection{\lwfile{b.csv}}
\begin{figure}[H]
\includegraphics[width=0.8\linewidth]{figures/fig02.pdf}
\caption{Seasonal cycle, from \lwfile{b.csv}.}
\end{figure}
\section{Discussion}
\begin{authorbox}Interpret.\end{authorbox}
\end{document}
"""

DRAFT = r"""\documentclass{article}
\usepackage{siunitx}
\usepackage{minted}
\title{Seasonal behaviour of the record}
\begin{document}
\maketitle
\section{Introduction}
We study the data in a.csv and b.csv.
\section{Results}
The trend is clear (see the numbers).
\section{Conclusion}
It rises.
\end{document}
"""


def test_unit_every_float_and_the_preamble_come_back(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    for name in ("fig01.pdf", "fig02.pdf"):
        (tmp_path / "figures" / name).write_bytes(b"%PDF-1.4\n")
    out = enforce(DRAFT, REFERENCE, tmp_path)
    text = out.text
    assert text.startswith("\\documentclass[en]{labwright-report}")
    assert "\\providecommand{\\lwfile}" in text
    assert "\\usepackage{siunitx}" in text and "minted" not in text  # only known packages
    assert "\\title{Seasonal behaviour of the record}" in text  # the draft's title is kept
    assert text.count("\\includegraphics") == 2 and "Summary of" in text
    # Placed in the draft's results section, before its conclusion.
    results, conclusion = text.index("\\section{Results}"), text.index("\\section{Conclusion}")
    for fig in ("fig01", "fig02", "Summary of"):
        assert results < text.index(fig) < conclusion
    assert out.preamble_replaced and len(out.restored) == 3 and not out.left_out
    assert text.rstrip().endswith("\\end{document}")
    # Idempotent: a second pass changes nothing.
    again = enforce(text, REFERENCE, tmp_path)
    assert again.text == text and not again.restored


def test_unit_missing_graphics_are_recorded_not_inserted(tmp_path: Path) -> None:
    out = enforce(DRAFT, REFERENCE, tmp_path)  # no figure files at all
    assert out.text.count("\\includegraphics") == 0
    assert {k for k, _ in out.left_out} == {"fig01", "fig02"}
    assert all("does not exist" in why for _, why in out.left_out)


def test_unit_a_figure_goes_to_the_section_with_its_title(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "fig02.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "figures" / "fig01.pdf").write_bytes(b"%PDF-1.4\n")
    draft = DRAFT.replace(
        "\\section{Conclusion}", "\\subsection{\\lwfile{b.csv}}\nAbout b.\n\\section{Conclusion}"
    )
    text = enforce(draft, REFERENCE, tmp_path).text
    assert text.index("About b.") < text.index("fig02") < text.index("\\section{Conclusion}")


def test_unit_figures_the_draft_kept_are_not_duplicated(tmp_path: Path) -> None:
    draft = DRAFT.replace(
        "The trend is clear", "\\includegraphics[width=5cm]{figures/fig01}\nThe trend is clear"
    )
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "fig02.pdf").write_bytes(b"%PDF-1.4\n")
    text = enforce(draft, REFERENCE, tmp_path).text
    assert text.count("fig01") == 1 and text.count("fig02") == 1


needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="XeLaTeX is not installed")


def _own_draft(messages: list[dict[str, Any]], n: int) -> str:
    """A plausible draft from an independent server: its own preamble, prose
    with numbers, and not one figure or table."""
    return (
        "\\documentclass[11pt]{article}\n\\usepackage{amsmath}\n\\usepackage{fancyhdr}\n"
        "\\title{Measurement of g with a simple pendulum}\n\\author{A. Student}\n"
        "\\begin{document}\n\\maketitle\n"
        "\\section{Introduction}\nThe period of a pendulum depends on its length.\n"
        "\\section{Results}\nThe square of the period grows linearly with the length.\n"
        "\\section{Conclusion}\nThe value of g agrees with the accepted one.\n\\end{document}\n"
    )


@needs_tex
@pytest.mark.smoke
def test_run_with_a_draft_without_figures_keeps_every_computed_figure(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, fake_llm: Any
) -> None:
    lab.overrides["draft"] = _own_draft
    out = tmp_path / "out"
    offline = tmp_path / "offline"
    from labwright.agent.offline import build_offline

    list(build_offline(pendulum, offline, tex_available=False))
    reference = (offline / "main.tex").read_text(encoding="utf-8")
    expected = set(re.findall(r"\\includegraphics\[[^\]]*\]\{figures/([^}]+)\}", reference))
    tables = len(re.findall(r"\\begin\{table\}", reference))
    assert expected and tables
    events = list(
        run_agent(
            pendulum, out, client, AgentOptions(reflect_rounds=0), save_version=lambda *a: None
        )
    )
    done = events[-1]
    assert isinstance(done, Done) and done.pdf_path and Path(done.pdf_path).is_file()
    final = (out / "main.tex").read_text(encoding="utf-8")
    got = set(re.findall(r"\\includegraphics\[[^\]]*\]\{figures/([^}]+)\}", final))
    assert expected <= got
    assert len(re.findall(r"\\begin\{table\}", final)) >= tables
    preamble = reference[: reference.index("\\begin{document}")]
    code = "".join(ln for ln in preamble.splitlines(True) if not ln.startswith("%"))
    assert final.startswith(code.split("\\title")[0])  # class, fonts, macros
    assert "fancyhdr" not in final and "\\documentclass[11pt]{article}" not in final
    assert "Measurement of g with a simple pendulum" in final  # the model's title stays
    assert "The square of the period grows linearly" in final  # and its prose
    # The model was given the roles and the analyses as facts decided by code.
    drafts = [r for r in fake_llm.chat_requests if "# Task: write the report" in json.dumps(r.body)]
    assert drafts and "Column roles decided by code" in json.dumps(drafts[0].body)
