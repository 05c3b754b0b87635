"""Split a column header into a quantity name and a unit.

Lab software and people write units in a few fixed ways: ``t (s)``,
``温度（°C）`` (full-width parentheses), ``I [A]``, ``I {A}``, and the
quantity-calculus form ``U/mV``. The slash form is accepted only when the part
after the slash looks like a unit (short, no spaces, starts with a letter, a
degree sign or a micro sign), so ``x/y`` ratios with long names stay whole.
"""

from __future__ import annotations

import re

_BRACKETED = re.compile(
    r"^(?P<name>.*?)\s*(?:\((?P<p>[^()]{1,24})\)|（(?P<fp>[^（）]{1,24})）|\[(?P<b>[^\[\]]{1,24})\]|\{(?P<c>[^{}]{1,24})\})\s*$"
)
_SLASH = re.compile(r"^(?P<name>[^/]+?)\s*/\s*(?P<unit>[A-Za-zµμ°℃℉Ω%‰Å][^\s/]{0,11})$")
# "k/(L·mol⁻¹·min⁻¹)", "κ/(μS·cm⁻¹)", "入射角 i/(°)": a compound unit in brackets after the slash.
_SLASH_BRACKETED = re.compile(
    r"^(?P<name>[^/]+?)\s*/\s*[(（]\s*(?P<unit>[^()（）]{1,24}?)\s*[)）]$"
)
# A bracket that holds a plain word or a number is a note, not a unit: "Trial (2)".
# "(n)" is a count, but "F (N)" is a force in newtons: the single letter is
# compared with its case.
_NOT_UNIT = re.compile(
    r"^\d+$|^(?i:run|trial|sample|no|mean|avg|std|sd|raw|fit)\.?\s*\d*$|^n\.?\s*\d*$"
)


def split_unit(header: str) -> tuple[str, str | None]:
    """Return (name, unit) for a header; unit is None when none is written."""
    text = " ".join(str(header).split())
    if not text:
        return "", None
    match = _BRACKETED.match(text)
    if match:
        unit = next(g for g in (match["p"], match["fp"], match["b"], match["c"]) if g is not None)
        unit = unit.strip()
        # "k/(L·mol⁻¹·min⁻¹)": quantity calculus with a bracketed unit; the
        # slash belongs to the form, not to the name ("k/" bound nothing).
        name = match["name"].strip().removesuffix("/").rstrip()
        if name and unit and not _NOT_UNIT.match(unit):
            return name, temperature_scale(name, unit)
        return text, None
    match = _SLASH.match(text) or _SLASH_BRACKETED.match(text)
    if match:
        name = match["name"].strip()
        return name, temperature_scale(name, match["unit"].strip())
    return text, None


# A temperature written by its scale's letter: "T (C)", "temp/F", "bath temperature [C]".
_TEMPERATURE_NAME = re.compile(
    r"^(?:[tTθΘ](?:[_ ]?[A-Za-z0-9]{1,8})?|.*\b(?i:temp|temps|temperature|temperatures)\b.*|.*温度?)$"
)
_SCALE_WORDS = {
    "c": "°C", "oc": "°C", "degc": "°C", "deg c": "°C", "degrees c": "°C", "celsius": "°C",
    "f": "°F", "of": "°F", "degf": "°F", "deg f": "°F", "degrees f": "°F", "fahrenheit": "°F",
}  # fmt: skip


def temperature_scale(name: str, unit: str) -> str:
    """°C or °F for a temperature's unit written as the scale's letter.

    "C" alone is the coulomb and "F" the farad, but a column named as a
    temperature ("T", "T_room", "temp", "bath temperature", 温度) holds
    neither: "T (C)" is read in degrees Celsius (a notebook's "T/C" fitted
    nothing, its temperatures taken for charges). "oC", "deg C" and
    "Celsius" mean the scale whatever the name."""
    key = " ".join(unit.replace(".", " ").split()).casefold()
    scale = _SCALE_WORDS.get(key)
    if scale is None:
        return unit
    if key in ("c", "f") and not _TEMPERATURE_NAME.match(name.strip()):
        return unit
    if key in ("c", "f") and unit not in ("C", "F"):
        return unit  # lower-case "c", "f" are no scale
    return scale


_BASE_UNITS = frozenset(
    "s m g V A Ω ohm Hz K Pa N J W T F H C L l mol cd lx lm rad sr bar eV Wb S Gy Sv Bq "
    "min h d °C degC ℃ ° deg % ‰ ppm dB dBm counts cps a.u. arb au".split()
)
_PREFIXES = "yzafpnuµμmcdkMGT"


def _is_unit_token(token: str) -> bool:
    if token in _BASE_UNITS or re.fullmatch(r"[-+]?\d+", token):
        return True
    # Molar only with a prefix (mM, µM): a bare "M" is as often a name.
    return len(token) > 1 and token[0] in _PREFIXES and token[1:] in _BASE_UNITS | {"M"}


def looks_like_unit(cell: str) -> bool:
    """True for a bare unit cell, as in a units row under the header ("s", "mV", "°C", "m/s^2").

    Bracketed cells ("(A)", "[s]") are units by how they are written; bare cells
    must be built from known unit symbols, so a header row of short names
    ("t", "x") is not mistaken for a units row.
    """
    text = str(cell).strip()
    if not text or len(text) > 16:
        return False
    if re.fullmatch(r"\(.{1,12}\)|\[.{1,12}\]|（.{1,12}）", text):
        return not _NOT_UNIT.match(text[1:-1].strip())
    tokens = [t for t in re.split(r"[/*·^ ]|(?<=[A-Za-zΩ])(?=[-+]?\d)", text) if t]
    if not tokens or re.fullmatch(r"[-+]?\d+", tokens[0]):
        return False  # exponents only after a symbol: "m s-1", never "12"
    return all(_is_unit_token(t.rstrip("²³⁻¹")) for t in tokens)


def unit_in_words(text: str) -> str | None:
    """The unit of a unit written with the substance in it, as chemists and
    biochemists write one ("umol glucose / min", "µmol product per min", "mM
    sucrose"): the words that are no unit dropped, "per" read as "/". None
    when what is left is no unit."""
    text = text.strip()
    if looks_like_unit(text):
        return text
    kept = []
    for token in re.split(r"\s+", text.replace("/", " / ")):
        if token.casefold() == "per":
            kept.append("/")
        elif token == "/" or _is_unit_token(token.rstrip("²³⁻¹")):
            kept.append(token)
        elif not re.fullmatch(r"[A-Za-z]{3,}", token):
            return None  # not a plain word: keep nothing rather than guess
    unit = "".join(kept).strip("/")
    return unit if unit and looks_like_unit(unit) else None


# Subscripts that read as unit symbols: "T_min" is a minimum, "I_ph" a
# photocurrent, "V_pp" peak-to-peak.
_SUBSCRIPT_WORDS = frozenset("min max ph pp dc ac eq in out tot avg".split())
_PER = re.compile(r"^(?P<stem>.+?)_(?P<num>[^_]+(?:_[^_]+)?)_per_(?P<den>[^_]+)$")


def split_suffix_unit(name: str) -> tuple[str, str | None]:
    """Identifiers with a unit suffix, as scripts name variables: `time_s`,
    `voltage_mV`, `S_mM`, `v0_uM_per_min` (a rate in uM/min).

    A stem of one or two characters is a symbol (`S`, `v0`), and its suffix
    may be a subscript: it is a unit only when it is at least two letters,
    a prefixed or compound unit, and no subscript word (`S_mM` is in mM, but
    `U_C` is a capacitor's voltage, `t_10` a count, `T_min` a minimum).
    """
    text = str(name)
    per = _PER.match(text)
    if per:
        stem, unit = per.group("stem"), per.group("num").replace("_", " ") + "/" + per.group("den")
        if _stem_ok(stem, short_ok=True) and all(
            looks_like_unit(u) for u in (per.group("num").replace("_", " "), per.group("den"))
        ):
            return stem, unit
    stem, sep, suffix = text.rpartition("_")
    if not sep or not _stem_ok(stem, short_ok=len(suffix) >= 2):
        return name, None
    if re.fullmatch(r"\d.*", suffix) or not looks_like_unit(suffix):
        return name, None
    if len(stem) < 3 and suffix.lower() in _SUBSCRIPT_WORDS:
        return name, None
    return stem, suffix


def _stem_ok(stem: str, short_ok: bool) -> bool:
    if not re.fullmatch(r"[^\W\d_][\w]*", stem):
        return False
    return len(stem) >= 3 or (short_ok and "_" not in stem)


def split_suffix_units(names: list[str]) -> list[tuple[str, str | None]]:
    """`split_suffix_unit` over a table's names, kept only where names stay unique
    (`sample_A`, `sample_B` are two samples, not amperes)."""
    split = [split_suffix_unit(n) for n in names]
    counts: dict[str, int] = {}
    for new, _unit in split:
        counts[new] = counts.get(new, 0) + 1
    return [
        (new, unit) if unit and counts[new] == 1 and new not in names else (old, None)
        for old, (new, unit) in zip(names, split, strict=True)
    ]
