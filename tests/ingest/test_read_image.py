import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from labwright.ingest import ImageInfo, Skipped, read_file


@pytest.mark.parametrize(
    ("name", "mode", "fmt"),
    [("a.png", "RGB", "PNG"), ("b.jpg", "RGB", "JPEG"), ("c.png", "L", "PNG")],
)
def test_image_info_and_thumbnail(data_dir: Path, name: str, mode: str, fmt: str) -> None:
    Image.new(mode, (800, 400), color=128 if mode == "L" else (10, 200, 30)).save(data_dir / name)
    (info,) = read_file(data_dir / name, name)
    assert isinstance(info, ImageInfo)
    assert (info.format, info.width, info.height, info.mode) == (fmt, 800, 400, mode)
    with Image.open(io.BytesIO(info.thumbnail_png)) as thumb:
        assert thumb.format == "PNG" and max(thumb.size) <= 256


def test_16_bit_tiff_gets_a_visible_thumbnail(data_dir: Path) -> None:
    ramp = (np.arange(64 * 64, dtype=np.uint16).reshape(64, 64) * 16).astype(np.uint16)
    Image.fromarray(ramp).save(data_dir / "camera.tif")
    (info,) = read_file(data_dir / "camera.tif", "camera.tif")
    assert isinstance(info, ImageInfo) and info.mode.startswith("I")
    with Image.open(io.BytesIO(info.thumbnail_png)) as thumb:
        values = np.asarray(thumb)
    assert values.min() == 0 and values.max() == 255


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims width x height grey pixels and holds one row: what a
    decompression bomb looks like to a decoder before it allocates."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00" * (width + 1))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    "side", [20_000, 10_000]
)  # over 2x Pillow's limit (error) and over 1x (warning)
def test_decompression_bomb_is_refused(data_dir: Path, side: int) -> None:
    (data_dir / "bomb.png").write_bytes(png_header_only(side, side))
    (item,) = read_file(data_dir / "bomb.png", "bomb.png")
    assert isinstance(item, Skipped) and "too many pixels" in item.reason


def test_truncated_and_fake_images_are_skipped(data_dir: Path) -> None:
    Image.new("RGB", (300, 300), (1, 2, 3)).save(data_dir / "good.png")
    raw = (data_dir / "good.png").read_bytes()
    (data_dir / "cut.png").write_bytes(raw[: len(raw) // 2])
    (data_dir / "fake.jpg").write_text("not an image", encoding="utf-8")
    for name in ("cut.png", "fake.jpg"):
        (item,) = read_file(data_dir / name, name)
        assert isinstance(item, Skipped), name


def test_a_folder_given_by_a_relative_path_still_has_its_images(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`labwright build examples/spectrum` (relative): the image is decoded by
    the confined worker, whose working directory is its own."""
    Image.new("RGB", (40, 20), color=(1, 2, 3)).save(data_dir / "photo.png")
    monkeypatch.chdir(data_dir.parent)
    relative = Path(data_dir.name) / "photo.png"
    (info,) = read_file(relative, "photo.png")
    assert isinstance(info, ImageInfo), info
    assert (info.width, info.height) == (40, 20)
