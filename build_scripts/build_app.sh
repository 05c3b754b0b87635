#!/usr/bin/env bash
# Build the desktop app once: freeze the sidecar (if stale), then
# `tauri build --bundles deb` with the sidecar (and the UI when ui/dist
# exists) as bundle contents. Prints the paths as JSON on the last line:
#   {"binary": ".../release/labwright", "deb": ".../Labwright_0.1.0_amd64.deb"}
# Cargo's target dir: $CARGO_TARGET_DIR, else a cache outside the clone
# (/var/cache/labwright/cargo-target when writable), else src-tauri/target.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${LABWRIGHT_VENV:-$ROOT/.venv}"
export PATH="$HOME/.cargo/bin:$PATH"
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
  cache="${LABWRIGHT_CACHE:-/var/cache/labwright}"
  if mkdir -p "$cache/cargo-target" 2>/dev/null && [ -w "$cache/cargo-target" ]; then
    export CARGO_TARGET_DIR="$cache/cargo-target"
  else
    export CARGO_TARGET_DIR="$ROOT/src-tauri/target"
  fi
fi

bash "$ROOT/build_scripts/freeze.sh" --if-stale  # also builds ui/dist when missing
if [ ! -x "$ROOT/src-tauri/node_modules/.bin/tauri" ]; then
  (cd "$ROOT/src-tauri" && npm ci --no-audit --no-fund) >&2
fi
mkdir -p "$ROOT/build"
"$VENV/bin/python" "$ROOT/build_scripts/tauri_bundle_config.py" --no-tex >"$ROOT/build/tauri.bundle.json"
cd "$ROOT/src-tauri"
# --ci: no prompts. No network is needed: the deb bundler downloads nothing.
./node_modules/.bin/tauri build --ci --bundles deb --config ../build/tauri.bundle.json >&2
deb="$(ls -t "$CARGO_TARGET_DIR"/release/bundle/deb/*.deb | head -1)"
printf '{"binary": "%s", "deb": "%s"}\n' "$CARGO_TARGET_DIR/release/labwright" "$deb"
