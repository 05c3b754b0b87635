"""Whether a clause asks for something, and whether it says not to.

A quantity named in a theory paragraph ("the Michaelis constant is the
substrate concentration at half the maximum rate") is not asked for; the
same name after "determine", under a "Tasks" heading, in a question, or in a
terse list of quantities ("Km, Vmax?") is. Past participles describe the
procedure ("the absorbance was measured"), so only the imperative, the
infinitive, the gerund and the noun of the asking verbs count, and "is to be
determined".
"""

from __future__ import annotations

import re

from labwright.analysis.request_rules.text import Clause

_ASK_EN = re.compile(
    r"\b(?:find|determine|measure|calculate|compute|estimate|obtain|extract|deduce|derive|"
    r"evaluate|report|give|quantify|work out|get|want|wanted|need|fit|identify|extrapolate|"
    r"locate|predict|infer|compare|check|verify|test|examine|investigate|study|"
    r"finding|determining|measuring|calculating|computing|estimating|obtaining|extracting|"
    r"deriving|evaluating|reporting|fitting|predicting|comparing|"
    r"determination|measurement|calculation|computation|estimation|evaluation|extraction|"
    r"aim|aims|goal|goals|objective|task|tasks|required|requested|please|"
    r"what (?:is|are|was|were)|what's|how (?:big|large|long|much|fast|many|high|strong)|"
    r"(?:is|are|must be|should be|to be|will be|has to be|have to be) "
    r"(?:found|determined|measured|calculated|estimated|obtained|reported|computed|given|"
    r"extracted|fitted|compared))\b",
    re.I,
)
_ASK_ZH = re.compile(
    r"求|测定|测出|测算|测量(?!了)|计算|算出|得到|得出|确定|估计|估算|拟合|给出|"
    r"要求|目标|目的|任务|需要|多少|多大|分析|比较|验证|检验|研究|预测|报告"
)
_QUESTION = re.compile(r"[?？]")
_NEGATION = re.compile(
    r"\b(?:no need to|not needed|not required|not necessary|not asked|don't|do not|"
    r"does not need|need not|needn't|without (?:computing|calculating|fitting|finding)|"
    r"there is no need|is not part)\b|不需要|无需|不用|不必|不要求|不要|不计算|不必计算",
    re.I,
)


# Verbs that ask in the imperative but state with a subject before them:
# "Reference tables give about 41 µV/K", "we get 9.7", "the books list ...".
_STATES_AFTER_SUBJECT = frozenset({"give", "report", "get", "want", "need", "test", "check"})
_SUBJECT_BEFORE = re.compile(
    r"\b(?:tables?|literature|references?|handbooks?|books?|textbooks?|manufacturers?|"
    r"datasheets?|sources?|values?|we|they|it|which|that|these|those|i|you)\s+$",
    re.I,
)


def asks(clause: Clause) -> str | None:
    """The words that make the clause a request, or None."""
    for pattern in (_ASK_EN, _ASK_ZH, _QUESTION):
        for m in pattern.finditer(clause.text):
            if m.group(0).lower() in _STATES_AFTER_SUBJECT and _SUBJECT_BEFORE.search(
                clause.text[: m.start()]
            ):
                continue  # a statement of what someone gives, not a request
            return m.group(0)
    if clause.under_request_heading:
        return clause.heading
    return None


def negated_before(clause: Clause, position: int) -> bool:
    """A negation earlier in the clause than `position` ("no need to fit the
    intercept"); a negation after it belongs to something else."""
    m = _NEGATION.search(clause.text, 0, position)
    return m is not None


def is_list_of_terms(clause: Clause, spans: list[tuple[int, int]]) -> bool:
    """A clause that is nothing but the terms found ("Km, Vmax?", "t½ and
    λ"), with separators and at most a few glue words around them. One term
    alone is a title ("Background"), not a list, unless it is a question."""
    if len(set(spans)) < 2 and "?" not in clause.text and "？" not in clause.text:
        return False
    rest = clause.text
    for start, end in set(spans):
        rest = rest[:start] + " " * (end - start) + rest[end:]  # same length: spans stay valid
    rest = re.sub(
        r"(?i)\b(?:and|or|the|with|its|their|plus)\b|[,;:.?!()\[\]/&+、，；：。？和与及\s-]",
        "",
        rest,
    )
    return len(rest) <= 3


# What a request is computed from, not what it asks: "find Ea from the rate
# constants", "using the period", "由速率常数求活化能".
_SOURCE_EN = re.compile(
    r"\b(?:from|using|with|by means of|based on|given|out of|via|through|against|versus|vs\.?|"
    r"subtract(?:ing)?|correct(?:ing|ed)? for|remove|removing|after removing)\b",
    re.I,
)
_SOURCE_ZH = re.compile(r"由|根据|从|利用|通过|用|依据|减去|扣除|去除")


def source_spans(clause: Clause) -> list[tuple[int, int]]:
    """Spans of the clause that name what the result is computed from: after
    "from"/"using" up to the next asking verb; in Chinese between 由/根据
    and the verb that follows."""
    text = clause.text
    out: list[tuple[int, int]] = []
    for m in _SOURCE_EN.finditer(text):
        nxt = _ASK_EN.search(text, m.end())
        out.append((m.start(), nxt.start() if nxt else len(text)))
    for m in _SOURCE_ZH.finditer(text):
        nxt = _ASK_ZH.search(text, m.end())
        if nxt is not None:
            out.append((m.start(), nxt.start()))
    return out
