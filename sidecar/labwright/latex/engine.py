"""Find the TeX engine: `LABWRIGHT_TEX` -> bundled TinyTeX -> PATH.

The order is a product decision: an explicit override wins (developers, CI,
users with their own TeX Live), then the engine shipped inside the app (the
release build places TinyTeX under `tinytex/` next to `knowledge/`), then
whatever the system has. The resolver only looks at files; it never runs them.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from labwright.resources import resource_root

ENV_VAR = "LABWRIGHT_TEX"
Source = Literal["env", "bundled", "path", "none"]


@dataclass(frozen=True)
class TexEngine:
    """Paths of the programs Labwright runs; None when absent."""

    xelatex: Path | None
    bibtex: Path | None
    kpsewhich: Path | None
    source: Source
    bin_dir: Path | None
    #: The PDF driver. With it, compile runs XeLaTeX with -no-pdf and converts
    #: once at the end (after checking what the .xdv asks the driver to read).
    xdvipdfmx: Path | None = None

    @property
    def available(self) -> bool:
        """Able to make a PDF: XeLaTeX *and* its driver. Without xdvipdfmx a
        compile would have XeLaTeX drive itself, past the .xdv gate, so it is
        refused (doctor names the missing driver)."""
        return self.xelatex is not None and self.xdvipdfmx is not None


def _exe(name: str) -> str:
    return name + ".exe" if sys.platform == "win32" else name


def _is_exe(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _from_bin_dir(bin_dir: Path, source: Source) -> TexEngine | None:
    xelatex = bin_dir / _exe("xelatex")
    if not _is_exe(xelatex):
        return None

    def tool(name: str) -> Path | None:
        p = bin_dir / _exe(name)
        return p if _is_exe(p) else None

    return TexEngine(xelatex, tool("bibtex"), tool("kpsewhich"), source, bin_dir, tool("xdvipdfmx"))


def _search_tree(root: Path, source: Source) -> TexEngine | None:
    """A TeX Live tree keeps its programs in bin/<platform>/ (x86_64-linux,
    universal-darwin, windows...); TinyTeX may sit one level down (TinyTeX/)."""
    candidates = [root, root / "bin"]
    for pattern in ("bin/*", "*/bin/*"):
        candidates.extend(sorted(p for p in root.glob(pattern) if p.is_dir()))
    for cand in candidates:
        found = _from_bin_dir(cand, source)
        if found:
            return found
    return None


def _from_env(value: str) -> TexEngine | None:
    path = Path(value).expanduser()
    if path.is_file():
        # Pointing straight at xelatex: its siblings are the other tools.
        found = _from_bin_dir(path.parent, "env")
        if found and found.xelatex != path:
            return TexEngine(
                path, found.bibtex, found.kpsewhich, "env", path.parent, found.xdvipdfmx
            )
        return found or TexEngine(path, None, None, "env", path.parent)
    if path.is_dir():
        return _search_tree(path, "env")
    return None


def _from_path() -> TexEngine | None:
    xelatex = shutil.which("xelatex")
    if not xelatex:
        return None
    bin_dir = Path(xelatex).parent

    def tool(name: str) -> Path | None:
        p = bin_dir / _exe(name)
        if _is_exe(p):
            return p
        w = shutil.which(name)
        return Path(w) if w else None

    return TexEngine(
        Path(xelatex), tool("bibtex"), tool("kpsewhich"), "path", bin_dir, tool("xdvipdfmx")
    )


def bundled_roots() -> list[Path]:
    """Where a shipped TeX tree may be: beside knowledge/ (a checkout, or the
    frozen bundle's data), or beside the sidecar's folder in the desktop app's
    resources (`<resources>/sidecar/labwright-sidecar`, `<resources>/tinytex/`)."""
    roots = [resource_root() / "tinytex"]
    if getattr(sys, "frozen", False):
        roots.append(Path(sys.executable).resolve().parent.parent / "tinytex")
    return roots


def use_tree_fonts(bin_dir: Path) -> None:
    """A bundled tree brings its own fonts.conf (only its fonts). Point
    fontconfig at it, with the writable cache in the user's data directory,
    unless the user chose a fontconfig file. Compile passes FONTCONFIG_FILE
    through to XeTeX (latex/compile.py keeps it)."""
    if os.environ.get("FONTCONFIG_FILE"):
        return
    tree = bin_dir.parent.parent
    conf = tree / "fonts.conf"
    if not conf.is_file():
        return
    try:
        from labwright.config import data_dir

        cache = data_dir().root / "cache" / "fontconfig"
        cache.mkdir(parents=True, exist_ok=True)
        own = cache / "fonts.conf"
        text = (
            '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
            f"<fontconfig>\n  <include>{conf}</include>\n  <cachedir>{cache}</cachedir>\n"
            "</fontconfig>\n"
        )
        if not own.is_file() or own.read_text(encoding="utf-8") != text:
            own.write_text(text, encoding="utf-8")
        os.environ["FONTCONFIG_FILE"] = str(own)
    except OSError:
        os.environ["FONTCONFIG_FILE"] = str(conf)  # read-only data dir: no cache, still works


def resolve_engine() -> TexEngine:
    """The engine to use now. A set but unusable `LABWRIGHT_TEX` is not skipped
    silently: it yields `source="env"` with no xelatex, so doctor can say so.
    A bundled tree wins over PATH, and its fonts.conf is put in place."""
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return _from_env(override) or TexEngine(None, None, None, "env", None)
    for bundled in bundled_roots():
        if bundled.is_dir():
            found = _search_tree(bundled, "bundled")
            if found and found.bin_dir is not None:
                use_tree_fonts(found.bin_dir)
                return found
    return _from_path() or TexEngine(None, None, None, "none", None)
