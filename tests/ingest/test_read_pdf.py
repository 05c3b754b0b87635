from pathlib import Path

from labwright.ingest import DocumentText, Skipped, read_file

from .conftest import write_pdf


def test_pdf_text_of_first_pages(data_dir: Path) -> None:
    path = write_pdf(data_dir / "handout.pdf", "Aim: measure the period of a pendulum")
    (doc,) = read_file(path, "handout.pdf")
    assert isinstance(doc, DocumentText)
    assert "measure the period of a pendulum" in doc.text
    assert doc.pages_read == 1 and not doc.truncated


def test_truncated_pdf_and_fake_pdf_are_skipped(data_dir: Path) -> None:
    good = write_pdf(data_dir / "good.pdf", "hello")
    (data_dir / "cut.pdf").write_bytes(good.read_bytes()[:200])
    (data_dir / "fake.pdf").write_text("just text", encoding="utf-8")
    for name in ("cut.pdf", "fake.pdf"):
        (item,) = read_file(data_dir / name, name)
        assert isinstance(item, Skipped), name
        assert item.reason.startswith(name)


def _encrypt(src: Path, dst: Path, algorithm: str) -> Path:
    """An owner-password-only PDF, as publishers protect handouts: anyone may
    open it (empty user password), the content is encrypted."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(src))
    writer.encrypt(user_password="", owner_password="owner-secret", algorithm=algorithm)
    with dst.open("wb") as handle:
        writer.write(handle)
    return dst


_WITHOUT_CRYPTOGRAPHY = """
import json, sys
sys.modules["cryptography"] = None  # as in the desktop bundles (the spec excludes it)
from pathlib import Path
from labwright.ingest import DocumentText, read_file
out = {}
for name in sys.argv[1:]:
    (item,) = read_file(Path(name), Path(name).name)
    out[Path(name).name] = item.text if isinstance(item, DocumentText) else "skipped: " + item.reason
print(json.dumps(out))
"""


def test_encrypted_pdfs_with_and_without_cryptography(data_dir: Path) -> None:
    import json
    import subprocess
    import sys

    plain = write_pdf(data_dir / "plain.pdf", "Aim: measure the period of a pendulum")
    aes = _encrypt(plain, data_dir / "aes.pdf", "AES-128")
    rc4 = _encrypt(plain, data_dir / "rc4.pdf", "RC4-128")
    for path in (aes, rc4):  # the venv has cryptography: both read
        (doc,) = read_file(path, path.name)
        assert isinstance(doc, DocumentText) and "period of a pendulum" in doc.text
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_CRYPTOGRAPHY, str(aes), str(rc4)],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # RC4 needs nothing more; AES is skipped with one sentence and an action.
    assert "period of a pendulum" in result["rc4.pdf"]
    assert result["aes.pdf"].startswith("skipped: aes.pdf is AES-encrypted")
    assert "print it to a new PDF" in result["aes.pdf"]
