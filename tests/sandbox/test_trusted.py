"""The trusted worker: our own drawing code and the decoding of user images,
in one confined process per data folder.

Effects are observed, not messages: a secret that does not come back, a file
that does not appear, a backend that goes on answering after the worker hung
or crashed on an image, a build that finishes with one sentence per bad file.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from labwright.sandbox import trusted

from .conftest import requires_confinement

pytestmark = pytest.mark.smoke

_ATTEMPT = "labwright.testing.worker_probe:attempt"
_PROBE = "labwright.sandbox.images:probe"


def png_header_only(width: int, height: int) -> bytes:
    """A PNG claiming width x height pixels with a one-row body: a decompression bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00" * (width + 1))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    (data / "notes.txt").write_text("the data folder is readable", encoding="utf-8")
    return data


@pytest.fixture(autouse=True)
def _no_pooled_workers() -> object:
    yield
    trusted.discard(all_folders=True)


def _one(worker: trusted.TrustedWorker, op: str, **payload: object) -> dict[str, object]:
    (reply,) = list(worker.request(op, payload, timeout=60))
    return reply


@requires_confinement
def test_worker_is_confined_like_a_model_run(folder: Path, tmp_path: Path) -> None:
    secret = tmp_path / "home" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("lw-canary-trusted-secret", encoding="utf-8")
    target = tmp_path / "home" / "planted.txt"
    with trusted.TrustedWorker(folder) as worker:
        inside = _one(worker, _ATTEMPT, act="read", path=str(folder / "notes.txt"))
        outside = _one(worker, _ATTEMPT, act="read", path=str(secret))
        write = _one(worker, _ATTEMPT, act="write", path=str(target))
        write_data = _one(worker, _ATTEMPT, act="write", path=str(folder / "new.txt"))
        run = _one(worker, _ATTEMPT, act="exec")
        assert worker.confined.startswith("landlock")
    assert inside["done"] and "readable" in str(inside["detail"])
    assert not outside["done"] and "lw-canary-trusted-secret" not in str(outside["detail"])
    assert not write["done"] and not target.exists()
    assert not write_data["done"] and not (folder / "new.txt").exists()
    assert not run["done"]


def test_worker_environment_is_scrubbed(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-lw-canary-trusted-env")
    with trusted.TrustedWorker(folder) as worker:
        env = _one(worker, _ATTEMPT, act="env")
    assert env["done"] and "sk-lw-canary-trusted-env" not in str(env["detail"])


def test_a_hanging_decoder_is_killed_and_the_next_request_gets_a_fresh_worker(
    folder: Path,
) -> None:
    worker = trusted.shared_worker(folder)
    with pytest.raises(trusted.WorkerError):
        list(worker.request("labwright.testing.worker_probe:hang", {}, timeout=2))
    assert not worker.alive
    fresh = trusted.shared_worker(folder)
    assert fresh is not worker and fresh.alive
    assert _one(fresh, _PROBE, path=str(folder / "missing.png"))["reason"]


def test_a_crashing_decoder_costs_one_sentence(folder: Path) -> None:
    worker = trusted.shared_worker(folder)
    with pytest.raises(trusted.WorkerError) as info:
        list(worker.request("labwright.testing.worker_probe:crash", {}, timeout=30))
    assert "signal" in str(info.value) and "\n" not in str(info.value)


def test_unknown_operations_are_refused(folder: Path) -> None:
    with trusted.TrustedWorker(folder) as worker:
        for op in ("os:system", "labwright.sandbox.images:_displayable", "nothing"):
            (reply,) = list(worker.request(op, {}, timeout=60))
            assert "unknown operation" in str(reply["error"])
        assert worker.alive


def test_hostile_images_are_skipped_with_one_sentence_and_the_rest_is_read(folder: Path) -> None:
    from labwright.ingest import ImageInfo, read_folder

    Image.new("RGB", (120, 80), (10, 200, 30)).save(folder / "good.png")
    raw = (folder / "good.png").read_bytes()
    (folder / "cut.png").write_bytes(raw[: len(raw) // 2])
    (folder / "bomb.png").write_bytes(png_header_only(30_000, 30_000))
    result = read_folder(folder)
    images = {i.source: i for i in result.images}
    skipped = {s.source: s.reason for s in result.skipped}
    assert isinstance(images.get("good.png"), ImageInfo) and images["good.png"].width == 120
    assert set(skipped) == {"cut.png", "bomb.png"}
    assert "too many pixels" in skipped["bomb.png"]
    for reason in skipped.values():
        assert reason.endswith(".") and ". " not in reason and "\n" not in reason  # one sentence


def test_an_image_that_kills_the_decoder_is_skipped_and_reading_goes_on(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labwright.ingest import read_file
    from labwright.ingest import read_image as reader
    from labwright.ingest.types import ImageInfo, Skipped

    Image.new("RGB", (30, 20), (1, 2, 3)).save(folder / "a.png")
    monkeypatch.setattr(reader, "_PROBE", "labwright.testing.worker_probe:crash")
    (item,) = read_file(folder / "a.png", "a.png")
    assert isinstance(item, Skipped) and "stopped" in item.reason
    monkeypatch.undo()
    (item,) = read_file(folder / "a.png", "a.png")
    assert isinstance(item, ImageInfo) and (item.width, item.height) == (30, 20)


def test_build_with_hostile_images_finishes_with_one_sentence_each(
    folder: Path, tmp_path: Path
) -> None:
    from labwright.agent.events import Done, FigureMade, Warning_
    from labwright.agent.offline.build import build_offline

    (folder / "data.csv").write_text(
        "L (m),T (s)\n0.2,0.9\n0.4,1.27\n0.6,1.55\n0.8,1.79\n1.0,2.0\n", encoding="utf-8"
    )
    Image.new("RGB", (64, 48), (200, 10, 10)).save(folder / "photo.bmp")
    (folder / "bomb.png").write_bytes(png_header_only(30_000, 30_000))
    Image.new("RGB", (300, 300), (1, 2, 3)).save(folder / "whole.png")
    raw = (folder / "whole.png").read_bytes()
    (folder / "cut.png").write_bytes(raw[: len(raw) // 2])
    (folder / "whole.png").unlink()
    events = list(build_offline(folder, tmp_path / "out", tex_available=False))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path is not None
    warnings = [e.message for e in events if isinstance(e, Warning_)]
    assert sum("bomb.png" in w for w in warnings) == 1
    assert sum("cut.png" in w for w in warnings) == 1
    made = [e for e in events if isinstance(e, FigureMade)]
    assert {m.source for m in made} >= {"data.csv", "photo.bmp"}
    for m in made:
        assert Path(m.path).is_file() and Path(m.path).stat().st_size > 0
    # Nothing is left running or lying around: the worker was handed back.
    assert not trusted._pool


def test_worker_outputs_are_not_followed(folder: Path, tmp_path: Path) -> None:
    """A worker that plants a link where a figure should be cannot make us copy a secret."""
    secret = tmp_path / "secret.png"
    Image.new("RGB", (4, 4)).save(secret)
    with trusted.TrustedWorker(folder) as worker:
        os.symlink(secret, worker.work / "fig01.png")
        assert worker.take_output("fig01.png", 1 << 20) is None
        assert worker.take_output("../secret.png", 1 << 20) is None
    assert secret.exists()


def test_an_image_that_hangs_the_decoder_is_skipped_within_the_watchdog(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labwright.ingest import read_file
    from labwright.ingest import read_image as reader
    from labwright.ingest.types import ImageInfo, Skipped

    Image.new("RGB", (30, 20), (1, 2, 3)).save(folder / "a.png")
    monkeypatch.setattr(reader, "_PROBE", "labwright.testing.worker_probe:hang")
    monkeypatch.setattr(trusted, "PROBE_TIMEOUT", 2.0)
    (item,) = read_file(folder / "a.png", "a.png")
    assert isinstance(item, Skipped) and "stopped" in item.reason
    monkeypatch.undo()
    (item,) = read_file(folder / "a.png", "a.png")
    assert isinstance(item, ImageInfo)


def test_the_pool_keeps_few_idle_workers(tmp_path: Path) -> None:
    folders = []
    for i in range(trusted.MAX_POOLED + 1):
        f = tmp_path / f"d{i}"
        f.mkdir()
        folders.append(f)
    workers = [trusted.shared_worker(f) for f in folders]
    assert len(trusted._pool) == trusted.MAX_POOLED
    assert not workers[0].alive  # the oldest idle one was stopped
    assert all(w.alive for w in workers[1:])
