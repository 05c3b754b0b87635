"""The window's language, theme and report language, kept by the engine.

In browser mode each `labwright serve --open` gets a new port, so the page's
origin and with it the browser's storage are new at every start: these tests
check that the choices outlive the app instance, in the data directory.
"""

from __future__ import annotations

import json
from typing import Any

from labwright.server.routes.ui_prefs import PREFS_FILE


def test_unset_prefs_follow_the_system(make_client: Any, auth: dict[str, str]) -> None:
    _, client = make_client()
    r = client.get("/api/settings/ui", headers=auth)
    assert r.status_code == 200
    assert r.json() == {"lang": None, "theme": None, "report_lang": None}


def test_prefs_are_merged_and_outlive_the_app(
    make_client: Any, auth: dict[str, str], tmp_path: Any
) -> None:
    app, client = make_client()
    assert client.put("/api/settings/ui", headers=auth, json={"lang": "zh"}).status_code == 200
    r = client.put("/api/settings/ui", headers=auth, json={"theme": "dark"})
    assert r.json() == {"lang": "zh", "theme": "dark", "report_lang": None}
    root = app.state.ctx.data.root
    assert json.loads((root / PREFS_FILE).read_text(encoding="utf-8"))["lang"] == "zh"
    # A new app on the same data directory (the next start) reads them back.
    _, again = make_client(home=root)
    assert again.get("/api/settings/ui", headers=auth).json()["theme"] == "dark"


def test_a_bad_value_is_refused_without_echo_and_nothing_is_saved(
    make_client: Any, auth: dict[str, str]
) -> None:
    app, client = make_client()
    r = client.put("/api/settings/ui", headers=auth, json={"lang": "fr-evil-value"})
    assert r.status_code == 422
    assert "fr-evil-value" not in r.text
    assert not (app.state.ctx.data.root / PREFS_FILE).exists()


def test_a_damaged_file_gives_the_defaults(make_client: Any, auth: dict[str, str]) -> None:
    app, client = make_client()
    (app.state.ctx.data.root / PREFS_FILE).write_text("{not json", encoding="utf-8")
    assert client.get("/api/settings/ui", headers=auth).json()["lang"] is None
