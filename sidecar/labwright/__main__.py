"""`python -m labwright` and the frozen executable's entry point."""

from __future__ import annotations

import sys


def _entry() -> int:
    from labwright.cli import main

    return main()


if __name__ == "__main__":
    sys.exit(_entry())
