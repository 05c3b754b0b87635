"""A reproducible token estimate, used when a server reports no usage and by benchmarks.

Rule: one token per CJK character, plus one token per four other characters
(rounded up). It is within ~20% of BPE tokenizers on English prose and LaTeX
and needs no tokenizer download, so every machine counts the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")

ESTIMATE_RULE = "1 token per CJK character + ceil(other characters / 4)"


def estimate_tokens(text: str) -> int:
    cjk = len(_CJK.findall(text))
    other = len(text) - cjk
    return cjk + (other + 3) // 4


def estimate_messages(messages: Iterable[Mapping[str, Any]]) -> int:
    """Tokens of a chat request's messages, counting each message's content and tool calls."""
    total = 0
    for m in messages:
        total += 4  # role and separators, as OpenAI's own rule of thumb
        content = m.get("content")
        if isinstance(content, str):
            total += estimate_tokens(content)
        elif content is not None:
            total += estimate_tokens(json.dumps(content, ensure_ascii=False))
        if m.get("tool_calls"):
            total += estimate_tokens(json.dumps(m["tool_calls"], ensure_ascii=False))
    return total
