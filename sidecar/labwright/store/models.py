"""The typed records the store returns. Frozen: a record is a snapshot of a
row at read time, never a handle that writes back."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, get_args

VersionOrigin = Literal["generated", "reflected", "repaired", "manual", "restored", "accepted"]
ProposalStatus = Literal["pending", "accepted", "rejected"]
ProposalScope = Literal["section", "whole", "bib", "abstract", "keywords"]
RunStatus = Literal["queued", "running", "done", "failed", "cancelled", "interrupted"]
MessageRole = Literal["user", "assistant", "system"]

VERSION_ORIGINS: tuple[str, ...] = get_args(VersionOrigin)
PROPOSAL_SCOPES: tuple[str, ...] = get_args(ProposalScope)
RUN_STATUSES: tuple[str, ...] = get_args(RunStatus)
ACTIVE_RUN_STATUSES: tuple[str, ...] = ("queued", "running")
FINAL_RUN_STATUSES: tuple[str, ...] = ("done", "failed", "cancelled", "interrupted")
MESSAGE_ROLES: tuple[str, ...] = get_args(MessageRole)

#: Field metadata: the column holds JSON text (store._base.from_row decodes it).
JSON_COLUMN = {"column": "json"}


@dataclass(frozen=True)
class Session:
    id: int
    source_path: str
    # JSON value as given to create_session (usually a list of files)
    inventory: Any = field(metadata=JSON_COLUMN)
    title: str
    language: str
    genre: str
    created_at: datetime


@dataclass(frozen=True)
class VersionInfo:
    """A version without its content, for listings."""

    id: int
    session_id: int
    version_no: int
    change_summary: str
    parent_id: int | None
    origin: str
    run_id: int | None
    sha256: str
    size_bytes: int  # UTF-8 bytes of content
    created_at: datetime


@dataclass(frozen=True)
class Version(VersionInfo):
    content: str = field(default="", repr=False)
    #: The .bib the report cites from, part of the version (None: a version made
    #: before bibliographies were versioned, or one whose build had none yet).
    bibliography: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Proposal:
    id: int
    session_id: int
    base_version_id: int
    char_start: int
    char_end: int
    old_text: str
    new_text: str
    status: str
    scope: str
    target: str  # what the edit addresses, e.g. a section key; for display only
    summary: str
    created_at: datetime
    decided_at: datetime | None
    result_version_id: int | None  # the version an accept produced
    #: The base's bibliography and what the proposal makes of it (both None: it
    #: leaves the bibliography as it is). Accepting needs the base's to be `bib_old`.
    bib_old: str | None = None
    bib_new: str | None = None


@dataclass(frozen=True)
class Run:
    id: int
    session_id: int
    kind: str
    status: str
    plan: Any = field(metadata=JSON_COLUMN)  # the milestones planned before the run started
    error: str
    cancel_requested: bool
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_RUN_STATUSES


@dataclass(frozen=True)
class RunEvent:
    run_id: int
    seq: int  # 1, 2, 3 ... per run, without gaps
    type: str
    # the event as `labwright.agent.events.event_to_dict` made it
    payload: dict[str, Any] = field(metadata=JSON_COLUMN)
    created_at: datetime


@dataclass(frozen=True)
class Message:
    id: int
    session_id: int
    role: str
    content: str
    version_id: int | None
    proposal_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class UsageRow:
    id: int
    session_id: int
    run_id: int | None
    step: str
    model: str
    prompt_tokens: int
    cached_tokens: int  # part of prompt_tokens served from the provider's cache
    completion_tokens: int
    cost: float  # 0 when not priced
    created_at: datetime
    priced: bool = True  # False: the model had no price, so `cost` is unknown


@dataclass(frozen=True)
class UsageTotals:
    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0  # of the priced calls only
    unpriced_calls: int = 0  # calls whose cost is unknown (model not in the price table)
