"""The message catalogue: what the backend says, in English and Chinese, by key."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from labwright.agent.events import Done, Error, Milestone, Text, Warning_, event_from_dict
from labwright.messages import CATALOGUE, PLAIN, Message, placeholders, say, say_count

SIDECAR = Path(__file__).resolve().parents[1] / "sidecar" / "labwright"
_SAY = re.compile(r"""\bsay\(\s*f?["']([^"']+)["']""")
_SAY_COUNT = re.compile(r"""\b(?:say_count|_counted)\(\s*["']([^"']+)["']""")
_CJK = re.compile(r"[\u3400-\u9fff]")


def test_both_languages_have_every_key_with_the_same_placeholders() -> None:
    for key, (en, zh) in CATALOGUE.items():
        assert en.strip() and zh.strip(), key
        assert placeholders(en) == placeholders(zh), key
        # Bare {name} only: the window fills them with one regular expression.
        assert not re.search(r"\{[^}]*[:!][^}]*\}", en + zh), key
        # Translated, not copied: English words outside the placeholders mean
        # the Chinese text must differ (names such as "JSON" may stay).
        if re.search(r"\b[a-z]{3,}\b", re.sub(r"\{\w+\}", "", en)):
            assert zh != en and _CJK.search(zh), key


def test_every_key_the_code_says_is_in_the_catalogue() -> None:
    """`say("typo")` would raise only when that sentence is said; read them all here."""
    said: set[str] = set()
    for path in SIDECAR.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        said.update(_SAY.findall(source))
        said.update(f"{k}.{n}" for k in _SAY_COUNT.findall(source) for n in ("one", "many"))
    fixed = {k for k in said if "{" not in k}
    assert fixed, "the pattern found no say() calls"
    assert fixed <= set(CATALOGUE), sorted(fixed - set(CATALOGUE))
    # f-string keys (stage.{name}, lang.{lang}, ...): their prefix has entries.
    for key in said - fixed:
        prefix = key.split("{", 1)[0]
        assert any(k.startswith(prefix) for k in CATALOGUE), key


def test_a_message_is_its_english_sentence_and_keeps_its_key() -> None:
    message = say("read.empty", file="a.csv")
    assert message == "a.csv is empty." and isinstance(message, str)
    assert (message.key, message.params) == ("read.empty", {"file": "a.csv"})
    assert message.in_lang("zh") == "a.csv 是空文件。"
    copy = pickle.loads(pickle.dumps(message))
    assert copy == message and copy.key == "read.empty"
    # Built into other text, it is no longer the catalogued sentence.
    assert not isinstance(f"{message} More.", Message)


def test_counts_pick_the_english_wording() -> None:
    assert say_count("tex.overfull", 1).startswith("1 line sticks")
    assert say_count("tex.overfull", 3).startswith("3 lines stick")


def test_unknown_keys_are_refused() -> None:
    with pytest.raises(KeyError):
        say("no.such.sentence")


def test_events_carry_the_key_of_their_sentence() -> None:
    nested = say("llm.degraded", stage=say("during.draft"), reason=say("llm.timeout"))
    warning = Warning_(message=nested)
    assert warning.text.key == "llm.degraded"
    assert warning.text.params["stage"] == Text(key="during.draft")
    error = Error(message=say("run.no_pdf"), action=say("action.open_log"))
    assert (error.text.key, error.action_text and error.action_text.key) == (
        "run.no_pdf",
        "action.open_log",
    )
    # Text that is not catalogued travels as `plain`, shown as it is.
    assert Warning_(message="raw words").text == Text(key=PLAIN, params={"text": "raw words"})
    milestone = Milestone(index=1, total=1, stage="scan", label=say("stage.scan"))
    assert milestone.text.key == "stage.scan"


def test_events_stored_before_keys_existed_still_read() -> None:
    old = {"type": "done", "ok": False, "problems": ["cancelled"]}
    done = event_from_dict(old)
    assert isinstance(done, Done) and done.outcome == "cancelled"
    assert event_from_dict({"type": "warning", "message": "x"}).text.key == PLAIN  # type: ignore[union-attr]
    # A round trip keeps the keys (the store persists the dumped event).
    stored = Warning_(message=say("read.empty", file="a.csv")).model_dump(mode="json")
    again = event_from_dict(stored)
    assert isinstance(again, Warning_) and again.text.key == "read.empty"
