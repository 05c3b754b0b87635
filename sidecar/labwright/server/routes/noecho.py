"""A route class whose validation errors never repeat the request's input.

FastAPI's default 422 body echoes what was sent: for the key route that is the
key itself, for an upload the file's bytes. This one answers with the field
and the rule it broke, in one sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute


class NoEchoRoute(APIRoute):
    """Validation errors say which field broke which rule, and never repeat the input."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                first = exc.errors()[0] if exc.errors() else {}
                where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
                rule = str(first.get("msg", "is not valid"))
                raise HTTPException(
                    422, f"The field {where} is not valid ({rule}); correct it and send again."
                ) from None

        return guarded
