"""The model-path gate: every computed figure and table ends in the report,
and the template's preamble is kept.

A model's draft is prose around our numbers; it may forget the figures, write
its own tables, or bring its own preamble (`\\documentclass{article}` and a
package list). None of that may cost the report its computed content: this
gate compares the draft with the offline writer's report (the reference) and

- replaces the draft's preamble with the reference's (class, fonts, the
  \\lwfile/\\lwtext macros), keeping the draft's \\title and any
  \\usepackage of a package known to be installed with the template;
- puts back every figure float of the reference whose graphics file the
  draft does not include, in the section it belongs to (the draft's section
  of the same title, else the one that names the figure's data file, else the
  results section, else before the discussion or the end);
- puts back every table float of the reference whose caption the draft
  lacks, the same way;
- records why an item was left out (its file is missing).

Pure: text in, text and a record out. Deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_BEGIN_DOC = "\\begin{document}"
_END_DOC = "\\end{document}"
_FLOAT = re.compile(r"\\begin\{(figure|table)\*?\}.*?\\end\{\1\*?\}", re.S)
_INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_SECTION = re.compile(r"\\(section|subsection)\*?\s*\{")
_TITLE = re.compile(r"\\title\s*\{")
_USEPACKAGE = re.compile(r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_LWFILE = re.compile(r"\\lwfile\{((?:[^{}]|\{[^{}]*\})*)\}")
# Packages that come with the template's TeX installation (tinytex/packages.txt
# and Debian's texlive-latex-extra) and clash with nothing the class loads.
SAFE_PACKAGES = frozenset(
    "amssymb mathtools siunitx multirow array tabularx longtable threeparttable enumitem "
    "subcaption makecell bm".split()
)
_RESULTS_WORDS = ("result", "结果", "analysis", "分析", "data", "数据")
_LATE_WORDS = ("discussion", "conclusion", "讨论", "结论", "reference", "参考文献")


@dataclass
class GateOutcome:
    text: str
    restored: list[str] = field(default_factory=list)  # what was put back
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (item, why)
    preamble_replaced: bool = False

    def messages(self) -> list[str]:
        """One sentence per thing the gate did, for the run's log."""
        out = []
        if self.preamble_replaced:
            out.append("The draft's preamble was replaced by the template's.")
        if self.restored:
            out.append(
                f"{len(self.restored)} computed figure(s)/table(s) the draft left out were put back: "
                + ", ".join(self.restored[:10])
            )
        out += [f"{item} was left out because {why}." for item, why in self.left_out]
        return out


@dataclass(frozen=True)
class _Item:
    kind: str  # "figure" | "table"
    text: str
    key: str  # graphics stem (figure) or normalised caption (table)
    section: str  # enclosing \section title in the reference
    subsection: str  # enclosing \subsection title ("" when none)
    files: tuple[str, ...]  # data files named in it (\lwfile)
    graphics: tuple[str, ...]


def _braced(text: str, open_brace: int) -> tuple[str, int]:
    """Content of the group starting at `open_brace` ("{"), and the index after it."""
    depth = 0
    i = open_brace
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[open_brace + 1 : i], i + 1
        i += 1
    return text[open_brace + 1 :], len(text)


def _norm(text: str) -> str:
    text = re.sub(r"\\[a-zA-Z]+\*?", " ", text)
    return re.sub(r"[\s{}~$\\]+", " ", text).strip().lower()


def _sections(body: str) -> list[tuple[int, int, str, str]]:
    """(start of heading, level 1|2, title, raw) for each \\section/\\subsection."""
    out = []
    for m in _SECTION.finditer(body):
        title, _end = _braced(body, m.end() - 1)
        out.append((m.start(), 1 if m.group(1) == "section" else 2, title, m.group(0)))
    return out


def _caption(text: str) -> str:
    m = re.search(r"\\caption\s*\{", text)
    if not m:
        return ""
    cap, _ = _braced(text, m.end() - 1)
    return cap


def _stem(path: str) -> str:
    name = path.strip().rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def _items(reference_body: str) -> list[_Item]:
    secs = _sections(reference_body)
    items = []
    for m in _FLOAT.finditer(reference_body):
        section = subsection = ""
        for pos, level, title, _raw in secs:
            if pos > m.start():
                break
            if level == 1:
                section, subsection = title, ""
            else:
                subsection = title
        text = m.group(0)
        graphics = tuple(_INCLUDE.findall(text))
        kind = "figure" if m.group(1) == "figure" else "table"
        key = _stem(graphics[0]) if kind == "figure" and graphics else _norm(_caption(text))
        files = tuple(_LWFILE.findall(_caption(text)))
        items.append(_Item(kind, text, key, section, subsection, files, graphics))
    return items


def _split(doc: str) -> tuple[str, str, str]:
    """(preamble, body, tail) around \\begin{document} ... \\end{document}."""
    start = doc.find(_BEGIN_DOC)
    if start < 0:
        return "", doc, ""
    end = doc.rfind(_END_DOC)
    body_start = start + len(_BEGIN_DOC)
    if end < body_start:
        return doc[:start], doc[body_start:], ""
    return doc[:start], doc[body_start:end], doc[end + len(_END_DOC) :]


def _merge_preamble(reference: str, draft: str) -> str:
    """The reference's preamble with the draft's title and its safe packages.
    The template's comment lines are dropped: the model never saw them (its
    prompts carry documents without comments), and adding them back would
    shift every line number the compile-repair loop compares."""
    out = "".join(
        line for line in reference.splitlines(keepends=True) if not line.lstrip().startswith("%")
    )
    m = _TITLE.search(draft)
    if m:
        title, _ = _braced(draft, m.end() - 1)
        rm = _TITLE.search(out)
        if rm and title.strip():
            _old, end = _braced(out, rm.end() - 1)
            out = out[: rm.start()] + "\\title{" + title + "}" + out[end:]
    extra = []
    for pm in _USEPACKAGE.finditer(draft):
        names = [n.strip() for n in pm.group(1).split(",")]
        if all(n in SAFE_PACKAGES for n in names) and pm.group(0) not in out:
            extra.append(pm.group(0))
    if extra:
        out = out.rstrip("\n") + "\n" + "\n".join(dict.fromkeys(extra)) + "\n"
    return out


def _present(item: _Item, body: str) -> bool:
    if item.kind == "figure":
        included = {_stem(g) for g in _INCLUDE.findall(body)}
        return item.key in included
    if not item.key:
        return True
    captions = {_norm(_caption(m.group(0))) for m in _FLOAT.finditer(body)}
    return item.key in captions


def _insert_point(body: str, item: _Item) -> int:
    """Where in the draft's body `item` belongs: the end of its section."""
    secs = _sections(body)

    def end_of(i: int) -> int:
        level = secs[i][1]
        for pos, lvl, _t, _r in secs[i + 1 :]:
            if lvl <= level:
                return pos
        late = _late_start(body)
        return late if late is not None and late > secs[i][0] else len(body)

    wanted = [(item.subsection, 2), (item.section, 1)]
    for title, _level in wanted:
        if not title:
            continue
        for i, (_pos, _lvl, t, _raw) in enumerate(secs):
            if _norm(t) == _norm(title):
                return end_of(i)
    for name in item.files:
        plain = _norm(name)
        for i, (pos, _lvl, _t, _raw) in enumerate(secs):
            stop = end_of(i)
            if plain and plain in _norm(body[pos:stop]) and _lvl == 2:
                return stop
    for i, (_pos, lvl, t, _raw) in enumerate(secs):
        if lvl == 1 and any(w in t.lower() for w in _RESULTS_WORDS):
            return end_of(i)
    late = _late_start(body)
    return late if late is not None else len(body)


def _late_start(body: str) -> int | None:
    for pos, lvl, t, _raw in _sections(body):
        if lvl == 1 and any(w in t.lower() for w in _LATE_WORDS):
            return pos
    for marker in ("\\bibliography", "\\printbibliography", "\\begin{thebibliography}"):
        k = body.find(marker)
        if k >= 0:
            return k
    return None


def enforce(draft: str, reference: str, graphics_root: Path | None = None) -> GateOutcome:
    """The draft with the reference's preamble and every computed figure and
    table of the reference present."""
    ref_pre, ref_body, _ = _split(reference)
    pre, body, tail = _split(draft)
    outcome = GateOutcome(text=draft)
    if not ref_pre:
        return outcome  # no reference document: nothing to enforce
    new_pre = _merge_preamble(ref_pre, pre)
    outcome.preamble_replaced = new_pre.strip() != pre.strip()
    for item in _items(ref_body):
        if _present(item, body):
            continue
        if graphics_root is not None and item.graphics:
            missing = [g for g in item.graphics if not (graphics_root / g).is_file()]
            if missing:
                outcome.left_out.append(
                    (item.key, f"its graphics file {missing[0]} does not exist")
                )
                continue
        at = _insert_point(body, item)
        block = "\n" + item.text.strip() + "\n"
        body = body[:at].rstrip("\n") + "\n" + block + "\n" + body[at:].lstrip("\n")
        outcome.restored.append(item.graphics[0] if item.graphics else _caption(item.text)[:80])
    if "\\maketitle" not in body and "\\maketitle" in ref_body:
        body = "\n\\maketitle\n" + body
    outcome.text = new_pre + _BEGIN_DOC + "\n" + body.strip("\n") + "\n" + _END_DOC + (tail or "\n")
    return outcome
