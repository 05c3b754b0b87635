"""Finding a phrase of the catalogue in a clause of the notes.

English is matched on word stems, so "half-life", "half life" and "half-lives"
are one phrase, "centres" is "centers" and "unknowns'" is "unknown"; a
two-word phrase is also found inverted ("energy of activation") and across a
coordination ("peak centres, widths and areas" holds "peak width" and "peak
area"). Chinese is matched as written, spaces ignored. Symbols ("Km", "K_m",
"Kₘ", "V_max", "t½", "λ") are matched exactly after one normalisation, never
as English words: a one-letter symbol is a symbol only where the clause
lists symbols, so the article "a" is never an acceleration.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SPELLING = {
    "centre": "center", "metre": "meter", "litre": "liter", "fibre": "fiber",
    "colour": "color", "analyse": "analyze", "ionisation": "ionization",
    "linearise": "linearize", "normalise": "normalize", "vapour": "vapor",
    "calibre": "caliber", "sulphate": "sulfate", "modelling": "modeling",
}  # fmt: skip
# Words whose final s is not a plural.
_KEEP_S = frozenset(
    "mass gas bias focus basis analysis axis lens its this is was has series species "
    "radius modulus status process loss thickness stress less across plus always "
    "hydrolysis kinetics physics optics dynamics thermodynamics mechanics statistics "
    "ohms siemens celsius stokes maxwells boltzmanns hookes".split()
)


def stem(word: str) -> str:
    """A crude, predictable English stem: lower case, plural and British
    spelling folded. Predictable matters more than linguistic: phrase and
    text go through the same function."""
    w = word.lower()
    if w in _KEEP_S or len(w) <= 3:
        return _SPELLING.get(w, w)
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "xes", "ches", "shes")):
        w = w[:-2]
    elif w.endswith("ves") and w not in {"curves", "waves", "valves"}:
        w = w[:-3] + "fe"  # half-lives -> half-life
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    return _SPELLING.get(w, w)


@dataclass(frozen=True)
class Tokens:
    """The stems of a text with their spans."""

    stems: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


_POSSESSIVE = re.compile(r"(?<=[A-Za-z])['’]s\b|(?<=s)['’](?=\s|$)")


def tokens(text: str) -> Tokens:
    # "the spring's mass", "the unknowns' concentrations": the possessive is
    # no word (blanked, so offsets stay).
    text = _POSSESSIVE.sub(lambda m: " " * len(m.group(0)), text)
    found = [(m.group(0), m.span()) for m in _TOKEN.finditer(text)]
    return Tokens(tuple(stem(w) for w, _ in found), tuple(s for _, s in found))


def phrase_stems(phrase: str) -> tuple[str, ...]:
    return tokens(phrase).stems


# Between the two words of a coordinated phrase: a list of single words,
# each followed by a separator ("peak centres, widths and areas";
# "centre, width and area of each peak"), never a list of phrases ("natural
# frequency and damping ratio, and the Q factor" holds no "frequency factor").
_GAP_TOKEN = re.compile(r"\s*(,|&|/|\band\b|\bor\b|[A-Za-z]+)\s*", re.I)
_SEPARATORS = frozenset({",", "&", "/", "and", "or"})
_ARTICLES = frozenset({"the", "its", "their"})


def _list_gap(between: str, before_of: bool = False) -> bool:
    """`before_of`: the gap between the first item and "of" (", width and
    area" in "centre, width and area of each peak"), which ends in a word."""
    parts: list[str] = []
    pos = 0
    while pos < len(between):
        m = _GAP_TOKEN.match(between, pos)
        if m is None or m.end() == pos:
            return False
        parts.append(m.group(1).lower())
        pos = m.end()
    while parts and parts[-1] in _ARTICLES:
        parts.pop()  # "widths and the areas"
    if before_of:
        if not parts or parts[0] not in _SEPARATORS or parts[-1] in _SEPARATORS:
            return False
    elif not parts or parts[-1] not in _SEPARATORS:
        return False
    words = 0
    previous_word = False
    for part in parts:
        if part in _SEPARATORS:
            previous_word = False
            continue
        if previous_word:
            return False  # two words in a row: a phrase, not a list of words
        previous_word = True
        words += 1
    return 1 <= words <= 4


_OF = frozenset({"of", "for", "at"})
_DETERMINERS = frozenset({"the", "a", "an", "each", "every", "all", "both", "this", "these", "its"})


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    contiguous: bool = True  # False: found inverted or across a coordination


def _find_words(phrase: tuple[str, ...], text: str, toks: Tokens) -> Span | None:
    """The first occurrence of an English phrase (as stems) in `text`."""
    n = len(phrase)
    if n == 0:
        return None
    stems = toks.stems
    for i in range(len(stems) - n + 1):
        if stems[i : i + n] == phrase:
            return Span(toks.spans[i][0], toks.spans[i + n - 1][1])
    if n == 2:
        first, second = phrase
        # "peak centres, widths and areas": the modifier, a list, the head.
        for i, s in enumerate(stems):
            if s != first:
                continue
            for j in range(i + 2, min(len(stems), i + 8)):
                if stems[j] == second:
                    between = text[toks.spans[i][1] : toks.spans[j][0]]
                    if _list_gap(between):
                        return Span(toks.spans[i][0], toks.spans[j][1], False)
                    break
        # "energy of activation", "the area of each peak", "centres, widths
        # and areas of the peaks".
        for j, s in enumerate(stems):
            if s != second:
                continue
            k = j + 1
            if k < len(stems) and stems[k] in _OF:
                k += 1
                while k < len(stems) and stems[k] in _DETERMINERS:
                    k += 1
                if k < len(stems) and stems[k] == first:
                    return Span(toks.spans[j][0], toks.spans[k][1], False)
            # a list before "of": "widths and areas of the peaks"
            for k2 in range(j + 1, min(len(stems), j + 8)):
                if stems[k2] in _OF:
                    between = text[toks.spans[j][1] : toks.spans[k2][0]]
                    if not _list_gap(between, before_of=True):
                        break
                    k3 = k2 + 1
                    while k3 < len(stems) and stems[k3] in _DETERMINERS:
                        k3 += 1
                    if k3 < len(stems) and stems[k3] == first:
                        return Span(toks.spans[j][0], toks.spans[k3][1], False)
                    break
    return _qualified_of(phrase, toks)


def _qualified_of(phrase: tuple[str, ...], toks: Tokens) -> Span | None:
    """ "concentration of the acid" as "concentration of acetic acid": after
    "of", the phrase's determiner may be left out and one qualifying word
    may stand before its last word (the acid named, the lens described).
    The words before "of" and the last word must be there as written."""
    if "of" not in phrase or phrase[-1] == "of":
        return None
    at = phrase.index("of")
    head = phrase[: at + 1]
    tail = tuple(s for s in phrase[at + 1 :] if s not in _DETERMINERS)
    if not tail:
        return None
    stems = toks.stems
    for i in range(len(stems) - len(head) + 1):
        if stems[i : i + len(head)] != head:
            continue
        k = i + len(head)
        while k < len(stems) and stems[k] in _DETERMINERS:
            k += 1
        for extra in (0, 1):
            body = stems[k : k + len(tail) + extra]
            if (
                len(body) == len(tail) + extra
                and body[: len(tail) - 1] == tail[:-1]
                and body[-1] == tail[-1]
            ):
                end = k + len(tail) + extra - 1
                return Span(toks.spans[i][0], toks.spans[end][1])
    return None


def find_words(phrase: tuple[str, ...], text: str, toks: Tokens) -> list[Span]:
    """Every contiguous occurrence of an English phrase (as stems), or else
    the first one found inverted or across a list."""
    n = len(phrase)
    stems = toks.stems
    found = [
        Span(toks.spans[i][0], toks.spans[i + n - 1][1])
        for i in range(len(stems) - n + 1)
        if n and stems[i : i + n] == phrase
    ]
    if found:
        return found
    other = _find_words(phrase, text, toks)
    return [other] if other is not None else []


@functools.lru_cache(maxsize=4096)
def _chinese_pattern(p: str) -> re.Pattern[str]:
    """The pattern of a spaceless Chinese phrase: its characters with any
    spaces between. Cached: every clause is searched for every Chinese term
    of the vocabulary (over a thousand), more patterns than `re`'s own cache
    of 512 keeps, so each search compiled its pattern again (~2/3 of a
    build's analysis time before)."""
    return re.compile(r"\s*".join(re.escape(ch) for ch in p))


def find_chinese(phrase: str, text: str) -> list[Span]:
    """Every occurrence of a Chinese phrase as written; spaces in the text are ignored."""
    p = "".join(phrase.split())
    # Every match begins with the phrase's first character: most clauses
    # (all English ones) are ruled out without a pattern.
    if not p or p[0] not in text:
        return []
    return [Span(m.start(), m.end()) for m in _chinese_pattern(p).finditer(text)]


def is_chinese(phrase: str) -> bool:
    return bool(_CJK.search(phrase))


# --- symbols -----------------------------------------------------------------------

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "lam": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "chi": "χ",
    "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ",
    "Sigma": "Σ", "Phi": "Φ", "Omega": "Ω",
}  # fmt: skip
_SUBSCRIPTS = str.maketrans(
    "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789aeoxhklmnpstijruv0123456789"
)
_MICRO = str.maketrans({"µ": "μ", "ϑ": "θ", "ϕ": "φ", "ε": "ε"})
_LATEX_WRAP = re.compile(r"\\(?:mathrm|text|mathit|rm|operatorname|mathbf)\s*\{([^{}]*)\}")
_LATEX_GREEK = re.compile(r"\\([A-Za-z]+)")


@functools.lru_cache(maxsize=8192)
def symbol_key(symbol: str) -> str:
    """One spelling of a symbol: "K_m", "K_{m}", "Kₘ", "K_\\mathrm{m}" -> "Km";
    "\\lambda", "lam", "λ" -> "λ"; "t_{1/2}", "t½", "t_half" -> "t1/2".

    Cached (a pure function of the text): every symbol a clause writes is
    compared with every catalogue symbol of its first letter (~15k calls a
    build, ten regex passes each)."""
    s = symbol.strip().strip("$").translate(_SUBSCRIPTS).translate(_MICRO)
    s = _LATEX_WRAP.sub(r"\1", s)
    s = _LATEX_GREEK.sub(lambda m: _GREEK.get(m.group(1), m.group(1)), s)
    s = s.replace("½", "1/2").replace("_half", "1/2").replace("half", "1/2")
    s = re.sub(r"[\s_{}\\^]", "", s)
    # A Greek name written out as the whole symbol or its head ("lam", "omega0", "tau").
    m = re.fullmatch(r"([A-Za-z]+?)(\d*|[A-Za-z]?)", s)
    if m and m.group(1) in _GREEK and (m.group(2) == "" or m.group(2).isdigit()):
        s = _GREEK[m.group(1)] + m.group(2)
    elif s in _GREEK:
        s = _GREEK[s]
    return s


def same_symbol(a: str, b: str) -> bool:
    """Symbols agree exactly, or with only the subscript's case differing
    ("K_M" and "Km", "V_MAX" and "Vmax"); the head letter's case always
    counts (T is not t)."""
    ka, kb = symbol_key(a), symbol_key(b)
    if ka == kb:
        return True
    if len(ka) >= 3 and ka.lower() == kb.lower() and (ka.isupper() or kb.isupper()):
        return True  # an acronym in any case: FWHM, fwhm; LOD, lod
    return len(ka) > 1 and len(kb) > 1 and ka[0] == kb[0] and ka[1:].lower() == kb[1:].lower()


# A symbol as notes write one: a letter (Latin or Greek), then digits,
# letters, a subscript (_x, _{...}, Unicode subscripts) or ½ / _1/2.
# A chemist's quantity of a species: "c(NaOH)", "V(HCl)", "m(KHP)", "c(H₂SO₄)".
SPECIES_SYMBOL = re.compile(
    r"(?<![A-Za-z0-9_])([cVmnwMρ](?:_[A-Za-z0-9]{1,4})?\([A-Z][A-Za-z0-9₀-₉]{0,11}[⁺⁻+-]?\))"
)
SYMBOL_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9_\\'°℃µμ])"
    r"((?:\\[A-Za-z]+|[A-Za-zΑ-Ωα-ωµ])"
    r"(?:[A-Za-z0-9]{0,5})"
    r"(?:_\{[^{}\s]{1,8}\}|_[A-Za-z0-9/]{1,6}|[₀-₉ₐ-ₜᵢ-ᵥ]{1,4}|½|_?1/2)?)"
    r"(?![A-Za-z0-9_'])"
)


# "摆长 l", "砝码质量 m", "温度 T": a Chinese header names the quantity and
# writes its symbol after it; the symbol names the column as well.
_NAMED_THEN_SYMBOL = re.compile(r"^[\u3400-\u9fff][\u3400-\u9fff\s（）()]*\s+(\S{1,8})$")


def names_symbol(column: str, symbol: str) -> bool:
    """The column is named by the symbol: as a whole ("l"), or as the symbol
    a Chinese header writes after its words ("摆线长 l")."""
    if same_symbol(column, symbol):
        return True
    m = _NAMED_THEN_SYMBOL.match(column.strip())
    return (
        m is not None
        and bool(SYMBOL_IN_TEXT.fullmatch(m.group(1)))
        and same_symbol(m.group(1), symbol)
    )
