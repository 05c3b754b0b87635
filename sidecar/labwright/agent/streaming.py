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
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class Restart:
    """The stream was cut and retried: what was shown so far must be discarded."""


@dataclass
class Finished(Generic[T]):
    value: T


def stream_deltas(
    call: Callable[[Callable[[str], None], Callable[[], None]], T],
) -> Iterator[str | Restart | Finished[T]]:
    """Yield text deltas and restarts, then `Finished(result)`; re-raise the call's error."""
    channel: queue.Queue[str | Restart | None] = queue.Queue()  # None: the call ended
    values: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            values.append(call(channel.put, lambda: channel.put(Restart())))
        except BaseException as exc:  # noqa: BLE001 - handed to the consuming thread
            errors.append(exc)
        finally:
            channel.put(None)

    worker = threading.Thread(target=run, name="labwright-stream", daemon=True)
    worker.start()
    while True:
        item = channel.get()
        if item is None:
            break
        yield item
    worker.join()
    if errors:
        raise errors[0]
    yield Finished(values[0])
