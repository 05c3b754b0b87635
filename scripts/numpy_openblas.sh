#!/usr/bin/env bash
# Rebuild the venv's numpy from its sdist against the LP64 OpenBLAS that
# scipy's wheel vendors (PyPI `scipy-openblas32`, pinned in pyproject.toml),
# so the frozen sidecar carries one OpenBLAS instead of two (numpy's wheel
# ships the ILP64 build, scipy's the LP64 one: different ABIs, 25 MB each;
# build_scripts/slim_bundle.py then links scipy's identical copy to this one).
#   bash scripts/numpy_openblas.sh PYTHON [LOCKFILE]
# PYTHON: the venv's interpreter, with numpy and scipy-openblas32 installed
# (the version of numpy kept is the one installed). LOCKFILE: the sdist is
# then checked against the lock's hashes. Linux x86_64 only (macOS wheels use
# Accelerate for both; Windows: see docs/devlog/2026-11-30-desktop.md).
# The built wheel is cached outside the clone (LABWRIGHT_CACHE, default
# /var/cache/labwright/wheels); without the cache it is built again (~4 min).
set -euo pipefail
PY="$1"
LOCK="${2:-}"
say() { printf '[labwright] %s\n' "$*" >&2; }

[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || exit 0
# Ours when importing numpy maps scipy-openblas32's library (LP64 soname
# libscipy_openblas.so) and no ILP64 one (libscipy_openblas64_*).
ours='import numpy, sys
maps = open("/proc/self/maps").read()
sys.exit(0 if "scipy_openblas32/lib/libscipy_openblas.so" in maps and "openblas64" not in maps else 1)'
"$PY" -c "$ours" 2>/dev/null && exit 0

np_ver="$("$PY" -c 'import importlib.metadata as m; print(m.version("numpy"))')"
ob_ver="$("$PY" -c 'import importlib.metadata as m; print(m.version("scipy-openblas32"))')"
ob_dir="$("$PY" -c 'import scipy_openblas32 as o; print(o.get_lib_dir())')"
ob_inc="$("$PY" -c 'import scipy_openblas32 as o; print(o.get_include_dir())')"
py_tag="$("$PY" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')"
# v1: bump when the build flags below change, so a cached wheel is not reused.
key="numpy-$np_ver-$py_tag-scipy-openblas32-$ob_ver-v1"
cache="${LABWRIGHT_CACHE:-/var/cache/labwright}"
if ! { mkdir -p "$cache/wheels" 2>/dev/null && [ -w "$cache/wheels" ]; }; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/labwright"
  mkdir -p "$cache/wheels"
fi
dest="$cache/wheels/$key"
# Several set-ups at once (worktrees, a CI clone beside a developer's) share
# the cache: the first builds, the others wait for its wheel instead of
# building the same numpy again on the same cores.
exec 9>"$cache/wheels/.$key.lock"
flock 9
wheel="$(find "$dest" -name 'numpy-*.whl' 2>/dev/null | head -1 || true)"

if [ -z "$wheel" ]; then
  say "building numpy $np_ver against scipy-openblas32 $ob_ver (LP64; once per cache, ~4 min)"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # The lock's numpy entry (all its hashes, the sdist's among them).
  if [ -n "$LOCK" ]; then
    awk -v v="numpy==$np_ver" '$1 == v {p = 1} p && !/^ *#/ {print} p && !/\\$/ {exit}' "$LOCK" \
      > "$work/req.txt"
    hashes=(--require-hashes -r "$work/req.txt")
  else
    hashes=("numpy==$np_ver")
  fi
  # Link by name only: the library's directory goes to the linker through
  # LIBRARY_PATH, so meson records no absolute runpath; the one runpath is
  # relative to each extension module (numpy/_core/, numpy/linalg/: two levels
  # below site-packages, where scipy_openblas32/ sits beside numpy/).
  # shellcheck disable=SC2016  # $ORIGIN is for the dynamic loader
  printf '%s\n' 'Name: scipy-openblas' 'Description: OpenBLAS LP64 (scipy-openblas32)' \
    "Version: ${ob_ver%.*.*}" \
    'Libs: -lscipy_openblas -Wl,-rpath,$ORIGIN/../../scipy_openblas32/lib' \
    "Cflags: -I$ob_inc -DBLAS_SYMBOL_PREFIX=scipy_" > "$work/scipy-openblas.pc"
  PKG_CONFIG_PATH="$work" LIBRARY_PATH="$ob_dir" \
    "$PY" -m pip wheel -q --no-cache-dir --no-deps --no-binary numpy -w "$work/out" "${hashes[@]}" \
    --config-settings=setup-args=-Dblas=scipy-openblas --config-settings=setup-args=-Dlapack=scipy-openblas \
    --config-settings=setup-args=-Duse-ilp64=false --config-settings=setup-args=-Dallow-noblas=false
  mkdir -p "$dest"
  cp "$work"/out/numpy-*.whl "$dest/"
  wheel="$(find "$dest" -name 'numpy-*.whl' | head -1)"
fi

"$PY" -m pip install -q --no-deps --force-reinstall "$wheel"
# It must be the LP64 build and it must compute.
"$PY" -c "$ours" || { say "numpy from $wheel is not built against scipy-openblas"; exit 1; }
"$PY" -c 'import numpy as np
a = np.array([[4.0, 1.0], [1.0, 3.0]]); x = np.linalg.solve(a, [1.0, 2.0])
assert np.allclose(a @ x, [1.0, 2.0])'
