"""The reply catalogue: same keys in both languages, placeholders kept, one sentence each."""

from __future__ import annotations

import re

from labwright.edit.say import CATALOGUES, reply_lang, say


def test_both_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, zh = CATALOGUES["en"], CATALOGUES["zh"]
    assert en.keys() == zh.keys()
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", zh[key])), key


def test_reply_language_follows_the_request() -> None:
    assert reply_lang("Shorten the abstract.") == "en"
    assert reply_lang("把摘要写短一些") == "zh"
    assert say("zh", "no_figure", n=3) == "报告中没有图3；请核对 PDF 中的编号。"
