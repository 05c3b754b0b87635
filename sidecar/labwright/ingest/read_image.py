"""Reader for images: format, size, mode and a small PNG thumbnail.

The image is decoded inside the sandbox's trusted worker for the data folder
(`labwright.sandbox.images.probe`), never in the backend: image decoders are
large C libraries, and a hostile or damaged file may exhaust memory, loop or
crash one. Here that costs the confined worker (its limits and a watchdog
apply) and the file becomes one skipped sentence; the next image gets a
fresh worker. Decompression bombs are refused by the worker.

What the worker replies is checked like any untrusted input: sizes are
positive integers, names are short, the thumbnail is a small PNG.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path, PurePosixPath
from typing import Any

from .base import Item, ReaderContext, ReadError
from .types import ImageInfo

_PROBE = "labwright.sandbox.images:probe"
_PNG = b"\x89PNG\r\n\x1a\n"
_MAX_THUMBNAIL = 16 * 1024 * 1024
STOPPED = "read.image_stopped"
#: The image worker's reasons (sandbox/images.py, each completing "<file> ...")
#: as catalogue keys; another reason is shown as the worker gave it. Written
#: out, not imported: importing the worker's module here costs start-up time
#: (tests/ingest/test_read_image.py checks that they agree).
WORKER_REASONS = {
    "is not inside the data folder": "read.not_inside",
    "has too many pixels to open safely (over the decompression-bomb limit)": "read.image_bomb",
    "is not an image format that can be read": "read.image_unknown",
    "could not be read as an image (it may be damaged or truncated)": "read.image_damaged",
}


def _folder_of(path: Path, rel: str) -> Path:
    """The data folder: `path` is folder / rel."""
    return path.parents[len(PurePosixPath(rel).parts) - 1]


def _probe(path: Path, root: Path, max_side: int) -> dict[str, Any]:
    from labwright.sandbox import trusted

    # Absolute: the worker runs in its own directory, where a path relative
    # to ours names nothing (a folder given as `examples/spectrum` lost its
    # photo as "not inside the data folder").
    payload = {"path": os.path.abspath(path), "max_side": max_side}
    try:
        worker = trusted.shared_worker(root)
        replies = list(worker.request(_PROBE, payload, timeout=trusted.PROBE_TIMEOUT))
    except trusted.WorkerError as exc:
        raise ReadError(STOPPED) from exc
    if len(replies) != 1:
        raise ReadError(STOPPED)
    return replies[0]


def _text(value: object, limit: int = 16) -> str:
    if not isinstance(value, str) or not value or len(value) > limit or not value.isprintable():
        raise ReadError(STOPPED)
    return value


def _size(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 10**7:
        raise ReadError(STOPPED)
    return value


def read_image(path: Path, ctx: ReaderContext) -> list[Item]:
    return [image_facts(path, _folder_of(path, ctx.rel), source=ctx.rel)]


def image_facts(path: Path, root: Path, *, source: str = "", max_side: int = 256) -> ImageInfo:
    """Format, size, mode and a PNG thumbnail (at most `max_side` pixels) of
    an image inside the data folder `root`, decoded in the folder's confined
    worker; ReadError (completing "<file> ...") when it cannot be read."""
    reply = _probe(path, root, max_side)
    if "reason" in reply:
        reason = _text(reply["reason"], 200)
        key = WORKER_REASONS.get(reason)
        raise ReadError(key) if key else ReadError("read.other", reason=reason)
    try:
        thumbnail = base64.b64decode(str(reply.get("thumbnail", "")), validate=True)
    except (binascii.Error, ValueError):
        raise ReadError(STOPPED) from None
    if not thumbnail.startswith(_PNG) or len(thumbnail) > _MAX_THUMBNAIL:
        raise ReadError(STOPPED)
    return ImageInfo(
        source=source or path.name,
        format=_text(reply.get("format")),
        width=_size(reply.get("width")),
        height=_size(reply.get("height")),
        mode=_text(reply.get("mode")),
        thumbnail_png=thumbnail,
    )
