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
_BIB_ENTRY = re.compile(r"@\s*([a-zA-Z]+)\s*[{(]\s*([^,\s]+)\s*,")


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
    return {
        key
        for kind, key in _BIB_ENTRY.findall(bib)
        if kind.lower() not in ("comment", "string", "preamble")
    }


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
