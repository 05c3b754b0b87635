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

from labwright.lazy import lazy_exports

_EXPORTS = {
    "ConfinementUnavailable": "labwright.sandbox.confine",
    "confine": "labwright.sandbox.confine",
    "confinement_available": "labwright.sandbox.confine",
    "FigureResult": "labwright.sandbox.figure",
    "make_figure": "labwright.sandbox.figure",
    "Limits": "labwright.sandbox.limits",
    "PolicyError": "labwright.sandbox.policy",
    "check_and_compile": "labwright.sandbox.policy",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
