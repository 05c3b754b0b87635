#!/usr/bin/env bash
# Release workflow only (needs the internet): download a pinned TinyTeX-1 for
# one platform into tinytex/TinyTeX and install tinytex/packages.txt into it
# (TinyTeX-1 lacks xeCJK, ctex and the Fandol CJK fonts).
#   bash build_scripts/fetch_tinytex.sh linux|macos|windows
# The result is then pruned by build_scripts/prune_tex.py.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PLATFORM="${1:?usage: fetch_tinytex.sh linux|macos|windows}"
# Pinned: a monthly TinyTeX release (TeX Live year and tlmgr repository fixed).
VERSION="${TINYTEX_VERSION:-v2025.08}"
BASE="https://github.com/rstudio/tinytex-releases/releases/download/$VERSION"
case "$PLATFORM" in
  linux) ASSET="TinyTeX-1-$VERSION.tar.gz" ;;
  macos) ASSET="TinyTeX-1-$VERSION.tgz" ;;
  windows) ASSET="TinyTeX-1-$VERSION.zip" ;;
  *) echo "unknown platform: $PLATFORM" >&2; exit 2 ;;
esac
DEST="$ROOT/tinytex"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

curl -fsSL --retry 3 -o "$WORK/$ASSET" "$BASE/$ASSET"
if [ -n "${TINYTEX_SHA256:-}" ]; then
  echo "$TINYTEX_SHA256  $WORK/$ASSET" | sha256sum -c -
fi
case "$ASSET" in
  *.zip) (cd "$WORK" && unzip -q "$ASSET") ;;
  *) tar -xzf "$WORK/$ASSET" -C "$WORK" ;;
esac
rm -rf "$DEST/TinyTeX"
# The archives unpack to TinyTeX/ (Windows) or .TinyTeX/ (Linux, macOS).
if [ -d "$WORK/TinyTeX" ]; then mv "$WORK/TinyTeX" "$DEST/TinyTeX"; else mv "$WORK/.TinyTeX" "$DEST/TinyTeX"; fi

TLMGR="$(find "$DEST/TinyTeX/bin" -maxdepth 2 \( -name tlmgr -o -name tlmgr.bat \) | head -1)"
PACKAGES="$(grep -o '^[^#]*' "$DEST/packages.txt" | tr -s ' \n' ' ')"
# shellcheck disable=SC2086  # one word per package
"$TLMGR" install $PACKAGES
"$TLMGR" path remove >/dev/null 2>&1 || true  # never touch the runner's PATH links
echo "[tinytex] $DEST/TinyTeX ($(du -sh "$DEST/TinyTeX" | cut -f1))" >&2
