"""Fixtures of the request tests: the small catalogue and a reader of notes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from labwright.analysis.request import AnalysisRequest
from labwright.analysis.request_rules import read_request
from labwright.ingest.types import Dataset, DocumentText, ReadResult

from .catalogue_fixture import CATALOGUE

Read = Callable[..., AnalysisRequest]


@pytest.fixture
def read() -> Read:
    def run(notes: str, *datasets: Dataset, name: str = "README.md") -> AnalysisRequest:
        folder = ReadResult(datasets=list(datasets), documents=[DocumentText(name, notes)])
        return read_request(folder, CATALOGUE)

    return run
