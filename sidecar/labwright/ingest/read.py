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
from .scan import scan_folder
from .types import Dataset, DocumentText, ImageInfo, Inventory, ReadResult, Skipped

Reader = Callable[[Path, ReaderContext], list[Item]]


@dataclass(frozen=True)
class ReaderSpec:
    read: Reader
    what: str  # completes "could not be read as ..." when a reader fails unexpectedly


def _unsupported(message: str) -> Reader:
    def read(path: Path, ctx: ReaderContext) -> list[Item]:
        raise ReadError(message)

    return read


READERS: dict[str, ReaderSpec] = {
    ".csv": ReaderSpec(read_delimited, "a CSV table"),
    ".tsv": ReaderSpec(read_delimited, "a TSV table"),
    ".txt": ReaderSpec(read_plain_text, "a text file"),
    ".dat": ReaderSpec(read_plain_text, "a text data file"),
    # UCI-style tables (iris.data beside iris.names): comma-separated, often
    # without a header line.
    ".data": ReaderSpec(read_delimited, "a delimited data table"),
    ".md": ReaderSpec(read_document, "a Markdown document"),
    ".markdown": ReaderSpec(read_document, "a Markdown document"),
    ".rst": ReaderSpec(read_document, "a text document"),
    ".names": ReaderSpec(read_document, "a data description"),
    ".tex": ReaderSpec(read_document, "a LaTeX document"),
    ".bib": ReaderSpec(read_document, "a BibTeX file"),
    ".xlsx": ReaderSpec(read_excel, "an Excel workbook"),
    ".xlsm": ReaderSpec(read_excel, "an Excel workbook"),
    ".json": ReaderSpec(read_json, "JSON"),
    ".npy": ReaderSpec(read_npy, "a NumPy array"),
    ".npz": ReaderSpec(read_npz, "a NumPy archive"),
    ".mat": ReaderSpec(read_mat, "a MATLAB data file"),
    ".fig": ReaderSpec(read_fig, "a MATLAB figure"),
    ".h5": ReaderSpec(read_hdf5, "an HDF5 file"),
    ".hdf5": ReaderSpec(read_hdf5, "an HDF5 file"),
    ".pdf": ReaderSpec(read_pdf, "a PDF"),
    **{
        ext: ReaderSpec(read_image, "an image")
        for ext in (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp")
    },
    ".xls": ReaderSpec(
        _unsupported("is an old-style Excel .xls workbook, which is not read; save it as .xlsx"),
        "an Excel workbook",
    ),
    ".docx": ReaderSpec(
        _unsupported("is a Word document, which is not read; save it as PDF or plain text"),
        "a Word document",
    ),
    ".svg": ReaderSpec(
        _unsupported("is a vector image, which is not read; export it as PNG"), "an image"
    ),
    ".eps": ReaderSpec(
        _unsupported("is a vector image, which is not read; export it as PNG"), "an image"
    ),
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
        spec = ReaderSpec(read_plain_text, "a text file")
    if spec is None:
        kind = f"a {suffix} file" if suffix else "a file without an extension"
        return [Skipped(rel, f"{rel} is {kind}, a type that is not read.")]
    ctx = ReaderContext(rel=rel, name=name or PurePosixPath(rel).stem)
    try:
        if path.stat().st_size == 0:
            raise ReadError("is empty")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return spec.read(path, ctx)
    except ReadError as exc:
        return [Skipped(rel, f"{rel} {exc}.")]
    except MemoryError:
        return [Skipped(rel, f"{rel} is too large to read into memory.")]
    except PermissionError:
        return [Skipped(rel, f"{rel} could not be opened because permission was denied.")]
    except Exception:  # a reader bug or a library choking on hostile input
        return [Skipped(rel, f"{rel} could not be read as {spec.what}.")]


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
            result.skipped.append(
                Skipped(
                    entry.path,
                    f"{entry.path} links to a place outside the folder, so it was not read.",
                )
            )
            continue
        path = root / entry.path
        # Checked again at read time: the folder may have changed since the scan.
        if not _inside(path, real_root):
            result.skipped.append(
                Skipped(
                    entry.path,
                    f"{entry.path} is no longer a file inside the folder, so it was not read.",
                )
            )
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
