#!/usr/bin/env bash
# Freeze the sidecar into build/sidecar/dist/labwright-sidecar/ (PyInstaller onedir).
#   bash build_scripts/freeze.sh [--if-stale]
# --if-stale: do nothing when the bundle is newer than every input file
# (sidecar/, knowledge/, ui/dist/, the spec), so the test run freezes once.
# Uses the project's venv (.venv or $LABWRIGHT_VENV) with PyInstaller installed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${LABWRIGHT_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
[ -x "$PY" ] || PY="$VENV/Scripts/python.exe"  # Windows venv layout
OUT="$ROOT/build/sidecar"
BUNDLE="$OUT/dist/labwright-sidecar"
EXE="$BUNDLE/labwright-sidecar"

# The UI is part of the bundle (serve --open); build it first when it is missing.
if [ -f "$ROOT/ui/package.json" ] && [ ! -f "$ROOT/ui/dist/index.html" ]; then
  [ -d "$ROOT/ui/node_modules" ] || (cd "$ROOT/ui" && npm ci --no-audit --no-fund --loglevel=error) >&2
  (cd "$ROOT/ui" && npm run build) >&2
fi

if [ "${1:-}" = "--if-stale" ] && [ -x "$EXE" ]; then
  newer="$(find "$ROOT/sidecar" "$ROOT/knowledge" "$ROOT/build_scripts" "$ROOT/pyproject.toml" \
    ${ROOT}/ui/dist -newer "$EXE" -type f -not -name '*.pyc' 2>/dev/null | head -1 || true)"
  if [ -z "$newer" ]; then
    echo "[freeze] up to date: $BUNDLE" >&2
    exit 0
  fi
fi

"$PY" -c 'import PyInstaller' 2>/dev/null || "$PY" -m pip install -q 'pyinstaller>=6.10'
rm -rf "$BUNDLE"
# The work dir is kept: PyInstaller reuses its analysis when nothing changed.
"$PY" -m PyInstaller --noconfirm --log-level WARN \
  --distpath "$OUT/dist" --workpath "$OUT/build" \
  "$ROOT/build_scripts/labwright-sidecar.spec"
# Linux: strip symbol tables where the result still loads, and symlink the
# identical libgfortran/libquadmath that numpy.libs and scipy.libs both vendor
# (build_scripts/slim_bundle.py says why and how that is checked).
if [ "$(uname -s)" = "Linux" ] && command -v strip >/dev/null; then
  "$PY" "$ROOT/build_scripts/slim_bundle.py" "$BUNDLE" >&2
fi
touch "$EXE"
echo "[freeze] $BUNDLE ($(du -sh "$BUNDLE" | cut -f1))" >&2
