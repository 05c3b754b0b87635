"""Numbers with units in the notes, and what they are said of.

"m = 0.250 kg", "R = 8.314 J/(mol K)", "E0 = 10 nM", "the spring's mass is
12 g", "a total enzyme concentration of 10 nM", "Km for this enzyme is
reported as 2.5 mM", "弹簧质量为 12 g", "(2.5 ± 0.1) mM", "1.2×10^-3 s",
"C = 100 µF (tolerance 20 %)". Each becomes a `Statement`: the subject as
written (a symbol or words), the value with its uncertainty and unit, and
whether the sentence gives it as a literature or expected value. What the
subject is (an input of the law, a constant, a fitted parameter) is decided
by the rules that know the catalogue (`constants.py`, `expected.py`).

A number inside a file name ("L=0.50m.csv", "run_T25C.csv") is a run's
parameter, not a constant: file names are masked before anything is read.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass

from labwright.analysis.quantities import dimensionality as dimension
from labwright.analysis.request_rules.text import Clause
from labwright.analysis.request_rules.words import SPECIES_SYMBOL, SYMBOL_IN_TEXT, is_chinese

_NUM = r"[-+]?(?:\d+(?:[.,]\d+)?|[.]\d+)"
_NUMBER = re.compile(
    r"(?P<num>" + _NUM + r")"
    r"(?:\s*(?:[eE](?P<e>[-+]?\d+)|(?:×|x|\*|·)\s*10\s*\^?\s*\{?(?P<p>[-+]?\d+)\}?|"
    r"(?:×|x|\*|·)\s*10(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?"
)
_POWER = re.compile(r"\s*(?:×|x|\*|·)\s*10\s*(?:\^\s*\{?([-+]?\d+)\}?|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))")
_FRACTION = re.compile(r"\s*/\s*(?=\d)")
_PM = re.compile(r"\s*(?:±|\+/-|\+-|\+ / -)\s*")
_PCT_TOL = re.compile(
    r"\s*\(?\s*(?:tolerance|tol\.?|±|\+/-|误差|精度)\s*:?\s*(" + _NUM + r")\s*%\s*\)?", re.I
)
_UNIT_CHARS = r"[A-Za-zµμΩ°℃%‰/()^·*.\-⁻⁰¹²³⁴⁵⁶⁷⁸⁹0-9]"
_UNIT_TOKEN = re.compile(r"\s*(" + _UNIT_CHARS + r"+)")
_SUP = str.maketrans("⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "-+0123456789")
# English words pint reads as units ("in" is an inch, "a" a year): never a
# unit after a number in prose.
_NOT_UNITS = frozenset(
    "in a an at as is it or and of to the for by on per point points times was were be "
    "are with from each every this that than then".split()
)
# "t" as a unit is pint's tonne; in lab notes it is the time ("2h/t^2"), and
# a mass in tonnes never comes up: a unit with it is an expression.
_TIME_SYMBOL = re.compile(r"(?<![A-Za-z])t(?![A-Za-z])")
_FILE_NAME = re.compile(
    r"[\w.=+\-\u3400-\u9fff]+\.(?:csv|tsv|txt|dat|xlsx|xls|xlsm|mat|json|npz|npy|fig|h5|hdf5)\b",
    re.I,
)


@dataclass(frozen=True)
class Measured:
    value: float
    uncertainty: float | None
    unit: str | None
    start: int
    end: int


def _number(m: re.Match[str]) -> float:
    text = m.group("num").replace(",", ".")
    value = float(text)
    if m.group("e"):
        value *= 10.0 ** int(m.group("e"))
    elif m.group("p"):
        value *= 10.0 ** int(m.group("p"))
    elif m.group("sup"):
        value *= 10.0 ** int(m.group("sup").translate(_SUP))
    return value


def _unit_at(text: str, pos: int) -> tuple[str, int] | None:
    """The longest run of up to three unit-like tokens at `pos` that pint
    reads as a unit ("J/(mol K)", "J mol-1 K-1", "mM")."""
    tokens: list[tuple[str, int]] = []
    at = pos
    for _ in range(3):
        m = _UNIT_TOKEN.match(text, at)
        if m is None:
            break
        token = m.group(1).rstrip(".")
        # "105.2 cm(米尺测量)": a remark in brackets after the unit is no unit.
        if token.endswith("(") and not text[m.end(1) : m.end(1) + 1].isascii():
            token = token.rstrip("(")
            if token and token.lower() not in _NOT_UNITS:
                tokens.append((token, m.start(1) + len(token)))
            break
        if tokens and re.match(r"\s*[=＝≈]", text[m.end(1) :]):
            break  # "0.500 mm g=9.80": the next line's symbol, not a unit's factor
        if not token or token.lower() in _NOT_UNITS:
            break
        tokens.append((token, m.start(1) + len(token)))
        at = m.start(1) + len(token)
    for n in range(len(tokens), 0, -1):
        unit = " ".join(t for t, _ in tokens[:n])
        end = tokens[n - 1][1]
        # A closing bracket that belongs to the sentence: "(10 nM)".
        while unit.count(")") > unit.count("(") and unit.endswith(")"):
            unit, end = unit[:-1], end - 1
        if unit and (unit[0].isdigit() or unit[0] == "/"):
            continue  # "ln k ~ 1/T" plots against 1/T: "/T" is no unit (not per tesla)
        if _TIME_SYMBOL.search(unit):
            continue  # "a = 2h/t^2": t is the time of the notes, not a tonne
        if dimension(unit) is not None:
            return unit, end
    return None


_DEGREES_MINUTES = re.compile(
    r"\s*°\s*(\d{1,2}(?:\.\d+)?)\s*[′']\s*(?:(\d{1,2}(?:\.\d+)?)\s*(?:″|\"|''))?"
)


def measured_at(text: str, pos: int) -> Measured | None:
    """A value written at `pos` (spaces allowed before it)."""
    m0 = re.compile(r"\s*(\(\s*)?").match(text, pos)
    assert m0 is not None
    bracket = bool(m0.group(1))
    m = _NUMBER.match(text, m0.end())
    if m is None:
        return None
    value = _number(m)
    end = m.end()
    # "A = 60°02′", "60° 2' 30\"": an angle in degrees and minutes (of arc).
    arc = _DEGREES_MINUTES.match(text, end)
    if arc is not None and not bracket:
        minutes = float(arc.group(1)) + float(arc.group(2) or 0) / 60.0
        return Measured(
            value + math.copysign(minutes / 60.0, value), None, "deg", m0.end(), arc.end()
        )
    # "d = 1/600 mm": a fraction of two plain numbers (a grating's spacing).
    frac = _FRACTION.match(text, end)
    if frac is not None and not bracket:
        den = _NUMBER.match(text, frac.end())
        if den is not None and _number(den) != 0:
            value, end = value / _number(den), den.end()
    if not bracket and (readings := _readings_at(text, m, value)) is not None:
        return readings
    unc: float | None = None
    pm = _PM.match(text, end)
    if pm:
        m2 = _NUMBER.match(text, pm.end())
        if m2:
            unc, end = abs(_number(m2)), m2.end()
            pct = re.match(r"\s*%", text[end:])
            if pct:
                unc, end = abs(value) * unc / 100.0, end + pct.end()
    if bracket:
        close = re.match(r"\s*\)", text[end:])
        if close is None:
            return None
        end += close.end()
        # "(2.5 ± 0.1)×10^-3 s^-1": the power of ten applies to both.
        power = _POWER.match(text, end)
        if power:
            scale = 10.0 ** int(power.group(1) or power.group(2).translate(_SUP))
            value, unc, end = value * scale, None if unc is None else unc * scale, power.end()
    unit: str | None = None
    found = _unit_at(text, end)
    if found is not None:
        unit, end = found
    tol = _PCT_TOL.match(text, end)
    if tol and unc is None:
        unc = abs(value) * float(tol.group(1)) / 100.0 / math.sqrt(3.0)
        end = tol.end()
    return Measured(value, unc, unit, m0.end() - (1 if bracket else 0), end)


# "0.498, 0.501, 0.500, 0.502, 0.499 mm": the readings of one quantity.
_LIST_SEPARATOR = re.compile(r"\s*[,，、;；]\s*")
#: Readings of one quantity agree to within this share of their mean; a list
#: that spreads further is a set of levels ("0.1, 0.2, 0.4 mM"), not repeats.
_READINGS_SPREAD = 0.1


def _readings_at(text: str, first: re.Match[str], value: float) -> Measured | None:
    """Three or more numbers in a list that ends with one unit, all close to
    each other: the mean, with the standard error of the mean as its
    uncertainty (Type A)."""
    values, end = [value], first.end()
    while (sep := _LIST_SEPARATOR.match(text, end)) is not None:
        nxt = _NUMBER.match(text, sep.end())
        if nxt is None or "," in nxt.group("num"):
            break
        values.append(_number(nxt))
        end = nxt.end()
    if len(values) < 3:
        return None
    found = _unit_at(text, end)
    if found is None:
        return None
    mean = statistics.fmean(values)
    if mean == 0 or (max(values) - min(values)) > _READINGS_SPREAD * abs(mean):
        return None
    unit, end = found
    sem = statistics.stdev(values) / math.sqrt(len(values))
    return Measured(mean, sem or None, unit, first.start(), end)


def mask_file_names(text: str) -> str:
    """File names blanked (same length), so their numbers are not read."""
    return _FILE_NAME.sub(lambda m: " " * len(m.group(0)), text)


_EXPECTED = re.compile(
    r"\b(?:reported|literature|lit|expected|accepted|reference value|textbook|tabulated|"
    r"theoretical(?:ly)?|should (?:be|come out)|ought to be|known to be|published|true value|"
    r"nominal|rated|typical(?:ly)?|"
    # someone else's figure: "the kit insert says", "the manufacturer quotes"
    r"says|quotes|states|lists|datasheet|data sheet|insert|manufacturer|specified|"
    r"compare[sd]? (?:it |them |this |these |the result |your result )?(?:with|to)|"
    r"close to|about|approximately|around|roughly)\b|"
    # an approximate sign is an expectation, not a value to compute with
    r"(?<=\s)[≈~](?=\s*\d)|"
    r"文献|理论值|参考值|标准值|公认值|预期|期望|约为|大约|左右|约|标称|应为|应约为|说明书",
    re.I,
)
# Nominal values of components are given constants, not values to compare with
# (`constants.py` makes one a value to compare with when the notes ask for it).
_NOMINAL = re.compile(r"\bnominal\b|标称", re.I)
# "g = 9.8", "g ≈ 9.8", and the Chinese "g 取 9.80", "g 取为 9.80", "d 为 2.004 cm".
_ASSIGN = re.compile(r"\s*(?:=|≈|~|:=|＝|≃|取为|(?<![移吸量抽称])取|为)\s*")
_VERB_EN = re.compile(
    r"\s+(?:is|was|are|were|equals|of|=|:)?\s*(?:about|approximately|around|roughly|close to|"
    r"reported as|given as|taken as|known to be|expected to be|"
    r"assumed to be|set to|fixed at|equal to|a value of|has a value of)?\s*",
    re.I,
)
_SUBJECT_EN = re.compile(
    r"(?:(?<=\s)|^)((?:the|a|an)\s+)?"
    r"((?:[A-Za-z][\w'’-]*\s+){0,5}?[A-Za-z][\w'’-]*)"
    r"(\s+(?:for|of)\s+(?:this|the|our|each)\s+[A-Za-z]+)?"
    r"\s+(?:is|was|are|were|equals|=|:|of)\s+"
    r"(?:(?:about|approximately|around|roughly|close to|reported as|given as|taken as|"
    r"known to be|expected to be|assumed to be|set to|fixed at|equal to|a value of|"
    r"has a value of|reported to be)\s+)?(?=[-+(]?\.?\d)",
    re.I,
)
# An operator right before a symbol: it ends an expression ("kT/e"), whose
# value is not the symbol's.
_OPERATOR_BEFORE = re.compile(r"[/*·×^÷]\s*$")
_AT = re.compile(r"\b(?:at|in)\s+(?=[-+]?\d)|在\s*(?=[-+]?\d)", re.I)
# 取 alone is "take as" (取 g = 9.8); 移取, 吸取, 量取, 抽取, 称取 measure an
# amount out ("移取 20.00 mL 待测盐酸"), which `values_before_nouns` reads.
_ZH_TAKE_AS = r"(?<![移吸量抽称])取"
_SUBJECT_ZH = re.compile(
    r"((?:[A-Za-z_0-9]{0,6}[\u3400-\u9fff]){1,14}?[A-Za-z_0-9]{0,4}?)\s*(?:的值)?\s*(?:为|是|约为|"
    + _ZH_TAKE_AS
    + r"|取为|等于|=|:|：)\s*(?=[-+(]?\.?\d)"
)


@dataclass(frozen=True)
class Statement:
    clause: Clause
    subject: str  # as written: a symbol ("m", "E0") or words ("spring's mass")
    subject_start: int
    subject_end: int
    is_symbol: bool
    measured: Measured
    expected: bool  # given as a literature / expected / reference value

    @property
    def quote(self) -> str:
        """The words that give the value, its subject before or after it."""
        return self.clause.quote(
            min(self.subject_start, self.measured.start), max(self.subject_end, self.measured.end)
        )


def statements(clause: Clause) -> list[Statement]:
    """The values the clause states, each with its subject."""
    text = mask_file_names(clause.text)
    expected = bool(_EXPECTED.search(text)) and not _NOMINAL.search(text)
    out: list[Statement] = []
    used: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in used)

    # "m = 0.250 kg": a symbol assigned a value; "c(NaOH) = 0.1000 mol/L",
    # a chemist's quantity of a species, too.
    for m in [*SPECIES_SYMBOL.finditer(text), *SYMBOL_IN_TEXT.finditer(text)]:
        a = _ASSIGN.match(text, m.end(1))
        if a is None or _approximately(a.group(0)):
            continue
        if _OPERATOR_BEFORE.search(text, 0, m.start(1)):
            continue  # "kT/e = 25.42 mV" gives kT/e, not e
        value = measured_at(text, a.end())
        if value is None or not _ends_value(text, value.end):
            continue
        if not free(m.start(1), value.end):
            continue
        out.append(Statement(clause, m.group(1), m.start(1), m.end(1), True, value, expected))
        used.append((m.start(1), value.end))
    # "the spring's mass is 12 g", "Km for this enzyme is reported as 2.5 mM".
    for m in _SUBJECT_EN.finditer(text):
        value = measured_at(text, m.end())
        if value is None or value.unit is None or not free(m.start(2), value.end):
            continue
        subject = m.group(2) + (m.group(3) or "")
        out.append(Statement(clause, subject, m.start(2), m.end(2), False, value, expected))
        used.append((m.start(2), value.end))
    for m in _SUBJECT_ZH.finditer(text):
        value = measured_at(text, m.end())
        if value is None or not free(m.start(1), value.end):
            continue
        out.append(Statement(clause, m.group(1), m.start(1), m.end(1), False, value, expected))
        used.append((m.start(1), value.end))
    # "a diode at 295 K", "measured at 20.5 °C": a condition with no name.
    for m in _AT.finditer(text):
        value = measured_at(text, m.end())
        if value is None or value.unit is None or not free(m.start(), value.end):
            continue
        said = text[m.start() : value.end].strip()
        out.append(Statement(clause, said, m.start(), m.end(), False, value, False))
        used.append((m.start(), value.end))
    # A line of readings under the line that says what they are ("直径用
    # 千分尺测了 5 次：" then "0.498, 0.501, 0.500, 0.502, 0.499 mm").
    if not out and clause.heading and _NUMBER.match(text.lstrip()):
        value = measured_at(text, 0)
        if value is not None and value.unit is not None and _ends_value(text, value.end):
            subject = re.split(r"[;；。.]", clause.heading.rstrip(":：").strip())[-1].strip()
            if subject:
                out.append(Statement(clause, subject, 0, 0, False, value, expected))
    out.sort(key=lambda s: s.subject_start)
    return out


# What a value written before its noun is of: "titrated with 0.1000 mol/L
# NaOH", "25.00 mL of acetic acid solution", "a 10 kΩ resistor", "移取
# 20.00 mL 待测盐酸", "用 0.1000 mol/L NaOH 标准溶液滴定".
_NOUN_AFTER = re.compile(
    r"[ \t]*((?:of\s+)?(?:(?:the|a|an)\s+)?"
    r"(?:[A-Za-z][\w()'’\-]*|[\u3400-\u9fff]{1,10})"
    r"(?:[ \t]*(?:[A-Za-z][\w()'’\-]*|[\u3400-\u9fff]{1,10})){0,3})"
)
# Words that end the noun phrase ("25.00 mL of acid was titrated").
_NOUN_STOP = re.compile(
    r"\s+(?:was|were|is|are|and|with|to|in|at|for|from|by|on|into|then|"
    r"which|that|each|per|until|after|before)\b.*",
    re.I | re.S,
)
# A step or an interval, not an amount: "in 0.50 mL steps", "every 30 s",
# "每次 0.5 mL".
_STEP_BEFORE = re.compile(
    r"(?:\b(?:every|each|per|steps? of|increments? of|intervals? of)|每次|每隔|每)\s*$", re.I
)
_STEP_NOUN = re.compile(
    r"^(?:steps?|increments?|intervals?|portions?|aliquots? each|drops?|later|apart|"
    r"after|before|long|wide|high|deep|thick|间隔|步|一次)\b|^(?:间隔|为步长)",
    re.I,
)


def values_before_nouns(clause: Clause, taken: list[tuple[int, int]]) -> list[Statement]:
    """Values written before the noun they are of (outside `taken`, the
    spans of `statements`): the subject is the noun phrase after the value."""
    text = mask_file_names(clause.text)
    expected = bool(_EXPECTED.search(text)) and not _NOMINAL.search(text)
    out: list[Statement] = []
    for m in _NUMBER.finditer(text):
        start = m.start()
        if start > 0 and re.match(r"[\w.,/^]", text[start - 1]) and not is_chinese(text[start - 1]):
            continue
        if any(a <= start < b for a, b in taken) or _STEP_BEFORE.search(text[:start]):
            continue
        if re.search(r"(?:=|≈|~|＝|为|是|" + _ZH_TAKE_AS + r"|:|：)\s*\(?\s*$", text[:start]):
            continue  # an assignment `statements` reads or declined
        value = measured_at(text, start)
        if value is None or value.unit is None or value.start != start:
            continue
        noun = _NOUN_AFTER.match(text, value.end)
        if noun is None or noun.end(1) == noun.start(1):
            continue
        words = _NOUN_STOP.sub("", noun.group(1)).strip()
        if not words or _STEP_NOUN.match(words):
            continue
        begin = noun.start(1)
        out.append(Statement(clause, words, begin, begin + len(words), False, value, expected))
        taken = [*taken, (start, begin + len(words))]
    return out


def _approximately(sign: str) -> bool:
    """A tilde set against the number only ("Poured ~250 mL") means
    "approximately", not that the word before it equals the value."""
    return sign.strip() == "~" and sign[0].isspace() and not sign[-1].isspace()


def _ends_value(text: str, end: int) -> bool:
    """A value ends at a clause boundary or before words, not before more
    algebra ("k = 2 x + 1" is a formula, not a value)."""
    rest = text[end:].lstrip()
    return not rest or not re.match(r"[-+*/^·×(]|[A-Za-z]\s*[-+*/^(]", rest)
