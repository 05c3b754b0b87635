"""Readers for NumPy files (.npy, .npz). Pickles are never loaded.

`allow_pickle=False` is passed on every call: a pickled object array can run
arbitrary code when loaded, and a data folder is untrusted input.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from labwright.messages import say

from .arrays import collect
from .base import Item, ReaderContext, ReadError
from .types import Skipped

# Largest single array loaded from a .npz member (uncompressed size).
MAX_ARRAY_BYTES = 512 * 1024 * 1024


def _cap(arr: np.ndarray, max_rows: int) -> np.ndarray:
    """Bound what is copied out of a memory map before converting to float."""
    if arr.ndim == 1 and arr.shape[0] > max_rows:
        return arr[:max_rows]
    if arr.ndim == 2 and arr.shape[1] <= 8 and arr.shape[0] > max_rows:
        return arr[:max_rows]
    if arr.ndim == 2 and max(arr.shape) > 4000:
        step = max(1, -(-max(arr.shape) // 2000))
        return arr[::step, ::step]
    return arr


def read_npy(path: Path, ctx: ReaderContext) -> list[Item]:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc).lower() or "object" in str(exc).lower():
            raise ReadError("read.npy_objects") from exc
        raise ReadError("read.npy_invalid") from exc
    except (OSError, EOFError) as exc:
        raise ReadError("read.npy_damaged") from exc
    if arr.dtype.kind not in "biuf":
        raise ReadError("read.npy_dtype", dtype=str(arr.dtype))
    capped = np.array(_cap(arr, ctx.max_rows))
    del arr  # release the memory map
    result = collect(ctx.rel, ctx.name, [(Path(ctx.rel).stem, capped)], ctx.max_rows)
    if len(result.datasets) == 1:
        result.datasets[0].name = ctx.name
    if not result.datasets and not result.skipped:
        raise ReadError("read.npy_no_array")
    return [*result.datasets, *result.skipped]


def read_npz(path: Path, ctx: ReaderContext) -> list[Item]:
    if not zipfile.is_zipfile(path):
        raise ReadError("read.npz_damaged")
    values: list[tuple[str, object]] = []
    problems: list[Item] = []

    with zipfile.ZipFile(path) as archive:
        sizes = {info.filename.removesuffix(".npy"): info.file_size for info in archive.infolist()}
    with np.load(path, allow_pickle=False) as npz:
        for key in npz.files:
            if sizes.get(key, 0) > MAX_ARRAY_BYTES:
                problems.append(
                    Skipped(
                        ctx.rel,
                        say("read.array_too_large", name=key, file=ctx.rel),
                        variable=key,
                    )
                )
                continue
            try:
                arr = npz[key]
            except ValueError:
                problems.append(
                    Skipped(
                        ctx.rel,
                        say("read.array_objects", name=key, file=ctx.rel),
                        variable=key,
                    )
                )
                continue
            values.append((key, _cap(arr, ctx.max_rows) if arr.dtype.kind in "biuf" else arr))
    result = collect(ctx.rel, ctx.name, values, ctx.max_rows)
    if not result.datasets and not result.skipped and not problems:
        raise ReadError("read.npz_no_arrays")
    return [*result.datasets, *result.skipped, *problems]
