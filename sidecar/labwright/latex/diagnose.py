"""Read a XeLaTeX log: what went wrong, and what to tell the user.

Under nonstopmode a PDF comes out even when figures are missing or every
reference prints as "??", so "it compiled" says little. `diagnose` tallies
what degrades the document; `humanize` turns each finding into one plain
sentence plus one action (the raw log stays one click away, never in the UI).

The compiler runs with `-file-line-error` and `max_print_line=10000` (see
compile.py), so every error sits on one line as `file:line: message` and no
message is wrapped at 79 columns; the parser relies on both. texoutparse
exists on PyPI but is unmaintained since 2019 and knows neither format
option nor XeTeX's missing-glyph lines, hence these few regexes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_FILE_LINE_ERROR = re.compile(
    r"^(?P<file>[^\s:][^:]*?\.(?:tex|cls|sty|bbl|aux|def|cfg|fd|toc|ltx)):(?P<line>\d+): (?P<msg>.*)$"
)
_BANG_ERROR = re.compile(r"^! (?P<msg>.*)$")
_NOT_FOUND = re.compile(r"File `(?P<name>[^']+)' not found")
_GRAPHICS_HINT = "could not locate the file with any of these extensions"
_CITATION = re.compile(r"Citation [`'](?P<key>[^']+)' (?:on page \S+ )?undefined")
_REFERENCE = re.compile(r"Reference [`'](?P<key>[^']+)' on page \S+ undefined")
_OVERFULL = re.compile(r"^Overfull \\[hv]box")
_MISSING_CHAR = re.compile(
    r"^Missing character: There is no (?P<char>.+?)(?: \((?:U\+|\")[0-9A-Fa-f]+\))? in font (?P<font>[^!]+)!"
)
_PICTURE = re.compile(r"Unable to load picture or PDF file '(?P<name>[^']+)'")
_FONT_NOT_FOUND = re.compile(
    r'The font "(?P<font>[^"]+)" cannot be\s+found|Font \\?\S+="(?P<font2>[^"]+)"(?: at [\d.]+pt)? not loadable'
)
_RERUN = re.compile(
    r"Rerun to get|Label\(s\) may have changed|Please rerun LaTeX|Rerun LaTeX|"
    r"Please \(re\)run BibTeX|rerunfilecheck Warning: File .* has changed"
)
_FATAL = re.compile(
    r"^!\s+==> Fatal error occurred|^\*\*\* \((?:job aborted|cannot \\read)|^! Emergency stop|No pages of output"
)
_PACKAGE_EXT = (".sty", ".cls", ".def", ".cfg", ".fd", ".clo", ".ldf", ".bst")
_IMAGE_EXT = (".png", ".jpg", ".jpeg", ".pdf", ".eps", ".bmp", ".gif", ".tif", ".tiff", ".svg")


@dataclass(frozen=True)
class TexError:
    """One `!`-level error: message, and where TeX says it happened."""

    message: str
    file: str | None = None
    line: int | None = None
    context: str = ""


@dataclass
class Diagnostics:
    errors: list[TexError] = field(default_factory=list)
    missing_figures: list[str] = field(default_factory=list)
    missing_files: list[str] = field(default_factory=list)
    missing_packages: list[str] = field(default_factory=list)
    missing_fonts: list[str] = field(default_factory=list)
    missing_characters: list[str] = field(default_factory=list)
    undefined_citations: list[str] = field(default_factory=list)
    undefined_references: list[str] = field(default_factory=list)
    overfull_boxes: int = 0
    rerun_requested: bool = False
    fatal: bool = False
    #: xdvipdfmx failed ("Error 256 (driver return code) generating output"):
    #: a PDF file may exist but is not valid.
    driver_failed: bool = False
    #: Files outside the build directory the .xdv asked the PDF driver to read
    #: (set by compile's driver gate; the driver was then not run).
    blocked_reads: list[str] = field(default_factory=list)

    @property
    def error_count(self) -> int:
        return len(self.errors)

    @property
    def degraded(self) -> bool:
        """True when the PDF (if any) is not what the author wrote. Overfull
        boxes are cosmetic and do not count."""
        return bool(
            self.errors
            or self.fatal
            or self.driver_failed
            or self.blocked_reads
            or self.missing_figures
            or self.missing_files
            or self.missing_packages
            or self.missing_fonts
            or self.missing_characters
            or self.undefined_citations
            or self.undefined_references
        )


def _add(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)


def _classify_missing(name: str, following: str, context: str, diag: Diagnostics) -> None:
    lower = name.lower()
    if lower.endswith(_PACKAGE_EXT):
        _add(diag.missing_packages, name)
    elif lower.endswith(_IMAGE_EXT) or _GRAPHICS_HINT in following or "includegraphics" in context:
        _add(diag.missing_figures, name)
    else:
        _add(diag.missing_files, name)


def diagnose(log_text: str, *, placeholder_figures: Iterable[str] = ()) -> Diagnostics:
    """Tally the problems in a XeLaTeX log.

    `placeholder_figures` are figures the sanitizer replaced by a framed
    placeholder before compiling: TeX never saw them missing, but the PDF
    lacks them, so they are reported like any other missing figure.
    """
    diag = Diagnostics()
    lines = log_text.splitlines()
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        m = _FILE_LINE_ERROR.match(line)
        bang = _BANG_ERROR.match(line) if not m else None
        if m or bang:
            msg = (m or bang).group("msg").strip()  # type: ignore[union-attr]
            if bang and msg.startswith("==> Fatal error"):
                diag.fatal = True
                continue
            file = m.group("file") if m else None
            lineno = int(m.group("line")) if m else None
            context = ""
            for nxt in lines[i + 1 : i + 12]:
                lm = re.match(r"^l\.(\d+) ?(.*)$", nxt)
                if lm:
                    lineno = lineno or int(lm.group(1))
                    context = lm.group(2).strip()
                    break
            diag.errors.append(TexError(msg, file, lineno, context))
            if msg.startswith("Emergency stop"):
                diag.fatal = True
            nf = _NOT_FOUND.search(msg)
            if nf:
                following = "\n".join(lines[i + 1 : i + 16])
                _classify_missing(nf.group("name"), following, context, diag)
            if pic := _PICTURE.search(msg):
                _add(diag.missing_figures, pic.group("name"))
            fm = _FONT_NOT_FOUND.search(msg)
            if fm:
                _add(diag.missing_fonts, (fm.group("font") or fm.group("font2") or "").strip())
            continue
        if _FATAL.search(line):
            diag.fatal = True
        if "(driver return code)" in line:
            diag.driver_failed = True
        if c := _CITATION.search(line):
            _add(diag.undefined_citations, c.group("key"))
        elif r := _REFERENCE.search(line):
            _add(diag.undefined_references, r.group("key"))
        elif _OVERFULL.match(line):
            diag.overfull_boxes += 1
        elif mc := _MISSING_CHAR.match(line):
            # nullfont: a consequence of a font that failed to load (reported
            # as a missing font), not a glyph gap of a working font.
            if mc.group("font").strip() != "nullfont":
                _add(diag.missing_characters, mc.group("char"))
        elif fm := _FONT_NOT_FOUND.search(line):
            _add(diag.missing_fonts, (fm.group("font") or fm.group("font2") or "").strip())
        if _RERUN.search(line):
            diag.rerun_requested = True
    for name in placeholder_figures:
        _add(diag.missing_figures, name)
    return diag


def _names(items: list[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


_KNOWN_ERRORS: tuple[tuple[str, str], ...] = (
    (
        "Undefined control sequence",
        "An unknown LaTeX command was used (a typo or a missing package)",
    ),
    ("Missing $ inserted", "A math symbol was used outside math mode"),
    ("Extra alignment tab", "A table row has more columns than the table declares"),
    (
        "File ended while scanning",
        "A definition or argument was never closed (often a % hiding a closing brace)",
    ),
    ("Runaway argument", "A brace was left open, so LaTeX read past the end of a command"),
    (
        "Extended mathchar used as mathchar",
        "A bold-math command is incompatible with the math font",
    ),
    ("Missing } inserted", "Braces are unbalanced"),
    ("Extra }", "Braces are unbalanced"),
    ("Environment", "An environment is not known (a typo or a missing package)"),
)


def _explain(err: TexError) -> str:
    where = f" on line {err.line}" if err.line else ""
    for needle, plain in _KNOWN_ERRORS:
        if needle in err.message:
            return f"{plain}{where}."
    return f"LaTeX reported an error{where}: {err.message.rstrip('.')}."


def humanize(diag: Diagnostics) -> list[str]:
    """One plain sentence plus one action per finding, most serious first."""
    out: list[str] = []
    if diag.fatal:
        out.append(
            "LaTeX stopped before finishing the PDF. Open the log or fix the first error below."
        )
    if diag.blocked_reads:
        out.append(
            f"The document asked to read files outside its folder ({_names(diag.blocked_reads)}), "
            "so no PDF was made. Copy those files next to the report or remove the references."
        )
    if diag.driver_failed:
        out.append(
            "The PDF writer (xdvipdfmx) failed, so the PDF is damaged or incomplete. "
            "Check the figures named below, or open the log."
        )
    if diag.missing_packages:
        n = len(diag.missing_packages)
        out.append(
            f"{_plural(n, 'TeX package is', 'TeX packages are')} missing: {_names(diag.missing_packages)}. "
            "Run `labwright doctor` to see how to install them."
        )
    if diag.missing_fonts:
        out.append(
            f"{_plural(len(diag.missing_fonts), 'font was', 'fonts were')} not found: {_names(diag.missing_fonts)}. "
            "Run `labwright doctor` to see which font package to install."
        )
    if diag.missing_characters:
        out.append(
            f"{_plural(len(diag.missing_characters), 'character has', 'characters have')} no glyph in the font "
            f"({_names(diag.missing_characters, 8)}) and print as blanks. "
            "Use the template for that language (--lang zh for Chinese text)."
        )
    if diag.missing_figures:
        out.append(
            f"{_plural(len(diag.missing_figures), 'figure is', 'figures are')} missing: {_names(diag.missing_figures)}. "
            "Add the files to the folder or remove the figure from the text."
        )
    if diag.missing_files:
        out.append(
            f"{_plural(len(diag.missing_files), 'input file was', 'input files were')} not found: "
            f"{_names(diag.missing_files)}. Remove the \\input line or add the file next to the report."
        )
    if diag.undefined_citations:
        out.append(
            f"{_plural(len(diag.undefined_citations), 'citation is', 'citations are')} undefined (shown as [?]): "
            f"{_names(diag.undefined_citations)}. Add the entries to the .bib file or remove the \\cite."
        )
    if diag.undefined_references:
        out.append(
            f"{_plural(len(diag.undefined_references), 'cross-reference has', 'cross-references have')} "
            f"no target (shown as ??): {_names(diag.undefined_references)}. "
            "Add the matching \\label or remove the \\ref."
        )
    # Errors already told above (missing file, picture or font) are not repeated,
    # and the same explanation is given once.
    sentences: list[str] = []
    for err in diag.errors:
        msg = err.message
        if _NOT_FOUND.search(msg) or _PICTURE.search(msg) or _FONT_NOT_FOUND.search(msg):
            continue
        if msg.startswith("Emergency"):
            continue
        sentence = _explain(err)
        if sentence not in sentences:
            sentences.append(sentence)
    for sentence in sentences[:5]:
        out.append(f"{sentence} Check that spot in the source, or ask for a repair.")
    if len(sentences) > 5:
        out.append(
            f"{len(sentences) - 5} further LaTeX errors follow. Open the log to see them all."
        )
    if diag.overfull_boxes:
        out.append(
            f"{_plural(diag.overfull_boxes, 'line sticks', 'lines stick')} out into the margin. "
            "Shorten long words, URLs or table columns if it matters."
        )
    return out
