"""The .deb from `tauri build --bundles deb`: it carries the app, the frozen
sidecar, the UI (inside the binary) and a desktop entry that starts the app."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.desktop.frozen import ROOT

# Cold builds (Tauri, PyInstaller) run in the app_build fixture.
pytestmark = [pytest.mark.smoke, pytest.mark.slow, pytest.mark.timeout(3600)]


def _contents(deb: Path) -> list[str]:
    out = subprocess.run(["dpkg-deb", "-c", str(deb)], check=True, capture_output=True, text=True)
    return [
        "/" + line.split()[-1].removeprefix("./").lstrip("/")
        for line in out.stdout.splitlines()
        if line
    ]


def test_deb_lists_app_sidecar_ui_and_desktop_entry(
    app_build: dict[str, str], tmp_path: Path
) -> None:
    deb = Path(app_build["deb"])
    files = _contents(deb)
    assert "/usr/bin/labwright" in files
    sidecar = [f for f in files if f.endswith("/sidecar/labwright-sidecar")]
    assert sidecar and sidecar[0].startswith("/usr/lib/"), files[:20]
    assert any(
        f.endswith("/sidecar/_internal/knowledge/templates/labwright-report.cls") for f in files
    )
    desktop = [
        f for f in files if f.startswith("/usr/share/applications/") and f.endswith(".desktop")
    ]
    assert len(desktop) == 1

    subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp_path)], check=True)
    entry = (tmp_path / desktop[0].lstrip("/")).read_text(encoding="utf-8")
    assert "Exec=labwright" in entry and "Type=Application" in entry
    assert (tmp_path / sidecar[0].lstrip("/")).stat().st_mode & 0o111, (
        "the sidecar must be executable"
    )
    # The window's UI is compiled into the binary (Tauri embeds the frontend,
    # compressed); the sidecar carries the same build for `serve --open`.
    if (ROOT / "ui" / "package.json").is_file():
        assert any(f.endswith("/sidecar/_internal/ui/dist/index.html") for f in files)
    control = subprocess.run(
        ["dpkg-deb", "-f", str(deb), "Package", "Depends"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "labwright" in control.lower()
    assert "texlive-xetex" in control, "the Linux package takes TeX from Debian"
