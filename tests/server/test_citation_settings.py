"""The citation settings route and the citation verdicts of the trust record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from labwright.server.routes.provenance import read_citations
from labwright.verify.settings import load_citation_settings


def test_network_checks_can_be_turned_off_and_a_contact_set(
    make_client: Any, auth: dict[str, str]
) -> None:
    _, client = make_client()
    assert (
        client.get("/api/settings/citations", headers=auth).json()["network"] is False
    )  # tests' default
    r = client.put(
        "/api/settings/citations",
        headers=auth,
        json={"network": True, "contact_email": "lab@example.org"},
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"network": True, "contact_email": "lab@example.org", "cache_days": 30.0}
    assert load_citation_settings().contact_email == "lab@example.org"
    r = client.put("/api/settings/citations", headers=auth, json={"network": False})
    assert r.json()["network"] is False and r.json()["contact_email"] == "lab@example.org"


def test_a_bad_contact_address_is_refused_in_one_sentence_and_nothing_saved(
    make_client: Any, auth: dict[str, str]
) -> None:
    _, client = make_client()
    r = client.put(
        "/api/settings/citations", headers=auth, json={"contact_email": "not an address"}
    )
    assert r.status_code == 422
    assert r.json()["detail"].startswith("The settings were not saved")
    assert load_citation_settings().contact_email == ""
    assert (
        client.put(
            "/api/settings/citations", headers=auth, json={"crossref_url": "http://x"}
        ).status_code
        == 422
    )


def test_the_trust_record_lists_every_verdict(tmp_path: Path) -> None:
    verdicts = [
        {
            "key": "a",
            "verdict": "verified",
            "reason": "Crossref holds this work.",
            "origin": "user",
            "file": "refs.bib",
            "evidence": {"source": "crossref", "record_id": "10.1/x", "doi": "10.1/x"},
            "matched": ["title"],
        },
        {
            "key": "b",
            "verdict": "corrected",
            "reason": "Its year differs.",
            "origin": "user",
            "differences": [{"field": "year", "entry": "2014", "record": "2015"}],
            "proposal": {"entry": "@article{b}", "diff": "-x\n+y\n"},
        },
        {
            "key": "c",
            "verdict": "not_found",
            "reason": "Likely invented.",
            "origin": "model",
            "cited": False,
        },
        {"key": "d", "verdict": "made up", "reason": "", "origin": "user"},
    ]
    (tmp_path / "citations.json").write_text(
        json.dumps({"network": "on", "verdicts": verdicts}), encoding="utf-8"
    )
    read = read_citations(tmp_path)
    assert [(c.key, c.verdict) for c in read] == [
        ("a", "verified"),
        ("b", "corrected"),
        ("c", "not_found"),
    ]
    assert read[1].proposal is not None and read[1].differences[0].record == "2015"
    assert read_citations(None) == [] and read_citations(tmp_path / "nowhere") == []
