"""The reflection round's contract: a JSON edit plan, parsed or ignored.

`{"changes": [{"section": "n2" | "whole", "issue": "...", "action": "..."}]}`.
An empty list means the draft is acceptable; anything unparseable means no
changes (never an exception); at most eight items are taken.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_ITEMS = 8
WHOLE_TARGETS = frozenset(
    {"whole", "all", "document", "abstract", "keywords", "全文", "摘要", "关键词"}
)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


@dataclass(frozen=True)
class EditItem:
    section: str
    issue: str
    action: str

    @property
    def is_whole(self) -> bool:
        return self.section.strip().lower() in WHOLE_TARGETS


def _first_json_object(text: str) -> object | None:
    text = _FENCE.sub("", text.strip())
    try:
        parsed: object = json.loads(text)
        return parsed
    except ValueError:
        pass
    start = text.find("{")
    while start >= 0:
        try:
            obj: object = json.JSONDecoder().raw_decode(text[start:])[0]
            return obj
        except ValueError:
            start = text.find("{", start + 1)
    return None


def parse_edit_plan(text: str | None) -> list[EditItem]:
    data = _first_json_object(text or "")
    if not isinstance(data, dict) or not isinstance(data.get("changes"), list):
        return []
    items: list[EditItem] = []
    for raw in data["changes"]:
        if not isinstance(raw, dict):
            continue
        section = str(raw.get("section") or "whole").strip()
        issue = str(raw.get("issue") or "").strip()
        action = str(raw.get("action") or "").strip()
        if not (issue or action):
            continue
        items.append(EditItem(section=section, issue=issue, action=action))
        if len(items) == MAX_ITEMS:
            break
    return items
