"""A scripted model for end-to-end pipeline tests, driven by what each request asks.

The fake OpenAI-compatible server calls `ScriptedLab.answer` with every
request's messages; the answer depends on the task file the request carries
(explore has tools; the others are told apart by their task heading), so the
real pipeline runs unchanged against the real `openai` client over a socket.
Each behaviour a test wants to provoke is a small override.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from labwright.llm.client import LLMClient
from labwright.testing.fake_openai import FakeOpenAI, RecordedRequest, Turn
from labwright.testing.pytest_plugin import FAST_RETRY, fake_endpoint

DEFAULT_REPORT_HEADING = "## Template and default report written by code"

TASKS = {
    "# Task: write the report": "draft",
    "# Task: review the draft": "reflect",
    "# Task: revise one section": "scoped",
    "# Task: minimal revision of the whole report": "whole",
    "# Task: bibliography entries": "bibliography",
    "# Task: fix compile errors": "repair",
    "# Task: what is missing": "gaps",
}

HALLIDAY = "@book{halliday,\n  author = {Halliday, David},\n  title = {Fundamentals of Physics},\n  publisher = {Wiley},\n  year = {2013}\n}\n"


def task_of(messages: list[dict[str, Any]], request: RecordedRequest) -> str:
    if request.body.get("tools"):
        return "explore"
    # The task is in the latest user message that carries one (a retry appends
    # an instruction after it).
    for message in reversed(messages):
        if message.get("role") != "user":
            continue
        for heading, name in TASKS.items():
            if heading in (message.get("content") or ""):
                return name
    return "unknown"


def default_report(messages: list[dict[str, Any]]) -> str:
    text = next(
        m["content"]
        for m in messages
        if m.get("role") == "user" and DEFAULT_REPORT_HEADING in (m.get("content") or "")
    )
    start = text.index("\\documentclass", text.index(DEFAULT_REPORT_HEADING))
    end = text.rindex("\\end{document}") + len("\\end{document}")
    return text[start:end]


def section_of(messages: list[dict[str, Any]]) -> str:
    return messages[-1]["content"].split("## Section\n", 1)[1]


def document_of(messages: list[dict[str, Any]], heading: str) -> str:
    return messages[-1]["content"].split(heading, 1)[1].strip()


@dataclass
class ScriptedLab:
    """A well-behaved model; tests override single behaviours."""

    calls: dict[str, int] = field(default_factory=dict)
    overrides: dict[str, Callable[[list[dict[str, Any]], int], Turn | str]] = field(
        default_factory=dict
    )

    def answer(self, messages: list[dict[str, Any]], request: RecordedRequest) -> Turn | str:
        task = task_of(messages, request)
        n = self.calls.get(task, 0)
        self.calls[task] = n + 1
        if task in self.overrides:
            return self.overrides[task](messages, n)
        return getattr(self, f"_{task}")(messages, n)

    def _explore(self, messages: list[dict[str, Any]], n: int) -> Turn:
        script = [
            Turn.tool("list_dir", {"path": "."}),
            Turn.tool("read_file", {"path": "notes.md"}),
            Turn.tool(
                "finish_exploration",
                {
                    "experiment": "simple pendulum",
                    "goal": "measure g",
                    "key_findings": ["T^2 is linear in L"],
                },
            ),
        ]
        return script[min(n, len(script) - 1)]

    def _gaps(self, messages: list[dict[str, Any]], n: int) -> str:
        return json.dumps({"gaps": ["the stopwatch reaction time is not stated"]})

    def _draft(self, messages: list[dict[str, Any]], n: int) -> str:
        report = default_report(messages)
        return report.replace(
            "\\end{document}",
            "\\section{Error analysis}\nThe period follows the textbook relation \\cite{halliday}; "
            "timing scatter dominates the uncertainty.\n\\end{document}",
        )

    def _reflect(self, messages: list[dict[str, Any]], n: int) -> str:
        if n == 0:
            return json.dumps(
                {
                    "changes": [
                        {
                            "section": "n0",
                            "issue": "aim is terse",
                            "action": "state what is measured",
                        }
                    ]
                }
            )
        return json.dumps({"changes": []})

    def _scoped(self, messages: list[dict[str, Any]], n: int) -> str:
        section = section_of(messages).rstrip()
        return section + "\n\nThe quantity measured is the period of the pendulum.\n"

    def _whole(self, messages: list[dict[str, Any]], n: int) -> str:
        return document_of(messages, "## Report\n")

    def _bibliography(self, messages: list[dict[str, Any]], n: int) -> str:
        return HALLIDAY

    def _repair(self, messages: list[dict[str, Any]], n: int) -> str:
        return re.sub(r"\\undefinedmacroxyz", "", document_of(messages, "## Document\n"))

    def _unknown(self, messages: list[dict[str, Any]], n: int) -> str:
        return "I do not know this task."


@pytest.fixture
def lab(fake_llm: FakeOpenAI) -> ScriptedLab:
    scripted = ScriptedLab()
    fake_llm.on_messages(scripted.answer)
    return scripted


@pytest.fixture
def client(fake_llm: FakeOpenAI) -> Iterator[LLMClient]:
    with LLMClient(fake_endpoint(fake_llm), retry=FAST_RETRY, timeout=5.0) as c:
        yield c


@pytest.fixture
def pendulum(tmp_path: Path, examples_dir: Path) -> Path:
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    return folder
