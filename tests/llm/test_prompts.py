"""Prompt-shape tests: they pin what must stay true of the assembled layers."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

from labwright.llm.knowledge import builtin_knowledge, overlay_dir
from labwright.llm.prompts import (
    GENRES,
    LANGS,
    build_messages,
    build_system,
    golden_sample_block,
    prompt_hash,
)
from labwright.llm.tokens import estimate_tokens

GOLDEN = Path(__file__).parent / "golden"
COMBOS = list(
    itertools.product(GENRES, LANGS, (False, True), (None, "Prefer one finding per paragraph."))
)


def _overlay(name: str, text: str | bytes) -> Path:
    path = overlay_dir() / "prompts" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", LANGS)
def test_default_assembly_is_byte_identical_to_golden(lang: str) -> None:
    golden = (GOLDEN / f"system_lab_report_{lang}.txt").read_text(encoding="utf-8")
    if os.environ.get("LABWRIGHT_UPDATE_GOLDEN"):
        (GOLDEN / f"system_lab_report_{lang}.txt").write_text(
            build_system(lang=lang).text, encoding="utf-8"
        )
    assert build_system(lang=lang).text == golden  # type: ignore[arg-type]
    # Passing the optional inputs explicitly as "absent" changes nothing.
    assert build_system(lang=lang, judgment=None, scoped=False).text == golden  # type: ignore[arg-type]
    assert build_system(lang=lang, judgment="   ").text == golden  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_scoped_prompt_forbids_whole_document(lang: str) -> None:
    text = build_system(lang=lang, scoped=True).text  # type: ignore[arg-type]
    scoped_part = builtin_knowledge(f"prompts/scoped_{lang}.md").strip()
    assert scoped_part in text
    # The prohibition names both commands, inside the prohibition sentence.
    prohibition = next(line for line in scoped_part.splitlines() if "\\documentclass" in line)
    assert "\\documentclass" in prohibition
    assert "\\end{document}" in scoped_part
    assert any(word in scoped_part for word in ("Never", "绝不"))


@pytest.mark.parametrize("lang", LANGS)
def test_scoped_tier_drops_quality_anchors_and_keeps_the_rest(lang: str) -> None:
    full = build_system(lang=lang)  # type: ignore[arg-type]
    scoped = build_system(lang=lang, scoped=True, judgment="Keep claims modest.")  # type: ignore[arg-type]
    assert "quality_anchors" in full.layers and "quality_anchors" not in scoped.layers
    assert builtin_knowledge(f"prompts/golden_sample_{lang}.tex").strip() not in scoped.text
    assert builtin_knowledge(f"prompts/methodology_{lang}.md").strip() not in scoped.text
    for kept in (f"role_{lang}.md", f"format_rules_{lang}.md"):
        assert builtin_knowledge(f"prompts/{kept}").strip() in scoped.text
    assert "Keep claims modest." in scoped.text
    assert estimate_tokens(full.text) - estimate_tokens(scoped.text) > 600


@pytest.mark.parametrize(("genre", "lang", "scoped", "judgment"), COMBOS)
def test_golden_sample_never_appears_without_its_label(genre, lang, scoped, judgment) -> None:
    text = build_system(genre=genre, lang=lang, scoped=scoped, judgment=judgment).text
    sample = builtin_knowledge(f"prompts/golden_sample_{lang}.tex").strip()
    label_lines = builtin_knowledge(f"prompts/golden_label_{lang}.md").strip().splitlines()
    if sample in text:
        start = text.index(sample)
        assert label_lines[0] in text[:start]  # opening label before the sample
        assert label_lines[-1] in text[start + len(sample) :]  # closing label after it
    assert (sample in text) is (not scoped)


def test_anchors_stay_when_judgment_layer_is_given() -> None:
    # The seed incident: a distilled-judgment path silently dropped the anchors.
    with_judgment = build_system(judgment="Lead with the finding.")
    assert "quality_anchors" in with_judgment.layers
    assert with_judgment.layers.index("quality_anchors") < with_judgment.layers.index("judgment")


def test_legacy_judgment_with_embedded_sample_is_not_doubled() -> None:
    legacy = golden_sample_block("en") + "\nLead with the finding."
    prompt = build_system(judgment=legacy)
    sample = builtin_knowledge("prompts/golden_sample_en.tex").strip()
    assert prompt.text.count(sample) == 1


def test_every_template_renders_for_every_genre_and_language() -> None:
    for genre, lang, scoped, judgment in COMBOS:
        p = build_system(genre=genre, lang=lang, scoped=scoped, judgment=judgment)
        assert "{sample}" not in p.text and "{judgment}" not in p.text
        assert p.layers[0] == "role" and p.layers[-1] == "format_rules"
        assert len(p.prompt_hash) == 16


def test_format_rules_name_the_compile_error_of_each_rule() -> None:
    for lang in LANGS:
        rules = builtin_knowledge(f"prompts/format_rules_{lang}.md")
        blocks = re.split(r"\n(?=\d+\. )", rules)[1:]
        assert len(blocks) >= 8
        for block in blocks:  # TeX errors start with "! "; an unknown cite only warns
            assert "! " in block or "Citation `" in block, block


def test_overlay_takes_precedence_and_is_read_lazily() -> None:
    base = build_system()
    path = _overlay("role_en.md", "# Role\nOVERLAY ROLE V1")
    v1 = build_system()
    assert "OVERLAY ROLE V1" in v1.text and v1.prompt_hash != base.prompt_hash
    path.write_text("# Role\nOVERLAY ROLE V2", encoding="utf-8")
    v2 = build_system()  # no reload, no restart
    assert "OVERLAY ROLE V2" in v2.text and "V1" not in v2.text
    path.unlink()
    assert build_system().text == base.text


def test_overlay_by_basename_also_counts() -> None:
    flat = overlay_dir() / "format_rules_en.md"
    flat.parent.mkdir(parents=True, exist_ok=True)
    flat.write_text("FLAT RULES", encoding="utf-8")
    assert build_system().text.endswith("FLAT RULES")


@pytest.mark.parametrize("content", ["", "   \n\n", b"\xff\xfe\x00garbage\xff"])
def test_empty_or_unreadable_overlay_falls_back(content: str | bytes) -> None:
    base = build_system().text
    _overlay("role_en.md", content)
    _overlay("golden_sample_en.tex", content)
    assert build_system().text == base


def test_overlay_label_without_slot_keeps_sample_and_label() -> None:
    _overlay("golden_label_en.md", "=== GOLDEN SAMPLE: someone else's work, do not copy ===")
    text = build_system().text
    sample = builtin_knowledge("prompts/golden_sample_en.tex").strip()
    assert sample in text
    assert text.index("do not copy") < text.index(sample)


def test_build_messages_puts_material_in_a_stable_first_message() -> None:
    system = build_system(scoped=True)
    history = [
        {"role": "user", "content": "write it"},
        {
            "role": "assistant",
            "content": "\\documentclass{article}\\begin{document}x\\end{document}",
        },
    ]
    turn1 = build_messages(
        system, "make the tone formal", material="## a.csv\nx,y", history=history
    )
    turn2 = build_messages(system, "shorten the aim", material="## a.csv\nx,y", history=history * 2)
    assert turn1[0] == turn2[0]  # byte-identical cacheable prefix
    assert turn1[0]["content"].startswith(system.text)
    assert turn1[-1] == {"role": "user", "content": "make the tone formal"}
    assert "\\documentclass" not in turn1[2]["content"]
    assert prompt_hash(turn1) != prompt_hash(turn2)


def test_turn_dependent_focus_goes_last_and_keeps_the_prefix_stable() -> None:
    system = build_system()
    one = build_messages(system, "shorten the aim", material="DIGEST", focus="lines about the aim")
    two = build_messages(system, "fix units", material="DIGEST", focus="lines about units")
    assert one[0] == two[0]
    assert "lines about the aim" in one[-1]["content"]
    assert one[-1]["content"].endswith("shorten the aim")
    assert "lines about" not in one[0]["content"]
