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
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labwright.messages import Message, say, say_count

# Every pattern here runs in time linear in the line (issue 11: the earlier
# ones backtracked, ~0.1 s per 10,000-character line, and a 1.4 MB log took
# 25 s): literal prefixes, bounded or delimiter-stopped repeats, no two
# unbounded repeats that can trade characters. Lines are also capped at
# MAX_LINE characters (TeX wraps at max_print_line=10000 anyway).
_FILE_LINE_ERROR = re.compile(r"(?P<line>\d{1,9}): (?P<msg>.*)")
_FILE_EXT = (".tex", ".cls", ".sty", ".bbl", ".aux", ".def", ".cfg", ".fd", ".toc", ".ltx")
_CONTEXT_LINE = re.compile(r"l\.(\d{1,9}) ?(.*)")
_NOT_FOUND = re.compile(r"File `(?P<name>[^'\n]{1,500})' not found")
# The search above costs ~500 steps at every "File `" (a 10,000-character
# "! File `File `File `..." line took 18 ms, so a log of them outran the time
# budget by seconds before the next clock check; review of issue 11):
# _not_found() anchors on the closing "' not found" instead.
_NOT_FOUND_END = "' not found"
_GRAPHICS_HINT = "could not locate the file with any of these extensions"
_CITATION = re.compile(r"Citation [`'](?P<key>[^'\s]{1,300})' (?:on page [^\s]{1,20} )?undefined")
_REFERENCE = re.compile(r"Reference [`'](?P<key>[^'\s]{1,300})' on page [^\s]{1,20} undefined")
_MISSING_CHAR_PREFIX = "Missing character: There is no "
_MISSING_CHAR_CODE = re.compile(r" \((?:U\+|\")[0-9A-Fa-f]{1,8}\)$")
_PICTURE = re.compile(r"Unable to load picture or PDF file '(?P<name>[^'\n]{1,500})'")
_FONT_NOT_FOUND = re.compile(
    r'The font "(?P<font>[^"\n]{1,300})" cannot be\s{1,20}found|'
    r'Font \\?[^\s="]{1,100}="(?P<font2>[^"\n]{1,300})"(?: at [\d.]{1,12}pt)? not loadable'
)
_RERUN_PHRASES = (
    "Rerun to get", "Label(s) may have changed", "Please rerun LaTeX", "Rerun LaTeX",
    "Please (re)run BibTeX",
)  # fmt: skip
_FATAL_PREFIXES = ("! ==> Fatal error occurred", "!  ==> Fatal error occurred",
                   "*** (job aborted", "*** (cannot \\read", "! Emergency stop")  # fmt: skip
_PACKAGE_EXT = (".sty", ".cls", ".def", ".cfg", ".fd", ".clo", ".ldf", ".bst")
_IMAGE_EXT = (".png", ".jpg", ".jpeg", ".pdf", ".eps", ".bmp", ".gif", ".tif", ".tiff", ".svg")

#: Longest line the parser looks at; a longer one is read in pieces.
MAX_LINE = 10_000
#: At most this many of each kind of finding is kept (a 100 MB log of errors
#: must not become a 100 MB list); counts stay exact.
MAX_ITEMS = 200
DIAGNOSE_BUDGET_S = 30.0
_LOOKAHEAD = 16
_CHECK_EVERY = 512


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
    #: What the .xdv asked of the PDF driver that the gate refused
    #: (latex/specials.py); the driver was then not run.
    blocked_reads: list[str] = field(default_factory=list)
    #: All errors seen (``errors`` keeps the first MAX_ITEMS).
    error_total: int = 0
    #: The log was longer than the time budget allowed to read.
    truncated: bool = False
    lines_read: int = field(default=0, compare=False)
    # Set by compile (not read from the log): what the user must know about
    # the build itself, so that humanize() -- which every pipeline calls --
    # says it too.
    #: Input files the document overwrote while compiling (do not export).
    modified_inputs: list[str] = field(default_factory=list)
    stopped_by: str | None = None
    xelatex_passes: int = 0
    #: Commands the sanitizer removed (run programs / read outside files).
    removed_commands: int = 0
    #: Known pitfalls the sanitizer corrected.
    fixed_pitfalls: int = 0

    @property
    def error_count(self) -> int:
        return max(self.error_total, len(self.errors))

    @property
    def degraded(self) -> bool:
        """True when the PDF (if any) is not what the author wrote. Overfull
        boxes are cosmetic and do not count."""
        return bool(
            self.errors
            or self.fatal
            or self.driver_failed
            or self.blocked_reads
            or self.truncated
            or self.modified_inputs
            or self.missing_figures
            or self.missing_files
            or self.missing_packages
            or self.missing_fonts
            or self.missing_characters
            or self.undefined_citations
            or self.undefined_references
        )


def _add(items: list[str], value: str) -> None:
    if value not in items and len(items) < MAX_ITEMS:
        items.append(value)


def _classify_missing(name: str, following: str, context: str, diag: Diagnostics) -> None:
    lower = name.lower()
    if lower.endswith(_PACKAGE_EXT):
        _add(diag.missing_packages, name)
    elif lower.endswith(_IMAGE_EXT) or _GRAPHICS_HINT in following or "includegraphics" in context:
        _add(diag.missing_figures, name)
    else:
        _add(diag.missing_files, name)


def _not_found(msg: str) -> str | None:
    """The name in "File `NAME' not found", found in linear time: from each
    closing "' not found", back to the nearest "File `" (at most 500 chars)."""
    end = msg.find(_NOT_FOUND_END)
    while end >= 0:
        start = msg.rfind("File `", max(0, end - 506), end)
        if start >= 0:
            m = _NOT_FOUND.fullmatch(msg, start, end + len(_NOT_FOUND_END))
            if m:
                return m.group("name")
        end = msg.find(_NOT_FOUND_END, end + 1)
    return None


def _file_line_error(line: str) -> re.Match[str] | None:
    """`file.tex:12: message` (-file-line-error): split at the first colon
    instead of a regex over the file part (which backtracked)."""
    colon = line.find(":")
    if colon <= 0 or line[0].isspace() or not line[:colon].endswith(_FILE_EXT):
        return None
    return _FILE_LINE_ERROR.match(line, colon + 1)


def _missing_char(line: str) -> tuple[str, str] | None:
    """(character, font) from "Missing character: There is no X (U+58) in font F!"."""
    rest = line[len(_MISSING_CHAR_PREFIX) :]
    at = rest.find(" in font ")
    bang = rest.find("!", at + 1) if at >= 0 else -1
    if at < 0 or bang < 0:
        return None
    char = _MISSING_CHAR_CODE.sub("", rest[:at])
    return char, rest[at + len(" in font ") : bang]


class _Clock:
    def __init__(self, budget_s: float | None) -> None:
        self.deadline = None if budget_s is None else time.monotonic() + max(budget_s, 0.0)

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


def _scan(lines: Iterator[str], diag: Diagnostics, clock: _Clock) -> None:
    """One pass over the log, each line looked at with the next 16 in view."""
    window: deque[str] = deque()
    exhausted = False
    while True:
        while not exhausted and len(window) <= _LOOKAHEAD:
            nxt = next(lines, None)
            if nxt is None:
                exhausted = True
            else:
                window.append(nxt.rstrip()[:MAX_LINE])
        if not window:
            return
        line = window.popleft()
        diag.lines_read += 1
        # Long lines cost more each: look at the clock for every one of them.
        if (diag.lines_read % _CHECK_EVERY == 0 or len(line) > 1000) and clock.expired():
            diag.truncated = True
            return
        _look(line, window, diag)


def _look(line: str, following: deque[str], diag: Diagnostics) -> None:
    m = _file_line_error(line)
    bang = line.startswith("! ") if not m else False
    if m or bang:
        msg = (m.group("msg") if m else line[2:]).strip()
        if bang and msg.startswith("==> Fatal error"):
            diag.fatal = True
            return
        file = line[: line.find(":")] if m else None
        lineno = int(m.group("line")) if m else None
        context = ""
        for n, nxt in enumerate(following):
            if n >= 11:
                break
            lm = _CONTEXT_LINE.match(nxt)
            if lm:
                lineno = lineno or int(lm.group(1))
                context = lm.group(2).strip()
                break
        diag.error_total += 1
        if len(diag.errors) < MAX_ITEMS:
            diag.errors.append(TexError(msg, file, lineno, context))
        if msg.startswith("Emergency stop"):
            diag.fatal = True
        if (nf := _not_found(msg)) is not None:
            _classify_missing(nf, "\n".join(following), context, diag)
        if pic := _PICTURE.search(msg):
            _add(diag.missing_figures, pic.group("name"))
        fm = _FONT_NOT_FOUND.search(msg)
        if fm:
            _add(diag.missing_fonts, (fm.group("font") or fm.group("font2") or "").strip())
        return
    if line.startswith(_FATAL_PREFIXES) or "No pages of output" in line:
        diag.fatal = True
    if "(driver return code)" in line:
        diag.driver_failed = True
    if c := _CITATION.search(line):
        _add(diag.undefined_citations, c.group("key"))
    elif r := _REFERENCE.search(line):
        _add(diag.undefined_references, r.group("key"))
    elif line.startswith(("Overfull \\hbox", "Overfull \\vbox")):
        diag.overfull_boxes += 1
    elif line.startswith(_MISSING_CHAR_PREFIX):
        found = _missing_char(line)
        # nullfont: a consequence of a font that failed to load (reported
        # as a missing font), not a glyph gap of a working font.
        if found and found[1].strip() != "nullfont":
            _add(diag.missing_characters, found[0])
    elif fm := _FONT_NOT_FOUND.search(line):
        _add(diag.missing_fonts, (fm.group("font") or fm.group("font2") or "").strip())
    if any(p in line for p in _RERUN_PHRASES) or (
        "rerunfilecheck Warning: File " in line and " has changed" in line
    ):
        diag.rerun_requested = True


def _finish(diag: Diagnostics, placeholder_figures: Iterable[str]) -> Diagnostics:
    for name in placeholder_figures:
        _add(diag.missing_figures, name)
    return diag


def diagnose(
    log_text: str,
    *,
    placeholder_figures: Iterable[str] = (),
    budget_s: float | None = DIAGNOSE_BUDGET_S,
) -> Diagnostics:
    """Tally the problems in a XeLaTeX log.

    `placeholder_figures` are figures the sanitizer replaced by a framed
    placeholder before compiling: TeX never saw them missing, but the PDF
    lacks them, so they are reported like any other missing figure.
    """
    diag = Diagnostics()

    def pieces() -> Iterator[str]:
        for line in log_text.splitlines():
            for at in range(0, max(len(line), 1), MAX_LINE):
                yield line[at : at + MAX_LINE]

    _scan(pieces(), diag, _Clock(budget_s))
    return _finish(diag, placeholder_figures)


def diagnose_file(
    path: Path,
    *,
    placeholder_figures: Iterable[str] = (),
    budget_s: float | None = DIAGNOSE_BUDGET_S,
) -> Diagnostics:
    """diagnose() over a log file, streamed: memory stays at a few lines
    however large the file, and reading stops (``truncated``) when the
    time budget is spent."""
    diag = Diagnostics()
    try:
        handle = path.open(encoding="utf-8", errors="replace", newline=None)
    except FileNotFoundError:
        return _finish(diag, placeholder_figures)
    with handle:

        def pieces() -> Iterator[str]:
            while True:
                piece = handle.readline(MAX_LINE)
                if not piece:
                    return
                yield piece

        _scan(pieces(), diag, _Clock(budget_s))
    return _finish(diag, placeholder_figures)


def _names(items: list[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    if len(items) > limit:
        return say("list.more", items=shown, more=len(items) - limit)
    return shown


_KNOWN_ERRORS: tuple[tuple[str, str], ...] = (
    ("Undefined control sequence", "texerr.undefined_cs"),
    ("Missing $ inserted", "texerr.missing_dollar"),
    ("Extra alignment tab", "texerr.extra_tab"),
    ("File ended while scanning", "texerr.file_ended"),
    ("Runaway argument", "texerr.runaway"),
    ("Extended mathchar used as mathchar", "texerr.mathchar"),
    ("Missing } inserted", "texerr.braces"),
    ("Extra }", "texerr.braces"),
    ("Environment", "texerr.environment"),
)


def _explain(err: TexError) -> Message:
    """One sentence (with its action) for a LaTeX error, the same for the same cause."""
    where: str = say("tex.on_line", line=err.line) if err.line else ""
    for needle, key in _KNOWN_ERRORS:
        if needle in err.message:
            return say("tex.error_at", explanation=say(key), where=where)
    return say("tex.error_other", where=where, detail=err.message.rstrip("."))


def _build_messages(diag: Diagnostics) -> list[str]:
    """What compile knows about the build itself (not from the log)."""
    out: list[str] = []
    if diag.modified_inputs:
        out.append(say("tex.modified_inputs", names=_names(diag.modified_inputs)))
    if diag.stopped_by == "timeout":
        out.append(say("tex.timeout"))
    elif diag.stopped_by == "budget":
        out.append(say("tex.budget"))
    elif diag.stopped_by == "cap":
        out.append(say("tex.cap", passes=diag.xelatex_passes))
    if diag.removed_commands:
        out.append(say("tex.removed_commands", count=diag.removed_commands))
    if diag.fixed_pitfalls:
        out.append(say("tex.fixed_pitfalls", count=diag.fixed_pitfalls))
    if diag.truncated:
        out.append(say("tex.truncated_log", lines=diag.lines_read))
    return out


def _counted(key: str, items: list[str], limit: int = 5) -> Message:
    return say_count(key, len(items), names=_names(items, limit))


def humanize(diag: Diagnostics) -> list[str]:
    """One plain sentence plus one action per finding, most serious first
    (each a catalogued `Message`, labwright.messages.tex)."""
    out: list[str] = []
    if diag.fatal:
        out.append(say("tex.fatal"))
    if diag.blocked_reads:
        out.append(say("tex.blocked_reads", names=_names(diag.blocked_reads, 3)))
    out += _build_messages(diag)
    if diag.driver_failed:
        out.append(say("tex.driver_failed"))
    if diag.missing_packages:
        out.append(_counted("tex.missing_packages", diag.missing_packages))
    if diag.missing_fonts:
        out.append(_counted("tex.missing_fonts", diag.missing_fonts))
    if diag.missing_characters:
        out.append(_counted("tex.missing_characters", diag.missing_characters, 8))
    if diag.missing_figures:
        out.append(_counted("tex.missing_figures", diag.missing_figures))
    if diag.missing_files:
        out.append(_counted("tex.missing_files", diag.missing_files))
    if diag.undefined_citations:
        out.append(_counted("tex.undefined_citations", diag.undefined_citations))
    if diag.undefined_references:
        out.append(_counted("tex.undefined_references", diag.undefined_references))
    # Errors already told above (missing file, picture or font) are not repeated,
    # and the same explanation is given once.
    sentences: list[Message] = []
    for err in diag.errors:
        msg = err.message
        if _not_found(msg) is not None or _PICTURE.search(msg) or _FONT_NOT_FOUND.search(msg):
            continue
        if msg.startswith("Emergency"):
            continue
        sentence = _explain(err)
        if sentence not in sentences:
            sentences.append(sentence)
    out += sentences[:5]
    further = max(len(sentences) - 5, diag.error_count - len(diag.errors))
    if further > 0:
        out.append(say("tex.further_errors", count=further))
    if diag.overfull_boxes:
        out.append(say_count("tex.overfull", diag.overfull_boxes))
    return out
