"""A catalogue reference's source in the report's language: the pendulum
example built in Chinese (offline, no TeX) names standard gravity in Chinese
in the results table, the discussion and the numbers appendix, while the
ledger's computations (provenance.json) keep the English, which the
compendium matches exactly; built in English, the report names it as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labwright.analysis.catalogue.load import catalogue

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pendulum"
_G_EN = "standard gravity; g varies from 9.780 (equator) to 9.832 m/s² (poles)"


def _build(tmp: Path, lang: str) -> Path:
    from labwright.agent.events import Done
    from labwright.agent.offline import build_offline

    out = tmp / lang
    events = list(build_offline(EXAMPLE, out, lang=lang, tex_available=False))
    assert isinstance(events[-1], Done) and events[-1].tex_path, events[-1]
    return out


@pytest.fixture(scope="module")
def zh_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(Path(tmp_path_factory.mktemp("refzh")), "zh")


def _english_sources() -> set[str]:
    """Every reference's English source, whole and its name up to ";"."""
    out = set()
    for e in catalogue():
        for r in e.references:
            out |= {r.source, r.source.split(";", 1)[0].strip()}
    return out


def test_a_chinese_report_names_no_reference_source_in_english(zh_build: Path) -> None:
    tex = (zh_build / "main.tex").read_text(encoding="utf-8")
    appendix = (zh_build / "labwright-numbers.tex").read_text(encoding="utf-8")
    assert "\\documentclass[zh]" in tex
    for text in (tex, appendix):
        left = [s for s in _english_sources() if s in text]
        assert left == [], left
    # The table gives the source's name, the discussion the whole of it.
    assert "（\\lwtext{标准重力加速度}）" in tex
    assert "标准重力加速度；各地的 g 从 9.780（赤道）到 9.832 m/s²（两极）不等" in tex
    assert "的期望值（标准重力加速度；" in appendix


def test_the_record_keeps_the_english_source(zh_build: Path) -> None:
    record = json.loads((zh_build / "provenance.json").read_text(encoding="utf-8"))
    computations = [str(n.get("computation", "")) for n in record["numbers"]]
    assert any(c.startswith("expected value of") and _G_EN in c for c in computations)
    assert not any("标准重力加速度" in c for c in computations)


def test_an_english_report_names_the_source_as_before(tmp_path: Path) -> None:
    tex = (_build(tmp_path, "en") / "main.tex").read_text(encoding="utf-8")
    assert "(\\lwtext{standard gravity})" in tex and f"(\\lwtext{{{_G_EN}}})" in tex
    assert "标准重力加速度" not in tex
