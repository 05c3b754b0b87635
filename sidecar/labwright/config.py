"""Where Labwright keeps the user's data: one per-user directory.

Layout (ARCHITECTURE.md, "Storage")::

    <root>/labwright.db              SQLite database (WAL)
    <root>/sessions/<id>/figures/     per-session files
    <root>/sessions/<id>/builds/
    <root>/sessions/<id>/exports/
    <root>/overlay/                  user knowledge pack, replaces files by name
    <root>/logs/

The root is chosen, first match wins, by: an explicit directory (the desktop
shell passes one so the app and its sidecar agree), the ``LABWRIGHT_HOME``
environment variable (tests always set it to a temporary directory), or
platformdirs' per-user data directory for the app "Labwright".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "Labwright"
HOME_ENV = "LABWRIGHT_HOME"
DB_NAME = "labwright.db"
SESSION_SUBDIRS = ("figures", "builds", "exports")


@dataclass(frozen=True)
class SessionPaths:
    """The directories one session owns; deleting the session removes `root`."""

    root: Path
    figures: Path
    builds: Path
    exports: Path


@dataclass(frozen=True)
class DataDir:
    """The per-user data directory. Paths only; `ensure()` creates them."""

    root: Path

    @property
    def db_path(self) -> Path:
        return self.root / DB_NAME

    @property
    def sessions_dir(self) -> Path:
        return self.root / "sessions"

    @property
    def overlay_dir(self) -> Path:
        return self.root / "overlay"

    @property
    def logs_dir(self) -> Path:
        return self.root / "logs"

    @property
    def cache_dir(self) -> Path:
        """Disposable answers of outside services (store/answers.py); safe to delete."""
        return self.root / "cache"

    @property
    def locks_dir(self) -> Path:
        """Liveness locks of processes that own runs (see store.recovery)."""
        return self.root / "locks"

    def session_dir(self, session_id: int) -> Path:
        # Only a positive int can name a session directory: nothing a client
        # sends can turn into "..", an absolute path or another session's files.
        if isinstance(session_id, bool) or not isinstance(session_id, int) or session_id <= 0:
            raise ValueError(f"session id must be a positive integer, not {session_id!r}")
        return self.sessions_dir / str(session_id)

    def session_paths(self, session_id: int, *, create: bool = False) -> SessionPaths:
        root = self.session_dir(session_id)
        paths = SessionPaths(root, *(root / name for name in SESSION_SUBDIRS))
        if create:
            for sub in (paths.figures, paths.builds, paths.exports):
                sub.mkdir(parents=True, exist_ok=True)
        return paths

    def ensure(self) -> DataDir:
        """Create the root and its fixed subdirectories; return self for chaining.

        A root we create is private to the user (0700 on POSIX): it holds
        reports and chat history. An existing directory keeps its permissions.
        """
        if not self.root.exists():
            self.root.parent.mkdir(parents=True, exist_ok=True)
            self.root.mkdir(mode=0o700, exist_ok=True)
        for path in (self.sessions_dir, self.overlay_dir, self.logs_dir, self.locks_dir):
            path.mkdir(parents=True, exist_ok=True)
        return self


def default_root() -> Path:
    """The platform's per-user data directory for Labwright (not created)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def data_dir(explicit: str | os.PathLike[str] | None = None, *, create: bool = True) -> DataDir:
    """Resolve the data directory: explicit argument, then LABWRIGHT_HOME, then platformdirs.

    The result is absolute, so a later change of working directory cannot move
    the user's data.
    """
    if explicit is not None and str(explicit).strip():
        root = Path(explicit)
    elif os.environ.get(HOME_ENV, "").strip():
        root = Path(os.environ[HOME_ENV].strip())
    else:
        root = default_root()
    resolved = DataDir(root.expanduser().resolve())
    return resolved.ensure() if create else resolved
