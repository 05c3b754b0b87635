"""BibTeX through bibtexparser v2: read, and rewrite one entry leaving the file as it was."""

from __future__ import annotations

from labwright.verify.bibtex import (
    Person,
    entry_keys,
    parse_bib,
    parse_names,
    replace_entries,
    unified_diff,
    without_entries,
    write_entry,
)

USER_FILE = r"""% references for the pendulum report
@string{prl = "Phys. Rev. Lett."}

@ARTICLE{abbott,
    author  = "Abbott, B. P. and others",
    title   = "Observation of Gravitational Waves",
    journal = prl, year = {2016},
}

@book{taylor,author={Taylor, John R.},title={An Introduction to {Error} Analysis},year=1997}
"""


def test_fields_are_read_with_strings_resolved_and_braces_removed() -> None:
    parsed = parse_bib(USER_FILE)
    assert parsed.keys == ["abbott", "taylor"]
    abbott = parsed.by_key()["abbott"]
    assert abbott.entry_type == "article"
    assert abbott.get("journal") == "Phys. Rev. Lett."
    assert abbott.get("Year") == "2016"
    assert parsed.by_key()["taylor"].get("title") == "An Introduction to {Error} Analysis"


def test_replacing_one_entry_leaves_every_other_byte_as_written() -> None:
    parsed = parse_bib(USER_FILE)
    new = write_entry(
        "abbott",
        "article",
        [("title", "Observation of Gravitational Waves"), ("year", "2016"), ("volume", "116")],
    )
    out = replace_entries(parsed, {"abbott": new})
    taylor = parsed.by_key()["taylor"].raw
    assert out.startswith(
        '% references for the pendulum report\n@string{prl = "Phys. Rev. Lett."}\n\n'
    )
    assert taylor in out and out.endswith(taylor + "\n")
    assert "volume = {116}" in out
    diff = unified_diff(USER_FILE, out, "refs.bib")
    assert diff.startswith("--- a/refs.bib\n+++ b/refs.bib\n")
    changed = [
        line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("---", "+++")
    ]
    assert all("taylor" not in line and "string" not in line for line in changed)
    assert parse_bib(out).keys == ["abbott", "taylor"]


def test_removing_an_entry_keeps_the_rest() -> None:
    out = without_entries(parse_bib(USER_FILE), ["abbott"])
    assert entry_keys(out) == {"taylor"} and "@string" in out


def test_a_broken_block_is_reported_and_the_rest_still_read() -> None:
    parsed = parse_bib("@article{good, title={G}}\n@article{bad, title = {never closed\n")
    assert parsed.keys == ["good"]
    assert len(parsed.problems) == 1 and parsed.problems[0].startswith("line")


def test_a_repeated_field_keeps_the_entry() -> None:
    parsed = parse_bib("@book{dup, title={A}, title={B}}")
    assert parsed.keys == ["dup"] and parsed.entries[0].get("title") in ("A", "B")


def test_names_split_on_and_outside_braces() -> None:
    assert parse_names("{Barnes and Noble} and Smith, J.") == [
        Person("Barnes and Noble"),
        Person("Smith", "J."),
    ]
    assert parse_names("Kaiming He and Zhang, Xiangyu and others") == [
        Person("He", "Kaiming"),
        Person("Zhang", "Xiangyu"),
    ]
    assert parse_names("张三 and 李四")[0] == Person("张三")
    assert parse_names("Ludwig van Beethoven")[0] == Person("van Beethoven", "Ludwig")
