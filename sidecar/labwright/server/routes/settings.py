"""LLM settings: provider, models, and API keys that can be written but never read.

A key goes to the OS keychain, or where there is none to a user-only file
(labwright.llm.keys); no response or log line of ours ever contains it.
Reading settings tells only whether a key is stored, and where keys live.

A malformed request body is answered with the field and the rule it broke,
never with FastAPI's default body, which echoes the submitted input (for the
key route, the key itself).
"""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, HTTPException, Response, status
from pydantic import BaseModel

from labwright.llm.detect import detect_local_servers
from labwright.llm.errors import LLMConfigError, LLMError
from labwright.llm.keys import delete_api_key, has_api_key, key_storage, set_api_key
from labwright.llm.providers import PRESETS
from labwright.llm.settings import LLMSettings, load_settings, save_settings
from labwright.server.routes.noecho import NoEchoRoute
from labwright.server.schemas import ErrorBody, KeyIn, LLMSettingsIn, LLMSettingsOut, ProviderOut

router = APIRouter(prefix="/settings/llm", tags=["settings"], route_class=NoEchoRoute)


class LocalServerOut(BaseModel):
    provider: str
    base_url: str
    models: list[str]


class ConnectionTestOut(BaseModel):
    ok: bool
    model: str = ""
    message: str = ""


_UNKNOWN: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}


def _out(settings: LLMSettings) -> LLMSettingsOut:
    providers = [
        ProviderOut(
            id=p.id,
            label=p.label,
            base_url=p.base_url,
            models=dict(p.models),
            local=p.local,
            needs_key=p.needs_key,
            has_key=has_api_key(p.id),
        )
        for p in PRESETS.values()
    ]
    return LLMSettingsOut(
        provider=settings.provider,
        base_url=settings.base_url,
        models=dict(settings.models),
        offline=settings.offline,
        local_detection=settings.local_detection,
        providers=providers,
        key_storage=key_storage(),
    )


def _provider(provider: str) -> str:
    if provider not in PRESETS:
        raise HTTPException(404, "This provider is not known; pick one from the settings list.")
    return provider


@router.get("", response_model=LLMSettingsOut)
def get_llm_settings() -> LLMSettingsOut:
    return _out(load_settings())


@router.put("", response_model=LLMSettingsOut, responses=_UNKNOWN)
def put_llm_settings(body: LLMSettingsIn) -> LLMSettingsOut:
    _provider(body.provider)
    current = load_settings()
    updated = current.model_copy(
        update={
            "provider": body.provider,
            "base_url": body.base_url or None,
            "models": {k: v for k, v in body.models.items() if v},
            "offline": body.offline,
            "local_detection": body.local_detection,
        }
    )
    save_settings(LLMSettings.model_validate(updated.model_dump()))
    return _out(load_settings())


@router.put(
    "/keys/{provider}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses={**_UNKNOWN, 503: {"model": ErrorBody}},
    summary="Store a provider's API key in the OS keychain, else a user-only file (write-only)",
)
def put_key(provider: str, body: KeyIn) -> Response:
    try:
        set_api_key(_provider(provider), body.api_key.strip())
    except LLMConfigError:
        raise HTTPException(
            503,
            "Neither the system keychain nor the key file took the key; check the data folder's permissions and try again.",
        ) from None
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/keys/{provider}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=_UNKNOWN,
)
def delete_key(provider: str) -> Response:
    delete_api_key(_provider(provider))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/local", response_model=list[LocalServerOut])
async def local_servers() -> list[LocalServerOut]:
    """Local model servers answering on their usual ports, only while detection is on
    (probing ports unasked is surprising on a shared machine; the page saves the
    setting when the user ticks it)."""
    enabled = load_settings().local_detection
    found = await to_thread.run_sync(lambda: detect_local_servers(enabled=enabled))
    return [
        LocalServerOut(provider=s.provider, base_url=s.base_url, models=list(s.models))
        for s in found
    ]


@router.post(
    "/test",
    response_model=ConnectionTestOut,
    summary="Send one tiny request to the configured model (nothing is recorded)",
)
async def test_connection() -> ConnectionTestOut:
    from labwright.llm.client import LLMClient
    from labwright.llm.retry import RetryPolicy
    from labwright.llm.settings import resolve_endpoint

    endpoint = resolve_endpoint(load_settings())
    if endpoint is None:
        return ConnectionTestOut(
            ok=False,
            message="No usable model is set up; pick a provider and a model, and store its key.",
        )

    def ping() -> ConnectionTestOut:
        with LLMClient(endpoint, timeout=30.0, retry=RetryPolicy(max_retries=0)) as client:
            try:
                client.chat([{"role": "user", "content": "Reply with the word OK."}], max_tokens=5)
            except LLMError as exc:  # the client redacts the key from its errors
                return ConnectionTestOut(ok=False, model=endpoint.models.main, message=str(exc))
        return ConnectionTestOut(ok=True, model=endpoint.models.main)

    return await to_thread.run_sync(ping)
