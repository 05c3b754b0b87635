"""Values to compare the result with that name no quantity.

"Compare it with the accepted value 299792.458 km/s", "the literature value
is 2.55 min", "与公认值 9.80 m/s² 比较", "理论值为 1.333": the sentence says
what the value is for (a comparison) but not of what, or names it in words
no catalogue entry knows ("the speed of light"). `constants.py` reads the
values whose subject the catalogue names; these are the rest. Which answer
a free reference belongs to is only known once the answers are: the
result of the same dimension the notes ask (`analysis/references.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labwright.analysis.request import Evidence, ExpectedValue, GivenConstant
from labwright.analysis.request_rules.text import Notes
from labwright.analysis.request_rules.values import mask_file_names, measured_at

#: The quantity of an expected value whose subject the notes leave to the
#: reader ("compare it with ..."): the answer is found by its dimension.
FREE = ""

_KIND_EN = (
    r"accepted|literature|expected|reference|textbook|tabulated|theoretical|true|published|"
    r"standard|book|handbook|known|CODATA|NIST"
)
_BEFORE_VALUE = (
    r"\s*(?:is|was|of|=|≈|:|,)?\s*(?:about|approximately|roughly|around|close to|taken as)?\s*"
)
_REFERENCE = re.compile(
    # "the accepted value (of the speed of light) (is) 299792.458 km/s"
    r"\b(?:" + _KIND_EN + r")\s+values?"
    r"(?:\s+(?:of|for)\s+(?:the\s+)?[A-Za-z][\w'’ -]{0,40}?)?" + _BEFORE_VALUE + r"(?=[-+(]?\.?\d)"
    # "(lit. 0.5 mM)", "literature: 1.333", "ref. 9.81 m/s²"
    r"|\b(?:lit\.|literature|ref\.|reference)\s*[:：]?" + _BEFORE_VALUE + r"(?=[-+(]?\.?\d)"
    # "it should be about 0.5 mM", "we expect about 9 V", "expected to be 4"
    r"|\b(?:should\s+be|ought\s+to\s+be|expected\s+to\s+be|(?:we|you)\s+(?:would\s+)?expect)"
    r"\s*(?:about|approximately|roughly|around|close\s+to|near)?\s*(?=[-+(]?\.?\d)"
    # "compare it with 9.81 m/s²", "compare with the nominal 47 µF"
    r"|\bcompar\w*\s+(?:it|them|this|these|the\s+result|your\s+result|the\s+value)?\s*"
    r"(?:with|to|against)\s+(?:the\s+)?(?:(?:" + _KIND_EN + r"|nominal|rated|quoted)\s+)?"
    r"(?:value\s+(?:of\s+)?)?(?=[-+(]?\.?\d)"
    # "与公认值 9.80 m/s² 比较", "理论值为 1.333", "文献值约 0.5 mM", "文献值（K9 玻璃）约 1.516"
    r"|(?:公认值|理论值|参考值|标准值|文献值|真值|手册值)\s*(?:[（(][^）)]{1,20}[）)])?\s*"
    r"(?:为|是|约为|约|应为|=|＝|:|：|≈)?\s*(?=[-+(]?\.?\d)"
    r"|与\s*(?=[-+(]?\.?\d)",
    re.I,
)
# The forms that say the value is a reference ("accepted value", "理论值"):
# these may be unitless (a refractive index); a bare "compare with" needs a unit.
_NAMED = re.compile(
    r"(?:" + _KIND_EN + r")\s+value|\blit\.|\bliterature\b|\bref\.|公认值|理论值|参考值|标准值|"
    r"文献值|真值|手册值",
    re.I,
)
# "与 9.80 m/s² 比较": only a comparison when 比较/对比/相比 follows the value.
_ZH_COMPARE_AFTER = re.compile(r"\s*(?:的?\s*(?:比较|对比|相比|比对))")


def free_references(
    notes: Notes, taken: Sequence[ExpectedValue], constants: Sequence[GivenConstant]
) -> list[ExpectedValue]:
    """The comparison values the notes give without a subject the catalogue
    names; a value already read as a constant or as a named expected value is
    not read twice."""
    known = {(e.evidence.source, e.value) for e in taken}
    known |= {(c.evidence.source, c.value) for c in constants}
    out: list[ExpectedValue] = []
    for clause in notes.clauses:
        text = mask_file_names(clause.text)
        for m in _REFERENCE.finditer(text):
            value = measured_at(text, m.end())
            if value is None:
                continue
            bare = not _NAMED.match(m.group(0))
            # "compare with 20 swings", "与 12 组数据比较": a count, not a value.
            if bare and value.unit is None:
                continue
            if m.group(0).startswith("与") and not _ZH_COMPARE_AFTER.match(text, value.end):
                continue
            if (clause.source, value.value) in known:
                continue
            known.add((clause.source, value.value))
            out.append(
                ExpectedValue(
                    quantity=FREE,
                    model=None,
                    value=value.value,
                    uncertainty=value.uncertainty,
                    unit=value.unit,
                    evidence=Evidence(
                        source=clause.source,
                        phrase=clause.quote(m.start(), value.end),
                        reason="a value the notes give to compare the result with",
                    ),
                )
            )
    return out
