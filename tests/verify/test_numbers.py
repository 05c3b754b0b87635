"""Number provenance: exact behaviour of extraction and matching, plus metamorphic relations."""

import pytest

from labwright.verify.numbers import check_numbers, extract_numbers


def _texts(tex: str) -> list[str]:
    return [n.text for n in extract_numbers(tex)]


def test_extraction_skips_labels_lengths_files_and_small_integers() -> None:
    tex = (
        r"\begin{document}\label{fig:3.5}\includegraphics[width=0.8\textwidth]{run2.5.png}"
        r" see Figure~\ref{x12.5} of 3 runs: 12.5 s and 250 mV \vspace{2.5cm}\end{document}"
    )
    assert _texts(tex) == ["12.5", "250"]


def test_extraction_reads_scientific_notation_in_tex_and_plain() -> None:
    nums = extract_numbers(r"\begin{document}$1.2\times 10^{-3}$ and 4.5e6\end{document}")
    assert [n.value for n in nums] == pytest.approx([1.2e-3, 4.5e6])


def test_preamble_and_comments_are_ignored() -> None:
    tex = (
        "\\documentclass[11pt]{article}\\def\\x{99.9}\n\\begin{document}5.5 % 77.7\n\\end{document}"
    )
    assert _texts(tex) == ["5.5"]


@pytest.mark.parametrize(
    ("printed", "source"),
    [
        ("9.81", 9.8123),  # rounding
        ("9.8", 9.8123),
        ("250", 0.2504),  # mV from V
        ("12.5", 0.125),  # percent
        ("-0.50", 0.5),  # sign ignored
        ("1.2e-3", 0.00121),
    ],
)
def test_rounding_and_unit_tolerance(printed: str, source: float) -> None:
    report = check_numbers(f"\\begin{{document}}{printed}\\end{{document}}", [source])
    assert report.unsourced == []
    assert report.sourced == [printed]


@pytest.mark.parametrize(("printed", "source"), [("9.82", 9.8123), ("9.7", 9.8123), ("26", 0.25)])
def test_near_misses_are_unsourced(printed: str, source: float) -> None:
    report = check_numbers(f"\\begin{{document}}{printed}\\end{{document}}", [source])
    assert report.unsourced == [printed]


def test_numbers_in_material_text_count_as_sources() -> None:
    report = check_numbers(r"\begin{document}length 0.85 m\end{document}", [], "L = 0.85 m")
    assert report.unsourced == []


def test_metamorphic_fabricated_number_enlarges_the_unsourced_set() -> None:
    material = "measured 1.05 and 2.25"
    base = check_numbers(r"\begin{document}values 1.05 and 2.25\end{document}", [], material)
    more = check_numbers(
        r"\begin{document}values 1.05 and 2.25 and 7.77 from thin air\end{document}", [], material
    )
    assert len(more.unsourced) > len(base.unsourced)
    assert "7.77" in more.unsourced
