"""LLM settings: provider, models, and API keys that can be written but never read.

A key goes straight to the OS keychain (labwright.llm.keys); no response, log
line or file of ours ever contains it. Reading settings tells only whether a
key is stored.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Response, status

from labwright.llm.errors import LLMConfigError
from labwright.llm.keys import delete_api_key, has_api_key, set_api_key
from labwright.llm.providers import PRESETS
from labwright.llm.settings import LLMSettings, load_settings, save_settings
from labwright.server.schemas import ErrorBody, KeyIn, LLMSettingsIn, LLMSettingsOut, ProviderOut

router = APIRouter(prefix="/settings/llm", tags=["settings"])

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
    summary="Store a provider's API key in the OS keychain (write-only)",
)
def put_key(provider: str, body: KeyIn) -> Response:
    try:
        set_api_key(_provider(provider), body.api_key.strip())
    except LLMConfigError:
        raise HTTPException(
            503, "The system keychain refused the key; unlock the keychain and try again."
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
