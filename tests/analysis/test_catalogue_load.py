"""Loading and validating the catalogue of laws (analysis/catalogue/load.py):
every built-in entry is valid, a broken entry is refused with its reason,
and a broken overlay never removes a law."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from labwright.analysis.catalogue.load import (
    AREAS,
    builtin_dir,
    catalogue,
    load_files,
    parse_text,
)

GOOD = """
[[model]]
key = "first_order_test"
area = "chemistry"
name = { en = "first-order test law", zh = "一级反应测试" }
asks = { en = ["first order"], zh = ["一级反应"] }
formula = "c = c0*exp(-k*t)"
latex = "c = c_0 e^{-kt}"

[model.variables.t]
role = "independent"
name = { en = "time", zh = "时间" }
unit = "s"

[model.variables.c]
role = "response"
name = { en = "concentration", zh = "浓度" }
unit = "mM"

[model.parameters.c0]
name = { en = "initial concentration", zh = "初始浓度" }
latex = "c_0"
unit = "{c}"
min = 0
start = "first(c)"
asks = { en = ["c0"], zh = ["初始浓度"] }

[model.parameters.k]
name = { en = "rate constant", zh = "速率常数" }
latex = "k"
unit = "1/{t}"
min = 0
start = "decay_rate(t, c)"
asks = { en = ["rate constant"], zh = ["速率常数"] }

[[model.derived]]
key = "t_half"
expr = "log(2)/k"
unit = "s"
name = { en = "half-life", zh = "半衰期" }
latex = "t_{1/2}"
asks = { en = ["half-life"], zh = ["半衰期"] }

[model.linear_plot]
name = { en = "ln c against t", zh = "ln c–t 图" }
x = "t"
y = "log(c)"
slope = "-k"
intercept = "log(c0)"
from_line = { k = "-slope", c0 = "exp(intercept)" }

[model.example]
n = 10
noise = 0.01
ranges = { t = { min = 0, max = 100 } }
truth = { c0 = 1.0, k = 0.02 }
"""


def test_every_builtin_entry_is_valid() -> None:
    # In full: a build reads the built-in files without re-validating them.
    builtin = {p.name: p for p in sorted(builtin_dir().glob("*.toml"))}
    cat = load_files(builtin, {}, check_builtin=True)
    assert [str(p) for p in cat.problems] == []
    assert [e.key for e in cat] == [e.key for e in catalogue()]
    assert len(cat) >= 10
    assert {e.area for e in cat} <= set(AREAS)
    keys = [e.key for e in cat]
    assert len(keys) == len(set(keys))


def test_every_builtin_entry_speaks_both_languages() -> None:
    for entry in catalogue():
        assert entry.asks.en and entry.asks.zh, entry.key
        for p in entry.parameters:
            assert p.asks.en and p.asks.zh, (entry.key, p.name)
        for d in entry.derived:
            assert d.asks.en and d.asks.zh, (entry.key, d.key)


def test_the_good_entry_loads() -> None:
    entries, problems = parse_text(GOOD, "test.toml")
    assert problems == [] and [e.key for e in entries] == ["first_order_test"]
    entry = entries[0]
    assert entry.response.name == "c" and [v.name for v in entry.independents] == ["t"]
    assert entry.quantity_keys() == ("c0", "k", "t_half")


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ('formula = "c = c0*exp(-k*t)"', 'formula = "c = c0*exp(-k*t) + q"', "does not define"),
        ('formula = "c = c0*exp(-k*t)"', 'formula = "c = c0*exp(-k*t"', "formula"),
        ('formula = "c = c0*exp(-k*t)"', 'formula = "c = c0*exp(-k*t).real"', "formula"),
        ('formula = "c = c0*exp(-k*t)"', 'formula = "c = c0*exp(-k)"', "do not appear"),
        ('formula = "c = c0*exp(-k*t)"', 'formula = "c = c0*exp(-k*t*t)"', "dimension"),
        ('formula = "c = c0*exp(-k*t)"', 'formula = "c = c0*exp(-k*t) + t"', "dimension"),
        ('formula = "c = c0*exp(-k*t)"', 'formula = "t = c0*exp(-k*t)"', "must read"),
        ('unit = "1/{t}"', 'unit = "1/{x}"', "not a variable"),
        ('unit = "1/{t}"', 'unit = "wibbles"', "not a unit"),
        ('unit = "mM"', 'unit = "bananas"', "not a unit"),
        ('start = "first(c)"', 'start = "first(c).__class__"', "start"),
        ('start = "first(c)"', 'start = "first(z)"', "start names"),
        ('start = "first(c)"', 'start = "slope(c)"', "argument"),
        ('expr = "log(2)/k"', 'expr = "log(2)/kk"', "not defined"),
        ('expr = "log(2)/k"', 'expr = "log(2)/k"\nbogus = 1', "unknown field"),
        ('expr = "log(2)/k"', 'expr = "log(2)*k"', "not in s"),
        ('role = "response"', 'role = "output"', "role"),
        ('role = "response"', 'role = "independent"', "exactly one response"),
        ('zh = "初始浓度" }', 'zh = "initial" }', "Chinese"),
        ('asks = { en = ["c0"], zh = ["初始浓度"] }', "", "asks"),
        ('area = "chemistry"', 'area = "alchemy"', "area"),
        ('key = "first_order_test"', 'key = "First Order"', "snake_case"),
        (
            'min = 0\nstart = "first(c)"',
            'min = 2\nmax = 1\nstart = "first(c)"',
            "min must be below max",
        ),
        ("truth = { c0 = 1.0, k = 0.02 }", "truth = { c0 = 1.0 }", "no value for k"),
        ("truth = { c0 = 1.0, k = 0.02 }", "truth = { c0 = 1.0, k = -0.02 }", "outside its bounds"),
        (
            'from_line = { k = "-slope", c0 = "exp(intercept)" }',
            'from_line = { k = "slope", c0 = "exp(intercept)" }',
            "from_line.k",
        ),
        ('slope = "-k"', 'slope = "k"', "do not lie"),
        # An inverse must be the same law solved for the independent variable.
        (
            'latex = "c = c_0 e^{-kt}"',
            'latex = "c = c_0 e^{-kt}"\ninverse = { formula = "t = log(c0/c)/(2*k)", latex = "t" }',
            "does not give back",
        ),
        (
            'latex = "c = c_0 e^{-kt}"',
            'latex = "c = c_0 e^{-kt}"\ninverse = { formula = "c = c0*exp(-k*t)", latex = "c" }',
            "must read 't = expression'",
        ),
        (
            'latex = "c = c_0 e^{-kt}"',
            'latex = "c = c_0 e^{-kt}"\ninverse = { formula = "t = log(c0/c)/q", latex = "t" }',
            "inverse",
        ),
        ('y = "log(c)"', 'y = "log(q)"', "linear_plot.y"),
        (
            "ranges = { t = { min = 0, max = 100 } }",
            "ranges = { t = { min = 100, max = 0 } }",
            "min < max",
        ),
    ],
)
def test_a_broken_entry_is_refused_with_its_reason(old: str, new: str, reason: str) -> None:
    assert old in GOOD
    entries, problems = parse_text(GOOD.replace(old, new, 1), "broken.toml")
    assert entries == []
    assert len(problems) == 1 and problems[0].key in ("first_order_test", "First Order")
    assert reason.lower() in problems[0].message.lower(), problems[0].message


def test_an_inverse_solved_for_the_independent_variable_loads() -> None:
    inverse = "inverse = { formula = \"t = log(c0/c)/k\", latex = 't = \\ln(c_0/c)/k' }"
    entries, problems = parse_text(
        GOOD.replace('latex = "c = c_0 e^{-kt}"', f'latex = "c = c_0 e^{{-kt}}"\n{inverse}', 1),
        "test.toml",
    )
    assert problems == []
    inverted = entries[0].inverted()
    assert inverted.response.name == "t" and [v.name for v in inverted.independents] == ["c"]
    assert inverted.is_inverted and not entries[0].is_inverted
    assert inverted.quantity_keys() == entries[0].quantity_keys()
    assert inverted.linear_plot is None


def test_broken_toml_is_one_problem() -> None:
    entries, problems = parse_text("[[model]\nkey = ", "bad.toml")
    assert entries == [] and len(problems) == 1 and "TOML" in problems[0].message


def test_one_broken_entry_leaves_the_others() -> None:
    broken = GOOD.replace('key = "first_order_test"', 'key = "other"').replace(
        'formula = "c = c0*exp(-k*t)"', 'formula = "c = nope"'
    )
    entries, problems = parse_text(GOOD + broken, "two.toml")
    assert [e.key for e in entries] == ["first_order_test"]
    assert [p.key for p in problems] == ["other"]


def test_a_duplicate_key_across_files_is_a_problem(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(GOOD, encoding="utf-8")
    b.write_text(GOOD, encoding="utf-8")
    loaded = load_files({"a.toml": a, "b.toml": b}, {})
    assert len(loaded) == 1 and any("twice" in p.message for p in loaded.problems)


def test_an_overlay_replaces_a_file_and_a_broken_overlay_entry_is_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    builtin = {p.name: p for p in builtin_dir().glob("*.toml")}
    assert "chemistry.toml" in builtin
    overlay_dir = tmp_path / "overlay"
    overlay_dir.mkdir()
    # The overlay's chemistry.toml: one good new entry, one broken copy of arrhenius.
    broken_arrhenius = GOOD.replace('key = "first_order_test"', 'key = "arrhenius"').replace(
        'formula = "c = c0*exp(-k*t)"', 'formula = "c = __import__"'
    )
    (overlay_dir / "chemistry.toml").write_text(GOOD + broken_arrhenius, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        loaded = load_files(builtin, {"chemistry.toml": overlay_dir / "chemistry.toml"})
    assert "first_order_test" in loaded
    # The broken overlay arrhenius was skipped with a warning; the built-in one stays.
    arrhenius = loaded.get("arrhenius")
    assert arrhenius is not None and arrhenius.source_file == "knowledge/models/chemistry.toml"
    assert sum("arrhenius" in r.getMessage() for r in caplog.records) == 1
    # The other built-in chemistry entries were replaced by the overlay's file.
    assert "rate_second_order" not in loaded
    assert loaded.problems == ()  # overlay problems are warnings, not catalogue bugs


def test_the_user_overlay_dir_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABWRIGHT_HOME", str(tmp_path))
    models = tmp_path / "overlay" / "models"
    models.mkdir(parents=True)
    (models / "mine.toml").write_text(GOOD, encoding="utf-8")
    cat = catalogue()
    assert "first_order_test" in cat and "arrhenius" in cat
    (models / "mine.toml").unlink()
    assert "first_order_test" not in catalogue()


def test_lookup_by_name_and_alias() -> None:
    cat = catalogue()
    entry = cat.find("Michaelis-Menten")
    assert entry is not None and entry.key == "michaelis_menten"
    assert cat.find("米氏方程") is entry and cat.find("michaelis menten") is entry
    assert cat.find("阿伦尼乌斯方程") is cat.get("arrhenius")
    assert cat.find("no such law") is None


_CJK = re.compile(r"[\u4e00-\u9fff]")

REFERENCE = """
[[model.reference]]
quantity = "k"
value = 0.02
unit = "1/s"
source = "a textbook; at 25 °C"
"""


def test_every_builtin_reference_names_its_source_in_chinese() -> None:
    # A Chinese report shows the zh text (results table, discussion,
    # appendix); the English stays the record's key.
    refs = [(e.key, r) for e in catalogue() for r in e.references]
    assert len(refs) >= 50
    for key, r in refs:
        assert r.source and not _CJK.search(r.source), (key, r.source)
        assert r.source_zh and _CJK.search(r.source_zh), (key, r.source)
        assert r.source_in("en") == r.source and r.source_in("zh") == r.source_zh


def test_a_builtin_reference_without_a_chinese_source_is_refused() -> None:
    # A future built-in entry cannot omit it, even read without `check`.
    text = GOOD + REFERENCE
    for check in (True, False):
        entries, problems = parse_text(text, "knowledge/models/x.toml", check=check, builtin=True)
        assert entries == [] and len(problems) == 1, problems
        assert "zh" in problems[0].message, problems[0].message
    both = text.replace(
        'source = "a textbook; at 25 °C"',
        'source = { en = "a textbook; at 25 °C", zh = "某教材；25 °C" }',
    )
    entries, problems = parse_text(both, "knowledge/models/x.toml", builtin=True)
    assert problems == [] and len(entries) == 1
    ref = entries[0].references[0]
    assert (ref.source, ref.source_zh) == ("a textbook; at 25 °C", "某教材；25 °C")
    not_chinese = both.replace('zh = "某教材；25 °C"', 'zh = "a textbook"')
    entries, problems = parse_text(not_chinese, "knowledge/models/x.toml", builtin=True)
    assert entries == [] and "Chinese" in problems[0].message


def test_a_users_reference_may_name_its_source_in_english_only() -> None:
    entries, problems = parse_text(GOOD + REFERENCE, "overlay/models/mine.toml")
    assert problems == [] and len(entries) == 1
    ref = entries[0].references[0]
    assert ref.source_zh is None and ref.source_in("zh") == "a textbook; at 25 °C"
