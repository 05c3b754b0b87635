"""labwright.sandbox: run plotting code that a model wrote, confined by the OS.

Layer 1 (`policy`) rejects and teaches; Layer 2 (`confine`) is the boundary:
Landlock + seccomp + rlimits on Linux, Seatbelt on macOS, a job object with a
low-integrity token on Windows. `make_figure` is the agent's tool; the
trusted worker (`trusted.TrustedWorker`) runs our own drawing code and
decodes user images under the same confinement, without the policy.
"""

# child, zygote, tex and trusted_worker are entered from small bootstrap
# scripts written at run time, which PyInstaller's static analysis cannot see:
# import them here so a frozen build always carries them (images is the
# worker's built-in image handler).
from . import child, images, tex, trusted_worker, zygote  # noqa: F401
from .confine import ConfinementUnavailable, confine, confinement_available
from .figure import FigureResult, make_figure
from .limits import Limits
from .policy import PolicyError, check_and_compile

__all__ = [
    "ConfinementUnavailable",
    "FigureResult",
    "Limits",
    "PolicyError",
    "check_and_compile",
    "confine",
    "confinement_available",
    "make_figure",
]
