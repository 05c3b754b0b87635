"""History folding, the per-file material digest, and revision-only trimming."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from labwright.llm.context import (
    DOC_PLACEHOLDER,
    document_outline,
    fold_history,
    is_numeric_row,
    material_digest,
    trim_for_revision,
)

DOC = (
    "\\documentclass[en]{labwright-report}\n\\begin{document}\n"
    + "text " * 2000
    + "\\end{document}"
)


def test_documents_in_assistant_messages_fold_to_placeholder() -> None:
    history = [
        {"role": "user", "content": "Write the report."},
        {"role": "assistant", "content": DOC},
        {"role": "assistant", "content": "The data is in xrd/; scan 3 is the calibration."},
        {"role": "user", "content": "Make the tone more formal."},
    ]
    folded = fold_history(history)
    assert folded[1]["content"] == DOC_PLACEHOLDER
    assert folded[2]["content"] == history[2]["content"]  # short notes are facts; kept
    assert history[1]["content"] == DOC  # input not mutated


def test_user_documents_are_cut_not_replaced() -> None:
    folded = fold_history([{"role": "user", "content": DOC}])
    assert folded[0]["content"] != DOC_PLACEHOLDER
    assert len(folded[0]["content"]) <= 4000 + 20


def test_long_messages_cut_and_only_last_40_kept() -> None:
    history = [{"role": "user", "content": f"{i} " + "x" * 9000} for i in range(100)]
    folded = fold_history(history)
    assert len(folded) == 40
    assert folded[0]["content"].startswith("60 ")
    assert all(len(m["content"]) <= 4000 + 20 for m in folded)


def test_orphaned_tool_results_at_the_cut_are_dropped() -> None:
    history = [{"role": "assistant", "content": None, "tool_calls": [{"id": "a"}]}]
    history += [{"role": "tool", "tool_call_id": "a", "content": "file body"}]
    history += [{"role": "user", "content": str(i)} for i in range(39)]
    folded = fold_history(history)
    assert folded[0]["role"] == "user"


def _material(seed: int = 1) -> dict[str, str]:
    rng = random.Random(seed)
    big = "t,v\n" + "\n".join(f"{i * 0.01:.2f},{rng.random():.5f}" for i in range(20000))
    return {
        "a_big.csv": big,
        "b_notes.md": "# Notes\nThe pendulum length was 0.50 m, measured with a tape.\n" * 3,
        "c_tiny.txt": "calibration offset 0.3 s",
    }


def test_digest_is_byte_identical_and_order_independent() -> None:
    files = _material()
    one = material_digest(files)
    two = material_digest(dict(reversed(list(files.items()))))
    assert one == two


def test_digest_guarantees_each_file_a_minimum_share() -> None:
    files = {f"{i:02d}_big.txt": ("word " * 20 + "\n") * 2000 for i in range(5)}
    files["zz_late.txt"] = "late file " * 200  # 2000 chars, sorted last
    digest = material_digest(files, budget=3000, min_share=600)
    late = digest.split("## zz_late.txt")[1]
    assert late.count("late file") >= 600 // len("late file ") - 1
    for i in range(5):
        block = digest.split(f"## {i:02d}_big.txt")[1].split("## ")[0]
        assert len(block) >= 600


def test_digest_keeps_text_and_compresses_numeric_rows() -> None:
    digest = material_digest(_material())
    assert "The pendulum length was 0.50 m" in digest
    assert "calibration offset 0.3 s" in digest
    assert "more numeric rows" in digest
    assert len(digest) < 5000


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), st.text(max_size=3000), max_size=6))
def test_digest_is_deterministic_for_any_material(files: dict[str, str]) -> None:
    assert material_digest(files) == material_digest(dict(sorted(files.items(), reverse=True)))


def test_numeric_row_detection() -> None:
    assert is_numeric_row("1.0, 2.5e-3; -4")
    assert is_numeric_row("0.10\t41.9")
    assert not is_numeric_row("measured 0.5 mm")
    assert not is_numeric_row("t,v")
    assert not is_numeric_row("")


def _long_material() -> str:
    rows = "\n".join(f"{i},{i * 0.3:.3f},{i * 0.7:.3f}" for i in range(3000))
    return (
        "# Procedure\nThe damping coefficient was estimated from the amplitude decay.\n"
        + rows
        + "\nThe temperature of the room was 21.5 C during the run.\n"
        + "Unrelated remark about the lab schedule.\n" * 50
    )


def test_trimming_leaves_short_material_alone() -> None:
    short = "1,2\n3,4\nsome text"
    assert trim_for_revision(short, "anything") == short


def test_trimming_drops_numeric_rows_and_keeps_relevant_lines() -> None:
    material = _long_material()
    out = trim_for_revision(material, "Explain the damping coefficient better", cap=2000)
    assert "damping coefficient" in out
    assert "21.5 C" in out  # annotated data line
    assert not any(is_numeric_row(line) for line in out.splitlines())
    assert len(out) <= 2000


def test_trimming_is_never_empty() -> None:
    material = "\n".join(f"{i},{i}" for i in range(10000))  # only bare numbers
    out = trim_for_revision(material, "make it formal", cap=500)
    assert out and out == material[:500]


def test_trimming_matches_chinese_requests() -> None:
    material = "阻尼系数由振幅衰减估计得到。\n" + "\n".join(f"{i},{i}" for i in range(5000))
    out = trim_for_revision(material, "把阻尼系数那段写清楚", cap=1000)
    assert "阻尼系数由振幅衰减估计得到" in out


def test_outline_lists_title_and_headings() -> None:
    tex = "\\title{Pendulum}\n\\section{Aim}\n\\subsection{Setup}\n\\keywords{g, period}"
    assert document_outline(tex).splitlines() == [
        "title: Pendulum",
        "section: Aim",
        "subsection: Setup",
        "keywords: g, period",
    ]
