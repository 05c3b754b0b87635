"""Typed errors of the LLM layer.

Callers (the pipeline, the server) catch `LLMError` and show `user_message`:
one plain sentence saying what happened plus one action. The raw provider
detail stays in `detail` for the log, which never contains an API key because
the `openai` client does not echo keys in its errors.
"""

from __future__ import annotations

from labwright.messages import say


class LLMError(Exception):
    """Base of every error the LLM layer raises on purpose."""

    #: One sentence for the user: what happened and what to do.
    user_message: str = say("llm.failed")
    #: Whether the client's retry loop may try the same request again.
    retryable: bool = False

    def __init__(self, detail: str = "", *, status: int | None = None) -> None:
        super().__init__(detail or self.user_message)
        self.detail = detail
        self.status = status

    def __str__(self) -> str:
        return f"{self.user_message} ({self.detail})" if self.detail else self.user_message


class LLMConfigError(LLMError):
    user_message = say("llm.no_config")


class LLMAuthError(LLMError):
    user_message = say("llm.auth")


class LLMBadRequest(LLMError):
    user_message = say("llm.bad_request")


class LLMRateLimited(LLMError):
    user_message = say("llm.rate_limited")
    retryable = True

    def __init__(
        self, detail: str = "", *, status: int | None = 429, retry_after: float | None = None
    ) -> None:
        super().__init__(detail, status=status)
        self.retry_after = retry_after


class LLMServerError(LLMError):
    user_message = say("llm.server_error")
    retryable = True


class LLMConnectionError(LLMError):
    user_message = say("llm.connection")
    retryable = True


class LLMTimeout(LLMError):
    user_message = say("llm.timeout")
    retryable = True


class LLMEmptyResponse(LLMError):
    user_message = say("llm.empty")
    retryable = True


class LLMCancelled(LLMError):
    user_message = say("llm.cancelled")


class MalformedToolArguments(LLMError):
    """Attached to a ToolCall (not raised) so the agent can feed it back to the model."""

    user_message = say("llm.bad_tool_arguments")


class ModelCallBlocked(AssertionError):
    """Raised in tests when code tries to reach a model that is not the fake server.

    Deliberately not an LLMError: product code that degrades on LLMError must
    not be able to swallow it (the test guard also fails the test at teardown).
    """
