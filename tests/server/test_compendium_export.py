"""GET .../export/compendium (issue 23): the analysis compendium of a version
as a zip under analysis/, whose script recomputes the version's recorded
numbers from the raw files; the request writes nothing into the data dir."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from labwright.agent.offline.compendium import report_record
from labwright.store.artifacts import PROVENANCE_JSON, run_dir
from tests.ledger_mutation import bump_last_digit

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "resistor-repeats"
TEX = "\\documentclass[en]{labwright-report}\n\\begin{document}x\\end{document}\n"


def _session(app: Any, folder: Path, record: dict[str, Any] | None) -> str:
    """A session on `folder` with one version whose build holds `record`."""
    store, data = app.state.ctx.store, app.state.ctx.data
    session = store.create_session(str(folder), inventory=[], title="r")
    run = store.start_run(session.id, kind="offline")
    store.finish_run(run.id, "done")
    version = store.add_version(session.id, TEX, run_id=run.id)
    build = run_dir(data, session.id, run.id)
    build.mkdir(parents=True)
    (build / "report.version").write_text(str(version.id), encoding="utf-8")
    (build / "main.tex").write_text(TEX, encoding="utf-8")
    if record is not None:
        (build / PROVENANCE_JSON).write_text(json.dumps(record), encoding="utf-8")
    return f"/api/sessions/{session.id}/versions/{version.version_no}/export/compendium"


def _run_script(zip_bytes: bytes, where: Path) -> subprocess.CompletedProcess[str]:
    zipfile.ZipFile(io.BytesIO(zip_bytes)).extractall(where)
    return subprocess.run(
        [sys.executable, "analysis.py"],
        cwd=where / "analysis",
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg"},
    )


def test_the_compendium_of_a_version_recomputes_its_numbers(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    folder = shutil.copytree(EXAMPLE, tmp_path / "readings")
    app, client = make_client()
    record = report_record(folder)
    url = _session(app, folder, record)
    got = client.get(url, headers=auth)
    assert got.status_code == 200, got.text
    assert got.headers["content-type"] == "application/zip"
    assert got.headers["content-disposition"].endswith('-analysis.zip"')
    names = zipfile.ZipFile(io.BytesIO(got.content)).namelist()
    assert {"analysis/analysis.py", "analysis/analysis.ipynb", "analysis/requirements.txt"} <= set(
        names
    )
    assert "analysis/data/readings.csv" in names and all(n.startswith("analysis/") for n in names)
    done = _run_script(got.content, tmp_path / "good")
    assert done.returncode == 0 and "DIFFERS" not in done.stdout, done.stdout[-2000:]
    # The script compares with THIS version's record: one altered number fails it.
    altered = json.loads(json.dumps(record))
    target = next(e for e in altered["numbers"] if e["computation"] == "mean")
    target["printed"] = bump_last_digit(target["printed"])
    bad = client.get(_session(app, folder, altered), headers=auth)
    failed = _run_script(bad.content, tmp_path / "bad")
    assert failed.returncode == 1 and target["id"] in failed.stdout
    # Nothing was written into the data dir by these GETs.
    for sid in (1, 2):
        assert list(app.state.ctx.data.session_paths(sid).exports.iterdir()) == []


def test_no_record_or_no_folder_is_one_sentence(
    make_client: Any, auth: dict[str, str], tmp_path: Path
) -> None:
    folder = shutil.copytree(EXAMPLE, tmp_path / "readings")
    app, client = make_client()
    none = client.get(_session(app, folder, None), headers=auth)
    assert none.status_code == 404 and "no number record" in none.json()["detail"]
    url = _session(app, folder, report_record(folder))
    shutil.rmtree(folder)
    gone = client.get(url, headers=auth)
    assert gone.status_code == 409 and "data folder" in gone.json()["detail"]
