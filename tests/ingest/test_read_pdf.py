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
