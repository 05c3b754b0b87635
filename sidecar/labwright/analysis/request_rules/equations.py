"""Where the notes write an equation: `v = Vmax·[S]/(Km + [S])`,
`N(t) = N0 e^{-λt} + B`, `T = 2π√(L/g)`, `$I = I_0\\cos^2\\theta$`.

This module only finds the span of an equation in a clause and splits it
into its two sides as written; reading it (the normaliser, the safe parser
and the structural match against the catalogue) is `formula.py`'s. An
equation whose right side is a number with a unit ("m = 0.250 kg") is a
value, read by `values.py`, and is not returned here.

The right side ends where prose starts again: at a comma, semicolon or
colon outside brackets, a full stop followed by a space, a Chinese
character, or an English word followed by another word ("... + [S]) and
find Km"); the words "where", "with", "for", "and" always end it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labwright.analysis.request_rules.text import Clause
from labwright.analysis.request_rules.values import measured_at

_MATH = re.compile(r"\$\$?([^$]{3,300}?)\$\$?|\\\((.{3,300}?)\\\)|\\\[(.{3,300}?)\\\]")
# The left side may be a logarithm of the symbol ("ln p = -ΔH/(RT) + C",
# "lg k = ..."): the notes then ask for the linearised law, and dropping the
# "ln" read the Clausius-Clapeyron line as p = -ΔH/(RT) + C.
_LHS = re.compile(
    r"(?:\b(?:ln|lg|log)\s+)?(?:\\[A-Za-z]+|[A-Za-zΑ-Ωα-ωµ\[])[\w\[\]{}\\^²³₀-₉ₐ-ₜ½/]*"
    r"(?:\s*\([A-Za-z, ]{1,12}\))?(?:\s*(?:\^\s*\{?\d\}?|²|³))?\s*$"
)
_STOP_WORDS = frozenset(
    "and where with for to of in is are was were the by using from at which then when if so as "
    "on fit find determine obtain give gives giving that this these it its or but".split()
)
_FUNCTIONS = frozenset(
    "exp ln log log10 sqrt sin cos tan sinh cosh tanh arctan arcsin arccos max min abs "
    "frac cdot left right mathrm text times sum".split()
)
_CJK = re.compile(r"[\u3400-\u9fff]")
# A Chinese qualifier glued to a symbol ("x左", "U测") inside a formula: one or
# two characters after a Latin letter or digit, followed by an operator, a
# closing bracket or bar, or the end (never by more prose).
_QUALIFIER = re.compile(r"(?<=[A-Za-z0-9_])[\u3400-\u9fff]{1,2}(?=\s*(?:[-+*/^)|\]}·×−]|$))")
# After an "=": words, not math ("e = end correction", "R = gas constant").
_PROSE_AFTER = re.compile(r"\s*[A-Za-z]{3,}\s+[A-Za-z]{2,}")
_OPERATOR = re.compile(
    r"[-+*/^·×√∝]|\\frac|\\sqrt|\\cdot|\\exp|\bexp\b|\bln\b|\blog\b|[a-zA-Z]\s*\("
)


@dataclass(frozen=True)
class Written:
    """An equation as the notes write it."""

    clause: Clause
    lhs: str
    rhs: str
    start: int
    end: int

    @property
    def text(self) -> str:
        return f"{self.lhs} = {self.rhs}"

    @property
    def quote(self) -> str:
        return self.clause.quote(self.start, self.end)


def _rhs_end(text: str, start: int) -> int:
    depth = 0
    i = start
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0:
            qualifier = _QUALIFIER.match(text, i)
            if qualifier is not None:
                i = qualifier.end()  # "x左" of "|x左 − x右|": a symbol, not prose
                continue
            if (
                ch in "=≈~"
                and _PROSE_AFTER.match(text, i + 1)
                and (lhs := _LHS.search(text, start, i)) is not None
                and lhs.start() > start
            ):
                # "v = fλ⏎e = end correction": the next line's symbol, defined
                # in words, is not this right side's ("F = m a = 5 N" still is).
                return lhs.start()
            if ch in ",;:，；：。" or _CJK.match(ch) or ch in "=<>∝~≈":
                return i
            if ch == "." and (i + 1 >= n or text[i + 1].isspace()):
                return i
            if ch.isspace():
                m = re.match(r"\s+([A-Za-z]+)", text[i:])
                if m:
                    word = m.group(1)
                    after = text[i + m.end() :]
                    if word.lower() in _STOP_WORDS and not re.match(r"\s*[-+*/^(]", after):
                        return i
                    if (
                        len(word) >= 3
                        and word.lower() not in _FUNCTIONS
                        and re.match(r"\s*:", after)
                    ):
                        return i  # "... / sin(A/2)  Cauchy: n = ...": a heading of the next line
                    if (
                        re.fullmatch(r"[a-z]{2,}(?:s|ed|ly|ing)", word)
                        and not re.match(r"\s*[-+*/^(·]", after)
                        and word not in _FUNCTIONS
                    ):
                        return i  # "... L holds.", "... applies"
                    if (
                        len(word) >= 3
                        and word.lower() not in _FUNCTIONS
                        and re.match(r"\s+[A-Za-z]{2,}", after)
                        and not re.match(r"\s*[-+*/^·]", after)
                    ):
                        return i
        i += 1
    return n


def _equations_in(clause: Clause, text: str, offset: int) -> list[Written]:
    out: list[Written] = []
    for m in re.finditer(r"(?<![<>=!])=(?!=)", text):
        head = text[: m.start()]
        lm = _LHS.search(head)
        if lm is None:
            continue
        lhs = lm.group(0).strip()
        if not lhs or len(lhs) > 24:
            continue
        # "m g r − tau_f = ...": a balance, its left side a sum (catalogue/implicit.py).
        start = _balance_start(head, lm.start())
        if start is None:
            start = lm.start()
        else:
            lhs = head[start:].strip()
            start += len(head[start:]) - len(head[start:].lstrip())
        rhs_start = m.end()
        end = _rhs_end(text, rhs_start)
        rhs = text[rhs_start:end].strip()
        if not rhs or not re.search(r"[A-Za-zΑ-Ωα-ω\\]", rhs):
            continue  # "x = 5": a number, not a law
        value = measured_at(text, rhs_start)
        if value is not None and value.end >= end - 1:
            continue  # "m = 0.250 kg", "g = 9.81 m/s^2": a value
        if (
            not _OPERATOR.search(rhs)
            and len(re.findall(r"[A-Za-zΑ-Ωα-ω]+", rhs)) < 2
            and not re.fullmatch(r"[A-Z]{2}|[A-Za-z][α-ω]|[α-ω][A-Za-z]", rhs)
        ):
            continue  # "y = x": kept only with an operator, two symbols or a product ("P = VI", "v = fλ")
        out.append(Written(clause, lhs, rhs, offset + start, offset + end))
    return out


# A term of a balance's left side: symbols, numbers, brackets and products.
_TERM_WORD = re.compile(r"[A-Za-zΑ-Ωα-ω][A-Za-z0-9_]*")
_BALANCE_CHARS = re.compile(r"[A-Za-zΑ-Ωα-ω0-9_()\[\]^*·/ \t+\-−]*$")


def _symbol_like(word: str) -> bool:
    """A word of a formula, not of prose: short ("m", "Km"), indexed
    ("tau_f", "x1") or a function's name."""
    return (
        len(word) <= 2
        or "_" in word
        or any(ch.isdigit() for ch in word)
        or (word.lower() in _FUNCTIONS)
    )


def _balance_start(head: str, symbol_start: int) -> int | None:
    """Where the left side starts when it is a sum written before the symbol
    next to the "=" ("torque balance: m g r − tau_f = (I + m r²) a / r"):
    the longest run of formula words and operators after the last colon,
    semicolon, comma or line break that ends in the + or − before the
    symbol. None when the left side is the one symbol (or what comes before
    it is prose)."""
    before = head[:symbol_start].rstrip()
    if not before or before[-1] not in "+-−":
        return None
    cut = max(before.rfind(ch) for ch in ":;,，：；\n=")
    run = _BALANCE_CHARS.search(before, cut + 1)
    if run is None:
        return None
    start = run.start()
    # Prose before the balance ("the torque equation m g r − ..."): drop
    # words from the left until only formula words are left.
    while start < len(before):
        words = _TERM_WORD.findall(before[start:])
        if words and all(_symbol_like(w) for w in words):
            break
        nxt = re.search(r"\s+", before[start:])
        if nxt is None:
            return None
        start += nxt.end()
    side = before[start:]
    if side.count("(") != side.count(")") or not _TERM_WORD.search(side):
        return None
    return start


def find_equations(clause: Clause) -> list[Written]:
    """The equations written in a clause, math-mode spans first."""
    text = clause.text
    out: list[Written] = []
    covered: list[tuple[int, int]] = []
    for m in _MATH.finditer(text):
        body = next(g for g in m.groups() if g is not None)
        start = m.start() + m.group(0).index(body)
        found = _equations_in(clause, body, start)
        out.extend(found)
        covered.append((m.start(), m.end()))
    masked = text
    for a, b in covered:
        masked = masked[:a] + " " * (b - a) + masked[b:]
    out.extend(_equations_in(clause, masked, 0))
    out.sort(key=lambda w: w.start)
    return out
