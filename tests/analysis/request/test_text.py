"""Notes as clauses: wrapped lines joined, items and headings kept apart,
offsets of the normalised text valid in the original."""

from __future__ import annotations

from labwright.analysis.notes import strip_markup
from labwright.analysis.request_rules.text import clauses_of, normalise


def test_a_wrapped_sentence_is_one_clause_and_items_stay_apart() -> None:
    note = "Find the activation\nenergy of the reaction.\n\nTasks:\n1. Plot ln k.\n2. Find Ea.\n"
    texts = [c.text for c in clauses_of("n.md", note)]
    assert "Find the activation energy of the reaction." in texts
    assert "Plot ln k." in texts and "Find Ea." in texts


def test_items_remember_their_heading() -> None:
    note = "## Theory\nThe rate constant k depends on T.\n\n## Tasks\n- determine Ea\n"
    by_text = {c.text: c for c in clauses_of("n.md", note)}
    assert not by_text["The rate constant k depends on T."].under_request_heading
    assert by_text["determine Ea"].under_request_heading and by_text["determine Ea"].item


def test_chinese_lines_join_without_a_space() -> None:
    note = "实验要求：\n（1）求出米氏常数\nKm 和最大速率。\n"
    texts = [c.text for c in clauses_of("n.md", note)]
    assert any("求出米氏常数 Km" in t or "求出米氏常数Km" in t for t in texts), texts


def test_normalising_keeps_offsets() -> None:
    original = "Ｋｍ＝２．５ ｍＭ，Michaelis–Menten"
    plain = normalise(original)
    assert plain == "Km=2.5 mM,Michaelis-Menten" and len(plain) == len(original)


def test_stars_of_a_formula_are_not_emphasis() -> None:
    assert strip_markup("A = epsilon*l*c and k*conc") == "A = epsilon*l*c and k*conc"
    assert strip_markup("a **bold** and an *emphasised* word") == "a bold and an emphasised word"


def test_a_line_that_starts_with_a_decimal_number_is_not_an_item() -> None:
    clauses = clauses_of("n.md", "Titration\n\n25.00 mL of acid was titrated.\n\n1. Find V_eq.")
    assert [c.text for c in clauses][1:] == ["25.00 mL of acid was titrated.", "Find V_eq."]
