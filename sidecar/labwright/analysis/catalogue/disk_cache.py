"""The parsed built-in catalogue, kept on disk between processes.

Parsing the built-in `knowledge/models/*.toml` (TOML, then every entry's
fields, symbols and units into `schema` objects) costs ~0.12 s of CPU, in
every build process, on the way to the first fit. The result depends only on
the files' bytes and on the code that parses them, so it is kept in the
per-user cache folder (`<data dir>/cache/catalogue/`) under a key that hashes
both:

- the name and the bytes of every built-in file;
- the bytes of the modules that turn them into entries (`load`, `schema`,
  `expr`, `starts`, `quantities`, `request`), or, where those sources cannot
  be read (the frozen app), the executable's path, size and time;
- the Python version and where pint lives (its install time).

Any change to any of these is another key, so a stale file is never read; it
is simply not found. Only the built-in part is cached: overlay files are
parsed and validated in every process, as before, and a catalogue asked to
check the built-in files (`LABWRIGHT_CHECK_CATALOGUE=1`, the tests'
`load_files(check_builtin=True)`) never uses the cache.

The file is a pickle read with an unpickler that builds only the
catalogue's own dataclasses and plain values, so a file that is not ours
is refused (and the catalogue parsed) rather than run. Reading or writing
failures are never errors: the catalogue is parsed as without a cache.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import logging
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Bump when the cached value's shape changes without any module above changing.
FORMAT = b"labwright-catalogue-cache 1\n"
#: The modules whose code decides what a parsed entry holds.
PARSER_MODULES = (
    "labwright.analysis.catalogue.load",
    "labwright.analysis.catalogue.schema",
    "labwright.analysis.catalogue.expr",
    "labwright.analysis.catalogue.starts",
    "labwright.analysis.quantities",
    "labwright.analysis.request",
)
#: Files kept: one per key, the newest few (two checkouts sharing a home
#: folder keep theirs without evicting each other on every build).
KEEP = 4
_SUFFIX = ".pickle"
_ALLOWED_MODULES = (
    "labwright.analysis.catalogue.schema",
    "labwright.analysis.catalogue.load",
    "labwright.analysis.request",
)
_ALLOWED_BUILTINS = {"frozenset", "set", "tuple", "list", "dict", "complex", "float", "int"}


def _code_fingerprint(h: Any) -> None:
    for name in PARSER_MODULES:
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        try:
            if path is None:
                raise OSError(name)
            h.update(name.encode() + b"\0" + Path(path).read_bytes() + b"\0")
        except OSError:
            # No readable source (a frozen app): the executable names the code.
            st = os.stat(sys.executable)
            h.update(f"{sys.executable}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
            break
    h.update(sys.version.encode() + b"\0")
    spec = importlib.util.find_spec("pint")
    origin = spec.origin if spec is not None else None
    if origin:
        try:
            stamp = os.stat(origin).st_mtime_ns
        except OSError:  # inside a frozen app's archive: the executable says it
            stamp = 0
        h.update(f"{origin}\0{stamp}\0".encode())


def key(texts: dict[str, bytes]) -> str:
    """The cache key of the built-in files `texts` (file name -> bytes)."""
    h = hashlib.sha256(FORMAT)
    _code_fingerprint(h)
    for name in sorted(texts):
        data = texts[name]
        h.update(f"{name}\0{len(data)}\0".encode() + data)
    return h.hexdigest()


class _Unpickler(pickle.Unpickler):
    """Builds the catalogue's dataclasses and plain values, nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _ALLOWED_MODULES or (module == "builtins" and name in _ALLOWED_BUILTINS):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a catalogue")


def read(folder: Path, digest: str) -> Any | None:
    """The value stored under `digest`, or None (absent, unreadable, not ours)."""
    path = folder / (digest + _SUFFIX)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(FORMAT):
        return None
    try:
        return _Unpickler(io.BytesIO(data[len(FORMAT) :])).load()
    except Exception as exc:  # noqa: BLE001 - a broken file is parsed anew
        log.info("catalogue cache %s not used (%s)", path, exc)
        return None


def write(folder: Path, digest: str, value: Any) -> None:
    """Store `value` under `digest` (whole or not at all); keep the newest few."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(FORMAT)
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, folder / (digest + _SUFFIX))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(folder)
    except Exception as exc:  # noqa: BLE001 - a cache that cannot be written is no cache
        log.info("catalogue cache in %s not written (%s)", folder, exc)


def _prune(folder: Path) -> None:
    files = []
    for path in folder.glob("*" + _SUFFIX):
        if path.name.startswith("."):
            continue
        try:
            files.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    for _, path in sorted(files, reverse=True)[KEEP:]:
        path.unlink(missing_ok=True)
