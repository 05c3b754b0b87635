"""Deterministic clean-up of generated LaTeX before it is compiled.

Two jobs, both zero-token and pinned rule by rule in tests/latex/test_sanitize.py:

1. Strip command-execution primitives (`\\write18`, piped `\\input`, `\\directlua`,
   `\\ShellEscape`, `\\special`, and the disguises that are cheap to see:
   `\\catcode`/`\\lccode`/`\\uccode` changes, `^^` character codes, `\\scantokens`,
   `\\csname` whose name is built (holds a command, `\\string` or `\\empty`) or
   spells a primitive, `\\lowercase`/`\\uppercase` over a primitive's name,
   `\\let`-aliased primitives).

   The principle: this is the early, friendly error, not the guard. TeX can
   spell any primitive in ways no source regex follows (`\\expandafter`
   chains, macros defined elsewhere). The guards are below it: the engine
   runs without shell escape and with kpathsea's paranoid file access
   (compile.py), the PDF driver only sees specials that pass the .xdv
   allow-list (specials.py), and the OS confines the TeX processes
   (sandbox/tex.py). The security tests compile unsanitized payloads to check
   that those layers hold on their own.
2. A narrow catalog of known pits, each a rewrite that provably compiles:
   - `%` inside a `\\def` line's braces comments out the closing brace and
     the definition swallows the document ("File ended while scanning");
   - bold math under unicode-math: `\\boldsymbol`/`\\bm` raise "Extended
     mathchar used as mathchar", so bold math is written `\\symbf`;
   - bold inside a math accent (`\\hat{\\boldsymbol{x}}`, either nesting):
     drop the bold, keep the accent;
   - `\\includegraphics` of a file that is not there: a framed placeholder
     naming the missing figure, instead of an error and possibly a 0-page PDF.

Every rewrite is reported as a `Change` so the user and the log can see it.
Rules are narrow on purpose: a rule one notch too wide breaks legitimate input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from labwright.latex.cjk import with_cjk_fallback
from labwright.latex.template import latex_escape

GRAPHICS_EXTENSIONS = (".pdf", ".png", ".jpg", ".jpeg", ".eps")


@dataclass(frozen=True)
class Change:
    """One rewrite: which rule fired, on what, and on which source line."""

    rule: str
    detail: str
    line: int | None = None


@dataclass
class SanitizeResult:
    text: str
    changes: list[Change] = field(default_factory=list)

    @property
    def missing_figures(self) -> list[str]:
        return [c.detail for c in self.changes if c.rule == "missing-figure"]


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _braced_end(text: str, start: int) -> int:
    """Index just past the balanced group opening at `start` (a `{`), or the
    end of the line if it never closes (a stripped command must not leave a
    dangling half behind)."""
    depth = 0
    i = start
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
                return i + 1
        i += 1
    nl = text.find("\n", start)
    return len(text) if nl < 0 else nl


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


# --- 1. command execution ----------------------------------------------------

# Commands removed together with their braced argument.
# Removed with the braced argument that follows, if any. `\\write` counts
# only with stream 18 (the shell) written as a constant in any TeX base:
# 18, 0018, "12, '22, `\^^R; `\\write\\file` and `\\write16` (the log) stay.
_EXEC_WITH_ARG = re.compile(
    r"(?:\\immediate\s*)?\\write\s*(?P<num>\d+|\"[0-9A-Fa-f]+|'[0-7]+|`\\?(?:\^\^.|.))|"
    r"\\(?:ShellEscape|DelayedShellEscape|directlua|luaexec|latelua|luadirect|luacode)(?![A-Za-z@])"
)


def _tex_number(spec: str) -> int | None:
    try:
        if spec.startswith('"'):
            return int(spec[1:], 16)
        if spec.startswith("'"):
            return int(spec[1:], 8)
        if spec.startswith("`"):
            ch = spec[1:].lstrip("\\")
            if ch.startswith("^^") and len(ch) == 3:
                code = ord(ch[2])
                return code - 64 if code >= 64 else code + 64
            return ord(ch) if len(ch) == 1 else None
        return int(spec)
    except ValueError:
        return None


# Output-driver file access that kpathsea's paranoid mode does NOT cover:
# xdvipdfmx embeds whatever file a `\\special{pdf:fstream @x (/etc/passwd)}`
# names (measured: the bytes of /etc/passwd end up in the PDF), and XeTeX's
# picture primitives read images from any path. A document body has no
# business with either; graphicx's \\includegraphics is checked separately.
_SPECIAL = re.compile(r"\\special(?![A-Za-z@])")
_PICFILE = re.compile(
    r'\\XeTeX(?:pic|pdf)file(?![A-Za-z@])\s*(?:"[^"\n]*"|\{[^{}\n]*\}|[^\s{}\\]+)?'
)
# A pipe right after an input-like command: `\\input{|cmd}`, `\\input|"cmd"`,
# `\\openin3=|cmd`, `\\openout\\f="|cmd"`. The command and its file argument go.
_PIPE = re.compile(
    r"(?:\\immediate\s*)?\\(?:@@input|input|include|InputIfFileExists|IfFileExists|openin|openout)(?![A-Za-z@])"
    r"\s*(?:\\?[A-Za-z@]*\d*\s*=?\s*)?(?P<open>\{?)\s*\"?\|"
)
_CATCODE = re.compile(
    r"\\catcode(?![A-Za-z@])(?:\s*(?:`\\?.|\d+|\"[0-9A-Fa-f]+|'[0-7]+)\s*=?\s*\d+\s*(?:\\relax)?)?"
)
_HAT_CODES = re.compile(r"\^\^(?:[0-9a-f]{2}|[\x00-\x7f])?")
_PRIMITIVES = (
    "write", "directlua", "ShellEscape", "luaexec", "input", "@@input", "openin", "openout",
    "immediate", "special", "XeTeXpicfile", "XeTeXpdffile", "scantokens", "catcode", "lccode",
    "uccode", "latelua", "pdfliteral",
)  # fmt: skip
# A \csname ... \endcsname (or up to the end of the line when it never
# closes). Judged by _csname_danger: built from commands, or spelling, or
# starting to spell, a primitive.
_CSNAME = re.compile(
    r"\\csname(?![A-Za-z@])(?P<body>(?:(?!\\endcsname(?![A-Za-z@]))[^\n]){0,400})(?:\\endcsname(?![A-Za-z@]))?"
)
# Re-tokenising text, and case mapping of a primitive's name.
_SCANTOKENS = re.compile(r"\\scantokens(?![A-Za-z@])")
_CODE_CHANGE = re.compile(
    r"\\(?:lccode|uccode)(?![A-Za-z@])(?:\s*(?:`\\?.|\d+|\"[0-9A-Fa-f]+|'[0-7]+)\s*=?\s*(?:`\\?.|\d+|\"[0-9A-Fa-f]+|'[0-7]+))?"
)
_CASE_MAP = re.compile(r"\\(?:lowercase|uppercase)(?![A-Za-z@])\s*\{")
_LET_EXEC = re.compile(
    r"\\(?:global\s*)?\\?let\s*\\[A-Za-z@]+\s*=?\s*\\(?:write|immediate|directlua|ShellEscape|openin|openout|input|@@input|special|XeTeXpicfile|XeTeXpdffile)\b"
)


_MAX_ROUNDS = 8


def _strip_exec(text: str, changes: list[Change]) -> str:
    """Repeat until nothing changes: removing one match can join its
    neighbours into a new one (`\\wri\\write18{x}te18{y}` -> `\\write18{y}`).
    A text still changing after a few rounds is built to fight the sanitizer;
    every backslash is then neutralised so nothing of it can execute."""
    for _ in range(_MAX_ROUNDS):
        before = len(changes)
        text = _strip_exec_once(text, changes)
        if len(changes) == before:
            return text
    changes.append(
        Change("exec-primitive", "sanitizer did not converge; all commands disabled", None)
    )
    return text.replace("\\", "\\textbackslash{}")


def _csname_danger(body: str) -> bool:
    """A \\csname name is suspicious when it is built (any backslash, `^^`,
    brace or `#` inside) or when its letters spell a primitive or the start of
    one (`\\csname spec\\endcsname` completed by what follows)."""
    if re.search(r"[\\{}#^]", body):
        return True
    letters = re.sub(r"\s+", "", body)
    if not letters:
        return False
    low = letters.lower()
    return any(
        p.lower() in low or (len(low) >= 3 and p.lower().startswith(low)) for p in _PRIMITIVES
    )


def _strip_csnames(text: str, changes: list[Change]) -> str:
    def repl(m: re.Match[str]) -> str:
        if not _csname_danger(m.group("body")):
            return m.group(0)
        changes.append(
            Change(
                "exec-primitive",
                f"\\csname-built name: {m.group(0)[:60]!r}",
                _line_of(text, m.start()),
            )
        )
        return ""

    return _CSNAME.sub(repl, text)


def _strip_case_maps(text: str, changes: list[Change]) -> str:
    """\\lowercase{...}/\\uppercase{...} whose argument names a primitive in
    any case (`\\lowercase{\\SPECIAL}`) go, with their argument."""
    out: list[str] = []
    pos = 0
    for m in _CASE_MAP.finditer(text):
        if m.start() < pos:
            continue
        end = _braced_end(text, m.end() - 1)
        arg = text[m.end() : end].lower()
        if not any(p.lower() in arg for p in _PRIMITIVES):
            continue
        changes.append(
            Change("exec-primitive", f"case-mapped primitive: {text[m.start():end][:60]!r}",
                   _line_of(text, m.start()))
        )  # fmt: skip
        out.append(text[pos : m.start()])
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _strip_exec_once(text: str, changes: list[Change]) -> str:
    # Disguises first, so the primitives they spell become visible or inert.
    for rule_re, what in (
        (_HAT_CODES, "^^ character code"),
        (_CATCODE, "\\catcode change"),
        (_CODE_CHANGE, "\\lccode/\\uccode change"),
        (_SCANTOKENS, "\\scantokens"),
        (_LET_EXEC, "\\let alias of a primitive"),
    ):
        text = _remove_all(text, rule_re, changes, "exec-primitive", what)
    text = _strip_csnames(text, changes)
    text = _strip_case_maps(text, changes)
    text = _strip_pipes(text, changes)
    text = _remove_all(text, _PICFILE, changes, "file-primitive", "XeTeX picture primitive")
    text = _strip_braced(text, _SPECIAL, changes, "file-primitive")
    out: list[str] = []
    pos = 0
    at = 0
    while (m := _EXEC_WITH_ARG.search(text, at)) is not None:
        # A \write to another stream is skipped one character on, not past
        # its "number": `\write`\write18` hides a \write18 in that number.
        at = m.start() + 1
        if m.group("num") is not None and _tex_number(m.group("num")) != 18:
            continue
        end = m.end()
        brace = _skip_ws(text, end)
        if brace < len(text) and text[brace] == "{":
            end = _braced_end(text, brace)
        at = end
        out.append(text[pos : m.start()])
        changes.append(Change("exec-primitive", m.group(0).strip(), _line_of(text, m.start())))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _strip_braced(text: str, rx: re.Pattern[str], changes: list[Change], rule: str) -> str:
    """Remove each match of `rx` together with the braced group that follows it."""
    out: list[str] = []
    pos = 0
    for m in rx.finditer(text):
        if m.start() < pos:
            continue
        brace = _skip_ws(text, m.end())
        end = _braced_end(text, brace) if text[brace : brace + 1] == "{" else m.end()
        changes.append(Change(rule, text[m.start() : end][:60], _line_of(text, m.start())))
        out.append(text[pos : m.start()])
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _strip_pipes(text: str, changes: list[Change]) -> str:
    out: list[str] = []
    pos = 0
    for m in _PIPE.finditer(text):
        if m.start() < pos:
            continue
        if m.group("open"):
            end = _braced_end(text, m.start("open"))
        else:  # unbraced file name: up to a closing quote, else the next blank
            end = m.end()
            if text[m.end() - 2 : m.end() - 1] == '"':
                stop = text.find('"', end)
            elif text[end : end + 1] == '"':
                stop = text.find('"', end + 1)
            else:
                stop = -1
            if stop >= 0:
                end = stop + 1
            else:
                while end < len(text) and not text[end].isspace():
                    end += 1
        out.append(text[pos : m.start()])
        changes.append(
            Change(
                "exec-primitive",
                f"piped input/output: {text[m.start() : end][:60]!r}",
                _line_of(text, m.start()),
            )
        )
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _remove_all(text: str, rx: re.Pattern[str], changes: list[Change], rule: str, what: str) -> str:
    def drop(m: re.Match[str]) -> str:
        changes.append(Change(rule, f"{what}: {m.group(0)[:60]!r}", _line_of(text, m.start())))
        return ""

    return rx.sub(drop, text)


def strip_exec(text: str) -> SanitizeResult:
    """Only the exec/file rules (for text that is not a document body, such
    as a .bbl built from a .bib in the data folder)."""
    changes: list[Change] = []
    return SanitizeResult(_strip_exec(text, changes), changes)


#: Rules that removed something that runs programs or reads files.
EXEC_RULES = frozenset({"exec-primitive", "file-primitive"})
#: Rules that corrected a known LaTeX pitfall.
PITFALL_RULES = frozenset({"def-comment", "bold-math", "bold-in-accent"})


# --- 2a. % inside a \def line ----------------------------------------------

_DEF_LINE = re.compile(r"^\s*\\(?:[gex]?def|newcommand|renewcommand|providecommand)\b")


def _fix_def_comment(line: str) -> str | None:
    """`\\def\\x{value % note}` -> `\\def\\x{value }% note}`. Only when the
    braces would balance on this line if the % were not a comment: the
    multi-line `\\def\\x{%` idiom (nothing closes on the line) stays as it is."""
    depth = 0
    i = 0
    pct = -1
    depth_at_pct = 0
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "%" and pct < 0:
            pct, depth_at_pct = i, depth
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        i += 1
    if pct < 0 or depth_at_pct <= 0 or depth > 0:
        return None
    return line[:pct] + "}" * depth_at_pct + line[pct:]


def _fix_def_comments(text: str, changes: list[Change]) -> str:
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if _DEF_LINE.match(line) and "%" in line:
            fixed = _fix_def_comment(line)
            if fixed is not None:
                lines[n] = fixed
                changes.append(Change("def-comment", line.strip()[:80], n + 1))
    return "\n".join(lines)


# --- 2b/2c. bold math ----------------------------------------------------------

_ACCENTS = (
    r"(?:hat|widehat|tilde|widetilde|bar|overline|vec|dot|ddot|check|breve|acute|grave|mathring)"
)
_BOLDS = r"(?:mathbf|boldsymbol|bm|symbf|mathbfit|pmb)"
# \hat{\boldsymbol{x}} -> \hat{x}
_ACCENT_OUTER = re.compile(r"\\(" + _ACCENTS + r")\s*\{\s*\\" + _BOLDS + r"\s*\{([^{}]*)\}\s*\}")
_ACCENT_OUTER_BARE = re.compile(r"\\(" + _ACCENTS + r")\s*\\" + _BOLDS + r"\s*\{([^{}]*)\}")
# \boldsymbol{\hat{x}} / \boldsymbol{\hat x} -> \hat{x}
_ACCENT_INNER = re.compile(
    r"\\"
    + _BOLDS
    + r"\s*\{\s*\\("
    + _ACCENTS
    + r")\s*(?:\{([^{}]*)\}|\s*([^\s{}\\]|\\[A-Za-z]+))\s*\}"
)
_BOLD_MATH = re.compile(r"\\(mathbf|boldsymbol|bm)(?![A-Za-z@])")
_UNICODE_MATH = re.compile(
    r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{[^}]*\bunicode-math\b[^}]*\}|\\documentclass\s*(?:\[[^\]]*\])?\s*\{labwright-report\}"
)


def _fix_bold_accents(text: str, changes: list[Change]) -> str:
    def outer(m: re.Match[str]) -> str:
        changes.append(Change("bold-in-accent", m.group(0), _line_of(text, m.start())))
        return f"\\{m.group(1)}{{{m.group(2)}}}"

    def inner(m: re.Match[str]) -> str:
        changes.append(Change("bold-in-accent", m.group(0), _line_of(text, m.start())))
        arg = m.group(2) if m.group(2) is not None else m.group(3)
        return f"\\{m.group(1)}{{{arg}}}"

    text = _ACCENT_OUTER.sub(outer, text)
    text = _ACCENT_OUTER_BARE.sub(outer, text)
    return _ACCENT_INNER.sub(inner, text)


def _fix_bold_math(text: str, changes: list[Change]) -> str:
    # Leave package loading and definitions of these names alone.
    def repl(m: re.Match[str]) -> str:
        before = text[max(0, m.start() - 40) : m.start()]
        if re.search(
            r"\\(?:re)?newcommand\s*\{?\s*$|\\(?:let|def)\s*$|\\providecommand\s*\{?\s*$", before
        ):
            return m.group(0)
        changes.append(Change("bold-math", f"\\{m.group(1)} -> \\symbf", _line_of(text, m.start())))
        return "\\symbf"

    return _BOLD_MATH.sub(repl, text)


# --- 2d. missing figures ----------------------------------------------------

_INCLUDEGRAPHICS = re.compile(r"\\includegraphics\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_CHINESE_DOC = re.compile(
    r"\\documentclass\s*\[[^\]]*\bzh\b|\{ctex|\\usepackage\s*(?:\[[^\]]*\])?\s*\{[^}]*\b(?:ctex|xeCJK)\b"
)


_GRAPHICSPATH = re.compile(r"\\graphicspath\s*\{((?:\s*\{[^{}]*\})+)\s*\}")


def _graphics_dirs(text: str) -> list[str]:
    """ "" plus every directory named in \\graphicspath{{a/}{b/}} (graphicx looks there too)."""
    dirs = [""]
    for m in _GRAPHICSPATH.finditer(text):
        dirs += re.findall(r"\{([^{}]*)\}", m.group(1))
    return dirs


def _figure_exists(root: Path, name: str, dirs: list[str]) -> bool:
    rel = Path(name.strip())
    if rel.is_absolute() or ".." in rel.parts:
        return False  # the engine may not read it anyway (paranoid mode)
    candidates = [rel] if rel.suffix.lower() in GRAPHICS_EXTENSIONS else []
    candidates += [rel.with_name(rel.name + ext) for ext in GRAPHICS_EXTENSIONS]
    for d in dirs:
        base = Path(d) if d else Path()
        if base.is_absolute() or ".." in base.parts:
            continue
        if any((root / base / c).is_file() for c in candidates):
            return True
    return False


def placeholder_box(name: str, chinese: bool = False) -> str:
    """A framed box the size of a small figure that names the missing file."""
    shown = f"\\texttt{{{latex_escape(name)}}}"
    if chinese:
        msg = f"缺少图片：{shown}\\\\ 请提供该文件，或删除此处的引用。"
    else:
        msg = f"Figure not provided: {shown}\\\\ Supply the file or remove this reference."
    return f"\\fbox{{\\parbox[c][0.18\\textheight][c]{{0.8\\linewidth}}{{\\centering {msg}}}}}"


def _placeholder_missing(text: str, root: Path, changes: list[Change]) -> str:
    chinese = bool(_CHINESE_DOC.search(text))
    dirs = _graphics_dirs(text)

    def repl(m: re.Match[str]) -> str:
        name = m.group(1).strip()
        if _figure_exists(root, name, dirs):
            return m.group(0)
        changes.append(Change("missing-figure", name, _line_of(text, m.start())))
        return placeholder_box(name, chinese)

    return _INCLUDEGRAPHICS.sub(repl, text)


# --- entry point -------------------------------------------------------------


def sanitize(
    text: str,
    *,
    graphics_root: Path | None = None,
    unicode_math: bool | None = None,
) -> SanitizeResult:
    """Return the cleaned text and the list of changes.

    `graphics_root`: the directory the document will compile in; without it
    the missing-figure rule is skipped. `unicode_math`: whether the document
    uses unicode-math (default: detected from its preamble, and true for the
    labwright-report class, which loads it).

    A document whose text has CJK characters but whose preamble loads no CJK
    font gets one (`cjk.with_cjk_fallback`); that is no change of the
    author's text, so it is not listed."""
    changes: list[Change] = []
    steps: list[Callable[[str, list[Change]], str]] = [
        _strip_exec,
        _fix_def_comments,
        _fix_bold_accents,
    ]
    if unicode_math if unicode_math is not None else bool(_UNICODE_MATH.search(text)):
        steps.append(_fix_bold_math)
    for step in steps:
        text = step(text, changes)
    if graphics_root is not None:
        text = _placeholder_missing(text, graphics_root, changes)
    return SanitizeResult(with_cjk_fallback(text), changes)
