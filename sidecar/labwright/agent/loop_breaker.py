"""A client-side breaker for tool-loop collapse.

A model in a long context can degenerate into calling the same tool with the
same arguments again and again; every call "succeeds", so SDK retries never
notice. The fingerprint is the tool name plus its full arguments as canonical
JSON: continuation reads with a different offset are different calls and are
never flagged. The third repeat earns one wrap-up nudge per run; the fifth
ends exploration.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from labwright.llm.model import JsonValue

WARN_AT = 3
STOP_AT = 5
EXEMPT_TOOLS = frozenset({"finish_exploration"})

Verdict = Literal["ok", "nudge", "stop"]

NUDGE_MESSAGE = (
    "You are calling the same tool with the same arguments again. What you have read is "
    "enough: call finish_exploration now with your conclusions."
)


def fingerprint(name: str, arguments: JsonValue) -> str:
    try:
        canonical = json.dumps(arguments, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        canonical = str(arguments)
    return f"{name}|{canonical}"


@dataclass
class LoopBreaker:
    counts: Counter[str] = field(default_factory=Counter)
    nudged: bool = False

    def observe(self, name: str, arguments: JsonValue) -> Verdict:
        if name in EXEMPT_TOOLS:
            return "ok"
        key = fingerprint(name, arguments)
        self.counts[key] += 1
        seen = self.counts[key]
        if seen >= STOP_AT:
            return "stop"
        if seen >= WARN_AT and not self.nudged:
            self.nudged = True
            return "nudge"
        return "ok"
