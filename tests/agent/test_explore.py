"""The tool loop against the fake server: reminder, nudge, break, budget."""

from pathlib import Path
from typing import Any

from labwright.agent.events import Step, Warning_
from labwright.agent.explore import REMINDER, explore
from labwright.agent.explore_tools import ExploreTools
from labwright.agent.loop_breaker import NUDGE_MESSAGE
from labwright.testing.fake_openai import FakeOpenAI, Turn


def _messages() -> list[dict[str, Any]]:
    return [{"role": "system", "content": "explore"}, {"role": "user", "content": "go"}]


def test_a_turn_without_tools_gets_one_reminder(
    tmp_path: Path, client: Any, fake_llm: FakeOpenAI
) -> None:
    fake_llm.script(Turn.text("I think it is a pendulum."), Turn.text("Still thinking."))
    messages = _messages()
    events = list(explore(client, ExploreTools(tmp_path), messages))
    assert [m["content"] for m in messages if m["role"] == "user"].count(REMINDER) == 1
    assert len(fake_llm.chat_requests) == 2
    assert isinstance(events[-1], Step)


def test_the_nudge_is_injected_once_and_the_fifth_repeat_breaks(
    tmp_path: Path, client: Any, fake_llm: FakeOpenAI
) -> None:
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    fake_llm.on_messages(lambda messages, req: Turn.tool("read_file", {"path": "a.txt"}))
    tools = ExploreTools(tmp_path)
    messages = _messages()
    events = list(explore(client, tools, messages))
    assert len(fake_llm.chat_requests) == 5
    assert [m.get("content") for m in messages].count(NUDGE_MESSAGE) == 1
    assert isinstance(events[-1], Warning_) and tools.exploration.broke_loop


def test_malformed_arguments_are_fed_back(
    tmp_path: Path, client: Any, fake_llm: FakeOpenAI
) -> None:
    fake_llm.script(
        Turn.tool("read_file", "{not json"),
        Turn.tool("finish_exploration", {"experiment": "e", "goal": "g", "key_findings": []}),
    )
    messages = _messages()
    list(explore(client, ExploreTools(tmp_path), messages))
    tool_results = [m["content"] for m in messages if m["role"] == "tool"]
    assert "not a JSON object" in tool_results[0]


def test_the_budget_caps_varied_calls(tmp_path: Path, client: Any, fake_llm: FakeOpenAI) -> None:
    counter = iter(range(100))
    fake_llm.on_messages(lambda m, r: Turn.tool("list_dir", {"path": f"./{next(counter)}"}))
    list(explore(client, ExploreTools(tmp_path), _messages(), max_iterations=7))
    assert len(fake_llm.chat_requests) == 7
