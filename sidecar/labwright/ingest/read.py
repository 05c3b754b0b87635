"""read_folder: every file of an inventory through the reader for its type.

Readers are registered explicitly in `READERS` (no entry points: PyInstaller
does not carry entry-point metadata reliably). A reader returns datasets,
images, documents or skipped parts; any failure becomes a `Skipped` entry
with one sentence, so one bad file never stops the run.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from labwright.messages import say
from labwright.safety import real_inside

from .base import Item, ReaderContext, ReadError
from .read_excel import read_excel
from .read_fig import read_fig
from .read_image import read_image
from .read_json import read_json
from .read_matlab import read_hdf5, read_mat
from .read_numpy import read_npy, read_npz
from .read_pdf import read_pdf
from .read_text import read_delimited, read_document, read_plain_text
from .scan import bucket_for, scan_folder
from .types import Dataset, DocumentText, ImageInfo, Inventory, ReadResult, Skipped

Reader = Callable[[Path, ReaderContext], list[Item]]


@dataclass(frozen=True)
class ReaderSpec:
    read: Reader
    what: str  # a `what.*` key: completes "could not be read as ..." when a reader fails


def _unsupported(key: str) -> Reader:
    def read(path: Path, ctx: ReaderContext) -> list[Item]:
        raise ReadError(key)

    return read


READERS: dict[str, ReaderSpec] = {
    ".csv": ReaderSpec(read_delimited, "what.csv"),
    ".tsv": ReaderSpec(read_delimited, "what.tsv"),
    ".txt": ReaderSpec(read_plain_text, "what.text"),
    ".dat": ReaderSpec(read_plain_text, "what.text_data"),
    # UCI-style tables (iris.data beside iris.names): comma-separated, often
    # without a header line.
    ".data": ReaderSpec(read_delimited, "what.delimited"),
    ".md": ReaderSpec(read_document, "what.markdown"),
    ".markdown": ReaderSpec(read_document, "what.markdown"),
    ".rst": ReaderSpec(read_document, "what.document"),
    ".names": ReaderSpec(read_document, "what.names"),
    ".tex": ReaderSpec(read_document, "what.latex"),
    ".bib": ReaderSpec(read_document, "what.bibtex"),
    ".xlsx": ReaderSpec(read_excel, "what.excel"),
    ".xlsm": ReaderSpec(read_excel, "what.excel"),
    ".json": ReaderSpec(read_json, "what.json"),
    ".npy": ReaderSpec(read_npy, "what.npy"),
    ".npz": ReaderSpec(read_npz, "what.npz"),
    ".mat": ReaderSpec(read_mat, "what.mat"),
    ".fig": ReaderSpec(read_fig, "what.fig"),
    ".h5": ReaderSpec(read_hdf5, "what.hdf5"),
    ".hdf5": ReaderSpec(read_hdf5, "what.hdf5"),
    ".pdf": ReaderSpec(read_pdf, "what.pdf"),
    **{
        ext: ReaderSpec(read_image, "what.image")
        for ext in (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp")
    },
    ".xls": ReaderSpec(
        _unsupported("read.xls"),
        "what.excel",
    ),
    ".docx": ReaderSpec(
        _unsupported("read.docx"),
        "what.word",
    ),
    ".svg": ReaderSpec(_unsupported("read.vector_image"), "what.image"),
    ".eps": ReaderSpec(_unsupported("read.vector_image"), "what.image"),
}


def _dataset_names(inventory: Inventory) -> dict[str, str]:
    """Base name per file: its stem, or its relative path when two files share a stem."""
    readable = [f.path for f in inventory.files if PurePosixPath(f.path).suffix.lower() in READERS]
    stems = Counter(PurePosixPath(p).stem for p in readable)
    return {p: PurePosixPath(p).stem if stems[PurePosixPath(p).stem] == 1 else p for p in readable}


def _inside(path: Path, real_root: str) -> bool:
    real = os.path.realpath(path)
    return real_inside(real, real_root) and os.path.isfile(real)


def read_file(path: Path, rel: str, name: str | None = None) -> list[Item]:
    """Read one file with its registered reader; never raises."""
    suffix = PurePosixPath(rel).suffix.lower()
    spec = READERS.get(suffix)
    if spec is None and not suffix:
        # README, NOTES, DESCRIPTION, data files without an extension: text is
        # read like a .txt (a table when it looks like one, else notes); binary
        # content is skipped with its own sentence.
        spec = ReaderSpec(read_plain_text, "what.text")
    if spec is None:
        reason = (
            say("read.unsupported", file=rel, suffix=suffix)
            if suffix
            else say("read.no_extension", file=rel)
        )
        return [Skipped(rel, reason)]
    ctx = ReaderContext(rel=rel, name=name or PurePosixPath(rel).stem)
    try:
        if path.stat().st_size == 0:
            # A 0-byte data file is what an interrupted copy or export leaves:
            # say so in those words, not "has no table".
            is_data = bucket_for(rel) in ("data", "images")
            raise ReadError("read.empty_data" if is_data else "read.empty")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return spec.read(path, ctx)
    except ReadError as exc:
        return [Skipped(rel, exc.sentence(rel))]
    except MemoryError:
        return [Skipped(rel, say("read.memory", file=rel))]
    except PermissionError:
        return [Skipped(rel, say("read.permission", file=rel))]
    except Exception:  # a reader bug or a library choking on hostile input
        return [Skipped(rel, say("read.reader_failed", file=rel, what=say(spec.what)))]


def read_folder(root: Path, inventory: Inventory | None = None) -> ReadResult:
    """Datasets, images, documents and skipped files of a folder; never raises for a file."""
    root = Path(root)
    if inventory is None:
        inventory = scan_folder(root)
    real_root = os.path.realpath(root)
    names = _dataset_names(inventory)
    result = ReadResult()
    for entry in inventory.files:
        if entry.symlink_outside:
            result.skipped.append(Skipped(entry.path, say("read.outside_link", file=entry.path)))
            continue
        path = root / entry.path
        # Checked again at read time: the folder may have changed since the scan.
        if not _inside(path, real_root):
            result.skipped.append(Skipped(entry.path, say("read.gone", file=entry.path)))
            continue
        for item in read_file(path, entry.path, names.get(entry.path)):
            if isinstance(item, Dataset):
                result.datasets.append(item)
            elif isinstance(item, ImageInfo):
                result.images.append(item)
            elif isinstance(item, DocumentText):
                result.documents.append(item)
            else:
                result.skipped.append(item)
    return result
