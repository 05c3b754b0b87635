"""Request and response bodies of the HTTP API.

These are the API's contract (they generate the OpenAPI schema the UI's
TypeScript types come from), kept apart from the store's records so the wire
format changes only on purpose. Request models forbid unknown fields: a typo in
a client is an error, not a silently ignored setting.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path as PathParam
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from labwright.agent.events import Event, Text

# Ids in paths are bounded so an absurd number is a 422, not an overflow in SQLite.
MAX_ID = 2**53
Id = Annotated[int, PathParam(ge=1, le=MAX_ID)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: A report language as the API takes it: "auto" (detected from the notes,
#: then the file and column names; "" is the same, for older clients) or a
#: fixed language.
ReportLanguage = Literal["", "auto", "en", "zh"]


class ErrorBody(BaseModel):
    detail: str
    text: Text | None = Field(default=None, description="The sentence's catalogue key.")


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str
    api: int = 1


# --- sessions ---------------------------------------------------------------


class SessionCreate(_Request):
    path: str = Field(
        min_length=1, max_length=4096, description="An existing folder on this machine."
    )
    title: str = Field(default="", max_length=300)
    language: ReportLanguage = "auto"


class SessionUpdate(_Request):
    language: ReportLanguage | None = None
    title: str | None = Field(default=None, max_length=300)


class LanguageOut(BaseModel):
    """The session's report language setting, and what "auto" decides for its folder now."""

    setting: Literal["auto", "en", "zh"]
    detected: Literal["en", "zh"]
    basis: Literal["chosen", "notes", "names", "default"]
    language: Literal["en", "zh"] = Field(description="What the next run writes in.")


class _FromStore(BaseModel):
    """An API view read straight from a store record (`Model.model_validate(record)`).

    One mapping per entity: the field names are the store's, so there is no
    hand-written converter to keep in step; a differently named or derived
    field says where it comes from next to its declaration.
    """

    model_config = ConfigDict(
        from_attributes=True, json_schema_serialization_defaults_required=True
    )


class SessionOut(_FromStore):
    id: int
    source_path: str
    title: str
    language: str
    genre: str
    created_at: datetime
    file_count: int = Field(validation_alias=AliasChoices("file_count", "inventory"))

    @field_validator("file_count", mode="before")
    @classmethod
    def _count_files(cls, value: object) -> object:
        # From a store record this is the inventory (a JSON list of files).
        if isinstance(value, int):
            return value
        return len(value) if isinstance(value, list) else 0


class InventoryEntry(BaseModel):
    path: str
    size: int | None = None
    sha256: str | None = None
    bucket: str | None = None
    note: str | None = None


class SessionDetail(SessionOut):
    inventory: list[InventoryEntry]

    @field_validator("inventory", mode="before")
    @classmethod
    def _inventory_list(cls, value: object) -> object:
        return value if isinstance(value, list) else []


# --- runs -------------------------------------------------------------------


class RunStart(_Request):
    language: ReportLanguage = Field(
        default="auto",
        description='"auto": the session\'s language when it fixes one, else detected.',
    )
    mode: Literal["auto", "offline", "llm"] = Field(
        default="auto",
        description="auto: the LLM agent when a model is configured and usable, else offline.",
    )


class RunOut(_FromStore):
    id: int
    session_id: int
    kind: str
    status: str
    error: str
    cancel_requested: bool
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    plan: Any = None


class RunEventOut(BaseModel):
    """One persisted event, as an SSE `data:` payload and in JSON listings.

    `payload` is the pipeline's own event union (labwright.agent.events), so the
    UI's generated types are the pipeline's types; `type` repeats its tag.
    """

    seq: int
    type: str
    payload: Event
    created_at: datetime


# --- versions and proposals --------------------------------------------------


class VersionSummary(_FromStore):
    id: int
    version_no: int
    change_summary: str
    parent_id: int | None
    origin: str
    run_id: int | None
    size: int = Field(validation_alias=AliasChoices("size", "size_bytes"))
    created_at: datetime
    has_pdf: bool = Field(False, description="Whether a PDF of exactly this version is kept.")


class VersionOut(VersionSummary):
    content: str
    #: The .bib the version cites from (null for versions made before it was versioned).
    bibliography: str | None = None


class ProposalOut(_FromStore):
    id: int
    session_id: int
    base_version_id: int
    char_start: int
    char_end: int
    old_text: str
    new_text: str
    status: str
    scope: str
    target: str
    summary: str
    created_at: datetime
    decided_at: datetime | None
    result_version_id: int | None
    #: The version's bibliography before and after (both null: the proposal leaves it alone).
    bib_old: str | None = None
    bib_new: str | None = None


class MessageOut(_FromStore):
    id: int
    role: str
    content: str
    version_id: int | None
    proposal_id: int | None
    created_at: datetime


class FigureOut(BaseModel):
    name: str
    size: int
    url: str


# --- settings ----------------------------------------------------------------


class ProviderOut(BaseModel):
    id: str
    label: str
    base_url: str
    models: dict[str, str]
    local: bool
    needs_key: bool
    has_key: bool = Field(description="Whether a key is stored; the key itself is never returned.")


class LLMSettingsOut(BaseModel):
    provider: str
    base_url: str | None
    models: dict[str, str]
    offline: bool
    local_detection: bool
    providers: list[ProviderOut]
    key_storage: Literal["keychain", "file"] = Field(
        "keychain", description="Where stored keys live: the system keychain, or a user-only file."
    )


class LLMSettingsIn(_Request):
    provider: str = Field(max_length=64)
    base_url: str | None = Field(default=None, max_length=2048)
    models: dict[Literal["main", "cheap", "vision"], str] = Field(default_factory=dict)
    offline: bool = False
    local_detection: bool = False


class CitationSettingsIn(_Request):
    network: bool | None = None
    contact_email: str | None = Field(default=None, max_length=320)
    cache_days: float | None = Field(default=None, ge=0, le=365)


class CitationSettingsOut(BaseModel):
    #: Look references up in Crossref and OpenAlex; off: the cache only.
    network: bool
    #: Sent as `mailto` to join the indexes' polite pools; empty: the public pool.
    contact_email: str
    cache_days: float


class KeyIn(_Request):
    api_key: str = Field(min_length=1, max_length=4096)


# --- usage and diagnostics ---------------------------------------------------


class UsageOut(_FromStore):
    calls: int
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    cost: float = Field(description="Cost of the priced calls.")
    unpriced_calls: int = Field(
        0, description="Calls whose model has no price in the price table; their cost is unknown."
    )
    by_step: dict[str, float] = Field(default_factory=dict, description="Cost per pipeline step.")


class DiagnosticsOut(BaseModel):
    """The last compile of a session, in plain sentences (one finding, one action each)."""

    run_id: int | None
    version_no: int | None
    compiled: bool = Field(description="Whether a PDF came out of the last compile.")
    degraded: bool = Field(description="True when the PDF is not what the source says.")
    error_count: int
    messages: list[str]
