"""labwright.sandbox: run plotting code that a model wrote, confined by the OS.

Layer 1 (`policy`) rejects and teaches; Layer 2 (`confine`) is the boundary:
Landlock + seccomp + rlimits on Linux, Seatbelt on macOS, a job object with a
low-integrity token on Windows. `make_figure` is the agent's tool; the
trusted worker (`trusted.TrustedWorker`) runs our own drawing code and
decodes user images under the same confinement, without the policy.

The names below are imported on first use (PEP 562). Every confined process
(the TeX launcher, the trusted worker, a model-code child) starts by
importing one module of this package, and each paid ~25 ms for the policy,
figure and zygote modules it never uses. The frozen build carries every
submodule through the spec's `collect_submodules("labwright")`, so the
bootstrap scripts' imports need no help from here.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "ConfinementUnavailable": "confine",
    "confine": "confine",
    "confinement_available": "confine",
    "FigureResult": "figure",
    "make_figure": "figure",
    "Limits": "limits",
    "PolicyError": "policy",
    "check_and_compile": "policy",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
