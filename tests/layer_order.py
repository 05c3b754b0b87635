"""The one statement of Labwright's layer order, for the import and call-trace tests.

Read from the package structure ("dependencies point downward"): what a user starts sits on top, the orchestration below it,
then what the orchestration composes, then the single-purpose packages, the
process sandbox they share, and last the base helpers that import nothing of
ours. A module may use anything in a lower layer and anything in its own
top-level package; a use across packages of the same layer, or upward, is a
break of the structure (a callback up, a lower module importing an upper
module's types).

A module belongs to the longest prefix below that names it.
"""

from __future__ import annotations

# Highest first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The process entry: hands the command line to the CLI or the server.
    ("start", ("labwright.__main__",)),
    (
        "entry",
        (
            "labwright.cli",
            "labwright.server",
            # `labwright edit` on the command line: a front end like cli.py.
            "labwright.edit.cli",
            # Test doubles (fake provider, in-process models) stand where the
            # user does: they drive the product from outside.
            "labwright.testing",
        ),
    ),
    ("editing", ("labwright.edit",)),
    ("orchestration", ("labwright.agent",)),
    ("composition", ("labwright.analysis", "labwright.verify", "labwright.export")),
    ("services", ("labwright.ingest", "labwright.latex", "labwright.llm", "labwright.store")),
    ("process", ("labwright.sandbox",)),
    (
        "base",
        (
            "labwright.safety",
            # What the backend says to a person (catalogue keys): every layer says things.
            "labwright.messages",
            "labwright.config",
            "labwright.resources",
            "labwright.lazy",
            # How a process starts: its imports and its collector's pace
            # (used by the entry and by the plot worker).
            "labwright.lean_imports",
            "labwright.collector",
            "labwright",
        ),
    ),
)

_PREFIXES = sorted(
    (
        (prefix, len(LAYERS) - rank)
        for rank, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
    ),
    key=lambda item: len(item[0]),
    reverse=True,
)


def _owner(module: str) -> tuple[str, int] | None:
    for prefix, height in _PREFIXES:
        # "labwright" names the package's own __init__ only: a new package must
        # be placed in the table, not fall to the base by default.
        if module == prefix or (prefix != "labwright" and module.startswith(prefix + ".")):
            return prefix, height
    return None


def height(module: str) -> int:
    """The layer's height (base = 1); a module outside labwright has none."""
    owner = _owner(module)
    if owner is None:
        raise ValueError(f"{module} is not a labwright module")
    return owner[1]


def package(module: str) -> str:
    """The top-level package a module lives in (labwright.agent.offline.x → labwright.agent)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def layer_name(module: str) -> str:
    return LAYERS[len(LAYERS) - height(module)][0]


def allowed(caller: str, callee: str) -> bool:
    """Downward, or sideways inside one top-level package (the entry modules of a
    package, such as edit.cli, are held to their own layer). A call from
    labwright.lazy is the first use of a package's export (PEP 562): the
    package importing its own module, whichever name the tracer gives it."""
    if caller == "labwright.lazy":
        return True
    if _owner(caller) == _owner(callee) or (
        package(caller) == package(callee) and height(caller) >= height(callee)
    ):
        return True
    return height(caller) > height(callee)
