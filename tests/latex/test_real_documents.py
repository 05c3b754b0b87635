"""Robustness over real .tex files shipped with the TeX distribution.

No exception, every span inside the document, and as many heading nodes as
there are heading commands outside comments and verbatim -- counted here by an
independent, deliberately simple line-based method that shares no code with
the sectionizer (so a shared bug cannot hide itself).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from labwright.latex.sectionizer import sectionize
from labwright.latex.splice import apply_fragment, splice

_ROOTS = (Path("/usr/share/texlive"), Path("/usr/share/texmf"), Path("/usr/share/texmf-dist"))
_NAMED = ("sample2e.tex", "small2e.tex")

_VERBATIM = (
    "verbatim",
    "verbatim*",
    "Verbatim",
    "Verbatim*",
    "BVerbatim",
    "LVerbatim",
    "lstlisting",
    "minted",
    "comment",
    "filecontents",
    "filecontents*",
)
_BEGIN_VERBATIM = re.compile(r"\\begin\{(" + "|".join(re.escape(e) for e in _VERBATIM) + r")\}")
_INLINE = re.compile(
    r"\\verb\*?([^A-Za-z\s*]).*?(?:\1|$)"
    r"|\\(?:lstinline|mintinline)(?:\[[^\]]*\])?(?:\{[^}]*\})?(?:\{[^}]*\}|([^A-Za-z\s{\[]).*?(?:\2|$))"
)
_BRACED = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
_HEADING_CMD = re.compile(
    r"\\(?:chapter|section|subsection|subsubsection|paragraph|subparagraph)"
    r"(?![A-Za-z@])\s*\*?\s*(?:\[(?:[^\[\]{}]|" + _BRACED + r")*\]\s*)?\{"
)


def _strip_comment(line: str) -> str:
    """Cut at the first % preceded by an even number of backslashes."""
    i = line.find("%")
    while i >= 0:
        j = i
        while j > 0 and line[j - 1] == "\\":
            j -= 1
        if (i - j) % 2 == 0:
            return line[:i]
        i = line.find("%", i + 1)
    return line


def _code_lines(text: str) -> Iterator[str]:
    """Lines with comments, inline verbatim and verbatim environments removed."""
    verbatim_end: str | None = None
    for line in text.split("\n"):
        out: list[str] = []
        if "\\" not in line and "%" not in line and verbatim_end is None:
            yield line  # nothing to strip (the common case; keeps the test fast)
            continue
        rest = line
        while rest:
            if verbatim_end is not None:
                k = rest.find(verbatim_end)
                if k < 0:
                    break
                rest = rest[k + len(verbatim_end) :]
                verbatim_end = None
                continue
            code = _strip_comment(_INLINE.sub(" ", rest))
            m = _BEGIN_VERBATIM.search(code) if "\\begin" in code else None
            if m is None:
                out.append(code)
                break
            out.append(code[: m.start()])
            verbatim_end = "\\end{" + m.group(1) + "}"
            k = rest.find(m.group(0))
            rest = rest[k + len(m.group(0)) :] if k >= 0 else ""
        yield " ".join(out)


def count_heading_commands(text: str) -> int:
    """Independent count of the heading commands the sectionizer should find."""
    code = "\n".join(_code_lines(text))
    k = code.find("\\documentclass")
    first = _HEADING_CMD.search(code)
    if k >= 0 and (first is None or k < first.start()):  # a full document: only its body counts
        begin = code.find("\\begin{document}", k)
        if begin < 0:
            return 0
        end = code.find("\\end{document}", begin)
        code = code[begin : end if end >= 0 else len(code)]
    return sum(1 for m in _HEADING_CMD.finditer(code) if not _odd_backslashes(code, m.start()))


def _odd_backslashes(text: str, pos: int) -> bool:
    j = pos
    while j > 0 and text[j - 1] == "\\":
        j -= 1
    return (pos - j) % 2 == 1


def test_independent_counter_on_known_text() -> None:
    """The counter itself must be right, or the comparison proves nothing."""
    text = (
        "\\documentclass{article}\n\\section{not in body}\n\\begin{document}\n"
        "\\section{A} % \\section{comment}\n\\subsection*[s]{B}\n"
        "\\verb|\\section{x}| 50\\% \\\\section\n"
        "\\begin{verbatim}\n\\section{v}\n\\end{verbatim}\n\\chapter[{a{b}}]\n{C}\n"
        "\\end{document}\n\\section{after}\n"
    )
    assert count_heading_commands(text) == 3


def _tex_files() -> list[Path]:
    files: set[Path] = set()
    for root in _ROOTS:
        if root.is_dir():
            # resolve(): /usr/share/texmf is often a symlink into texlive's tree.
            files.update(p.resolve() for p in root.rglob("*.tex") if p.is_file())
    return sorted(files)


_FILES = _tex_files()


def _read(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@pytest.mark.skipif(
    not _FILES, reason="no TeX distribution sources under /usr/share on this machine"
)
def test_every_shipped_tex_file() -> None:
    failures: list[str] = []
    total_nodes = 0
    for path in _FILES:
        text = _read(path)
        result = sectionize(text)
        total_nodes += len(result.nodes)
        expected = count_heading_commands(text)
        if len(result.nodes) != expected:
            failures.append(f"{path}: {len(result.nodes)} nodes, {expected} heading commands")
        for node in result.all_nodes():
            if not (0 <= node.char_start < node.heading_end <= node.char_end <= len(text)):
                failures.append(f"{path}: {node.anchor} span {node.span} outside the text")
            # The span is what a scoped edit would replace: splicing it back is identity.
            if splice(text, node.char_start, node.char_end, node.text(text)) != text:
                failures.append(f"{path}: {node.anchor} splice identity broken")
    assert not failures, "\n".join(failures[:20])
    assert total_nodes > 0, "the distribution's sources contain headings; none were found"


@pytest.mark.skipif(
    not _FILES, reason="no TeX distribution sources under /usr/share on this machine"
)
def test_named_samples_when_present() -> None:
    named = [p for p in _FILES if p.name in _NAMED]
    if not named:
        pytest.skip(f"{' and '.join(_NAMED)} are not installed (texlive-latex-base-doc)")
    for path in named:
        text = _read(path)
        result = sectionize(text)
        assert result.editable
        assert len(result.nodes) == count_heading_commands(text)


_KOMA = [p for p in _FILES if "koma-script" in p.parts and p.suffix == ".tex"]


@pytest.mark.skipif(not _KOMA, reason="KOMA-Script documentation sources are not installed")
def test_koma_script_manual_chapters_are_editable() -> None:
    """The manual's chapter files (German and English) parse into real structure."""
    chapters = [p for p in _KOMA if re.search(r"\\chapter\b", _read(p))]
    assert chapters
    for path in chapters:
        result = sectionize(_read(path))
        assert result.editable, path
        assert result.top_level is not None and result.top_level <= 1, path


@pytest.mark.skipif(
    not _FILES, reason="no TeX distribution sources under /usr/share on this machine"
)
def test_the_gate_on_real_sections_is_identity_or_an_untouched_refusal() -> None:
    """apply_fragment of a node's own text: accepted unchanged, or refused untouched.

    Refusals are expected where a span is not self-contained (a section inside
    a group, or listing environments masking does not know); what must never
    happen is an accepted splice that changes the document.
    """
    accepted = 0
    for path in _FILES:
        text = _read(path)
        for node in sectionize(text).all_nodes():
            result = apply_fragment(text, node, node.text(text))
            assert result.content == text, f"{path}: {node.anchor}"
            accepted += result.ok
    assert accepted > 0
