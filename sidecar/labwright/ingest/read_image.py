"""Reader for images: format, size, mode and a small PNG thumbnail (Pillow).

Decompression bombs are refused: Pillow warns above MAX_IMAGE_PIXELS and
raises at twice that; here both are errors, so a tiny PNG that expands to
gigabytes is skipped instead of filling memory. The global limit is not
changed, because other parts of the process use Pillow too.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from .base import Item, ReaderContext, ReadError
from .types import ImageInfo

THUMBNAIL_SIZE = (256, 256)


def _displayable(img: Image.Image) -> Image.Image:
    """8-bit RGB/RGBA/L for the thumbnail; 16-bit and float scientific images are scaled."""
    if img.mode in ("RGB", "RGBA", "L", "LA"):
        return img
    if img.mode in ("1", "P", "CMYK", "YCbCr", "LAB", "HSV", "PA"):
        return img.convert("RGBA" if "A" in img.mode or "transparency" in img.info else "RGB")
    arr = np.asarray(img, dtype=float)
    finite = arr[np.isfinite(arr)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    scaled = np.zeros_like(arr) if high <= low else (arr - low) / (high - low) * 255.0
    return Image.fromarray(np.nan_to_num(scaled).astype(np.uint8), mode="L")


def read_image(path: Path, ctx: ReaderContext) -> list[Item]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                fmt, (width, height), mode = (
                    img.format or path.suffix.lstrip(".").upper(),
                    img.size,
                    img.mode,
                )
                img.draft("RGB", THUMBNAIL_SIZE)  # JPEG: decode at reduced scale, much faster
                img.load()
                thumb = _displayable(img.copy())
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ReadError(
            "has too many pixels to open safely (over the decompression-bomb limit)"
        ) from exc
    except UnidentifiedImageError as exc:
        raise ReadError("is not an image format that can be read") from exc
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ReadError("could not be read as an image (it may be damaged or truncated)") from exc
    thumb.thumbnail(THUMBNAIL_SIZE)
    buffer = io.BytesIO()
    thumb.save(buffer, format="PNG")
    return [
        ImageInfo(
            source=ctx.rel,
            format=fmt,
            width=width,
            height=height,
            mode=mode,
            thumbnail_png=buffer.getvalue(),
        )
    ]
