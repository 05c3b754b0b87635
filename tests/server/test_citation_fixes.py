"""A corrected reference becomes a proposal on the version's bibliography: the verdict
comes from the resolver against the fake indexes (real sockets), the proposal
through the API, decided by the proposals routes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from labwright.agent.citation_check import CITATIONS_JSON
from labwright.store.artifacts import run_dir
from labwright.testing.fake_scholar import FakeScholar
from labwright.verify.bibtex import parse_bib
from labwright.verify.resolve import Resolver
from labwright.verify.settings import CitationSettings

#: The year is wrong (the index holds 2015) and the DOI right: "corrected".
TYPO = "@article{lecun, author={LeCun, Yann}, title={Deep learning}, journal={Nature}, year={2014}, doi={10.1038/nature14539}}"
RIGHT = "@article{watson, author={Watson, J. D. and Crick, F. H. C.}, title={Molecular structure of nucleic acids}, journal={Nature}, year={1953}}"
BIB = f"% my references\n{TYPO}\n\n{RIGHT}\n"


def _version_with_verdicts(app: Any, folder: Path) -> tuple[int, int]:
    """A session whose version 1 came out of a run that recorded the check's verdicts."""
    store = app.state.ctx.store
    session = store.create_session(str(folder))
    run = store.start_run(session.id)
    store.add_version(session.id, "\\cite{lecun,watson}", run_id=run.id, bibliography=BIB)
    store.finish_run(run.id, "done")
    parsed = parse_bib(BIB)
    with FakeScholar() as fake:
        settings = CitationSettings(
            contact_email="lab@example.org",
            crossref_url=fake.crossref_url,
            openalex_url=fake.openalex_url,
        )
        verdicts = Resolver.from_settings(settings, None).check(
            parsed.entries, source=parsed, file="refs.bib"
        )
    assert [v.verdict for v in verdicts] == ["corrected", "verified"]
    build = run_dir(app.state.ctx.data, session.id, run.id)
    build.mkdir(parents=True, exist_ok=True)
    record = {"network": "on", "verdicts": [v.to_json() for v in verdicts]}
    (build / CITATIONS_JSON).write_text(json.dumps(record), encoding="utf-8")
    return session.id, 1


def test_a_corrected_reference_becomes_a_proposal_on_the_bibliography(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid, no = _version_with_verdicts(app, data_folder)
    answer = client.post(
        f"/api/sessions/{sid}/versions/{no}/citations/lecun/proposal", headers=auth
    )
    assert answer.status_code == 201, answer.text
    proposal = answer.json()
    assert proposal["scope"] == "bib" and proposal["target"] == "lecun"
    assert proposal["bib_old"] == BIB
    new = parse_bib(proposal["bib_new"]).by_key()
    assert new["lecun"].get("year") == "2015"
    assert proposal["bib_new"].startswith("% my references\n")  # the rest of the file as written
    assert new["watson"].raw == parse_bib(BIB).by_key()["watson"].raw
    assert proposal["new_text"] == "" and proposal["char_start"] == proposal["char_end"] == 0
    listed = client.get(f"/api/sessions/{sid}/proposals", headers=auth).json()
    assert [p["id"] for p in listed] == [proposal["id"]]
    rejected = client.post(f"/api/proposals/{proposal['id']}/reject", headers=auth)
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"


def test_only_a_corrected_reference_in_the_bibliography_can_be_proposed(
    make_client: Any, auth: dict[str, str], data_folder: Path
) -> None:
    app, client = make_client()
    sid, no = _version_with_verdicts(app, data_folder)
    base = f"/api/sessions/{sid}/versions/{no}/citations"
    verified = client.post(f"{base}/watson/proposal", headers=auth)
    assert verified.status_code == 404 and "watson" in verified.json()["detail"]
    assert verified.json()["text"]["key"] == "cite.no_correction"
    unknown = client.post(f"{base}/nobody/proposal", headers=auth)
    assert unknown.status_code == 404
    missing = client.post(f"/api/sessions/{sid}/versions/9/citations/lecun/proposal", headers=auth)
    assert missing.status_code == 404
