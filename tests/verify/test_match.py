"""The matcher: what it tolerates, and the different works it never takes for the same."""

from __future__ import annotations

import pytest

from labwright.verify.bibtex import Person, parse_bib
from labwright.verify.match import fit, person_fit, plain, title_fit
from labwright.verify.records import WorkRecord, person_from_display


def record(
    title: str,
    authors: tuple[tuple[str, str], ...] = (("He", "Kaiming"),),
    year: int = 2016,
    **kw: object,
) -> WorkRecord:
    return WorkRecord(
        "crossref",
        "10.1/x",
        doi="10.1/x",
        titles=(title,),
        authors=tuple(Person(f, g) for f, g in authors),
        year=year,
        **kw,
    )  # type: ignore[arg-type]


def entry(fields: str):  # type: ignore[no-untyped-def]
    return parse_bib("@article{k, " + fields + "}").entries[0]


def test_latex_escapes_and_math_decode_to_unicode() -> None:
    assert plain(r"Zur Elektrodynamik bewegter K{\"o}rper") == "Zur Elektrodynamik bewegter Körper"
    assert "α" in plain(r"scattering of $\alpha$ particles")
    assert (
        title_fit(
            r"Zur Elektrodynamik bewegter K{\"o}rper", record("Zur Elektrodynamik bewegter Körper")
        )
        == "same"
    )
    assert (
        title_fit("<i>In vivo</i> imaging of cells", record("In vivo imaging of cells")) == "same"
    )


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        (
            "Deep Residual Lerning for Image Recognition",
            "Deep Residual Learning for Image Recognition",
            "typo",
        ),
        (
            "An algorithm for non-linear least squares",
            "An algorithm for nonlinear least squares",
            "same",
        ),
        (
            "Molecular structure of nucleic acids",
            "Molecular Structure of Nucleic Acids: A Structure for Deoxyribose Nucleic Acid",
            "subtitle",
        ),
        ("Attention Is Not All You Need", "Attention Is All You Need", "different"),
        ("Theory of Superconductivity II", "Theory of Superconductivity", "different"),
        (
            "Deep residual learning for image super-resolution",
            "Deep Residual Learning for Image Recognition",
            "different",
        ),
        (
            "Identity mappings in deep residual networks",
            "Deep Residual Learning for Image Recognition",
            "different",
        ),
        (
            "锂离子电池正极材料磷酸铁锂的改姓研究进展",
            "锂离子电池正极材料磷酸铁锂的改性研究进展",
            "typo",
        ),
        ("基于深度学习的图像识别研究", "基于深度学习的图像分割研究", "different"),
        ("Introduction", "Introduction to Electrodynamics", "different"),
    ],
)
def test_title_fit(mine: str, theirs: str, expected: str) -> None:
    assert title_fit(mine, record(theirs)) == expected


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        (Person("He", "K."), Person("He", "Kaiming"), "match"),
        (Person("He", "J."), Person("He", "Kaiming"), "mismatch"),
        (Person('Schr\\"{o}dinger', "E."), Person("Schrödinger", "Erwin"), "match"),
        (Person("Shanon", "C. E."), Person("Shannon", "C. E."), "close"),
        (Person("张三"), person_from_display("张三"), "match"),
        (Person("伟", "张"), Person("张", "伟"), "match"),  # "张 伟" read as First Last
        (Person("欧阳明"), Person("欧阳", "明"), "match"),
        (Person("李四"), Person("张", "三"), "mismatch"),
        (Person("Tu", "Youyou"), Person("屠", "呦呦"), "unknown"),
        (Person("Jianguo", "Wang"), Person("Wang", "Jianguo"), "match"),
    ],
)
def test_person_fit(mine: Person, theirs: Person, expected: str) -> None:
    assert person_fit(mine, theirs) == expected


def test_same_title_other_first_author_is_another_work() -> None:
    found = fit(
        entry("author={Smith, John}, title={Array programming with NumPy}, year={2020}"),
        record("Array programming with NumPy", (("Harris", "Charles R."),), 2020),
    )
    assert not found.same and "first author" in found.why_not


def test_years_far_apart_without_an_identifier_are_another_work() -> None:
    mine = entry(
        "author={Krizhevsky, Alex}, title={ImageNet classification with deep convolutional neural networks}, year={2012}"
    )
    later = record(
        "ImageNet classification with deep convolutional neural networks",
        (("Krizhevsky", "Alex"),),
        2017,
    )
    assert not fit(mine, later).same
    assert fit(mine, later, identified_by="doi").same  # the DOI ties them; the year is a correction


def test_a_notice_is_never_the_work() -> None:
    mine = entry(
        "author={Jumper, John}, title={Highly accurate protein structure prediction with AlphaFold}, year={2021}"
    )
    notice = record(
        "Correction to: Highly accurate protein structure prediction with AlphaFold",
        (("Jumper", "John"),),
        2021,
    )
    assert not fit(mine, notice).same


def test_differences_are_listed_for_a_correction() -> None:
    mine = entry(
        "author={LeCun, Y.}, title={Deep learning}, year={2015}, volume={512}, pages={436--444}"
    )
    found = fit(
        mine, record("Deep learning", (("LeCun", "Yann"),), 2015, volume="521", pages="436-444")
    )
    assert found.same
    assert ("volume", "512", "521") in found.differed and "pages" in found.matched
