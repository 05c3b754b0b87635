"""Deterministic checks of a report: citation closure, number provenance, structure score."""

from labwright.verify.citations import CitationReport, bib_keys, citation_closure, cite_keys
from labwright.verify.numbers import NumberReport, check_numbers, extract_numbers
from labwright.verify.score import StructureScore, score_report

__all__ = [
    "CitationReport",
    "NumberReport",
    "StructureScore",
    "bib_keys",
    "check_numbers",
    "citation_closure",
    "cite_keys",
    "extract_numbers",
    "score_report",
]
