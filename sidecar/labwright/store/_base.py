"""State shared by the store's parts (sessions, versions, proposals, runs, chat)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import types
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from labwright.config import DataDir
from labwright.store.db import ConnectionPool, parse_time
from labwright.store.errors import NotFoundError
from labwright.store.owner import OwnerLock


class StoreBase:
    """Holds the connection pool, the data directory and this store's owner lock."""

    def __init__(self, home: DataDir, pool: ConnectionPool, owner: OwnerLock) -> None:
        self.home = home
        self._pool = pool
        self._owner = owner
        # Wakes threads waiting for new run events appended by this process.
        self._events_cond = threading.Condition()
        self._events_generation = 0


def dump_json(value: Any) -> str:
    # ensure_ascii=False keeps Chinese titles readable in the file; sort_keys
    # makes equal values byte-identical.
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def load_json(text: str) -> Any:
    return json.loads(text)


def require_session(conn: sqlite3.Connection, session_id: int) -> None:
    if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
        raise NotFoundError(
            f"Session {session_id} does not exist. Reload the session list and pick another one."
        )


# --- rows to records --------------------------------------------------------------

R = TypeVar("R")


def from_row(record: type[R], row: sqlite3.Row) -> R:
    """The record `record` (a store dataclass) from a row whose columns carry its
    field names: each entity is written once, as its dataclass, and read back by
    this one mapping (the API reads the records with pydantic from_attributes).

    Columns are decoded by the field's type: ISO text to `datetime`, 0/1 to
    `bool`, a number to `float`, and JSON text where the field says so
    (`models.JSON_COLUMN`). Columns the record does not name are ignored.
    """
    decoders = _decoders(
        cast("type[Any]", record)
    )  # a class is hashable; mypy cannot tell for type[R]
    return record(**{name: decode(row[name]) for name, decode in decoders})


_Decoders = tuple[tuple[str, Callable[[Any], Any]], ...]
_DECODERS: dict[type[Any], _Decoders] = {}


def _decoders(record: type[Any]) -> _Decoders:
    hints = get_type_hints(record)
    found = tuple(
        (f.name, _decoder(hints[f.name], f.metadata.get("column") == "json"))
        for f in dataclasses.fields(record)
    )
    _DECODERS[record] = found
    return found


def _decoder(hint: Any, is_json: bool) -> Callable[[Any], Any]:
    if is_json:
        return load_json
    if hint is datetime:
        return _required_time
    if get_origin(hint) in (Union, types.UnionType) and datetime in get_args(hint):
        return parse_time
    if hint is bool:
        return bool
    if hint is float:
        return float
    return _same


def _required_time(value: str) -> datetime:
    parsed = parse_time(value)
    assert parsed is not None, "a required time column is NULL"
    return parsed


def _same(value: Any) -> Any:
    return value
