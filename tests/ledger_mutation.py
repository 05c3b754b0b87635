"""One altered ledger number, for the compendium's mutation checks: a test
that a reproduced report would fail if a single printed number were wrong."""

from __future__ import annotations


def bump_last_digit(printed: str) -> str:
    """The printed number with its last digit changed by one (9 -> 8, 0 -> 1)."""
    for i in range(len(printed) - 1, -1, -1):
        if printed[i].isdigit():
            d = int(printed[i])
            return printed[:i] + str(d - 1 if d else 1) + printed[i + 1 :]
    raise AssertionError(printed)
