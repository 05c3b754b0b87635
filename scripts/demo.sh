#!/usr/bin/env bash
# The main job on an example folder: reads examples/pendulum, plots it, writes
# the report and compiles it, with no model involved. Leaves pendulum-report.pdf
# (and its Overleaf zip) in the current directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
labwright_setup
example="${1:-$LABWRIGHT_ROOT/examples/pendulum}"
name="$(basename "$example")"
"$VENV/bin/labwright" build "$example" -o "$name-report.pdf" --zip "$name-report.zip"
echo "[labwright] wrote $(pwd)/$name-report.pdf"
