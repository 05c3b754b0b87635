"""What the notes ask that the catalogue does not know.

"Find the Young's modulus of the wire" in a folder whose catalogue has no
law with a Young's modulus: the report must say it was asked and could not
be answered, not pass over it. The object of an asking verb ("determine the
X", "求X") is such a request when it ends in a quantity noun (a constant,
coefficient, modulus, energy, ratio, index...) and no phrase of the
catalogue is in it; generic objects ("the data", "the uncertainty", "a
graph", "the mean") are not quantities of a law and are left to the shape
analyses.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from labwright.analysis.request import Unanswered
from labwright.analysis.request_rules.cues import negated_before
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.request_rules.vocabulary import Vocabulary

_VERB_WORD = re.compile(
    r"\b(?:find|determine|calculate|compute|estimate|obtain|measure|report|deduce|derive|"
    r"evaluate|extract|work out|what is)\b",
    re.I,
)
_VERB = re.compile(
    r"\b(?:find|determine|calculate|compute|estimate|obtain|measure|report|deduce|derive|"
    r"evaluate|extract|work out|what is)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+)?"
    r"(?P<obj>[A-Za-z][A-Za-z'’ ,-]{2,60})",
    re.I,
)
# The object ends where what it is computed from begins ("the viscosity
# from the terminal speeds"); its items are split at "and" and commas.
_END = re.compile(
    r"\s(?:from|using|for|by|with|at|in|on|via|to|as|that|which|against|versus|vs|when|if|"
    r"where|after|before|during|between)\b.*$",
    re.I,
)
_SPLIT = re.compile(r"\s*(?:,|\band\b|\bor\b)\s*", re.I)
_OF_PROCESS = re.compile(
    r"(?:[A-Za-z'’-]+\s+){0,2}(?:enthalpy|entropy|energy|heat|rate|constant|temperature)"
    r"\s+of\s+[A-Za-z]+(?:tion|sion|ment|sis)",
    re.I,
)
_OF_TAIL = re.compile(r"\s+of\s+(?:(?!\bof\b)[A-Za-z'’ -])+$", re.I)


def _quantity_noun(words: str) -> str | None:
    """ "surface tension of water" -> "surface tension"; "moment of inertia of
    the wheel" -> "moment of inertia": the owner after "of" goes until the
    phrase ends in a quantity noun. A process after "of" is part of the
    name ("enthalpy of adsorption", "heat of fusion")."""
    if _OF_PROCESS.fullmatch(words):
        return words
    while words and not _HEAD.search(words):
        shorter = _OF_TAIL.sub("", words)
        if shorter == words:
            return None
        words = shorter
    return words or None


_HEAD = re.compile(
    r"\b(?:constant|coefficient|modulus|energy|frequency|ratio|rate|period|length|mass|"
    r"concentration|volume|capacity|capacitance|inductance|resistance|resistivity|conductivity|"
    r"index|temperature|speed|velocity|acceleration|charge|potential|enthalpy|entropy|density|"
    r"viscosity|tension|pressure|wavelength|efficiency|yield|order|width|area|power|gain|"
    r"number|factor|permittivity|permeability|susceptibility|moment|inertia|torque|impedance|"
    r"exponent|lifetime|half-life|time|point|value|strength|field|flux|intensity|angle)s?$",
    re.I,
)
_GENERIC = re.compile(
    r"^(?:mean|average|uncertaint(?:y|ies)|errors?|standard deviation|spread|data|graph|plot|"
    r"figure|table|trend|relationship|relation|dependence|results?|values?|best fit|fit|line|curve|"
    r"gradient|slope|intercept|residuals?|correlation|time|point|number|rate|order)$",
    re.I,
)
_VERB_ZH = re.compile(
    r"(?:求出?|测定|计算|确定|估算|估计|得到)(?:出)?(?P<obj>[\u3400-\u9fff]{2,12})"
)
_HEAD_ZH = re.compile(
    r"(?:常数|常量|系数|模量|能|频率|比|率|周期|长度|质量|浓度|体积|电容|电感|电阻|电阻率|"
    r"电导率|折射率|温度|速度|加速度|电荷|电势|焓|熵|密度|粘度|黏度|张力|压强|波长|效率|"
    r"产率|级数|宽度|面积|功率|增益|指数|寿命|时间|转动惯量|力矩|阻抗)$"
)
_ZH_STOP = re.compile(r"[的和与及、，。；：,.;:]")
# An item of a list: "(2) the mass of the block", "2. the period", "- the mass".
_ITEM = re.compile(
    r"\s*(?:(?:\(?\d{1,2}[).]|[-•*])\s+)?(?:the\s+|a\s+|an\s+)?(?P<obj>[A-Za-z][A-Za-z'’ -]{2,60})\s*[.?]?$",
    re.I,
)


def unknown_requests(
    notes: Notes, vocab: Vocabulary, laws: Collection[str] = ()
) -> list[Unanswered]:
    """What the notes ask that no law answers. `laws`: the request's laws the
    data bind (a law nothing binds answers nothing). A
    result asked for ("find the mass of the spring", "Questions: (2) the
    mass of the block") is known only when one of them has it; a
    measurement asked for ("measure the lengths") whenever a law of the
    catalogue names it."""
    out: list[Unanswered] = []
    seen: set[str] = set()
    for clause in notes.clauses:
        # Known when a (specific) quantity of the catalogue is in it, or it is
        # a variable's word as a whole ("the lengths"); a variable's or a
        # generic word inside it ("tension" in "surface tension") is not.
        hits = vocab.hits(clause, frozenset({"quantity", "variable", "input"}))
        covered = [
            (h.start, h.end)
            for h in hits
            if h.term.kind == "quantity" and not vocab.is_generic(h.term)
        ]
        whole = {clause.text[h.start : h.end].lower() for h in hits}
        of_laws = {clause.text[h.start : h.end].lower() for h in hits if h.term.model in laws}
        text = clause.text
        starts = [v.start() for v in _VERB_WORD.finditer(text)]
        objects: list[tuple[str, int, set[str]]] = []
        for m in _VERB.finditer(text):
            if negated_before(clause, m.start()):
                continue
            offset = m.start("obj")
            # The object ends where the next request begins ("measure the
            # angles ... and find the wavelength").
            obj = m.group("obj")
            later = [s for s in starts if offset < s < m.end("obj")]
            if later:
                obj = text[offset : later[0]]
            # "Measure the mass" asks for a reading; "find the mass of the
            # spring" for a result, which only a law of the request gives.
            measured = m.group(0).lower().startswith("measure")
            objects.append((obj, offset, whole if measured else of_laws))
        item = _ITEM.match(text)
        if not objects and clause.under_request_heading and item is not None:
            # "Questions: (2) the mass of the block": an item of a list of
            # requests asks for its object without a verb.
            objects.append((item.group("obj"), item.start("obj"), of_laws))
        for obj, offset, known in objects:
            for part in _SPLIT.split(_END.sub("", obj)):
                words = re.sub(r"^(?:the|a|an|its|their|each|all)\s+", "", part.strip(), flags=re.I)
                found = _quantity_noun(words)
                if found is None or len(found.split()) > 4:
                    continue
                words = found
                if _GENERIC.match(words):
                    continue
                start = text.find(words, offset)
                end = start + len(words)
                if start < 0 or any(a < end and start < b for a, b in covered):
                    continue
                if words.lower() in known:
                    continue
                if words.lower() not in seen:
                    seen.add(words.lower())
                    out.append(_unknown(words, words.lower() in whole))
        for m in _VERB_ZH.finditer(text):
            # "求金属丝的杨氏模量和周期": each part; 的 joins owner and quantity.
            at = m.start("obj")
            for obj in _ZH_STOP.split(m.group("obj")):
                start = text.find(obj, at) if obj else -1
                if len(obj) < 2 or start < 0 or not _HEAD_ZH.search(obj):
                    continue
                at = start + len(obj)
                if any(a < start + len(obj) and start < b for a, b in covered) or obj in whole:
                    continue
                if obj not in seen:
                    seen.add(obj)
                    out.append(_unknown(obj))
    return out


def _unknown(what: str, elsewhere: bool = False) -> Unanswered:
    """`elsewhere`: a quantity of other experiments' laws (the mass of a
    block), none of which this one uses. (The report says both reasons in
    Chinese too: agent/offline/answer_phrases.py, na_no_law and na_not_here.)"""
    why = (
        "neither the data nor the laws this experiment uses give this quantity"
        if elsewhere
        else "no law in the catalogue has this quantity, so it cannot be computed from the data"
    )
    return Unanswered(what=what, why=why)
