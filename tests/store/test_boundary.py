"""No SQL outside store/: every other package goes through the typed API."""

from __future__ import annotations

import ast
from pathlib import Path

import labwright


def _package_root() -> Path:
    return Path(labwright.__file__).resolve().parent


def _imports_sqlite(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] in ("sqlite3", "sqlalchemy", "apsw") for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
            "sqlite3",
            "sqlalchemy",
            "apsw",
        ):
            return True
    return False


def test_only_store_touches_the_database() -> None:
    root = _package_root()
    store_dir = root / "store"
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if store_dir not in path.parents and _imports_sqlite(path)
    ]
    assert offenders == []


def test_store_does_not_import_upper_layers() -> None:
    """store/ sits at the bottom: it may use config, never agent, server, latex, llm or edit."""
    upper = (
        "labwright.agent",
        "labwright.server",
        "labwright.latex",
        "labwright.llm",
        "labwright.edit",
        "labwright.sandbox",
    )
    root = _package_root() / "store"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not [n for n in names if n.startswith(upper)], (path.name, names)
