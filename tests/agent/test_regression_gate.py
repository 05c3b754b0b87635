from labwright.agent.regression_gate import regression_check

BASE = r"""\documentclass{article}
\begin{document}
\section{Aim} Measure $g = 9.79 \pm 0.05$ \cite{a}.
\section{Method} Timed periods \cite{b}.
\begin{equation} T = 2\pi\sqrt{L/g} \end{equation}
\section{Results}
\begin{tabular}{cc} 1 & 2 \end{tabular}
\includegraphics{fig1.png}
\section{Error analysis} The uncertainty is dominated by timing.
\end{document}
"""


def test_unchanged_draft_converges() -> None:
    assert regression_check(BASE, BASE + "\n  ").outcome == "converged"


def test_a_real_improvement_is_kept() -> None:
    better = BASE.replace("Timed periods", "Timed twenty periods with a stopwatch")
    assert regression_check(BASE, better).outcome == "kept"


def test_dropping_a_section_regresses() -> None:
    worse = BASE.replace(r"\section{Method} Timed periods \cite{b}.", "Timed periods \\cite{b}.")
    result = regression_check(BASE, worse)
    assert result.outcome == "regressed"
    assert any("fewer sections" in r for r in result.reasons)


def test_losing_citations_figures_tables_or_skeleton_regresses() -> None:
    assert "citations were lost: b" in regression_check(BASE, BASE.replace(r"\cite{b}", "")).reasons
    assert (
        regression_check(BASE, BASE.replace(r"\includegraphics{fig1.png}", "")).outcome
        == "regressed"
    )
    assert regression_check(BASE, BASE.replace(r"\end{document}", "")).outcome == "regressed"


def test_length_collapse_regresses() -> None:
    collapsed = BASE[: int(len(BASE) * 0.5)] + "\n\\end{document}"
    result = regression_check(BASE, collapsed)
    assert result.outcome == "regressed"
    assert any("previous length" in r for r in result.reasons)


def test_new_citation_with_empty_bib_is_not_a_regression() -> None:
    more = BASE.replace("timing.", "timing \\cite{c}.")
    assert regression_check(BASE, more, bib=None).outcome == "kept"
