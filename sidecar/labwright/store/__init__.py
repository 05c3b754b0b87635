"""Labwright's storage: SQLite in the per-user data directory.

Open once per process and share across threads::

    from labwright.store import Store
    store = Store.open()                 # or Store.open(path) / Store.open(DataDir)

Public API (all return the frozen records from `models`):

Sessions
    create_session(source_path, *, inventory=None, title="", language="auto", genre="lab_report") -> Session
    get_session(id) -> Session;  list_sessions() -> list[Session]  (newest first)
    update_session(id, *, title=None, language=None, genre=None) -> Session
    session_paths(id) -> config.SessionPaths  (figures/, builds/, exports/)
    delete_session(id) -> None  (rows + directory; AlreadyRunningError while a run is active)
Versions (immutable; numbered 1, 2, 3 ... per session)
    add_version(session_id, content, *, summary="", origin="generated", parent_id=None, run_id=None) -> Version
    get_version(id) -> Version;  get_version_by_no(session_id, no) -> Version
    latest_version(session_id) -> Version | None;  list_versions(session_id) -> list[VersionInfo]
    restore_version(id) -> Version  (a fork: new latest version, parent = the restored one)
Proposals
    propose_edit(session_id, base_version_id, char_start, char_end, new_text, *,
                 old_text=None, scope="section", target="", summary="") -> Proposal
    get_proposal(id);  list_proposals(session_id, *, status=None)
    accept_proposal(id) -> Version   (DecidedError | StaleBaseError)
    reject_proposal(id) -> Proposal  (DecidedError)
Runs and events
    start_run(session_id, *, plan=None, kind="build", status="running") -> Run  (AlreadyRunningError)
    get_run(id); list_runs(session_id); active_run(session_id) -> Run | None
    set_run_plan(id, plan); mark_running(id); finish_run(id, status, *, error="")  (RunStateError)
    request_cancel(id); interrupt_run(id, message=...)
    append_event(run_id, event) -> RunEvent   (event: agent.events model or its dict)
    events_after(run_id, after_seq=0, *, limit=None) -> list[RunEvent]
    wait_for_events(run_id, after_seq, timeout, *, limit=None) -> list[RunEvent]
Chat and usage
    add_message(session_id, role, content, *, version_id=None, proposal_id=None) -> Message
    list_messages(session_id, *, last=None) -> list[Message]
    record_usage(session_id, *, model, prompt_tokens, cached_tokens=0, completion_tokens, cost,
                 step="", run_id=None) -> UsageRow
    list_usage / usage_totals / usage_by_step(*, session_id=None | run_id=None)

Cache (a second, disposable file: store/answers.py)
    AnswerCache.in_data_dir(home) -> AnswerCache;  get(key) -> (json_text, fetched_at) | None
    put(key, json_text, fetched_at);  close()

Errors: NotFoundError (404); ConflictError (409) and its kinds DecidedError,
StaleBaseError, AlreadyRunningError, RunStateError; RangeMismatchError (a
ValueError: 422); CorruptVersionError. No SQL exists outside this package.
"""

from labwright.store.answers import AnswerCache
from labwright.store.errors import (
    AlreadyRunningError,
    ConflictError,
    CorruptVersionError,
    DecidedError,
    NotFoundError,
    RangeMismatchError,
    RunStateError,
    StaleBaseError,
    StoreError,
)
from labwright.store.models import (
    ACTIVE_RUN_STATUSES,
    FINAL_RUN_STATUSES,
    PROPOSAL_SCOPES,
    VERSION_ORIGINS,
    Message,
    Proposal,
    Run,
    RunEvent,
    Session,
    UsageRow,
    UsageTotals,
    Version,
    VersionInfo,
)
from labwright.store.store import Store

__all__ = [
    "ACTIVE_RUN_STATUSES",
    "FINAL_RUN_STATUSES",
    "PROPOSAL_SCOPES",
    "VERSION_ORIGINS",
    "AlreadyRunningError",
    "AnswerCache",
    "ConflictError",
    "CorruptVersionError",
    "DecidedError",
    "Message",
    "NotFoundError",
    "Proposal",
    "RangeMismatchError",
    "Run",
    "RunEvent",
    "RunStateError",
    "Session",
    "StaleBaseError",
    "Store",
    "StoreError",
    "UsageRow",
    "UsageTotals",
    "Version",
    "VersionInfo",
]
