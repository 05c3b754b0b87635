"""The trust panel says a number's computation in the window's language.

The record keeps each computation in English (the compendium matches on the
exact phrase); the route adds its Chinese form from the same phrase
catalogue the numbers appendix uses, or None where the catalogue has no
whole form (the window then shows the English, never half a translation).
"""

from __future__ import annotations

from labwright.server.routes.provenance import ProvenanceNumber


def test_a_covered_computation_has_its_chinese_form() -> None:
    n = ProvenanceNumber(
        printed="9.825", value=9.825, computation="sample standard deviation (ddof=1)"
    )
    assert n.computation_zh == "样本标准差（ddof=1）"
    assert n.computation == "sample standard deviation (ddof=1)"  # the record's key unchanged


def test_a_phrase_outside_the_catalogue_has_none() -> None:
    n = ProvenanceNumber(
        printed="1", value=1.0, computation="something no shape covers, frobnicated"
    )
    assert n.computation_zh is None


def test_the_form_travels_in_the_json() -> None:
    dumped = ProvenanceNumber(printed="3", value=3.0, computation="mean").model_dump()
    assert dumped["computation_zh"] == "平均值"
