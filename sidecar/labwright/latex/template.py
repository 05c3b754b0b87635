"""Fill the lab-report templates in knowledge/templates/.

The templates are real .tex files with slots written as a name in double angle
brackets (``<<title>>``). Filling is one regex pass, so a value that happens to
contain slot syntax is never expanded a second time. Values are LaTeX source:
callers escape plain text with `latex_escape` first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from labwright.resources import knowledge_path

Lang = Literal["en", "zh"]

CLASS_FILE = "labwright-report.cls"
#: The traced numbers' appendix the class reads at \end{document} when it lies
#: beside the document (agent/offline/appendix.py writes it).
NUMBERS_FILE = "labwright-numbers.tex"
_TEMPLATE_FILES: dict[str, str] = {"en": "report_en.tex", "zh": "report_zh.tex"}
_SLOT = re.compile(r"<<([a-z_]+)>>")

#: Every slot the templates carry. `title` and `body` are required; the rest
#: default to empty (an empty abstract prints nothing; an empty bibliography
#: emits no \bibliography command).
SLOTS: tuple[str, ...] = ("preamble", "title", "author", "date", "abstract", "body", "bibliography")
REQUIRED_SLOTS: frozenset[str] = frozenset({"title", "body"})

#: Style used when the `bibliography` slot names .bib files. unsrt is in every
#: TeX distribution and numbers entries in citation order, as lab reports do.
BIBLIOGRAPHY_STYLE = "unsrt"


class TemplateError(ValueError):
    """A template could not be filled (unknown language, unknown or missing slot)."""


def _check_lang(lang: str) -> str:
    if lang not in _TEMPLATE_FILES:
        raise TemplateError(f"No template for language {lang!r}; use 'en' or 'zh'.")
    return lang


def template_path(lang: Lang) -> Path:
    """The .tex template for `lang`."""
    return knowledge_path("templates", _TEMPLATE_FILES[_check_lang(lang)])


def template_files(lang: Lang) -> list[Path]:
    """Support files a rendered document needs beside it (copy them into the
    build directory or the Overleaf zip; the document itself is not included)."""
    _check_lang(lang)
    return [knowledge_path("templates", CLASS_FILE)]


def install_template_files(lang: Lang, out_dir: Path) -> None:
    """Put `template_files(lang)` into `out_dir`. A file already there with
    the same bytes is left alone, and a changed one is replaced in one step:
    a compile may already be reading the class (the offline writer starts
    XeLaTeX before the report is written, agent/offline/early.py), and must
    never see it truncated or find it rewritten under its snapshot."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for source in template_files(lang):
        data = source.read_bytes()
        target = out_dir / source.name
        try:
            if target.read_bytes() == data:
                continue
        except OSError:
            pass  # absent (or unreadable: replaced below)
        part = target.with_name(f".{target.name}.part")
        part.write_bytes(data)
        os.replace(part, target)


def bibliography_commands(bib_stems: str) -> str:
    """`\\bibliographystyle` + `\\bibliography` for comma-separated .bib stems."""
    stems = ",".join(s.strip().removesuffix(".bib") for s in bib_stems.split(",") if s.strip())
    if not stems:
        return ""
    return f"\\bibliographystyle{{{BIBLIOGRAPHY_STYLE}}}\n\\bibliography{{{stems}}}"


def fixed_head(lang: Lang) -> str:
    """The start of every document rendered for `lang`: the template's text
    before its first slot (the class line, which loads every package and
    font). A build can start typesetting it before the report is written.

    The class line ends in the class date (`{labwright-report}[2026/12/06]`):
    LaTeX's `\\documentclass` looks ahead for that optional argument, and
    without it would wait for the next line, which is not part of the head,
    so TeX would load nothing until the whole report had been written."""
    source = template_path(lang).read_text(encoding="utf-8")
    first = _SLOT.search(source)
    head = source if first is None else source[: first.start()]
    return head[: head.rfind("\n") + 1]  # whole lines only


def render_template(lang: Lang, fields: Mapping[str, str]) -> str:
    """Return the full .tex source of a report.

    `fields` maps slot names (see `SLOTS`) to LaTeX source. `bibliography` is
    special: give the .bib file name(s) without extension ("refs" or
    "refs,extra"); the style and \\bibliography commands are generated.
    Unknown slot names raise, so a typo never silently drops content.
    """
    unknown = set(fields) - set(SLOTS)
    if unknown:
        raise TemplateError(f"Unknown template slot(s): {', '.join(sorted(unknown))}.")
    missing = sorted(s for s in REQUIRED_SLOTS if not fields.get(s, "").strip())
    if missing:
        raise TemplateError(f"Required template slot(s) empty: {', '.join(missing)}.")
    values = {slot: fields.get(slot, "") for slot in SLOTS}
    values["bibliography"] = bibliography_commands(values["bibliography"])
    source = template_path(lang).read_text(encoding="utf-8")

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise TemplateError(
                f"Template {lang} has a slot {name!r} that render_template does not know."
            )
        return values[name]

    return _SLOT.sub(fill, source)


_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_ESCAPE_RE = re.compile("|".join(re.escape(c) for c in _ESCAPES))


def latex_escape(text: str) -> str:
    """Plain text (a file name, a quoted note) -> LaTeX that prints it verbatim."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], text)
