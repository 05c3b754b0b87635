"""Typed errors of the LLM layer.

Callers (the pipeline, the server) catch `LLMError` and show `user_message`:
one plain sentence saying what happened plus one action. The raw provider
detail stays in `detail` for the log, which never contains an API key because
the `openai` client does not echo keys in its errors.
"""

from __future__ import annotations


class LLMError(Exception):
    """Base of every error the LLM layer raises on purpose."""

    #: One sentence for the user: what happened and what to do.
    user_message: str = "The language model call failed; try again or switch to offline mode."
    #: Whether the client's retry loop may try the same request again.
    retryable: bool = False

    def __init__(self, detail: str = "", *, status: int | None = None) -> None:
        super().__init__(detail or self.user_message)
        self.detail = detail
        self.status = status

    def __str__(self) -> str:
        return f"{self.user_message} ({self.detail})" if self.detail else self.user_message


class LLMConfigError(LLMError):
    user_message = (
        "No usable language model is configured; add an API key in Settings or use offline mode."
    )


class LLMAuthError(LLMError):
    user_message = "The provider rejected the API key; check the key in Settings."


class LLMBadRequest(LLMError):
    user_message = "The provider refused the request as invalid; check the model name in Settings."


class LLMRateLimited(LLMError):
    user_message = "The provider is rate-limiting this key; wait a minute and try again."
    retryable = True

    def __init__(
        self, detail: str = "", *, status: int | None = 429, retry_after: float | None = None
    ) -> None:
        super().__init__(detail, status=status)
        self.retry_after = retry_after


class LLMServerError(LLMError):
    user_message = "The provider had a server error; try again in a moment."
    retryable = True


class LLMConnectionError(LLMError):
    user_message = "The provider could not be reached or dropped the connection; check your network and try again."
    retryable = True


class LLMTimeout(LLMError):
    user_message = (
        "The provider did not answer in time; try again or raise the timeout in Settings."
    )
    retryable = True


class LLMEmptyResponse(LLMError):
    user_message = "The model returned an empty answer; try again or pick another model."
    retryable = True


class LLMCancelled(LLMError):
    user_message = "The model call was cancelled; start the step again when you are ready."


class MalformedToolArguments(LLMError):
    """Attached to a ToolCall (not raised) so the agent can feed it back to the model."""

    user_message = (
        "The model called a tool with arguments that are not valid JSON; it will be asked to retry."
    )


class ModelCallBlocked(AssertionError):
    """Raised in tests when code tries to reach a model that is not the fake server.

    Deliberately not an LLMError: product code that degrades on LLMError must
    not be able to swallow it (the test guard also fails the test at teardown).
    """
