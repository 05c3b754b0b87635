"""Formulas as people write them in notes, read into plain math.

Students and lab manuals write `v = Vmax·[S]/(Km + [S])`, `T = 2π√(L/g)`,
`N(t) = N₀e^{-λt} + B`, `ln k = ln A − Ea/RT`, `I = I₀cos²θ`, or LaTeX
(`\\frac{V_{\\max}[S]}{K_m+[S]}`). `read_formula` turns these into one
equation the safe evaluator parses (`v = Vmax*S/(Km + S)`), and says which
written token became which name (`[S]` -> `S`, `λ` -> `lam`).

The conventions a reader of lab notes applies, and nothing cleverer:
juxtaposition multiplies and binds tighter than `/` (`Ea/RT` is
Ea/(R·T)); `e^x` is exp(x); `ln` is the natural log and `lg` the decimal one
(Chinese textbooks); a function written without parentheses takes the
product that follows (`sin 2θ`, `ln k`), `√` the atom that follows;
`sin²θ` is (sin θ)²; `[S]` is the name S, `[H+]` the name H_plus; Greek
letters are names (λ -> lam, ω₀ -> omega_0); Δ before a letter is the
prefix d (ΔH -> dH); the arguments of the left side are dropped
(`N(t) =` -> `N =`); a bare `e` (not `e^x`) is the elementary charge
`q_e` (`eU = hν − W`), except inside a logarithm, where it is a parameter
(`ln x − ln e`: the ED50 of the log-logistic dose-response law). Given the symbols a context knows (`known`), a name
that is none of them but a run of them is split (`RT` -> R·T, `kt` -> k·t).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass

from labwright.analysis.catalogue.expr import (
    FUNCTION_NAMES,
    Equation,
    FormulaError,
    parse_equation,
    parse_expression,
)

GREEK: dict[str, str] = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa",
    "λ": "lam", "μ": "mu", "µ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi",
    "ω": "omega", "Γ": "Gamma", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi",
    "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega", "Δ": "Delta",
}  # fmt: skip
_LATEX_GREEK = {name: name for name in (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa mu nu xi "
    "rho sigma tau upsilon phi varphi chi psi omega Gamma Theta Lambda Xi Pi Sigma Phi Psi "
    "Omega"
).split()}  # fmt: skip
_LATEX_GREEK.update(
    {"lambda": "lam", "varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "pi": "pi"}
)
_FUNCTION_ALIASES = {"ln": "log", "lg": "log10", "arcsin": "arcsin", "asin": "arcsin",
                     "arccos": "arccos", "acos": "arccos", "arctan": "arctan", "atan": "arctan",
                     "tg": "tan"}  # fmt: skip
#: Names of physical constants: never the response on a written left side.
PHYSICAL_CONSTANTS = frozenset(
    {"q_e", "h", "hbar", "k_B", "N_A", "c", "R", "F", "sigma_SB", "epsilon_0", "mu_0"}
)
_FUNCTIONS = (FUNCTION_NAMES | set(_FUNCTION_ALIASES)) - {"e"}
_LOGARITHMS = frozenset({"log", "log10", "log2", "ln", "lg"})
_SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵝᵞᵟᶿᵠᵡ",
                  "0123456789-+()nia" "bcdefghjklmoprstuvwxyz" "βγδθφχ", strict=True))  # fmt: skip
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ", "0123456789+-aeoxhklmnpstijruv", strict=True))
_OPERATORS = str.maketrans({"·": "*", "⋅": "*", "∙": "*", "•": "*", "×": "*", "✕": "*",
                            "÷": "/", "−": "-", "–": "-", "—": "-", "∕": "/", "＊": "*"})  # fmt: skip


@dataclass(frozen=True)
class WrittenFormula:
    """A formula from the notes, normalised and parsed."""

    source: str  # as written
    text: str  # plain math the evaluator reads ("v = Vmax*S/(Km + S)")
    equation: Equation
    renamed: tuple[tuple[str, str], ...] = ()  # written token -> name ("[S]" -> "S")

    @property
    def names(self) -> frozenset[str]:
        return self.equation.names


# ---------------------------------------------------------------------------
# Characters and LaTeX -> a plain string


def _braced(text: str, start: int) -> tuple[str, int]:
    """The content of the brace group opening at text[start] and the index after it."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
    raise FormulaError("a brace { in the formula is not closed")


def _latex(text: str) -> str:
    """LaTeX commands to plain math; braces that group become parentheses."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", text[i:])
            assert m is not None
            cmd = m.group(1)
            i += m.end()
            if cmd == "frac" or cmd == "dfrac" or cmd == "tfrac":
                while i < len(text) and text[i] == " ":
                    i += 1
                num, i = _braced(text, i) if i < len(text) and text[i] == "{" else (text[i], i + 1)
                while i < len(text) and text[i] == " ":
                    i += 1
                den, i = _braced(text, i) if i < len(text) and text[i] == "{" else (text[i], i + 1)
                out.append(f"(({_latex(num)})/({_latex(den)}))")
            elif cmd == "sqrt":
                root = None
                if i < len(text) and text[i] == "[":
                    close = text.index("]", i)
                    root, i = text[i + 1 : close], close + 1
                arg, i = _braced(text, i) if i < len(text) and text[i] == "{" else (text[i], i + 1)
                inner = _latex(arg)
                out.append(f"(({inner})^(1/({root})))" if root else f"√({inner})")
            elif cmd in ("left", "right", "big", "Big", "bigg", "Bigg", "mathrm", "text", "mathit",
                         "operatorname", "displaystyle", "mathbf", "rm"):  # fmt: skip
                continue
            elif cmd in ("cdot", "times", "ast"):
                out.append("*")
            elif cmd in (",", ";", "!", " ", "quad", "qquad"):
                out.append(" ")
            elif cmd == "Delta":
                out.append("Δ")
            elif cmd in _LATEX_GREEK:
                out.append(f" {_LATEX_GREEK[cmd]} ")
            elif cmd in ("max", "min"):
                out.append(cmd)
            elif cmd in ("exp", "ln", "log", "lg", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                         "arcsin", "arccos", "arctan"):  # fmt: skip
                out.append(f" {cmd} ")
            elif cmd in ("{", "}"):
                out.append(cmd)
            elif cmd in ("propto",):
                raise FormulaError("a proportionality (∝) is a law statement, not a formula")
            else:
                raise FormulaError(f"the LaTeX command \\{cmd} is not one a formula uses")
        elif ch == "_" and i + 1 < len(text) and text[i + 1] == "{":
            sub, i = _braced(text, i + 1)
            out.append("_" + re.sub(r"[^A-Za-z0-9]", "", _latex(sub)) + " ")
        elif ch == "^" and i + 1 < len(text) and text[i + 1] == "{":
            sup, i = _braced(text, i + 1)
            out.append(f"^({_latex(sup)})")
        elif ch == "{":
            group, i = _braced(text, i)
            out.append(f"({_latex(group)})")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


_HALF_LIFE = re.compile(r"(?<![A-Za-z0-9_])([tT])\s*_?\{?\s*1\s*/\s*2\s*\}?(?![0-9./])")


def _scripts(text: str) -> str:
    """Unicode super- and subscripts to ^(...) and _...; ½ to a half; a
    half-life written "t1/2", "t_{1/2}" or "T1/2" to t_half (never t1 over 2:
    lab notes write the half-life so far more often than a column halved)."""
    text = text.replace("t½", "t_half ").replace("½", "(1/2)")
    text = _HALF_LIFE.sub(lambda m: f"{m.group(1)}_half ", text)
    text = re.sub(
        "[" + "".join(_SUPER) + "]+",
        lambda m: "^(" + "".join(_SUPER[c] for c in m.group(0)) + ")",
        text,
    )
    return re.sub(
        "[" + "".join(_SUB) + "]+", lambda m: "_" + "".join(_SUB[c] for c in m.group(0)) + " ", text
    )


def _brackets(text: str, renamed: dict[str, str]) -> str:
    """[S] -> S, [H+] -> H_plus, [A]0 -> A_0; other square brackets group."""

    def name(m: re.Match[str]) -> str:
        inner = m.group(1)
        ident = inner.replace("+", "_plus").replace("-", "_minus")
        sub = m.group(2) or ""
        if sub:
            ident += "_" + sub.lstrip("_")
        renamed[m.group(0).strip()] = ident
        return f" {ident} "

    text = re.sub(r"\[([A-Za-z][A-Za-z0-9]{0,7}[+-]?)\](_?[0-9]+|_?t\b)?", name, text)
    return text.replace("[", "(").replace("]", ")")


def _greek(text: str, renamed: dict[str, str]) -> str:
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch == "Δ" and i + 1 < len(text) and (text[i + 1].isalpha() or text[i + 1] == " "):
            out.append(" d")  # ΔH -> dH, \Delta H -> d H -> joined below
            renamed.setdefault("Δ", "d")
            continue
        name = GREEK.get(ch)
        if name is None:
            out.append(ch)
            continue
        renamed.setdefault(ch, name)
        following = text[i + 1] if i + 1 < len(text) else ""
        # ω0, ω_0, λ' stay one name; λt is λ·t.
        out.append(f" {name}" + ("" if following.isdigit() or following in "_'" else " "))
    joined = "".join(out)
    return re.sub(r"(?<![A-Za-z0-9_]) d ([A-Za-z])", r" d\1", joined)


def _plain(text: str, renamed: dict[str, str]) -> str:
    s = _scripts(text)
    s = unicodedata.normalize("NFKC", s).translate(_OPERATORS)
    s = _latex(s)
    s = s.replace("√", " √ ").replace("∛", " ∛ ").replace("**", "^")
    s = _brackets(s, renamed)
    s = _greek(s, renamed)
    return re.sub(r"\|([^|]+)\|", r" abs(\1) ", s)


# ---------------------------------------------------------------------------
# Tokens and the reading of juxtaposition

_TOKENS = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)"
    r"|(?P<name>[A-Za-z][A-Za-z0-9_']*)|(?P<op>[-+*/^=(),√∛]))"
)


@dataclass
class _Token:
    kind: str  # num, name, func, op
    text: str


def _segment(name: str, known: Collection[str]) -> list[str] | None:
    """`name` as a run of known symbols and function names ("RT" -> R, T;
    "I0cos" -> I0, cos), fewest pieces first; None when it is not one."""
    best: dict[int, list[str]] = {0: []}
    # "eU": the elementary charge times U; "piL": π times L
    pieces = set(known) | _FUNCTIONS | {"e", "pi"}
    for end in range(1, len(name) + 1):
        for start in range(end):
            if start in best and name[start:end] in pieces:
                candidate = [*best[start], name[start:end]]
                if end not in best or len(candidate) < len(best[end]):
                    best[end] = candidate
    found = best.get(len(name))
    return found if found and len(found) > 1 and found != ["e"] * len(found) else None


#: Words written as a subscript run into their symbol ("Cmax", "hmax",
#: "Tmin", "Ntot", "Keq"): the notes mean C_max, not C·m·a·x. A symbol of
#: one or two letters followed by one of these is one name, never split into
#: a product of the letters (which matched Cmax/(1 + exp(...)) to Planck's law).
SUBSCRIPT_WORDS = ("max", "min", "tot", "sat", "eq", "ref", "avg", "mean")
_SUBSCRIPTED = re.compile(r"([A-Za-z]{1,2})(" + "|".join(SUBSCRIPT_WORDS) + r")")
#: Any other lowercase word of three letters or more with a vowel run into a
#: symbol of one or two letters is its subscript too ("rtop", "Khalf",
#: "kobs", "dHvap"): a product of single letters is written with no vowel
#: word in it (mgh, nRT). Never a Greek name (beta, omega) or a function
#: written against a name (Acos, xsin), which other rules read.
_WORD_SUBSCRIPT = re.compile(r"([A-Za-z]{1,2}?)([a-z]{3,})")
_VOWEL = re.compile(r"[aeiouy]")
_GREEK_NAMES = frozenset(GREEK.values()) | frozenset(_LATEX_GREEK) | {"lambda", "pi"}


def subscripted(word: str) -> tuple[str, str] | None:
    """(symbol, subscript word) of a name that runs a subscript word into its
    symbol ("Cmax" -> C, max; "rtop" -> r, top), else None."""
    m = _SUBSCRIPTED.fullmatch(word)
    if m is not None:
        return m.group(1), m.group(2)
    if any(word.startswith(g) for g in _GREEK_NAMES) or word in _FUNCTIONS:
        return None
    m = _WORD_SUBSCRIPT.fullmatch(word)
    if m is None:
        return None
    head, tail = m.groups()
    if not _VOWEL.search(tail) or any(tail.endswith(fn) for fn in _FUNCTIONS if len(fn) > 1):
        return None
    return head, tail


def _tokens(text: str, known: Collection[str]) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKENS.match(text, pos)
        if m is None or m.end() == pos:
            rest = text[pos:].strip()
            if not rest:
                break
            raise FormulaError(f"the formula has a character that is not math: {rest[0]!r}")
        pos = m.end()
        if m.group("num"):
            tokens.append(_Token("num", m.group("num")))
        elif m.group("name"):
            word = m.group("name").replace("'", "_prime")
            parts = [word]
            # π is the number even when a catalogue knows p and i as symbols.
            if (
                word not in known
                and word not in _FUNCTIONS
                and word not in ("e", "pi")
                and subscripted(word) is None
            ):
                parts = _segment(word, known) or _trailing_function(word) or [word]
            for part in parts:
                if part in _FUNCTIONS:
                    tokens.append(_Token("func", _FUNCTION_ALIASES.get(part, part)))
                else:
                    tokens.append(_Token("name", part))
        else:
            tokens.append(_Token("op", m.group("op")))
    return tokens


def _trailing_function(word: str) -> list[str] | None:
    """ "I0cos" -> I0, cos: a name written straight against a function."""
    for fn in sorted(_FUNCTIONS, key=len, reverse=True):
        if (
            len(word) > len(fn)
            and word.endswith(fn)
            and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", word[: -len(fn)])
        ):
            if fn in ("e",):
                continue
            return [word[: -len(fn)], fn]
    return None


class _Reader:
    """A small precedence reader that writes fully parenthesised Python math.

    sum   := term (('+'|'-') term)*
    term  := run (('*'|'/') run)*
    run   := unary unary*            juxtaposition: tighter than * and /
    unary := ('-'|'+') unary | power
    power := atom ('^' unary)?       e^x -> exp(x); right-associative
    atom  := num | name | func-application | '(' sum ')' | '√' atom
    """

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.i = 0
        self.in_log = 0  # inside the argument of a logarithm (depth)

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.peek()
        if token is None:
            raise FormulaError("the formula ends where a term was expected")
        self.i += 1
        return token

    def is_op(self, *ops: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "op" and token.text in ops

    def expect(self, op: str) -> None:
        if not self.is_op(op):
            token = self.peek()
            found = token.text if token else "the end"
            raise FormulaError(f"expected {op!r} in the formula, found {found!r}")
        self.i += 1

    def sum(self) -> str:
        out = self.term()
        while self.is_op("+", "-"):
            op = self.take().text
            out = f"{out} {op} {self.term()}"
        return out

    def term(self) -> str:
        out = self.run()
        while self.is_op("*", "/"):
            op = self.take().text
            out = f"({out}) {op} ({self.run()})"
        return out

    def starts_atom(self) -> bool:
        token = self.peek()
        return token is not None and (
            token.kind in ("num", "name", "func") or (token.kind == "op" and token.text in "(√∛")
        )

    def run(self) -> str:
        factors = [self.unary()]
        while self.starts_atom():
            factors.append(self.power())
        return (
            factors[0] if len(factors) == 1 else "(" + " * ".join(f"({f})" for f in factors) + ")"
        )

    def unary(self) -> str:
        if self.is_op("-"):
            self.take()
            return f"(-({self.unary()}))"
        if self.is_op("+"):
            self.take()
            return self.unary()
        return self.power()

    def power(self) -> str:
        token = self.peek()
        if token is not None and token.kind == "name" and token.text == "e" and self._next_is("^"):
            self.take()
            self.take()
            return f"exp({self.unary_atom()})"
        base = self.atom()
        if self.is_op("^"):
            self.take()
            return f"({base})**({self.unary_atom()})"
        return base

    def unary_atom(self) -> str:
        """An exponent: a signed power (e^-x, x^-1, 10^(-3))."""
        if self.is_op("-"):
            self.take()
            return f"(-({self.power()}))"
        if self.is_op("+"):
            self.take()
        return self.power()

    def _next_is(self, op: str) -> bool:
        nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        return nxt is not None and nxt.kind == "op" and nxt.text == op

    def atom(self) -> str:
        token = self.take()
        if token.kind == "num":
            return token.text
        if token.kind == "name":
            # e not raised to a power is the elementary charge: Euler's number
            # is written e^x in lab notes, never as a bare factor. Inside a
            # logarithm it is a parameter: the log-logistic and Weibull
            # dose-response laws are written with ln e (or log(e)), e the ED50,
            # and no formula takes the logarithm of a charge.
            return "q_e" if token.text == "e" and not self.in_log else token.text
        if token.kind == "func":
            return self.application(token.text)
        if token.text == "(":
            inner = self.sum()
            if self.is_op(","):
                raise FormulaError("a comma inside parentheses is only allowed in a function call")
            self.expect(")")
            return f"({inner})"
        if token.text == "√":
            return f"sqrt({self.power()})"
        if token.text == "∛":
            return f"(({self.power()})**(1/3))"
        raise FormulaError(f"{token.text!r} cannot start a term of the formula")

    def application(self, fn: str) -> str:
        logarithm = fn in _LOGARITHMS
        self.in_log += logarithm
        try:
            return self._application(fn)
        finally:
            self.in_log -= logarithm

    def _application(self, fn: str) -> str:
        power = None
        if self.is_op("^"):  # sin^2 x, cos²θ
            self.take()
            power = self.unary_atom()
        if self.is_op("("):
            self.take()
            args = [self.sum()]
            while self.is_op(","):
                self.take()
                args.append(self.sum())
            self.expect(")")
            call = f"{fn}({', '.join(args)})"
        else:  # sin 2θ, ln k: the product that follows
            if not self.starts_atom():
                raise FormulaError(f"{fn} needs an argument")
            call = f"{fn}({self.run_without_functions()})"
        return f"({call})**({power})" if power else call

    def run_without_functions(self) -> str:
        factors = [self.power()]
        while self.starts_atom() and (tok := self.peek()) is not None and tok.kind != "func":
            factors.append(self.power())
        return " * ".join(f"({f})" for f in factors)


def _drop_lhs_arguments(tokens: list[_Token]) -> list[_Token]:
    """`N(t) = ...` -> `N = ...`: the left side's argument list is a function notation."""
    try:
        eq = next(i for i, t in enumerate(tokens) if t.kind == "op" and t.text == "=")
    except StopIteration:
        return tokens
    lhs = tokens[:eq]
    if (
        len(lhs) >= 4
        and lhs[0].kind == "name"
        and lhs[1].text == "("
        and lhs[-1].text == ")"
        and all(t.kind == "name" or t.text == "," for t in lhs[2:-1])
    ):
        return [lhs[0], *tokens[eq:]]
    return tokens


def normalise_formula(text: str, known: Collection[str] = ()) -> str:
    """The formula as plain math the evaluator reads (see `read_formula`)."""
    return read_formula(text, known).text


def read_formula(text: str, known: Collection[str] = ()) -> WrittenFormula:
    """Read a formula written in notes. Raises FormulaError (one sentence)."""
    (left, right), renamed = read_sides(text, known)
    equation = parse_equation(f"{left} = {right}", constants=PHYSICAL_CONSTANTS)
    return WrittenFormula(text, f"{left} = {right}", equation, renamed)


def read_sides(
    text: str, known: Collection[str] = ()
) -> tuple[tuple[str, str], tuple[tuple[str, str], ...]]:
    """The two sides of a relation written in notes, in the evaluator's
    syntax, and the written tokens renamed; neither side needs to be one
    quantity ("m g r - tau_f = (I + m r^2) a / r"). Raises FormulaError."""
    if len(text) > 500:
        raise FormulaError("the formula is longer than 500 characters")
    renamed: dict[str, str] = {}
    plain = _plain(text, renamed)
    tokens = _drop_lhs_arguments(_tokens(plain, known))
    sides: list[list[_Token]] = [[]]
    for token in tokens:
        if token.kind == "op" and token.text == "=":
            sides.append([])
        else:
            sides[-1].append(token)
    if len(sides) != 2:
        raise FormulaError("a formula needs exactly one '=' (response = expression)")
    written = []
    for side in sides:
        if not side:
            raise FormulaError("a side of the formula is empty")
        reader = _Reader(side)
        out = reader.sum()
        if reader.peek() is not None:
            raise FormulaError(f"the formula has an unexpected {reader.peek().text!r}")  # type: ignore[union-attr]
        written.append(parse_expression(out).text)
    return (written[0], written[1]), tuple(renamed.items())
