"""The real openai client against the fake server: streaming, tools, every fault, cancellation."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from labwright.llm import (
    LLMAuthError,
    LLMBadRequest,
    LLMCancelled,
    LLMClient,
    LLMConnectionError,
    LLMEmptyResponse,
    LLMError,
    LLMRateLimited,
    LLMServerError,
    LLMTimeout,
    MalformedToolArguments,
    RetryPolicy,
    UsageLedger,
)
from labwright.llm.providers import Endpoint, TierModels
from labwright.testing import (
    CutStream,
    Drop,
    FakeOpenAI,
    Hang,
    HTTPStatus,
    RateLimit,
    ServerError,
    Turn,
)
from labwright.testing.pytest_plugin import fake_endpoint

USER = [{"role": "user", "content": "Summarise the measurement."}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file from the data folder.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
    }
]


@pytest.mark.parametrize("stream", [False, True])
def test_plain_answer_round_trip(client: LLMClient, fake_llm: FakeOpenAI, stream: bool) -> None:
    text = "The resistance rises linearly with temperature over the measured range."
    fake_llm.script(Turn(text))
    seen: list[str] = []
    result = client.chat(USER, stream=stream, on_delta=seen.append)
    assert result.content == text
    assert result.finish_reason == "stop"
    assert result.attempts == 1
    if stream:
        assert len(seen) > 1 and "".join(seen) == text
    sent = fake_llm.chat_requests[0]
    assert sent.messages == USER
    assert sent.model == "fake-main"
    assert sent.stream is stream
    assert sent.headers["authorization"] == "Bearer sk-test-not-a-real-key"


def test_tiers_choose_models_and_fall_back_to_main(fake_llm: FakeOpenAI) -> None:
    from labwright.llm import Endpoint, TierModels

    fake_llm.script("a", "b", "c")
    both = LLMClient(fake_endpoint(fake_llm), retry=RetryPolicy(max_retries=0))
    both.chat(USER, tier="cheap")
    main_only = LLMClient(Endpoint("fake", fake_llm.base_url, TierModels(main="only-main"), "k"))
    main_only.chat(USER, tier="cheap")
    main_only.chat(USER, tier="vision")
    assert [r.model for r in fake_llm.chat_requests] == ["fake-cheap", "only-main", "only-main"]


@pytest.mark.parametrize("stream", [False, True])
def test_tool_calls_are_parsed(client: LLMClient, fake_llm: FakeOpenAI, stream: bool) -> None:
    fake_llm.script(
        Turn(tool_calls=[{"name": "read_file", "arguments": {"path": "data/温度.csv"}, "id": "c1"}])
    )
    result = client.chat(USER, tools=TOOLS, stream=stream)
    assert len(result.tool_calls) == 1
    call = result.tool_calls[0]
    assert (call.id, call.name, call.arguments, call.error) == (
        "c1",
        "read_file",
        {"path": "data/温度.csv"},
        None,
    )
    assert result.finish_reason == "tool_calls"
    assert fake_llm.chat_requests[0].body["tools"] == TOOLS
    # The assistant message can be appended to the history for the next turn.
    msg = result.as_message()
    assert msg["tool_calls"][0]["function"]["name"] == "read_file"


@pytest.mark.parametrize("stream", [False, True])
def test_non_json_tool_arguments_surface_as_typed_error(
    client: LLMClient, fake_llm: FakeOpenAI, stream: bool
) -> None:
    fake_llm.script(Turn.tool("read_file", '{"path": "a.csv",'))
    result = client.chat(USER, tools=TOOLS, stream=stream)
    call = result.tool_calls[0]
    assert call.arguments is None
    assert isinstance(call.error, MalformedToolArguments)
    assert "JSON" in call.feedback() and "read_file" in call.feedback()


def test_fenced_tool_arguments_are_accepted(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(Turn.tool("read_file", '```json\n{"path": "b.csv"}\n```'))
    assert client.chat(USER, tools=TOOLS).tool_calls[0].arguments == {"path": "b.csv"}


@pytest.mark.parametrize(
    "markup",
    [
        'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "x.csv"}}\n</tool_call>',
        "Let me look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n"
        '```json\n{"path": "x.csv"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    ],
)
@pytest.mark.parametrize("stream", [False, True])
def test_tool_markup_in_content_is_recovered(
    client: LLMClient, fake_llm: FakeOpenAI, markup: str, stream: bool
) -> None:
    fake_llm.script(Turn(markup))
    result = client.chat(USER, tools=TOOLS, stream=stream)
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("read_file", {"path": "x.csv"})]
    assert result.tool_calls[0].from_markup
    assert "tool" not in result.content and result.content == "Let me look."
    assert result.warnings


@pytest.mark.parametrize("stream", [False, True])
def test_429_honours_retry_after_then_succeeds(
    make_client, fake_llm: FakeOpenAI, stream: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    real_wait = threading.Event.wait

    def spy(self: threading.Event, timeout: float | None = None) -> bool:
        if timeout is not None:
            waits.append(timeout)
        return real_wait(self, 0)

    monkeypatch.setattr(threading.Event, "wait", spy)
    fake_llm.script(Turn.failing(RateLimit("2")), Turn("ok after rate limit"))
    result = make_client().chat(USER, stream=stream)
    assert result.content == "ok after rate limit" and result.attempts == 2
    assert len(fake_llm.chat_requests) == 2
    assert waits and waits[0] >= 2.0  # never earlier than the server asked


def test_429_with_retry_after_too_long_gives_up_at_once(make_client, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(Turn.failing(RateLimit("3600")), Turn("never sent"))
    with pytest.raises(LLMRateLimited) as info:
        make_client().chat(USER)
    assert info.value.retry_after == 3600
    assert len(fake_llm.chat_requests) == 1


@pytest.mark.parametrize("status", [500, 502, 503])
def test_5xx_is_retried(client: LLMClient, fake_llm: FakeOpenAI, status: int) -> None:
    fake_llm.script(Turn.failing(ServerError(status)), Turn("recovered"))
    assert client.chat(USER).content == "recovered"
    assert len(fake_llm.chat_requests) == 2


def test_persistent_5xx_becomes_one_typed_error(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(*[Turn.failing(ServerError(500))] * 3, Turn("too late"))
    with pytest.raises(LLMServerError) as info:
        client.chat(USER)
    assert len(fake_llm.chat_requests) == 3  # 1 + FAST_RETRY.max_retries
    assert info.value.user_message.endswith(".")


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, LLMBadRequest),
        (404, LLMBadRequest),
        (422, LLMBadRequest),
        (401, LLMAuthError),
        (403, LLMAuthError),
    ],
)
def test_other_4xx_are_not_retried(
    client: LLMClient, fake_llm: FakeOpenAI, status: int, error: type
) -> None:
    fake_llm.script(Turn.failing(HTTPStatus(status)), Turn("must not be used"))
    with pytest.raises(error):
        client.chat(USER)
    assert len(fake_llm.chat_requests) == 1


@pytest.mark.parametrize("stream", [False, True])
def test_hang_past_timeout_is_retried_then_typed(
    make_client, fake_llm: FakeOpenAI, stream: bool
) -> None:
    client = make_client(timeout=0.3)
    fake_llm.script(Turn.failing(Hang(5)), Turn("answered"))
    assert client.chat(USER, stream=stream).content == "answered"
    fake_llm.reset()
    fake_llm.script(*[Turn.failing(Hang(5))] * 3)
    with pytest.raises(LLMTimeout):
        client.chat(USER, stream=stream)
    assert len(fake_llm.chat_requests) == 3


def test_stream_cut_midway_is_retried_and_caller_told_to_restart(
    client: LLMClient, fake_llm: FakeOpenAI
) -> None:
    text = "A long answer that will be cut after a few chunks and then sent again in full."
    fake_llm.script(Turn(text, fault=CutStream(after_chunks=3)), Turn(text))
    shown: list[str] = []
    restarts: list[int] = []

    def restart() -> None:
        restarts.append(1)
        shown.clear()

    result = client.chat(USER, stream=True, on_delta=shown.append, on_restart=restart)
    assert result.content == text and result.attempts == 2
    assert restarts == [1]
    assert "".join(shown) == text  # no duplicated prefix on screen


def test_stream_cut_every_time_is_one_typed_error(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(*[Turn("partial answer text here", fault=CutStream(2))] * 3)
    with pytest.raises(LLMConnectionError):
        client.chat(USER, stream=True)


def test_dropped_connection_is_retried(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(Turn.failing(Drop()), Turn("after drop"))
    assert client.chat(USER).content == "after drop"


def test_unreachable_server_is_connection_error(
    fake_llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labwright.testing import fake_openai

    endpoint = fake_endpoint(fake_llm)
    netloc = fake_llm.netloc
    fake_llm.stop()
    monkeypatch.setattr(fake_openai, "RUNNING", {netloc})  # the guard would block it otherwise
    with pytest.raises(LLMConnectionError):
        LLMClient(endpoint, retry=RetryPolicy(max_retries=1, base=0.01)).chat(USER)


@pytest.mark.parametrize("stream", [False, True])
def test_empty_answer_retried_then_typed(
    client: LLMClient, fake_llm: FakeOpenAI, ledger: UsageLedger, stream: bool
) -> None:
    fake_llm.script(Turn(""), Turn("second try has content"))
    assert client.chat(USER, stream=stream).content == "second try has content"
    fake_llm.script(*[Turn("")] * 3)
    with pytest.raises(LLMEmptyResponse):
        client.chat(USER, stream=stream)
    # Empty answers are still billed, so each one is in the ledger.
    assert len(ledger.records) == 5


def test_cancel_mid_stream(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    cancel = threading.Event()
    fake_llm.script(Turn("x" * 400, chunk_chars=4, chunk_delay=0.01))
    seen: list[str] = []

    def on_delta(text: str) -> None:
        seen.append(text)
        if len(seen) == 3:
            cancel.set()

    with pytest.raises(LLMCancelled):
        client.chat(USER, stream=True, on_delta=on_delta, cancel=cancel)
    assert len(seen) == 3  # nothing delivered after the cancel


def test_cancel_during_backoff_stops_retrying(make_client, fake_llm: FakeOpenAI) -> None:
    client = make_client(retry=RetryPolicy(max_retries=5, base=30.0, cap=30.0))
    cancel = threading.Event()
    fake_llm.script(Turn.failing(ServerError(503)), Turn("never"))
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    try:
        with pytest.raises(LLMCancelled):
            client.chat(USER, cancel=cancel)
    finally:
        timer.cancel()
    assert len(fake_llm.chat_requests) == 1


def test_cancel_before_send_sends_nothing(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(LLMCancelled):
        client.chat(USER, cancel=cancel)
    assert fake_llm.chat_requests == []


def test_every_error_is_an_llm_error_with_a_plain_sentence() -> None:
    from labwright.llm import errors

    classes = [
        obj for obj in vars(errors).values() if isinstance(obj, type) and issubclass(obj, LLMError)
    ]
    assert len(classes) >= 10
    for cls in classes:
        msg = cls.user_message
        assert msg.endswith(".") and msg.count(". ") == 0, cls
        assert "\n" not in msg


def test_usage_is_recorded_with_step_and_hash(
    client: LLMClient, fake_llm: FakeOpenAI, ledger: UsageLedger
) -> None:
    fake_llm.script(Turn("answer", prompt_tokens=1000, completion_tokens=50, cached_tokens=600))
    client.chat(USER, step="draft", prompt_hash="abc123")
    (rec,) = ledger.records
    assert (rec.step, rec.prompt_hash, rec.model, rec.tier) == (
        "draft",
        "abc123",
        "fake-main",
        "main",
    )
    assert (
        rec.usage.prompt_tokens,
        rec.usage.cached_prompt_tokens,
        rec.usage.completion_tokens,
    ) == (1000, 600, 50)
    assert "sk-test" not in repr(rec) and "sk-test" not in str(rec.to_dict())


def test_missing_usage_is_estimated_and_flagged(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    fake_llm.script(Turn("an answer without usage", usage_shape="none"))
    result = client.chat(USER, stream=True)
    assert result.usage.estimated and result.usage.prompt_tokens > 0


def test_broken_usage_sink_does_not_lose_the_answer(fake_llm: FakeOpenAI) -> None:
    def sink(_: object) -> None:
        raise RuntimeError("database locked")

    fake_llm.script("kept")
    client = LLMClient(fake_endpoint(fake_llm), usage_sink=sink)
    assert client.chat(USER).content == "kept"


def test_api_key_never_in_logs(
    client: LLMClient, fake_llm: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    fake_llm.script(Turn.failing(ServerError(500)), Turn.failing(HTTPStatus(401)))
    with pytest.raises(LLMAuthError) as info:
        client.chat(USER)
    assert "sk-test-not-a-real-key" not in caplog.text
    assert "sk-test-not-a-real-key" not in str(info.value)
    assert "sk-test-not-a-real-key" not in repr(client.endpoint)


def test_key_echoed_by_the_provider_is_redacted_everywhere(
    client: LLMClient, fake_llm: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    """Some compatible servers echo the rejected key in their 401 body."""
    import traceback

    key = client.endpoint.api_key
    assert key
    caplog.set_level("DEBUG")
    fake_llm.script(Turn.failing(HTTPStatus(401, message=f"Incorrect API key provided: {key}")))
    with pytest.raises(LLMAuthError) as info:
        client.chat(USER)
    shown = "".join(traceback.format_exception(info.value))
    assert "Incorrect API key provided" in info.value.detail  # the rest of the body is kept
    for text in (str(info.value), repr(info.value), info.value.detail, shown, caplog.text):
        assert key not in text


def test_cancel_while_waiting_for_a_non_streaming_answer(
    make_client, fake_llm: FakeOpenAI, ledger: UsageLedger
) -> None:
    client = make_client(timeout=30.0)
    cancel = threading.Event()
    fake_llm.script(Turn.failing(Hang(30)))
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    try:
        with pytest.raises(LLMCancelled):
            client.chat(USER, cancel=cancel)  # returns long before the 30 s timeout
    finally:
        timer.cancel()
    assert len(fake_llm.chat_requests) == 1
    assert ledger.records == []  # the hung call produced no answer, so nothing was billed


def test_non_streaming_with_cancel_event_still_answers(
    client: LLMClient, fake_llm: FakeOpenAI
) -> None:
    fake_llm.script(Turn.failing(ServerError(500)), Turn("fine"))
    assert client.chat(USER, cancel=threading.Event()).content == "fine"


def test_callback_driven_fake_sees_the_conversation(
    client: LLMClient, fake_llm: FakeOpenAI
) -> None:
    def answer(messages: list[dict], request) -> Turn | str:  # type: ignore[no-untyped-def]
        last = messages[-1]["content"]
        if messages[-1]["role"] == "tool":
            return f"file has {len(last)} characters"
        return Turn.tool("read_file", {"path": "notes.md"})

    fake_llm.on_messages(answer)
    conversation = list(USER)
    first = client.chat(conversation, tools=TOOLS)
    conversation += [first.as_message()]
    conversation += [{"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": "x" * 12}]
    second = client.chat(conversation, tools=TOOLS)
    assert second.content == "file has 12 characters"
    assert [len(r.messages) for r in fake_llm.chat_requests] == [1, 3]
    assert all(r.size > 0 for r in fake_llm.chat_requests)


def test_unscripted_request_fails_loudly_without_retry(
    client: LLMClient, fake_llm: FakeOpenAI
) -> None:
    with pytest.raises(LLMBadRequest):
        client.chat(USER)
    assert fake_llm.unscripted == 1


def test_markup_without_tools_is_left_for_the_callers_contract(
    client: LLMClient, fake_llm: FakeOpenAI
) -> None:
    text = 'Body text.\n<tool_call>{"name": "read_file", "arguments": {}}</tool_call>'
    fake_llm.script(Turn(text))
    result = client.chat(USER)  # a draft call: no tools offered
    assert result.content == text and result.tool_calls == []


def test_asyncio_cancellation_stops_the_call(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    import asyncio

    fake_llm.script(Turn("y" * 2000, chunk_chars=4, chunk_delay=0.01))
    seen: list[str] = []
    three = threading.Event()

    def on_delta(text: str) -> None:
        seen.append(text)
        if len(seen) >= 3:
            three.set()

    async def main() -> None:
        task = asyncio.create_task(client.achat(USER, stream=True, on_delta=on_delta))
        assert await asyncio.to_thread(three.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    count = len(seen)
    threading.Event().wait(0.3)  # give a runaway worker time to show itself
    assert len(seen) - count <= 1  # the worker stopped at the next chunk boundary
    assert len(seen) < 2000 // 4


def test_achat_returns_the_answer(client: LLMClient, fake_llm: FakeOpenAI) -> None:
    import asyncio

    fake_llm.script("async answer")
    assert asyncio.run(client.achat(USER)).content == "async answer"


# -- malformed 200 answers ------------------------------------------------------
# The openai package does not validate a successful body, and "OpenAI-compatible"
# servers vary. These bodies cannot be scripted through FakeOpenAI (it only
# speaks well-formed JSON), so a minimal raw server serves them.


@contextmanager
def _raw_server(body: bytes, content_type: str) -> Iterator[str]:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from labwright.testing import fake_openai

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self.send_response(200)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    netloc = f"127.0.0.1:{server.server_port}"
    fake_openai.RUNNING.add(netloc)  # lets the model-call guard through, as for the fake
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{netloc}/v1"
    finally:
        fake_openai.RUNNING.discard(netloc)
        server.shutdown()
        server.server_close()
        thread.join(5)


def _sse(*chunks: str) -> bytes:
    return "".join(f"data: {c}\n\n" for c in (*chunks, "[DONE]")).encode()


_OK = '"finish_reason": "stop"'
MALFORMED = [
    ("no-message", b'{"choices": [{"message": null, "finish_reason": "stop"}]}', False),
    ("empty-choice", b'{"choices": [{}]}', False),
    (
        "number-content",
        b'{"choices": [{"message": {"content": 5}, "finish_reason": "stop"}]}',
        False,
    ),
    (
        "usage-not-a-number",
        b'{"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}],'
        b' "usage": {"prompt_tokens": "many"}}',
        False,
    ),
    ("stream-number-content", _sse('{"choices": [{"delta": {"content": 5}, ' + _OK + "}]}"), True),
    (
        "stream-usage-not-a-number",
        _sse(
            '{"choices": [{"delta": {"content": "hi"}, ' + _OK + "}],"
            ' "usage": {"prompt_tokens": "many"}}'
        ),
        True,
    ),
]


@pytest.mark.parametrize(
    ("body", "stream"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_malformed_answers_become_one_typed_error(body: bytes, stream: bool) -> None:
    content_type = "text/event-stream" if stream else "application/json"
    with _raw_server(body, content_type) as base_url:
        endpoint = Endpoint("custom", base_url, TierModels(main="m"), api_key="sk-raw-test-key")
        with LLMClient(endpoint, retry=RetryPolicy(max_retries=1, base=0.01, cap=0.02)) as client:
            with pytest.raises(LLMServerError) as info:
                client.chat(USER, stream=stream)
    assert info.value.retryable and info.value.user_message


def test_a_short_placeholder_key_does_not_shred_error_text(fake_llm: FakeOpenAI) -> None:
    """Local servers take any key; redacting "x" would cut it out of every word."""
    endpoint = Endpoint("ollama", fake_llm.base_url, TierModels(main="m"), api_key="x")
    fake_llm.script(Turn.failing(HTTPStatus(400, message="bad max_tokens value")))
    with LLMClient(endpoint, retry=RetryPolicy(max_retries=0)) as client:
        with pytest.raises(LLMBadRequest) as info:
            client.chat(USER)
    assert "bad max_tokens value" in info.value.detail
