"""Folder text reaches LaTeX literally and compiles in both templates."""

from __future__ import annotations

from pathlib import Path

import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline
from labwright.agent.offline.escape import escape_text
from labwright.latex.engine import resolve_engine

needs_tex = pytest.mark.skipif(
    not resolve_engine().available, reason="needs XeLaTeX (see labwright doctor)"
)


def test_special_characters_are_literal() -> None:
    assert escape_text("50% of $x_1$ & #2 {a}") == "50\\% of \\$x\\_1\\$ \\& \\#2 \\{a\\}"
    assert escape_text("\\input{/etc/passwd}") == "\\textbackslash{}input\\{/etc/passwd\\}"


def test_newlines_and_control_characters_cannot_end_a_paragraph() -> None:
    assert escape_text("a\n\nb\r\n\tc\x00d") == "a b c d"


def test_greek_goes_through_the_math_font() -> None:
    assert escape_text("t (μs)") == "t (\\ensuremath{\\symup{μ}}s)"
    assert escape_text("°C µm ±") == "°C µm ±"  # Latin-1 signs stay text


@needs_tex
@pytest.mark.smoke
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_greek_units_and_odd_names_compile_clean(tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "odd & 100% {folder}"
    folder.mkdir()
    rows = ["t (μs),R (Ω),θ_1 (°),x (µm)"] + [
        f"{i},{10 * i},{2.5 * i},{i * i}" for i in range(1, 9)
    ]
    (folder / "data #1_$x$.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "notes.md").write_text(
        "Aim: check α, β and λ ~ 500 nm; 100% ^ _ {x}.\n", encoding="utf-8"
    )
    events = list(build_offline(folder, tmp_path / "out", lang=lang))
    done = events[-1]
    assert isinstance(done, Done) and done.ok, done.problems
