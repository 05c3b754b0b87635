"""Turn a blocking streaming call with an `on_delta` callback into a generator.

The pipeline is a generator of events; the client streams through callbacks.
The call runs in a worker thread and its deltas come back through a queue, so
draft text reaches the user as it is written, not after the call returns.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass
class Restart:
    """The stream was cut and retried: what was shown so far must be discarded."""


@dataclass
class Finished(Generic[T]):
    value: T


_END = object()


def stream_deltas(
    call: Callable[[Callable[[str], None], Callable[[], None]], T],
) -> Iterator[str | Restart | Finished[T]]:
    """Yield text deltas and restarts, then `Finished(result)`; re-raise the call's error."""
    channel: queue.Queue[Any] = queue.Queue()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call(channel.put, lambda: channel.put(Restart()))
        except BaseException as exc:  # noqa: BLE001 - handed to the consuming thread
            outcome["error"] = exc
        finally:
            channel.put(_END)

    worker = threading.Thread(target=run, name="labwright-stream", daemon=True)
    worker.start()
    while True:
        item = channel.get()
        if item is _END:
            break
        yield item
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    yield Finished(outcome["value"])
