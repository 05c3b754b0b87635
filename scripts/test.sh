#!/usr/bin/env bash
# The whole test suite, with everything it needs installed first: system
# packages (XeTeX, latexmk, poppler), the Python package with its dev extras.
# Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
_install_system_packages
labwright_setup dev
cd "$LABWRIGHT_ROOT"
set +e
"$VENV/bin/python" -m pytest "$@"
status=$?
set -e
# pytest exits 5 when it collected nothing: that is a failure of the suite.
exit "$status"
