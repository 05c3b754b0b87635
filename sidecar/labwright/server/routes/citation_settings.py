"""Citation-check settings: network checks on or off, and the contact address for the
indexes' polite pools (verify/settings.py). The index addresses are not settable here:
they are the services the check is about, and a changed one is for tests and mirrors."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import ValidationError

from labwright.server.routes.noecho import NoEchoRoute
from labwright.server.schemas import CitationSettingsIn, CitationSettingsOut, ErrorBody
from labwright.verify.settings import (
    CitationSettings,
    load_citation_settings,
    save_citation_settings,
)

router = APIRouter(prefix="/settings/citations", tags=["settings"], route_class=NoEchoRoute)


def _out(settings: CitationSettings) -> CitationSettingsOut:
    return CitationSettingsOut(
        network=settings.network,
        contact_email=settings.contact_email,
        cache_days=settings.cache_days,
    )


@router.get("", response_model=CitationSettingsOut)
def get_citation_settings() -> CitationSettingsOut:
    return _out(load_citation_settings())


@router.put("", response_model=CitationSettingsOut, responses={422: {"model": ErrorBody}})
def put_citation_settings(body: CitationSettingsIn) -> CitationSettingsOut:
    current = load_citation_settings()
    try:
        updated = CitationSettings.model_validate(
            {**current.model_dump(), **body.model_dump(exclude_none=True)}
        )
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise HTTPException(
            422, f"The settings were not saved: {reason}; correct it and save again."
        ) from error
    save_citation_settings(updated)
    return _out(load_citation_settings())
