"""Keep every model-supplied path inside the data folder.

The model chooses which file to read; one `../` or a symlink must not take it
outside. An escape is not an exception to the run: the tool returns a sentence
the model can act on, and the run goes on. The checks themselves live in
`labwright.safety`, the one copy every package uses; this name stays for the
agent's callers.
"""

from __future__ import annotations

from labwright.safety import PathEscape, is_inside, resolve_inside

__all__ = ["PathEscape", "is_inside", "resolve_inside"]
