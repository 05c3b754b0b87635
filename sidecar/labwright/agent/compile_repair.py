"""What the compile-and-repair loop feeds back and how it decides to stop.

The model never sees the whole log: the `!` error lines, the `l.NN` line
references and runaway/emergency lines, at most 1,800 characters. A round whose
first error is the same as the previous round's made no progress, and the loop
stops at once (the model has no answer for that error).
"""

from __future__ import annotations

MAX_ERROR_CHARS = 1800
_KEEP_PREFIXES = ("!", "l.", "Runaway", "*** (job aborted", "Emergency stop")


def extract_errors(log: str, limit: int = MAX_ERROR_CHARS) -> str:
    lines = log.splitlines()
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(_KEEP_PREFIXES):
            kept.append(stripped)
            # The line after an error often names the offending text.
            if stripped.startswith("!") and i + 1 < len(lines) and lines[i + 1].strip():
                kept.append(lines[i + 1].strip())
    text = "\n".join(dict.fromkeys(kept))
    return text[:limit]


def error_fingerprint(errors: str) -> str:
    for line in errors.splitlines():
        if line.strip().startswith("!"):
            return line.strip()[:120]
    return errors.strip()[:120]
