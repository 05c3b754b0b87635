"""End-to-end runs of the LLM pipeline against the fake OpenAI-compatible server.

The real `openai` client talks to the fake over a socket; the scripted model
(conftest.ScriptedLab) answers by task, and each test overrides one behaviour.
Assertions are properties: a PDF exists, gates fired, calls were bounded,
progress is consecutive; never exact model strings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from labwright.agent.events import (
    Done,
    Event,
    GateDecision,
    Milestone,
    ToolCall,
    UsageRecorded,
    Warning_,
)
from labwright.agent.pipeline import AgentOptions, run_agent
from labwright.latex.engine import resolve_engine
from labwright.testing.fake_openai import CutStream, FakeOpenAI, Hang, RateLimit, ServerError, Turn

from .conftest import ScriptedLab, default_report, document_of

needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="XeLaTeX is not installed")
pytestmark = [needs_tex, pytest.mark.smoke]


def run(
    folder: Path, out: Path, client: Any, **options: Any
) -> tuple[list[Event], list[tuple[str, str]]]:
    versions: list[tuple[str, str]] = []
    events = list(
        run_agent(
            folder,
            out,
            client,
            AgentOptions(**options),
            save_version=lambda content, summary, origin: versions.append((summary, content)),
        )
    )
    assert_progress_complete(events)  # in every run: consecutive milestones ending at total
    return events, versions


def assert_progress_complete(events: list[Event]) -> None:
    milestones = [e for e in events if isinstance(e, Milestone)]
    assert [m.index for m in milestones] == list(range(1, milestones[0].total + 1))
    assert all(m.total == milestones[0].total for m in milestones)
    assert sum(isinstance(e, Done) for e in events) == 1 and isinstance(events[-1], Done)


def gates(events: list[Event], name: str) -> list[GateDecision]:
    return [e for e in events if isinstance(e, GateDecision) and e.gate == name]


def test_happy_path_ends_with_a_pdf_and_versions(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, fake_llm: FakeOpenAI
) -> None:
    events, versions = run(pendulum, tmp_path / "out", client)
    done = events[-1]
    assert isinstance(done, Done)
    assert done.pdf_path and Path(done.pdf_path).stat().st_size > 0
    assert [summary for summary, _ in versions][:2] == ["First draft", "Reflection round 1"]
    assert "The quantity measured is the period" in versions[1][1]
    assert_progress_complete(events)
    # The model's entry for \cite{halliday} could not be checked (checks are off
    # in tests): it is not cited, and one sentence says so.
    assert not (tmp_path / "out" / "refs.bib").exists()
    assert any(isinstance(e, Warning_) and "halliday" in e.message for e in events)
    assert "halliday" not in (tmp_path / "out" / "main.tex").read_text(encoding="utf-8")
    record = json.loads((tmp_path / "out" / "citations.json").read_text(encoding="utf-8"))
    assert [(v["key"], v["verdict"], v["cited"]) for v in record["verdicts"]] == [
        ("halliday", "unverifiable", False)
    ]
    # Exploration ran on the cheap tier, drafting on the main tier.
    models = {r.model for r in fake_llm.chat_requests if r.body.get("tools")}
    assert models == {"fake-cheap"}
    assert gates(events, "structure_score")
    # Every model call is accounted for, priced per model.
    usage = [e for e in events if isinstance(e, UsageRecorded)]
    assert len(usage) == len(fake_llm.chat_requests)
    assert {u.model for u in usage} == {"fake-main", "fake-cheap"}


def test_a_bib_in_the_folder_closes_citations_without_the_model(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    from .conftest import HALLIDAY

    (pendulum / "refs.bib").write_text(HALLIDAY, encoding="utf-8")
    events, _ = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    assert "bibliography" not in lab.calls
    done = events[-1]
    assert isinstance(done, Done)
    assert not any("Citation without an entry" in p for p in done.problems)
    assert "Unverified" not in (tmp_path / "out" / "refs.bib").read_text(encoding="utf-8")


def test_a_model_reference_an_index_holds_is_cited_from_its_record(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labwright.config import data_dir
    from labwright.testing.fake_scholar import FakeScholar
    from labwright.testing.scholar_corpus import Work

    halliday = Work(
        "W9100000001",
        ("Fundamentals of Physics",),
        (("Halliday", "David"), ("Resnick", "Robert"), ("Walker", "Jearl")),
        2013,
        publisher="Wiley",
        crossref_type="book",
        in_crossref=False,
    )
    with FakeScholar((halliday,), rate_limit=(50, "1s")) as fake:
        settings = {
            "network": True,
            "crossref_url": fake.crossref_url,
            "openalex_url": fake.openalex_url,
        }
        (data_dir().root / "citation_settings.json").write_text(
            json.dumps(settings), encoding="utf-8"
        )
        events, _ = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    bib = (tmp_path / "out" / "refs.bib").read_text(encoding="utf-8")
    assert "Resnick" in bib and "Unverified" not in bib  # the index's record, not the model's
    assert "\\cite{halliday}" in (tmp_path / "out" / "main.tex").read_text(encoding="utf-8")
    record = json.loads((tmp_path / "out" / "citations.json").read_text(encoding="utf-8"))
    assert record["verdicts"][0]["verdict"] == "verified" and record["network"] == "on"
    assert record["verdicts"][0]["evidence"]["source"] == "openalex"


def test_without_a_bib_and_without_a_model_answer_the_citation_gap_is_reported(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    lab.overrides["bibliography"] = lambda m, n: "I cannot help with that."
    events, _ = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    done = events[-1]
    assert isinstance(done, Done)
    assert "Citation without an entry: halliday" in done.problems


def test_collapsing_model_is_broken_out_of_within_six_calls(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, fake_llm: FakeOpenAI
) -> None:
    lab.overrides["explore"] = lambda messages, n: Turn.tool("read_file", {"path": "notes.md"})
    events, _ = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    explore_calls = [r for r in fake_llm.chat_requests if r.body.get("tools")]
    assert len(explore_calls) <= 6
    assert any(isinstance(e, Warning_) and "cut off" in e.message for e in events)
    assert sum(isinstance(e, ToolCall) for e in events) == 5
    assert isinstance(events[-1], Done) and events[-1].pdf_path
    assert_progress_complete(events)


def test_draft_with_tool_markup_is_retried(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    def draft(messages: list[dict[str, Any]], n: int) -> str:
        report = default_report(messages)
        if n == 0:
            return report.replace(
                "\\end{document}", '<tool_call>{"name": "read_file"}</tool_call>\n\\end{document}'
            )
        return report

    lab.overrides["draft"] = draft
    events, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    contract = gates(events, "draft_contract")
    assert [g.accepted for g in contract] == [False, True]
    assert "<tool_call>" not in versions[0][1]
    assert lab.calls["draft"] == 2


def test_reflection_that_drops_a_section_is_reverted_and_stops(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    lab.overrides["reflect"] = lambda m, n: json.dumps(
        {"changes": [{"section": "whole", "issue": "long", "action": "shorten"}]}
    )

    def whole(messages: list[dict[str, Any]], n: int) -> str:
        doc = document_of(messages, "## Report\n")
        start = doc.index("\\section", doc.index("\\section") + 1)
        end = doc.index("\\section", start + 1)
        return doc[:start] + doc[end:]

    lab.overrides["whole"] = whole
    events, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=2)
    regression = gates(events, "regression")
    assert len(regression) == 1 and not regression[0].accepted
    assert any("fewer sections" in r for r in regression[0].reasons)
    assert [s for s, _ in versions if s.startswith("Reflection")] == []
    assert lab.calls["reflect"] == 1
    assert_progress_complete(events)


def test_scoped_fragment_that_adds_a_section_is_skipped(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    lab.overrides["scoped"] = lambda messages, n: (
        messages[-1]["content"].split("## Section\n", 1)[1] + "\n\\section{Extra}\nNew.\n"
    )
    events, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=1)
    scoped = gates(events, "scoped_fragment")
    assert scoped and not scoped[0].accepted
    assert (
        gates(events, "regression")[0].reasons == ["converged"]
        or not gates(events, "regression")[0].accepted
    )
    assert all("\\section{Extra}" not in content for _, content in versions)


def test_compile_error_is_repaired_in_one_round(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    lab.overrides["draft"] = lambda m, n: default_report(m).replace(
        "\\end{document}", "\\undefinedmacroxyz\n\\end{document}"
    )
    events, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    assert lab.calls["repair"] == 1
    done = events[-1]
    assert isinstance(done, Done) and done.ok and done.pdf_path
    assert "\\undefinedmacroxyz" not in Path(done.tex_path or "").read_text(encoding="utf-8")
    assert versions[-1][0] == "Compile repair"


def test_repeated_compile_error_stops_after_one_round(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    lab.overrides["draft"] = lambda m, n: default_report(m).replace(
        "\\end{document}", "\\undefinedmacroxyz\n\\end{document}"
    )
    lab.overrides["repair"] = lambda m, n: document_of(m, "## Document\n")
    events, _ = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    assert lab.calls["repair"] == 1
    assert any("no progress" in r for g in gates(events, "repair") for r in g.reasons)
    done = events[-1]
    assert isinstance(done, Done) and not done.ok and done.pdf_path  # a PDF, honestly flagged


@pytest.mark.parametrize(
    "fault",
    [RateLimit(retry_after="0"), ServerError(500), Hang(seconds=8.0), CutStream(after_chunks=1)],
    ids=["429", "500", "timeout", "cut-stream"],
)
def test_provider_failing_everywhere_degrades_to_the_offline_report(
    pendulum: Path, tmp_path: Path, client: Any, fake_llm: FakeOpenAI, fault: Any
) -> None:
    fake_llm.on_messages(lambda messages, request: Turn.failing(fault))
    events, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=1)
    done = events[-1]
    assert isinstance(done, Done)
    assert done.pdf_path and Path(done.pdf_path).is_file()
    assert any("offline writer" in p for p in done.problems)
    assert versions and versions[0][0].startswith("Offline report")
    assert_progress_complete(events)


def test_transient_faults_are_retried_and_the_run_finishes(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, fake_llm: FakeOpenAI
) -> None:
    # One fault before each of the first three successful calls: every one is retried.
    faults = {0: RateLimit(retry_after="0"), 2: ServerError(502), 4: CutStream(after_chunks=1)}
    seen = [0]
    scripted = lab.answer

    def flaky(messages: list[dict[str, Any]], request: Any) -> Turn | str:
        index = seen[0]
        seen[0] += 1
        fault = faults.get(index)
        return Turn.failing(fault) if fault is not None else scripted(messages, request)

    fake_llm.on_messages(flaky)
    events, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=1)
    done = events[-1]
    assert isinstance(done, Done) and done.pdf_path
    assert not any("offline writer" in p for p in done.problems)
    assert versions[0][0] == "First draft"


def test_unsourced_number_in_the_draft_is_reported(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    lab.overrides["draft"] = lambda m, n: default_report(m).replace(
        "\\end{document}", "The bob weighed 123.456 grams.\n\\end{document}"
    )
    run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    check = json.loads((tmp_path / "out" / "number_check.json").read_text(encoding="utf-8"))
    assert "123.456" in check["unsourced"]


def test_the_draft_keeps_copied_number_tags_and_loses_forged_ones(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    """The number-tag gate on the model's draft: copied tags of the default
    report survive (the PDF links them); a tag for an invented number, or one
    whose digits the model changed, is removed before any version is saved."""
    import re

    from labwright.verify.tags import find_tags

    def draft(messages: list[dict[str, Any]], n: int) -> str:
        report = default_report(messages)
        first = find_tags(report)[0]
        return report.replace(
            "\\end{document}",
            f"Forged $\\lwnum{{00ff00ff00}}{{123.456}}$ and altered "
            f"$\\lwnum{{{first.id}}}{{{first.printed}9}}$.\n\\end{{document}}",
        )

    lab.overrides["draft"] = draft
    _, versions = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    record = json.loads((tmp_path / "out" / "provenance.json").read_text(encoding="utf-8"))
    known = {e["id"]: e["printed"] for e in record["numbers"]}
    for _summary, content in versions:
        found = find_tags(content)
        assert found and all(known.get(t.id) == t.printed for t in found)
        assert "00ff00ff00" not in content and re.search(r"Forged \$123\.456\$", content)


def test_cancelling_mid_draft_stops_the_stream_and_ends_the_run(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab
) -> None:
    import threading

    from labwright.agent.events import DraftChunk

    slow = lab._draft
    lab.overrides["draft"] = lambda m, n: Turn.text(slow(m, n), chunk_chars=8, chunk_delay=0.05)
    cancel = threading.Event()
    events: list[Event] = []
    for event in run_agent(
        pendulum, tmp_path / "out", client, AgentOptions(reflect_rounds=1), cancel=cancel
    ):
        events.append(event)
        if isinstance(event, DraftChunk):
            cancel.set()
    chunks = [e for e in events if isinstance(e, DraftChunk)]
    done = events[-1]
    assert isinstance(done, Done) and done.outcome == "cancelled" and not done.problems
    # The stream was abandoned long before its end: the draft is thousands of
    # characters, streamed 8 at a time.
    assert len(chunks) < 50
    assert "reflect" not in lab.calls
    assert_progress_complete(events)


@pytest.mark.parametrize(
    "fault", [ServerError(500), CutStream(after_chunks=1)], ids=["500", "cut-stream"]
)
def test_failing_provider_leaves_the_store_consistent(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, fake_llm: FakeOpenAI, fault: Any
) -> None:
    """Persist a run the way the server does (events, versions, usage) while the
    provider fails from the draft on: the run finishes and the database is whole."""
    import sqlite3

    from labwright.store import Store

    scripted = lab.answer
    fake_llm.on_messages(
        lambda m, r: (
            Turn.failing(fault)
            if "# Task: write the report" in (m[-1].get("content") or "") or lab.calls.get("draft")
            else scripted(m, r)
        )
    )
    store = Store.open(tmp_path / "home")
    try:
        session = store.create_session(str(pendulum))
        run_row = store.start_run(session.id)
        for event in run_agent(
            pendulum,
            tmp_path / "out",
            client,
            AgentOptions(reflect_rounds=1),
            save_version=lambda content, summary, origin: store.add_version(
                session.id, content, summary=summary, origin=origin, run_id=run_row.id
            ),
        ):
            store.append_event(run_row.id, event)
            if isinstance(event, UsageRecorded):
                store.record_usage(
                    session.id,
                    model=event.model,
                    prompt_tokens=event.prompt_tokens,
                    cached_tokens=event.cached_tokens,
                    completion_tokens=event.completion_tokens,
                    cost=event.cost,
                    step=event.step,
                    run_id=run_row.id,
                )
        store.finish_run(run_row.id, "done")
        events = store.events_after(run_row.id, 0)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert events[-1].type == "done"
        versions = store.list_versions(session.id)
        assert versions and all(store.get_version(v.id).content for v in versions)
        assert versions[0].change_summary.startswith("Offline report")  # the fault was hit
        assert store.get_run(run_row.id).status == "done"
        assert store.usage_totals(session_id=session.id).prompt_tokens > 0
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "home" / "labwright.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_folder_is_read_once_and_each_unreadable_file_reported_once(
    pendulum: Path, tmp_path: Path, client: Any, lab: ScriptedLab, monkeypatch: pytest.MonkeyPatch
) -> None:
    import labwright.ingest.read as ingest_read

    (pendulum / "broken.mat").write_bytes(b"MATLAB 5.0 MAT-file, truncated")
    reads: list[Path] = []
    real_read_folder = ingest_read.read_folder

    def counting(root: Path, inventory: Any = None) -> Any:
        reads.append(root)
        return real_read_folder(root, inventory)

    monkeypatch.setattr(ingest_read, "read_folder", counting)
    events, _ = run(pendulum, tmp_path / "out", client, reflect_rounds=0)
    assert len(reads) == 1
    broken = [e for e in events if isinstance(e, Warning_) and "broken.mat" in e.message]
    assert len(broken) == 1 and broken[0].message.count("broken.mat") == 1
