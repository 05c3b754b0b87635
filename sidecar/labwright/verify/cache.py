"""What the scholarly indexes answered, kept in the store's cache database.

One row per question (``store/answers.py``): the key names the index and
what was asked (``crossref:doi:10.1103/physrevlett.116.061102``,
``openalex:title:<normalised title>``), the value is the JSON the resolver
made of the answer (records, or none found). Rows have a time to live:
found records keep longer than "nothing found", which a later deposit can
change. Offline, expired rows still answer: an old record is better
evidence than none, and the verdict says when it was fetched.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labwright.config import DataDir
from labwright.store import AnswerCache

FOUND_TTL_S = 30 * 86400.0
ABSENT_TTL_S = 3 * 86400.0


@dataclass(frozen=True)
class Cached:
    value: Any
    fetched_at: float
    fresh: bool


class CitationCache:
    """Thread-safe: the resolver asks from several threads at once."""

    def __init__(
        self,
        answers: AnswerCache | None = None,
        *,
        found_ttl_s: float = FOUND_TTL_S,
        absent_ttl_s: float = ABSENT_TTL_S,
    ) -> None:
        self.answers = answers if answers is not None else AnswerCache(None)
        self.found_ttl_s = found_ttl_s
        self.absent_ttl_s = absent_ttl_s

    @classmethod
    def in_data_dir(cls, root: Path, **ttl: float) -> CitationCache:
        return cls(AnswerCache.in_data_dir(DataDir(root)), **ttl)

    def get(self, key: str, *, now: float | None = None) -> Cached | None:
        now = time.time() if now is None else now
        row = self.answers.get(key)
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None
        ttl = self.absent_ttl_s if _is_absent(value) else self.found_ttl_s
        return Cached(value, row[1], fresh=now - row[1] < ttl)

    def put(self, key: str, value: Any, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        self.answers.put(key, json.dumps(value, ensure_ascii=False, sort_keys=True), now)

    def close(self) -> None:
        self.answers.close()


def _is_absent(value: Any) -> bool:
    return value in (None, []) or (isinstance(value, dict) and not value.get("records"))
