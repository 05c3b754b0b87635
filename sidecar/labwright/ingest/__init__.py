"""labwright.ingest: read a data folder without any LLM.

`scan_folder` lists the files (paths, sizes, hashes, buckets); `read_folder`
turns them into typed datasets, images and documents with provenance, and a
one-sentence `Skipped` entry for every file it could not read.
"""

from .read import READERS, read_file, read_folder
from .scan import scan_folder
from .types import (
    Bucket,
    Column,
    Dataset,
    DocumentText,
    FileEntry,
    ImageInfo,
    Inventory,
    Provenance,
    ReadResult,
    Skipped,
)

__all__ = [
    "READERS",
    "Bucket",
    "Column",
    "Dataset",
    "DocumentText",
    "FileEntry",
    "ImageInfo",
    "Inventory",
    "Provenance",
    "ReadResult",
    "Skipped",
    "read_file",
    "read_folder",
    "scan_folder",
]
