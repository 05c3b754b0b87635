"""Skips that mean "a test layer is missing" fail the README's test command.

Smoke tests skip themselves when the machine lacks what they drive (XeLaTeX,
OS confinement, Chromium, a Tauri build, CJK fonts). On a developer's laptop
that is a convenience; in `scripts/test.sh`, which installs every layer first,
such a skip means the set-up broke and half the product went untested while the
run stayed green. So when LABWRIGHT_REQUIRE_LAYERS=1 (test.sh sets it; a
developer can opt out with LABWRIGHT_ALLOW_MISSING_LAYERS=1) a skip whose reason
names a layer becomes a failure. Platform skips ("only on Windows") and optional
documentation sources stay skips: no Linux machine can run them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest

# Reasons that name something scripts/test.sh installs on Debian.
_LAYER = re.compile(
    r"xelatex|\btex\b|tex engine|xdvipdfmx|latexmk|"
    r"confinement|landlock|seccomp|fork-server|"
    r"chinese font|cjk font|chromium|playwright|webkit|tauri|xvfb|node\b|npm\b|cargo|"
    r"frozen|pyinstaller|actionlint|compendium wheel",
    re.IGNORECASE,
)
# Reasons no Linux CI machine can satisfy, even when the reason also names a layer.
_NOT_HERE = re.compile(
    r"only on (windows|macos)|on windows|on this os|macos|seatbelt|job objects|"
    r"documentation sources|texlive-latex-base-doc|tex distribution sources|"
    r"strictly fewer defences|--run-live",
    re.IGNORECASE,
)


def layers_required() -> bool:
    return os.environ.get("LABWRIGHT_REQUIRE_LAYERS") == "1" and (
        os.environ.get("LABWRIGHT_ALLOW_MISSING_LAYERS") != "1"
    )


def is_missing_layer(reason: str) -> bool:
    return bool(_LAYER.search(reason)) and not _NOT_HERE.search(reason)


def skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr or "")


def fail_missing_layer(report: pytest.TestReport) -> None:
    """Turn a layer skip into a failure with one sentence and its fix."""
    if not (report.skipped and layers_required()):
        return
    reason = skip_reason(report)
    if report.keywords.get("live") or not is_missing_layer(reason):
        return
    report.outcome = "failed"
    report.longrepr = (
        f"A test layer this suite must run is missing ({reason.removeprefix('Skipped: ')}): "
        "run `bash scripts/test.sh` as root to install it, or set "
        "LABWRIGHT_ALLOW_MISSING_LAYERS=1 to skip it on purpose."
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    fail_missing_layer(outcome.get_result())  # type: ignore[attr-defined]
