"""The number tag: written by the ledger, read back, and the gate for model text."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from labwright.agent.offline.provenance import Ledger
from labwright.ingest.types import Provenance
from labwright.verify import tags
from labwright.verify.tags import Known, consistent, find_tags, gate, hide_ids, tag, untag

PROV = Provenance(file="run.csv", column="T (s)")


def _ledger() -> tuple[Ledger, list[str]]:
    ledger = Ledger()
    texts = [
        ledger.num(9.81234, PROV, "g from the slope", sig=4),
        ledger.measured(2.0032, 0.0046, PROV, "fit parameter a"),
        ledger.count(20, PROV, "rows"),
        ledger.num(1.234e-5, PROV, "tiny", sig=3),
    ]
    return ledger, texts


def _known(ledger: Ledger) -> dict[str, Known]:
    return tags.known_from_record(ledger.to_dict())


def test_the_ledger_writes_one_tag_per_number_with_a_stable_id() -> None:
    first, texts = _ledger()
    again, texts_again = _ledger()
    assert texts == texts_again  # same computation, same id, in every build
    found = [t for text in texts for t in find_tags(text)]
    assert [t.printed for t in found] == ["9.812", "2.0032", "0.0046", "20", "1.23\\times10^{-5}"]
    assert [t.id for t in found] == [e.id for e in first.entries]
    assert len({t.id for t in found}) == len(found)


def test_the_same_number_printed_twice_is_one_entry() -> None:
    ledger = Ledger()
    a = ledger.num(3.5, PROV, "mean")
    b = ledger.num(3.5, PROV, "mean")
    c = ledger.num(3.5, PROV, "median")
    assert a == b and a != c and len(ledger.entries) == 2


def test_untag_gives_the_text_a_reader_sees() -> None:
    assert untag("$g = " + tag("abcd1234", "9.81") + "$") == "$g = 9.81$"
    assert untag(tag("abcd1234", "1.2\\times10^{-3}")) == "1.2\\times10^{-3}"
    assert untag("\\lwnum{NOT AN ID}{7} and \\lwnum x") == "7 and  x"


def test_consistent_means_the_value_rounds_to_the_printed_places() -> None:
    assert consistent(9.81234, "9.812") and consistent(9.81234, "9.81")
    assert consistent(9.81234, "10") and not consistent(9.81234, "9.80")
    assert consistent(1.234e-5, "1.23\\times10^{-5}") and consistent(1.234e-5, "1.2\\times10^{-5}")
    assert not consistent(1.234e-5, "1.3\\times10^{-5}")
    assert not consistent(math.nan, "1") and not consistent(1.0, "\\text{n/a}")


def test_gate_keeps_true_traces_and_retraces_a_new_precision() -> None:
    ledger, texts = _ledger()
    known = _known(ledger)
    g = find_tags(texts[0])[0]
    doc = f"We find $g = {texts[0]}$ and $a = {texts[1]}$."
    assert gate(doc, known).text == doc
    rounded = doc.replace(tag(g.id, "9.812"), tag(g.id, "9.81"))
    out = gate(rounded, known)
    assert out.text == rounded and out.retraced == ["9.81"] and not out.untagged


def test_gate_removes_a_forged_or_altered_tag() -> None:
    ledger, texts = _ledger()
    known = _known(ledger)
    g = find_tags(texts[0])[0]
    forged = "Also $x = \\lwnum{0123abcd}{42.0}$ and $g = " + tag(g.id, "7.5") + "$."
    out = gate(forged, known)
    assert find_tags(out.text) == []
    assert out.text == "Also $x = 42.0$ and $g = 7.5$."
    assert sorted(out.untagged) == ["42.0", "7.5"]


def test_gate_leaves_no_way_to_spell_the_macro() -> None:
    known = _known(_ledger()[0])
    for text in (
        "\\csname lwnum\\endcsname{0123abcd}{4.2}",
        "\\let\\n=\\lwnum \\n{0123abcd}{4.2}",
        "\\lwnum{\\lwnum{0123abcd}{1}}{2}",
        "\\expandafter\\def\\csname lwnum\\endcsname{}",
    ):
        out = gate(text, known).text
        assert "lwnum" not in out.replace("lw-num", ""), out


def test_gate_puts_back_a_tag_the_fragment_dropped_on_its_own_number() -> None:
    ledger, texts = _ledger()
    known = _known(ledger)
    g = find_tags(texts[0])[0]
    old = f"The slope gives $g = {texts[0]}$ from {texts[2]} rows."
    new = "From the slope, g is 9.812 (see also 9.812 and 20)."
    out = gate(new, known, replaced=old)
    assert out.text.count(tag(g.id, "9.812")) == 1  # once: the region printed it once
    assert tag(find_tags(texts[2])[0].id, "20") in out.text
    # A number the replaced text did not print is never tagged.
    assert find_tags(gate("g is 9.812", known).text) == []


def test_hidden_ids_survive_any_replacement() -> None:
    text = "a & $" + tag("0cdcd123", "3.5") + "$ cd \\\\"
    hidden, restore = hide_ids(text)
    assert "0cdcd123" not in hidden
    edited = restore(hidden.replace("cd", "mol").replace("3", "4").replace("0", "9"))
    assert tag("0cdcd123", "4.5") in edited and "mol \\\\" in edited


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="ab {}$\\ .,0123456789", max_size=12),
            st.tuples(
                st.text(alphabet="0123456789abcdefXYZ", min_size=1, max_size=12),
                st.text(alphabet="0123456789.-", min_size=1, max_size=6),
            ),
        ),
        max_size=8,
    )
)
def test_after_the_gate_every_tag_is_a_true_trace(parts: list[object]) -> None:
    """Property: whatever a model writes, a tag that survives the gate names a
    known id and prints its value at some precision (the mutation this
    catches: a gate that lets an unknown id or a wrong digit through)."""
    ledger, texts = _ledger()
    known = _known(ledger)
    pieces = []
    for part in parts:
        if isinstance(part, tuple):
            pieces.append(f"\\lwnum{{{part[0]}}}{{{part[1]}}}")
        else:
            pieces.append(str(part))
    pieces += texts  # genuine tags among the noise
    out = gate(" ".join(pieces), known)
    for t in find_tags(out.text):
        assert tags.status_of(t, known) in ("traced", "retraced")
    assert all(text in out.text for text in texts)  # genuine tags are never lost
