"""Follow the data folder through a real run: which labwright functions it reaches.

A profiler (sys.setprofile, and threading.setprofile for worker threads) sees
every Python call in the process. A call is a *stop* when one of the callee's
arguments carries the folder: the folder itself, a path inside it (a file the
run opens), or an object holding one of those in an attribute or an item (the
run context, the tools rooted at the folder, a request naming it) — the walk a
reader makes when following the `folder` parameter by hand. The caller of a
stop is the nearest labwright frame below it (a stdlib frame in between, such
as functools.cached_property, is skipped), and the pair is an *edge*.

Only labwright frames count; labwright.testing (the fake provider, the test's
own doubles) is outside the product and is left out.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import PurePath
from types import FrameType
from typing import Any

_PRODUCT = "labwright."
_OUTSIDE = "labwright.testing"
_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08
_MAX_ITEMS = 64


@dataclass
class Stop:
    module: str
    function: str  # qualified name

    @property
    def name(self) -> str:
        return f"{self.module}:{self.function}"


@dataclass
class FolderTrace:
    folder: str
    stops: list[Stop] = field(default_factory=list)  # in order, repeats collapsed
    edges: set[tuple[str, str]] = field(default_factory=set)  # (caller module, callee module)
    #: every labwright call edge of the run, whether or not it carried the folder
    all_edges: set[tuple[str, str]] = field(default_factory=set)
    calls: dict[str, int] = field(default_factory=dict)  # stop name -> times reached

    def modules(self) -> list[str]:
        seen: dict[str, None] = {}
        for stop in self.stops:
            seen.setdefault(stop.module, None)
        return list(seen)

    def functions(self) -> list[str]:
        return list(dict.fromkeys(stop.name for stop in self.stops))


def _module_of(frame: FrameType) -> str:
    name = frame.f_globals.get("__name__", "")
    return name if isinstance(name, str) else ""


def _ours(module: str) -> bool:
    return module.startswith(_PRODUCT) and not module.startswith(_OUTSIDE)


class _Carrier:
    """Whether a value carries the folder (bounded depth, no side effects)."""

    def __init__(self, roots: list[str]) -> None:
        self.roots = roots

    def path_inside(self, text: str) -> bool:
        return any(text == r or text.startswith(r + os.sep) for r in self.roots)

    def carries(self, value: Any, depth: int = 2) -> bool:
        if isinstance(value, str):
            return self.path_inside(value)
        if isinstance(value, PurePath):
            return self.path_inside(os.fspath(value))
        if depth == 0 or value is None or isinstance(value, (int, float, bool, bytes, type)):
            return False
        if isinstance(value, (list, tuple, set, frozenset)):
            return any(self.carries(v, depth - 1) for v in islice(value, _MAX_ITEMS))
        if isinstance(value, dict):
            return any(self.carries(v, depth - 1) for v in islice(value.values(), _MAX_ITEMS))
        module = type(value).__module__ or ""
        if not module.startswith("labwright"):
            return False  # third-party objects (DataFrames, clients) are not followed
        try:
            attributes = vars(value)
        except TypeError:
            slots = getattr(type(value), "__slots__", ())
            attributes = {s: getattr(value, s, None) for s in slots if isinstance(s, str)}
        return any(
            self.carries(v, depth - 1)
            for v in islice(attributes.values(), _MAX_ITEMS)
            if not callable(v) or isinstance(v, PurePath)
        )


def _arguments(frame: FrameType) -> list[Any]:
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & _CO_VARARGS) + bool(code.co_flags & _CO_VARKEYWORDS)
    local = frame.f_locals
    return [local[name] for name in code.co_varnames[:count] if name in local]


def _caller(frame: FrameType) -> str | None:
    back = frame.f_back
    while back is not None:
        module = _module_of(back)
        if _ours(module):
            return module
        back = back.f_back
    return None


@contextmanager
def follow_folder(folder: os.PathLike[str] | str) -> Iterator[FolderTrace]:
    """Trace the folder through whatever runs inside the block."""
    given = os.fspath(folder)
    roots = list(dict.fromkeys([given, os.path.realpath(given)]))
    trace = FolderTrace(folder=given)
    carrier = _Carrier(roots)

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        module = _module_of(frame)
        if not _ours(module):
            return
        caller = _caller(frame)
        if caller is not None and caller != module:
            trace.all_edges.add((caller, module))
        try:
            hit = any(carrier.carries(value) for value in _arguments(frame))
        except Exception:  # a property raising while inspected is not a stop
            hit = False
        if not hit:
            return
        stop = Stop(module, frame.f_code.co_qualname)
        if not trace.stops or trace.stops[-1].name != stop.name:
            trace.stops.append(stop)
        trace.calls[stop.name] = trace.calls.get(stop.name, 0) + 1
        if caller is not None and caller != module:
            trace.edges.add((caller, module))

    previous, previous_threads = sys.getprofile(), threading.getprofile()
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        yield trace
    finally:
        sys.setprofile(previous)
        threading.setprofile(previous_threads)  # type: ignore[arg-type]
