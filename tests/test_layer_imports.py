"""No import in the sidecar runs up the layer order (tests/layer_order.py).

Every import counts, also the ones inside functions (the lazy imports that keep
start-up fast are still dependencies) and the ones under TYPE_CHECKING (a
lower module naming an upper module's types is the same coupling).
"""

from __future__ import annotations

import ast
from pathlib import Path

import labwright
from tests.layer_order import LAYERS, _owner, allowed

SIDECAR = Path(labwright.__file__).resolve().parent


def module_name(path: Path) -> str:
    rel = path.relative_to(SIDECAR.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) for every labwright import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
    return [(line, name) for line, name in found if name.split(".")[0] == "labwright"]


def all_modules() -> list[Path]:
    return sorted(p for p in SIDECAR.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_has_a_layer() -> None:
    unplaced = [module_name(p) for p in all_modules() if _owner(module_name(p)) is None]
    assert not unplaced, f"place these in tests/layer_order.py LAYERS: {unplaced}"


def test_no_import_runs_up() -> None:
    upward = [
        f"{module_name(path)}:{line} imports {target}"
        for path in all_modules()
        for line, target in imports_of(path)
        if not allowed(module_name(path), target)
    ]
    assert not upward, "\n".join(upward)


def test_the_rule_refuses_what_it_should() -> None:
    # The check itself: an upward and a cross-package sideways use are refused.
    assert not allowed("labwright.analysis.series_summary", "labwright.agent.offline.text")
    assert not allowed("labwright.ingest.read", "labwright.latex.sanitize")
    assert not allowed("labwright.edit.service", "labwright.edit.cli")
    assert allowed("labwright.agent.offline.build", "labwright.agent.run")
    assert allowed("labwright.server.runs", "labwright.safety")
    assert [name for name, _ in LAYERS][:2] == ["start", "entry"]
