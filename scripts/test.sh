#!/usr/bin/env bash
# The whole test suite, with everything it needs installed first: system
# packages (XeTeX, latexmk, poppler), the Python package with its dev extras.
# Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
_install_system_packages apt-report.txt apt-tests.txt
labwright_setup dev
_compendium_wheels  # wheels for the compendium's fresh offline venv
labwright_ui_setup
_desktop_tools  # cargo, Tauri CLI, tauri-driver, actionlint (tests/desktop)
cd "$LABWRIGHT_ROOT"
# Every smoke layer installed above must really run: a skip that means "XeLaTeX /
# the sandbox / Chromium is missing" fails the suite here (tests/_layers.py).
# A developer who wants the old behaviour sets LABWRIGHT_ALLOW_MISSING_LAYERS=1.
export LABWRIGHT_REQUIRE_LAYERS=1
set +e
"$VENV/bin/python" -m pytest "$@"
status=$?
set -e
# pytest exits 5 when it collected nothing: that is a failure of the suite.
exit "$status"
