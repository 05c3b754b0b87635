"""Errors the store raises. The API maps NotFoundError to 404 and every
ConflictError to 409; messages are one plain sentence plus one action."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every store error."""


class NotFoundError(StoreError, LookupError):
    """The session, version, proposal or run does not exist (or was deleted)."""


class ConflictError(StoreError):
    """The request is valid but the current state forbids it (HTTP 409)."""


class DecidedError(ConflictError):
    """The proposal was already accepted or rejected; a decision is final."""


class StaleBaseError(ConflictError):
    """The proposal was computed against a version that is no longer the latest.

    Splicing it anyway would silently drop every change made since its base.
    """


class AlreadyRunningError(ConflictError):
    """The session already has a queued or running run."""


class RunStateError(ConflictError):
    """The run is not in a state that allows this transition (e.g. finishing it twice)."""


class RangeMismatchError(StoreError, ValueError):
    """A proposal's character range or old text does not match its base version."""


class CorruptVersionError(StoreError):
    """A version's content no longer matches the checksum stored with it."""
