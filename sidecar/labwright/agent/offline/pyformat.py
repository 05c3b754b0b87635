"""Generated Python laid out the way `ruff format` lays it out (issue 23: the
compendium's script must pass `ruff format --check`), without ruff.

The script is written at build time, by the frozen app too, which carries no
ruff; so the generator emits formatted code itself. This module covers what
the compendium's blocks emit, not Python at large:

- string quotes: double, unless that takes more escapes (black's rule; an
  f-string holding a double quote keeps its quotes);
- a logical line over 88 columns is split at its last bracket pair whose
  head fits ("right-hand split"); a body that still does not fit is split at
  its commas, one element per line with a trailing comma (which `ruff
  format` keeps: a magic trailing comma), or before its operators of
  lowest binding (`for`/`if` of a comprehension, a conditional, `and`/`or`,
  comparisons, arithmetic); an assignment or `return` whose right-hand side
  has several operators at its top level is wrapped in parentheses first,
  as black does;
- a line continued over several physical lines (a generator's template) is
  joined first and laid out anew, unless a comment sits inside it;
- a trailing comment that makes its line too long moves onto its own line
  above the statement;
- blank lines: two around top-level definitions, one around nested ones,
  at most two at the top level and one inside blocks, none at the start of
  a block.

A line it cannot lay out (a method chain, a long `def`) is left as it was:
the tests run ruff itself on every example's script, so such a line fails
there, never silently in a user's export.
"""

from __future__ import annotations

import io
import re
import tokenize
import unicodedata
from dataclasses import dataclass

LINE_LENGTH = 88
INDENT = "    "

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}
#: Delimiter priorities (black's): a body is split at its highest one.
_COMPREHENSION = 20
_COMMA = 18
_TERNARY = 16
_LOGIC = 14
_COMPARATOR = 10
_DOT = 1
_MATH = {"|": 9, "^": 8, "&": 7, "<<": 6, ">>": 6, "+": 5, "-": 5,
         "*": 4, "/": 4, "//": 4, "%": 4, "@": 4}  # fmt: skip
_COMPARATORS = {"<", ">", "==", "!=", "<=", ">="}


@dataclass
class _Tok:
    type: int
    text: str
    row: int  # physical row of its start (for the original spacing)
    col: int
    end_row: int
    end_col: int


def width(text: str) -> int:
    """Columns `text` takes in a terminal (and for ruff): East Asian wide and
    full-width characters take two, combining marks none."""
    n = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


# --- strings -------------------------------------------------------------------------


def _prefix_len(s: str) -> int:
    i = 0
    while i < len(s) and s[i] in "rbfuRBFU":
        i += 1
    return i


def normalize_quotes(s: str) -> str:
    """A string literal in double quotes when that takes no more escapes."""
    p = _prefix_len(s)
    prefix, body = s[:p], s[p:]
    if body.startswith(("'''", '"""')):
        return (
            prefix + '"""' + body[3:-3] + '"""'
            if body.startswith("'''") and '"' not in body[3:-3]
            else s
        )
    if body.startswith('"'):
        return s
    inner = body[1:-1]
    if "f" in prefix.lower() and '"' in inner:
        # Before Python 3.12 a replacement field cannot hold the outer quote:
        # ruff turns the fields' "k" into 'k' when the text outside them has
        # no quote, and leaves the string as it is otherwise.
        flipped = _flip_fields(inner)
        return s if flipped is None else prefix + '"' + flipped + '"'
    if "r" in prefix.lower():
        return s if '"' in inner else prefix + '"' + inner + '"'
    # Unescape \' and escape " (black's normalize_string_quotes, simplified to
    # the cases a repr() or a template writes).
    new = re.sub(r"(?<!\\)((?:\\\\)*)\\'", r"\1'", inner)
    new = re.sub(r'(?<!\\)((?:\\\\)*)"', r'\1\\"', new)
    if new.count("\\") > inner.count("\\"):
        return s
    return prefix + '"' + new + '"'


def _flip_fields(inner: str) -> str | None:
    """An f-string's body with the double quotes of its replacement fields
    made single, or None when a quote stands outside a field (or a field
    holds a single quote or a backslash)."""
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(inner):
        ch = inner[i]
        if depth == 0 and inner.startswith(("{{", "}}"), i):
            out.append(inner[i : i + 2])
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and ch in "'\"":
            return None
        elif depth and (ch == "'" or ch == "\\"):
            return None
        elif depth and ch == '"':
            ch = "'"
        out.append(ch)
        i += 1
    return "".join(out)


# --- tokens --------------------------------------------------------------------------


@dataclass
class _Statement:
    indent: str
    tokens: list[_Tok]  # without NL/NEWLINE/INDENT/DEDENT and without the trailing comment
    comment: str | None  # a trailing comment
    source: list[str]  # its physical lines as written
    inner_comments: bool  # a comment inside a bracket: left as written


@dataclass
class _Comment:
    indent: str
    text: str


@dataclass
class _Blank:
    pass


_Item = _Statement | _Comment | _Blank


def _merge_fstrings(tokens: list[tokenize.TokenInfo], lines: list[str]) -> list[tokenize.TokenInfo]:
    """Python 3.12 tokenizes an f-string in parts: one token of its source again."""
    start = getattr(tokenize, "FSTRING_START", None)
    end = getattr(tokenize, "FSTRING_END", None)
    if start is None:
        return tokens
    out: list[tokenize.TokenInfo] = []
    depth = 0
    first: tokenize.TokenInfo | None = None
    for t in tokens:
        if t.type == start:
            if depth == 0:
                first = t
            depth += 1
            continue
        if depth:
            if t.type == end:
                depth -= 1
                if depth == 0 and first is not None:
                    text = _slice(lines, first.start, t.end)
                    out.append(tokenize.TokenInfo(tokenize.STRING, text, first.start, t.end, ""))
            continue
        out.append(t)
    return out


def _slice(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    (r0, c0), (r1, c1) = start, end
    if r0 == r1:
        return lines[r0 - 1][c0:c1]
    return lines[r0 - 1][c0:] + "".join(lines[r0 : r1 - 1]) + lines[r1 - 1][:c1]


def _items(source: str) -> list[_Item]:
    lines = source.splitlines(keepends=True)
    raw = list(tokenize.generate_tokens(io.StringIO(source).readline))
    raw = _merge_fstrings(raw, lines)
    items: list[_Item] = []
    current: list[tokenize.TokenInfo] = []
    depth = 0
    for t in raw:
        if t.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER, tokenize.ENCODING):
            continue
        if t.type == tokenize.NL and not current:
            # A blank line, or the end of a comment-only line.
            continue
        if t.type == tokenize.COMMENT and not current:
            items.append(_Comment(lines[t.start[0] - 1][: t.start[1]], t.string))
            continue
        if t.type == tokenize.NL:
            continue
        if t.type == tokenize.OP and t.string in _OPEN:
            depth += 1
        elif t.type == tokenize.OP and t.string in _CLOSE:
            depth -= 1
        if t.type == tokenize.NEWLINE:
            items.append(_statement(current, lines))
            current = []
            continue
        current.append(t)
    if current:
        items.append(_statement(current, lines))
    # Blank lines: where two items are separated by empty physical lines.
    out: list[_Item] = []
    last_row = 0
    rows = _rows(raw)
    for item, (first, last) in zip(items, rows, strict=True):
        blank = first - last_row - 1
        if last_row and blank > 0:
            out.extend(_Blank() for _ in range(blank))
        out.append(item)
        last_row = last
    return out


def _rows(raw: list[tokenize.TokenInfo]) -> list[tuple[int, int]]:
    """(first, last) physical row of each item `_items` makes, in order."""
    out: list[tuple[int, int]] = []
    current: list[tokenize.TokenInfo] = []
    for t in raw:
        if t.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER, tokenize.ENCODING):
            continue
        if t.type == tokenize.NL and not current:
            continue
        if t.type == tokenize.COMMENT and not current:
            out.append((t.start[0], t.start[0]))
            continue
        if t.type == tokenize.NL:
            continue
        if t.type == tokenize.NEWLINE:
            out.append((current[0].start[0], t.start[0]))
            current = []
            continue
        current.append(t)
    if current:
        out.append((current[0].start[0], current[-1].end[0]))
    return out


def _statement(tokens: list[tokenize.TokenInfo], lines: list[str]) -> _Statement:
    first = tokens[0]
    indent = lines[first.start[0] - 1][: first.start[1]]
    comment = None
    if tokens[-1].type == tokenize.COMMENT:
        comment = tokens[-1].string
        tokens = tokens[:-1]
    inner = any(t.type == tokenize.COMMENT for t in tokens)
    toks = [
        _Tok(t.type, normalize_quotes(t.string) if t.type == tokenize.STRING else t.string,
             t.start[0], t.start[1], t.end[0], t.end[1])
        for t in tokens
    ]  # fmt: skip
    source = [ln.rstrip("\n") for ln in lines[first.start[0] - 1 : tokens[-1].end[0]]]
    return _Statement(indent, toks, comment, source, inner)


# --- rendering -----------------------------------------------------------------------


def _gap(a: _Tok, b: _Tok, lines_gap: str | None) -> str:
    """The space between two tokens: as written on one physical line, else
    black's at a join (none inside brackets' edges and before a comma)."""
    if lines_gap is not None:
        return lines_gap
    if a.text in _OPEN or b.text in _CLOSE or b.text in (",", ":", ".") or a.text == ".":
        return ""
    return " "


def _render(tokens: list[_Tok], src: dict[int, str]) -> str:
    out: list[str] = []
    for i, t in enumerate(tokens):
        if i:
            p = tokens[i - 1]
            same = p.end_row == t.row and p.end_row in src
            gap = src[t.row][p.end_col : t.col] if same else None
            # A string whose quotes changed keeps its neighbours' spacing.
            out.append(_gap(p, t, gap if gap is not None and gap.strip() == "" else None))
        out.append(t.text)
    return "".join(out)


def _fits(indent: str, text: str) -> bool:
    return width(indent) + width(text) <= LINE_LENGTH


def _pairs(tokens: list[_Tok]) -> dict[int, int]:
    """Index of each opening bracket -> index of its closing bracket."""
    stack: list[int] = []
    out: dict[int, int] = {}
    for i, t in enumerate(tokens):
        if t.type == tokenize.OP and t.text in _OPEN:
            stack.append(i)
        elif t.type == tokenize.OP and t.text in _CLOSE and stack:
            out[stack.pop()] = i
    return out


def _is_call_or_subscript(tokens: list[_Tok], i: int) -> bool:
    """The bracket at `i` follows a name, a string or a closing bracket."""
    if i == 0:
        return False
    p = tokens[i - 1]
    if p.type == tokenize.NAME and p.text not in _KEYWORDS:
        return True
    return p.type == tokenize.STRING or (p.type == tokenize.OP and p.text in _CLOSE)


_KEYWORDS = {"in", "not", "and", "or", "is", "if", "else", "for", "return", "lambda", "yield",
             "await", "assert", "del", "print", "with", "as", "from", "import", "elif", "while"}  # fmt: skip


def _magic(tokens: list[_Tok]) -> bool:
    """A trailing comma before a closing bracket that `ruff format` keeps
    exploded: any but that of a one-element tuple or subscript."""
    pairs = _pairs(tokens)
    for o, c in pairs.items():
        if c - 1 <= o or tokens[c - 1].text != ",":
            continue
        inner = tokens[o + 1 : c - 1]
        commas = _top_level(inner, ",")
        if tokens[o].text == "(" and not _is_call_or_subscript(tokens, o) and not commas:
            continue  # (x,) is a tuple, not a magic comma
        if tokens[o].text == "[" and _is_call_or_subscript(tokens, o) and not commas:
            continue  # x[a,] is a subscript of a tuple
        return True
    return False


def _top_level(tokens: list[_Tok], text: str) -> list[int]:
    depth = 0
    out = []
    for i, t in enumerate(tokens):
        if t.type == tokenize.OP and t.text in _OPEN:
            depth += 1
        elif t.type == tokenize.OP and t.text in _CLOSE:
            depth -= 1
        elif depth == 0 and t.text == text:
            out.append(i)
    return out


def _delimiters(tokens: list[_Tok]) -> dict[int, int]:
    """Token index -> priority of the delimiters at depth 0: a comma splits
    after itself, the others before themselves. Commas of a lambda's
    parameters and of a comprehension's target are not delimiters."""
    out: dict[int, int] = {}
    depth = 0
    in_lambda = 0
    in_target = False
    for i, t in enumerate(tokens):
        if t.type == tokenize.OP and t.text in _OPEN:
            depth += 1
            continue
        if t.type == tokenize.OP and t.text in _CLOSE:
            depth -= 1
            continue
        if depth:
            continue
        x = t.text
        if t.type == tokenize.NAME and x == "lambda":
            in_lambda += 1
            continue
        if in_lambda and x == ":":
            in_lambda -= 1
            continue
        if in_lambda:
            continue
        if t.type == tokenize.NAME and x in ("for", "async") and i:
            out[i] = _COMPREHENSION
            in_target = True
            continue
        if in_target and t.type == tokenize.NAME and x == "in":
            in_target = False
            continue
        if in_target:
            continue
        if t.type == tokenize.NAME and x == "if" and i:
            # A comprehension's condition or a conditional expression.
            out[i] = _COMPREHENSION if _after_for(out) else _TERNARY
        elif t.type == tokenize.NAME and x == "else":
            out[i] = _TERNARY
        elif x == ",":
            out[i] = _COMMA
        elif t.type == tokenize.NAME and x in ("and", "or"):
            out[i] = _LOGIC
        elif t.type == tokenize.NAME and x == "not":
            if i + 1 < len(tokens) and tokens[i + 1].text == "in":
                out[i] = _COMPARATOR
        elif t.type == tokenize.NAME and x == "in":
            if tokens[i - 1].text != "not":
                out[i] = _COMPARATOR
        elif t.type == tokenize.NAME and x == "is":
            out[i] = _COMPARATOR
        elif x in _COMPARATORS and t.type == tokenize.OP:
            out[i] = _COMPARATOR
        elif t.type == tokenize.OP and x in _MATH and i and _binary(tokens, i):
            out[i] = _MATH[x]
        elif x == "." and i and tokens[i - 1].text in _CLOSE:
            out[i] = _DOT  # a method chain: split before its dots
    return out


def _after_for(found: dict[int, int]) -> bool:
    return any(p == _COMPREHENSION for p in found.values())


def _binary(tokens: list[_Tok], i: int) -> bool:
    """An operator between two operands (not a sign, not `*args`)."""
    p = tokens[i - 1]
    if p.type == tokenize.OP and p.text not in _CLOSE:
        return False
    return not (p.type == tokenize.NAME and p.text in _KEYWORDS)


# --- splitting -------------------------------------------------------------------------


class _CannotSplit(Exception):
    pass


def _optional_parens(tokens: list[_Tok]) -> tuple[int, int] | None:
    """(start, end) of the expression black puts in invisible parentheses:
    the right-hand side of `x = ...`, what `return` gives, the condition of
    `if`/`elif`/`while`, the iterable of `for ... in ...:`."""
    if not tokens:
        return None
    first, n = tokens[0].text, len(tokens)
    block = tokens[-1].text == ":"
    if tokens[0].type == tokenize.NAME and first == "return":
        return (1, n) if n > 1 else None
    if tokens[0].type == tokenize.NAME and first in ("if", "elif", "while") and block:
        return (1, n - 1) if n > 2 else None
    if tokens[0].type == tokenize.NAME and first == "for" and block:
        ins = _top_level(tokens, "in")
        return (ins[0] + 1, n - 1) if ins and ins[0] + 2 < n else None
    eqs = _top_level(tokens, "=")
    if eqs and eqs[-1] + 1 < n:
        return eqs[-1] + 1, n
    return None


def _lay_out(tokens: list[_Tok], indent: str, src: dict[int, str]) -> list[str]:
    flat = _render(tokens, src)
    if _fits(indent, flat) and not _magic(tokens):
        return [indent + flat]
    span = _optional_parens(tokens)
    if span is not None and not _can_omit_parens(tokens, span, indent, src):
        return _wrapped(tokens, span, indent, src)
    try:
        return _right_hand_split(tokens, indent, src)
    except _CannotSplit:
        if span is not None:
            atom = tokens[span[0] : span[1]]
            if len(atom) == 1 and not _fits(indent + INDENT, _render(atom, src)):
                return [indent + flat]  # parentheses would not make it fit: as it is
            return _wrapped(tokens, span, indent, src)
        return [indent + flat]


def _can_omit_parens(
    tokens: list[_Tok], span: tuple[int, int], indent: str, src: dict[int, str]
) -> bool:
    """black's `can_omit_invisible_parens`: whether a right-hand side is split
    at its own last bracket rather than wrapped in parentheses."""
    body = tokens[span[0] : span[1]]
    if len(body) == 1 or (body[0].text == "(" and _pairs(body).get(0) == len(body) - 1):
        return True  # one atom, or already in parentheses
    found = _delimiters(body)
    if not found:
        return True
    top = max(found.values())
    if sum(1 for p in found.values() if p == top) > 1:
        return False
    if top == _DOT:
        return True  # one method call: split at its own brackets
    last = body[-1]
    if last.type == tokenize.OP and last.text in _CLOSE:
        if body[-2].text in _OPEN:
            return False  # empty brackets cannot be split
        opening = {c: o for o, c in _pairs(tokens).items()}[span[1] - 1]
        return _fits(indent, _render(tokens[: opening + 1], src))
    if body[0].text in _OPEN:
        return True
    return False


def _wrapped(
    tokens: list[_Tok], span: tuple[int, int], indent: str, src: dict[int, str]
) -> list[str]:
    """The expression at `span` in parentheses of its own, on its own lines."""
    head, rhs, tail = tokens[: span[0]], tokens[span[0] : span[1]], tokens[span[1] :]
    open_ = _Tok(tokenize.OP, "(", -1, 0, -1, 0)
    close = _Tok(tokenize.OP, ")", -1, 0, -1, 0)
    inner = indent + INDENT
    body = _render(rhs, src)
    lines = [indent + _render([*head, open_], src)]
    if _fits(inner, body) and not _magic(rhs) and not _has_commas(rhs):
        lines.append(inner + body)
    else:
        lines += _split_body(rhs, inner, src, "(")
    lines.append(indent + _render([close, *tail], src))
    return lines


def _trailer_chain(tokens: list[_Tok], closes: dict[int, int]) -> list[int]:
    """The closing brackets black may split at, last first: the last one,
    then those of the trailers it follows (`f(a).g(b)[c]`)."""
    last = max((i for i in closes), default=None)
    if last is None:
        return []
    chain = [last]
    o = closes[last]
    while o > 0:
        k = o - 1
        while k > 0 and (tokens[k].type == tokenize.NAME and tokens[k - 1].text == "."):
            k -= 2
        if k in closes and k < o:
            chain.append(k)
            o = closes[k]
        else:
            break
    return chain


def _right_hand_split(tokens: list[_Tok], indent: str, src: dict[int, str]) -> list[str]:
    """Split at the last bracket pair with a body whose head line fits
    (trying the trailers before it), else at the last pair with a body."""
    pairs = _pairs(tokens)
    closes = {c: o for o, c in pairs.items() if _depth(tokens, o) == 0}
    chain = [c for c in _trailer_chain(tokens, closes) if c != closes[c] + 1]
    if not chain:
        raise _CannotSplit
    chosen = chain[0]
    for c in chain:
        if _fits(indent, _render(tokens[: closes[c] + 1], src)):
            chosen = c
            break
    o, c = closes[chosen], chosen
    head, body, tail = tokens[: o + 1], tokens[o + 1 : c], tokens[c:]
    head_text = _render(head, src)
    if _fits(indent, head_text):
        lines = [indent + head_text]
    else:
        lines = _lay_out(head, indent, src)
    inner = indent + INDENT
    body_text = _render(body, src)
    call = _is_call_or_subscript(tokens, o)
    if _fits(inner, body_text) and not _magic(body) and (call or not _has_commas(body)):
        lines.append(inner + body_text)
    else:
        # A collection literal that is split is exploded, one element a line
        # (black's `should_split_line`); a call's arguments stay on one line
        # when they fit.
        lines += _split_body(body, inner, src, tokens[o].text, call)
    lines.append(indent + _render(tail, src))
    return lines


def _has_commas(body: list[_Tok]) -> bool:
    return any(p == _COMMA for p in _delimiters(body).values())


def _depth(tokens: list[_Tok], index: int) -> int:
    depth = 0
    for t in tokens[:index]:
        if t.type == tokenize.OP and t.text in _OPEN:
            depth += 1
        elif t.type == tokenize.OP and t.text in _CLOSE:
            depth -= 1
    return depth


def _split_body(
    body: list[_Tok], indent: str, src: dict[int, str], bracket: str, call: bool = False
) -> list[str]:
    """A bracket's body on lines of its own: at its commas (a trailing comma
    added), or before its delimiters of the highest priority."""
    found = _delimiters(body)
    if not found:
        return _lay_out(body, indent, src)
    top = max(found.values())
    cuts = [i for i, p in found.items() if p == top]
    if top == _DOT and len(cuts) == 1:
        return _lay_out(body, indent, src)  # one attribute is not split from its object
    lines: list[str] = []
    if top == _COMMA:
        start = 0
        for i in cuts:
            lines += _lay_out(body[start : i + 1], indent, src)
            start = i + 1
        if start < len(body):
            lines += _lay_out([*body[start:], _comma()], indent, src)
        return lines
    start = 0
    for i in cuts:
        if i > start:
            lines += _lay_out(body[start:i], indent, src)
        start = i
    lines += _lay_out(body[start:], indent, src)
    return lines


def _comma() -> _Tok:
    return _Tok(tokenize.OP, ",", -1, 0, -1, 0)


# --- expressions -----------------------------------------------------------------------


def expression(text: str) -> str:
    """A Python expression (a catalogue formula with its names replaced)
    spaced as `ruff format` spaces it: `ast.unparse`'s spacing, with the
    power operator hugging simple operands (`x**2`, `(a + b) ** 2`)."""
    import ast

    code = ast.unparse(ast.parse(text, mode="eval"))
    while True:  # x ** y ** z: each pass hugs the pairs that do not overlap
        hugged = _POWER.sub(lambda m: m.group(1) + "**" + m.group(2), code)
        if hugged == code:
            return code
        code = hugged


_SIMPLE = r"-?(?:[A-Za-z_][A-Za-z0-9_.]*|[0-9][0-9.eE+-]*)"
_POWER = re.compile(rf"(?<![\w.)\]])({_SIMPLE}) \*\* ({_SIMPLE})(?![\w.(\[])")


# --- blank lines and the whole text ----------------------------------------------------


def _starts_block(s: _Statement) -> bool:
    return bool(s.tokens) and s.tokens[-1].text == ":"


def _is_def(item: _Item) -> bool:
    if not isinstance(item, _Statement) or not item.tokens:
        return False
    first = item.tokens[0].text
    return first in ("def", "class", "@") or (first == "async" and item.tokens[1].text == "def")


def _statement_lines(s: _Statement) -> list[str]:
    src = {s.tokens[0].row + k: line for k, line in enumerate(s.source)}
    if s.inner_comments:
        return list(s.source)
    comment = f"  {s.comment}" if s.comment else ""
    flat = _render(s.tokens, src)
    if _fits(s.indent, flat + comment) and not _magic(s.tokens):
        return [s.indent + flat + comment]
    try:
        laid = _lay_out(s.tokens, s.indent, src)
    except _CannotSplit:
        laid = [s.indent + flat]
    if s.comment:
        # A comment after a split statement or one too long with it: above it.
        return [s.indent + s.comment, *laid]
    return laid


def format_code(source: str) -> str:
    """`source` (valid Python the compendium generated) as `ruff format` would
    leave it, for the constructs listed in the module docstring."""
    if not source.strip():
        return ""
    items = _items(source if source.endswith("\n") else source + "\n")
    out: list[str] = []
    blanks = 0
    prev: _Item | None = None  # the last statement or comment
    def_depth: int | None = None  # the depth of a definition whose body may end here
    block_start = False  # the previous statement opened a block
    docstring = False  # the previous statement is the module's docstring
    for item in items:
        if isinstance(item, _Blank):
            blanks += 1
            continue
        depth = len(item.indent) // len(INDENT)
        leaving = def_depth is not None and depth <= def_depth
        if leaving:
            def_depth = None
        if prev is None or block_start:
            n = 0
        elif isinstance(item, _Statement) and _is_def(item) and _attached(prev, item):
            n = 0  # a definition after its decorator or its own comment
        elif _is_def(item) or (isinstance(item, _Comment) and _comment_before_def(items, item)):
            n = 2 if depth == 0 else 1
        elif leaving:
            n = 2 if depth == 0 else 1
        else:
            n = min(blanks, 2 if depth == 0 else 1)
            if docstring or (_is_import(prev) and not _is_import(item) and depth == 0):
                n = max(n, 1)
        out.extend([""] * n)
        blanks = 0
        docstring = False
        if isinstance(item, _Comment):
            out.append(item.indent + item.text)
            prev, block_start = item, False
            continue
        out.extend(_statement_lines(item))
        if _is_def(item) and item.tokens[0].text != "@":
            def_depth = depth
        docstring = (
            prev is None and len(item.tokens) == 1 and item.tokens[0].type == tokenize.STRING
        )
        block_start = _starts_block(item)
        prev = item
    return "\n".join(out) + "\n"


def _is_import(item: _Item | None) -> bool:
    return (
        isinstance(item, _Statement)
        and bool(item.tokens)
        and item.tokens[0].text in ("import", "from")
        and not item.indent
    )


def _attached(prev: _Item, item: _Statement) -> bool:
    """`prev` belongs to the definition `item`: its decorator, or a comment
    right above it (the blank lines went before the comment)."""
    if isinstance(prev, _Statement):
        return bool(prev.tokens) and prev.tokens[0].text == "@"
    return isinstance(prev, _Comment) and prev.indent == item.indent


def _comment_before_def(items: list[_Item], comment: _Comment) -> bool:
    """A comment directly followed (through comments) by a definition: the
    blank lines before the definition go before the comment."""
    i = next(k for k, it in enumerate(items) if it is comment)
    for it in items[i + 1 :]:
        if isinstance(it, _Comment):
            continue
        if isinstance(it, _Blank):
            return False
        return _is_def(it) and it.indent == comment.indent
    return False
