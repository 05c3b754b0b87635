"""Print the Tauri config overlay that adds the bundle's resources.

    python build_scripts/tauri_bundle_config.py [--no-tex] > build/tauri.bundle.json
    npx tauri build --config ../build/tauri.bundle.json

Kept out of tauri.conf.json because resource paths must exist when the crate
compiles, and `cargo test` / `clippy` run before anything is frozen. Paths are
relative to src-tauri/. --no-tex: the Linux .deb depends on Debian's TeX
packages instead of carrying a tree (see docs/building-installers.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIDECAR = ROOT / "build" / "sidecar" / "dist" / "labwright-sidecar"
TEX = ROOT / "build" / "tex"
#: Debian packages that give XeLaTeX everything the templates load.
DEB_TEX_DEPENDS = [
    "texlive-xetex",
    "texlive-latex-recommended",
    "texlive-latex-extra",
    "texlive-lang-chinese",
    "texlive-fonts-recommended",
    "lmodern",
]


def overlay(*, with_tex: bool, frontend: Path | None) -> dict[str, object]:
    if not SIDECAR.is_dir():
        sys.exit(f"No frozen sidecar at {SIDECAR}: run build_scripts/freeze.sh first.")
    resources = {"../build/sidecar/dist/labwright-sidecar/": "sidecar/"}
    if with_tex:
        if not TEX.is_dir():
            sys.exit(f"No pruned TeX tree at {TEX}: run build_scripts/prune_tex.py first.")
        resources["../build/tex/"] = "tinytex/"
    config: dict[str, object] = {
        "bundle": {
            "resources": resources,
            "linux": {"deb": {"depends": [] if with_tex else DEB_TEX_DEPENDS}},
        }
    }
    if frontend is not None:
        config["build"] = {"frontendDist": str(frontend)}
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-tex", action="store_true")
    args = parser.parse_args()
    ui = ROOT / "ui" / "dist"
    frontend = Path("../ui/dist") if (ui / "index.html").is_file() else None
    print(json.dumps(overlay(with_tex=not args.no_tex, frontend=frontend), indent=2))


if __name__ == "__main__":
    main()
