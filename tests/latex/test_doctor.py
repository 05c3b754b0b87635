"""labwright doctor: real engine checks, and a fix for every problem."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labwright.latex.doctor import check_files, package_of, required_files, run_doctor
from labwright.latex.engine import TexEngine, resolve_engine


def _manifest(repo_root: Path) -> set[str]:
    text = (repo_root / "tinytex" / "packages.txt").read_text(encoding="utf-8")
    return {line.split("#", 1)[0].strip() for line in text.splitlines()} - {""}


def test_every_required_file_is_in_the_tinytex_manifest(repo_root: Path) -> None:
    manifest = _manifest(repo_root)
    for f in required_files():
        assert package_of(f)[0] in manifest, f"{f} needs tlmgr package {package_of(f)[0]}"


def test_required_files_follow_the_class(repo_root: Path) -> None:
    cls = (repo_root / "knowledge" / "templates" / "labwright-report.cls").read_text(
        encoding="utf-8"
    )
    loaded = {
        n.strip() + ".sty"
        for g in re.findall(r"\\RequirePackage(?:\[[^\]]*\])?\{([^}]+)\}", cls)
        for n in g.split(",")
    }
    assert loaded and loaded <= set(required_files())
    assert "FandolSong-Regular.otf" in required_files()


def test_doctor_on_this_machine(tex_engine: TexEngine) -> None:
    report = run_doctor(engine=tex_engine)
    names = [c.name for c in report.checks]
    assert names == [
        "TeX engine",
        "BibTeX",
        "PDF driver",
        "TeX packages",
        "Fonts",
        "English template",
        "Chinese template",
    ]
    assert report.ok, report.lines()
    assert "XeTeX" in report.checks[0].detail
    assert all(line.startswith("ok ") for line in report.lines())


def test_a_missing_pdf_driver_is_named_with_what_to_install(tex_engine: TexEngine) -> None:
    """Without xdvipdfmx nothing is compiled (the .xdv gate would be
    skipped), so doctor says so instead of probing the templates."""
    from dataclasses import replace

    report = run_doctor(engine=replace(tex_engine, xdvipdfmx=None))
    (driver,) = [c for c in report.checks if c.name == "PDF driver"]
    assert not driver.ok and "install" in (driver.fix or "").lower()
    assert not report.ok
    assert not any(c.name.endswith("template") for c in report.checks)


def test_missing_package_is_reported_with_its_fix(tex_engine: TexEngine) -> None:
    packages, fonts = check_files(
        tex_engine, ["framed.sty", "labwright-nosuch.sty", "NoSuchFont-Regular.otf"]
    )
    assert (
        not packages.ok
        and "labwright-nosuch.sty" in packages.detail
        and "framed.sty" not in packages.detail
    )
    assert packages.fix and "labwright-nosuch" in packages.fix  # names what to install
    assert not fonts.ok and "NoSuchFont-Regular.otf" in fonts.detail and fonts.fix


def test_fandol_fix_names_the_chinese_package() -> None:
    assert package_of("FandolSong-Regular.otf") == ("fandol", "texlive-lang-chinese")
    assert package_of("ctex.sty") == ("ctex", "texlive-lang-chinese")


def test_no_engine_is_one_failed_check_with_a_fix(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("LABWRIGHT_TEX", raising=False)
    monkeypatch.setenv("LABWRIGHT_RESOURCES", str(tmp_path))
    report = run_doctor()
    assert not report.ok
    assert [c.name for c in report.checks] == ["TeX engine"]
    assert report.checks[0].fix


def test_broken_override_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LABWRIGHT_TEX", str(tmp_path / "nowhere"))
    report = run_doctor(engine=resolve_engine())
    assert not report.ok and "LABWRIGHT_TEX" in (report.checks[0].fix or "")
