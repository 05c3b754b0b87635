#!/usr/bin/env bash
# Refresh the hashed locks that scripts/demo.sh and scripts/test.sh install from:
#   requirements.lock      the package's own dependencies (and its build backend)
#   requirements-dev.lock  the same plus the test and lint tools (the `dev` extra)
# Run it after changing dependencies in pyproject.toml, or to take newer releases
# on purpose; then run `bash scripts/test.sh` and commit both files with the change.
# pip-tools runs from its own throw-away environment so it never enters the app's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool="$(mktemp -d)"
trap 'rm -rf "$tool"' EXIT
python3 -m venv "$tool"
"$tool/bin/python" -m pip install -q "pip-tools>=7.4"
cd "$root"
common=(--quiet --generate-hashes --allow-unsafe --all-build-deps --strip-extras --no-emit-find-links
        --no-emit-index-url --resolver=backtracking)
"$tool/bin/pip-compile" "${common[@]}" -o requirements.lock pyproject.toml
"$tool/bin/pip-compile" "${common[@]}" --extra dev -o requirements-dev.lock pyproject.toml
echo "[labwright] locks refreshed: requirements.lock, requirements-dev.lock"
