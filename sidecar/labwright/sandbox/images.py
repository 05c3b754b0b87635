"""Decoding user images: runs inside the confined trusted worker, never in the backend.

Image decoders are large C libraries fed with files we did not write; a
malformed or hostile file may exhaust memory, loop or crash the decoder. Here
that costs at most this confined process (its memory, CPU and wall limits
apply), and the backend reports one sentence and carries on.

Decompression bombs are refused: Pillow warns above MAX_IMAGE_PIXELS and
raises at twice that; here both are errors.
"""

from __future__ import annotations

import base64
import io
import os
import warnings
from collections.abc import Iterator
from typing import Any

from labwright.safety import real_inside

from .trusted_worker import WorkerContext

THUMBNAIL_SIZE = (256, 256)

#: Reasons, each completing "<file> ..." as one sentence.
BOMB = "has too many pixels to open safely (over the decompression-bomb limit)"
UNKNOWN = "is not an image format that can be read"
DAMAGED = "could not be read as an image (it may be damaged or truncated)"


def _inside(path: str, root: str | None) -> bool:
    if root is None:
        return False
    return real_inside(os.path.realpath(path), os.path.realpath(root))


def _displayable(img: Any) -> Any:
    """8-bit RGB/RGBA/L for the thumbnail; 16-bit and float scientific images are scaled."""
    import numpy as np
    from PIL import Image

    if img.mode in ("RGB", "RGBA", "L", "LA"):
        return img
    if img.mode in ("1", "P", "CMYK", "YCbCr", "LAB", "HSV", "PA"):
        return img.convert("RGBA" if "A" in img.mode or "transparency" in img.info else "RGB")
    arr = np.asarray(img, dtype=float)
    finite = arr[np.isfinite(arr)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    scaled = np.zeros_like(arr) if high <= low else (arr - low) / (high - low) * 255.0
    return Image.fromarray(np.nan_to_num(scaled).astype(np.uint8), mode="L")


def probe(request: dict[str, Any], context: WorkerContext) -> Iterator[dict[str, Any]]:
    """Format, size, mode and a PNG thumbnail of one image in the data folder.

    Request: {"path": absolute path, "max_side": thumbnail size (default
    256, at most 2048)}. Reply: one line, either the facts (the thumbnail
    base64-encoded) or {"reason": one of the sentences above}.
    """
    from PIL import Image, UnidentifiedImageError

    path = str(request["path"])
    side = max(16, min(int(request.get("max_side", THUMBNAIL_SIZE[0])), 2048))
    if not _inside(path, context.data_root):
        yield {"reason": "is not inside the data folder"}
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                facts = {
                    "format": img.format or os.path.splitext(path)[1].lstrip(".").upper(),
                    "width": img.size[0],
                    "height": img.size[1],
                    "mode": img.mode,
                }
                img.draft("RGB", (side, side))  # JPEG: decode at reduced scale, much faster
                img.load()
                thumb = _displayable(img.copy())
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        yield {"reason": BOMB}
        return
    except UnidentifiedImageError:
        yield {"reason": UNKNOWN}
        return
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError):
        yield {"reason": DAMAGED}
        return
    thumb.thumbnail((side, side))
    buffer = io.BytesIO()
    thumb.save(buffer, format="PNG")
    facts["thumbnail"] = base64.b64encode(buffer.getvalue()).decode("ascii")
    yield facts


def convert_image(path: str, target: str, max_side: int = 3000) -> None:
    """A print-ready copy of one image: scaled to `max_side` on the long side,
    JPEG when `target` ends in .jpg (a large photo stays a JPEG), else PNG.
    Called by the drawing code inside the worker; raises on a bad image."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with Image.open(path) as src:
            src.seek(0)
            src.thumbnail((max_side, max_side))
            if target.endswith(".jpg"):
                src.convert("RGB").save(target, format="JPEG", quality=90)
            else:
                converted = src.convert("RGBA" if "A" in src.getbands() else "RGB")
                converted.save(target, format="PNG")
