"""Tracing a document's numbers from its tags, and the older string rule."""

from __future__ import annotations

from labwright.agent.offline.provenance import Ledger, unsourced_numbers
from labwright.ingest.types import Provenance
from labwright.verify.tags import find_tags, tag
from labwright.verify.trace import trace_numbers

PROV = Provenance(file="run.csv", column="T (s)")


def _doc(body: str) -> str:
    return "\\documentclass{x}\n\\begin{document}\n" + body + "\n\\end{document}\n"


def test_each_tag_is_traced_with_its_entry() -> None:
    ledger = Ledger()
    g = ledger.num(9.81234, PROV, "g", sig=4)
    n = ledger.count(20, PROV, "rows")
    trace = trace_numbers(f"$g = {g}$ from {n} rows", ledger.to_dict())
    assert trace.by == "tags"
    assert [(x.printed, x.status) for x in trace.numbers] == [("9.812", "traced"), ("20", "traced")]
    assert trace.numbers[0].entry is not None and trace.numbers[0].entry["column"] == "T (s)"
    assert trace.unsourced == []


def test_a_bare_number_in_a_tagged_document_is_not_traced_whatever_its_digits() -> None:
    ledger = Ledger()
    g = ledger.num(9.81234, PROV, "g", sig=4)
    tex = _doc(f"$g = {g}$, and the model wrote 9.812 and 3.14 itself.")
    assert unsourced_numbers(tex, ledger.to_dict()) == ["9.812", "3.14"]


def test_a_changed_number_is_retraced_or_not_traced_never_kept_silently() -> None:
    ledger = Ledger()
    g = ledger.num(9.81234, PROV, "g", sig=4)
    gid = find_tags(g)[0].id
    record = ledger.to_dict()
    rounded = trace_numbers(tag(gid, "9.81"), record)
    assert rounded.numbers[0].status == "retraced" and rounded.unsourced == []
    wrong = trace_numbers(tag(gid, "9.90"), record)
    assert wrong.numbers[0].status == "not_traced" and wrong.unsourced == ["9.90"]
    unknown = trace_numbers(tag("ffff0000", "9.812"), record)
    assert unknown.numbers[0].status == "not_traced" and unknown.unsourced == ["9.812"]


def test_an_untagged_older_document_is_matched_by_printed_text() -> None:
    record = {"numbers": [{"printed": "9.81", "value": 9.81, "computation": "g"}]}
    trace = trace_numbers("g = 9.81 and 3.14", record)
    assert trace.by == "strings" and trace.unsourced == ["3.14"]


def test_mutating_any_one_printed_number_is_caught() -> None:
    """Mutation check: alter the digits of each tagged number of a real ledger
    document in turn; the trace must stop vouching for exactly that number."""
    ledger = Ledger()
    body = " ".join(
        [
            "$" + ledger.measured(2.0032, 0.0046, PROV, "a") + "$",
            "$" + ledger.num(1.234e-5, PROV, "tiny", sig=3) + "$",
            ledger.count(20, PROV, "rows"),
            "$" + ledger.fixed(14.25, 2, PROV, "mean") + "$",
        ]
    )
    record = ledger.to_dict()
    assert trace_numbers(body, record).unsourced == []
    for t in find_tags(body):
        digits = [i for i, ch in enumerate(t.printed) if ch.isdigit()]
        i = digits[len(digits) // 2]
        mutated = t.printed[:i] + str((int(t.printed[i]) + 5) % 10) + t.printed[i + 1 :]
        changed = body[: t.start] + tag(t.id, mutated) + body[t.end :]
        trace = trace_numbers(changed, record)
        assert trace.unsourced == [mutated], (t.printed, mutated)
