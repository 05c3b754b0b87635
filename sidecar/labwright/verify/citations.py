"""Citation closure: every \\cite key must resolve to an entry in the .bib."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from labwright.verify.texts import strip_comments

# \cite, \citep, \citet, \parencite, \textcite, \autocite, \nocite, with an
# optional star and up to two optional arguments before the key list.
_CITE = re.compile(
    r"\\(?:no|paren|text|auto|foot)?cite[a-zA-Z]*\*?(?:\s*\[[^\]]*\]){0,2}\s*\{([^}]*)\}"
)


def cite_keys(tex: str) -> list[str]:
    """Cited keys in order of first appearance (comments ignored, `*` of \\nocite dropped)."""
    seen: dict[str, None] = {}
    for match in _CITE.finditer(strip_comments(tex)):
        for key in match.group(1).split(","):
            key = key.strip()
            if key and key != "*":
                seen.setdefault(key, None)
    return list(seen)


def bib_keys(bib: str) -> set[str]:
    """Entry keys of a BibTeX file (@comment, @string and @preamble are not entries)."""
    from labwright.verify.bibtex import entry_keys

    return entry_keys(bib)


def remove_citations(tex: str, keys: set[str]) -> str:
    """The text without citations of `keys`: a key leaves its command's list, and a
    command left with none goes, with the ``~`` or space that tied it to the word."""
    if not keys:
        return tex

    def drop(match: re.Match[str]) -> str:
        kept = [k for k in match.group(1).split(",") if k.strip() and k.strip() not in keys]
        if kept:
            inner = match.group(0)[: match.start(1) - match.start(0)]
            return inner + ",".join(kept) + "}"
        return ""

    out: list[str] = []
    position = 0
    for match in _CITE.finditer(tex):
        if not any(k.strip() in keys for k in match.group(1).split(",")):
            continue
        replacement = drop(match)
        start = match.start()
        if not replacement:
            while start > position and tex[start - 1] in "~ \t":
                start -= 1
        out.append(tex[position:start])
        out.append(replacement)
        position = match.end()
    out.append(tex[position:])
    return "".join(out)


@dataclass
class CitationReport:
    cited: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def closed(self) -> bool:
        return not self.missing


def citation_closure(tex: str, bib: str) -> CitationReport:
    cited = cite_keys(tex)
    available = bib_keys(bib)
    return CitationReport(cited=cited, missing=[k for k in cited if k not in available])
