from labwright.agent.bibliography import (
    UNVERIFIED_NOTE,
    BibOutcome,
    build_bibliography,
    mark_unverified,
    split_entries,
)

DRAFT = r"\begin{document}\cite{a}\cite{b}\end{document}"


def test_split_entries_handles_nested_braces() -> None:
    bib = "@article{a, title={The {Big} one}}\n@book{b, title={B}}\n@string{s = {x}}"
    assert set(split_entries(bib)) == {"a", "b"}
    assert split_entries(bib)["a"].endswith("}}")


def test_mark_unverified_adds_a_note() -> None:
    assert f"note = {{{UNVERIFIED_NOTE}}}" in mark_unverified("@book{b, title={B},\n}")


def test_folder_bib_first_model_for_the_rest() -> None:
    asked: list[list[str]] = []

    def ask(keys: list[str]) -> str:
        asked.append(keys)
        return "@book{b, title={B}}\n@book{zzz, title={not asked for}}"

    outcome = BibOutcome()
    list(build_bibliography(DRAFT, ["@article{a, title={A}}"], ask, outcome))
    assert asked == [["b"]]
    assert outcome.generated == ["b"] and outcome.missing == []
    assert "zzz" not in outcome.bib
    assert outcome.bib.count(UNVERIFIED_NOTE) == 1


def test_without_a_model_missing_keys_are_reported() -> None:
    outcome = BibOutcome()
    events = list(build_bibliography(DRAFT, [], None, outcome))
    assert outcome.missing == ["a", "b"]
    assert any("no bibliography entry" in getattr(e, "message", "") for e in events)
