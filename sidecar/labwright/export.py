"""The Overleaf export: a zip that compiles as it is.

The archive holds main.tex, the class file it names, the traced numbers'
appendix the class reads (labwright-numbers.tex), the figures it includes, the .bib files it cites from and a `latexmkrc` selecting XeLaTeX
(`$pdf_mode = 5`), which Overleaf and a local `latexmk` both honour; and,
when the build has one, the compendium under `analysis/` (the script, the
notebook, requirements.txt and the raw data they read, issue 23).

What goes in is derived from the document itself, and every member is
checked with lstat: a regular file (never a symlink, never followed), inside
the build directory, with a name of the shape Labwright generates. Arc names
are ours; nothing from the user's folder names a member, except the raw
files under `analysis/data/`, which keep their own names (the script reads
them by name): those are checked part by part (`_check_data_rel`). Timestamps are
fixed so the same build gives the same bytes.

A build whose compile overwrote its own input files (the class, the .bib:
paranoid TeX may write inside its folder) is refused, with the compiler's
own sentence: compile_tex records what it found in the build folder
(`COMPILE_RECORD`), and every export path -- this zip, the API's zip and PDF
routes, the CLI's PDF copy -- asks `check_exportable` first.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from labwright.latex.compile import COMPILE_RECORD
from labwright.latex.template import CLASS_FILE, NUMBERS_FILE, template_files
from labwright.safety import is_plain_below, is_regular_file, read_regular, read_regular_whole

LATEXMKRC = (
    "# Written by Labwright: compile with XeLaTeX (fontspec, xeCJK).\n"
    "$pdf_mode = 5;\n"
    "$postscript_mode = 0;\n"
    "$dvi_mode = 0;\n"
    "# main.tex only: labwright-numbers.tex is read by the class, not a document.\n"
    "@default_files = ('main.tex');\n"
)
_FIXED_TIME = (2026, 1, 1, 0, 0, 0)
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")
_INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_CLASS = re.compile(r"\\documentclass\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_BIB = re.compile(r"\\bibliography\s*\{([^{}]+)\}")
_GRAPHIC_EXT = (".pdf", ".png", ".jpg", ".jpeg")
_MAX_RECORD = 1 << 20  # a compile record is a few hundred bytes
#: The compendium's folder in the build and the zip (agent/offline/compendium_build.py).
COMPENDIUM_DIR = "analysis"
_CONTROL = re.compile(r"[\x00-\x1f\x7f\\:*?\"<>|]")


class ExportError(ValueError):
    """The build cannot be exported (one plain sentence)."""


@dataclass(frozen=True)
class Member:
    arcname: str
    path: Path


def _check_rel(rel: str) -> str:
    parts = rel.split("/")
    if (
        not parts
        or not all(_SAFE_NAME.match(p) for p in parts)
        or any(p in (".", "..") for p in parts)
    ):
        raise ExportError(f"{rel!r} is not a file name Labwright generates, so it is not exported.")
    return rel


def _check_data_rel(rel: str) -> str:
    """A raw file's own name below analysis/: any printable name (a Chinese
    file name is a real case) that extracts to where it says on every OS."""
    parts = rel.split("/")
    if any(
        not p or p in (".", "..") or len(p) > 200 or _CONTROL.search(p) or p != p.strip()
        for p in parts
    ):
        raise ExportError(f"{rel!r} cannot be a file name in the zip, so it is not exported.")
    return rel


def compendium_members(root: Path) -> list[str]:
    """Every regular file under analysis/, sorted; symlinks are never followed."""
    top = root / COMPENDIUM_DIR
    if not os.path.lexists(top) or not top.is_dir() or top.is_symlink():
        return []
    found: list[str] = []
    for base, dirs, files in os.walk(top, followlinks=False):
        dirs.sort()
        for name in files:
            rel = (Path(base) / name).relative_to(root).as_posix()
            found.append(_check_data_rel(rel))
    return sorted(found)


def _regular_file(path: Path, root: Path) -> Path:
    """lstat, not stat: a symlink is refused, never followed."""
    if not os.path.lexists(path):
        raise ExportError(f"{path.name} is missing from the build; rebuild the report.")
    if not is_regular_file(path):
        raise ExportError(f"{path.name} is not a regular file, so it is not exported.")
    # The parent chain must not escape either (figures/ could be a symlink).
    if not is_plain_below(path, root):
        raise ExportError(
            f"{path.name} does not lie inside the build folder, so it is not exported."
        )
    return path


def _graphic(rel: str, root: Path) -> str:
    if Path(rel).suffix.lower() in _GRAPHIC_EXT:
        return rel
    for ext in _GRAPHIC_EXT:
        if os.path.lexists(root / (rel + ext)):
            return rel + ext
    return rel


def check_exportable(build_dir: Path) -> None:
    """Raise ExportError (the compiler's sentence) when the build's last
    compile overwrote its own inputs. No record: nothing was compiled there
    (a build without TeX), so there is nothing to refuse."""
    path = Path(build_dir) / COMPILE_RECORD
    if not os.path.lexists(path):
        return
    try:
        data = read_regular_whole(path, _MAX_RECORD)
        if data is None:
            raise ValueError("not a regular file of a record's size")
        record = json.loads(data.decode("utf-8"))
        modified = record["modified_inputs"]
        messages = record.get("messages", [])
        if not isinstance(modified, list) or not isinstance(messages, list):
            raise ValueError("malformed")
    except (ValueError, KeyError, TypeError):  # UnicodeDecodeError is a ValueError
        raise ExportError("The build's compile record is unreadable; rebuild the report.") from None
    if modified:
        said = [m for m in messages if isinstance(m, str) and "overwrote" in m]
        raise ExportError(
            said[0]
            if said
            else f"The build overwrote its own input files ({', '.join(map(str, modified))}); "
            "regenerate the report."
        )


def members_of(tex_path: Path) -> list[Member]:
    """The files a build's main .tex needs, checked, in a stable order.
    Raises ExportError for a build that must not be exported."""
    root = tex_path.parent
    check_exportable(root)
    source = tex_path.read_text(encoding="utf-8")
    wanted: list[str] = [_check_rel(tex_path.name)]
    for m in _CLASS.finditer(source):
        name = m.group(1).strip() + ".cls"
        # A standard class (article) is not ours to ship; ours always is.
        if os.path.lexists(root / name) or name == CLASS_FILE:
            wanted.append(_check_rel(name))
    # The traced numbers' appendix: the class reads it by name, so main.tex
    # does not mention it; without it every number link would lose its entry.
    if os.path.lexists(root / NUMBERS_FILE):
        wanted.append(_check_rel(NUMBERS_FILE))
    for m in _BIB.finditer(source):
        for stem in m.group(1).split(","):
            stem = stem.strip()
            if stem:
                wanted.append(_check_rel(stem if stem.endswith(".bib") else stem + ".bib"))
    # Figures by name, not by where the text cites them: the zip's layout stays
    # the same when a writer reorders its sections.
    wanted += sorted(
        _check_rel(_graphic(m.group(1).strip(), root)) for m in _INCLUDE.finditer(source)
    )
    wanted += compendium_members(root)
    seen: set[str] = set()
    out: list[Member] = []
    for rel in wanted:
        if rel in seen:
            continue
        seen.add(rel)
        if rel == CLASS_FILE and not os.path.lexists(root / rel):
            # A model-backed run compiles in builds/build-*/ and keeps only
            # main.tex, figures and the .bib in its folder: the class comes
            # from the templates, or the zip would not compile on Overleaf.
            out.append(Member(rel, template_files("en")[0]))
            continue
        out.append(Member(rel, _regular_file(root / rel, root)))
    return out


def export_overleaf_zip(tex_path: Path, zip_path: Path) -> Path:
    """Write the Overleaf zip for the build whose document is `tex_path`.

    Written to a temporary name first and renamed, so a failed export never
    leaves a half-written zip under the requested name."""
    tex_path = Path(tex_path)
    zip_path = Path(zip_path)
    members = members_of(tex_path)
    tmp = zip_path.with_name(zip_path.name + ".part")
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for member in members:
                info = zipfile.ZipInfo(member.arcname, date_time=_FIXED_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                data = read_regular(member.path)
                if data is None:  # swapped for a link or removed since it was checked
                    raise ExportError(
                        f"{member.path.name} changed during the export; rebuild the report."
                    )
                zf.writestr(info, data)
            info = zipfile.ZipInfo("latexmkrc", date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, LATEXMKRC)
        os.replace(tmp, zip_path)
    finally:
        tmp.unlink(missing_ok=True)
    return zip_path
