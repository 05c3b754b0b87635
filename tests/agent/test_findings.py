"""A report whose notes ask no quantity but compare groups (or relate a
response to several variables) concludes what the tests found, not only
what was computed (offline/discussion.py, `KindWriter.findings`)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from labwright.agent.events import Done
from labwright.agent.offline import build_offline


def _section(tex: str, title: str) -> str:
    body = tex.split(f"\\section{{{title}}}", 1)[1]
    return body.split("\\section{", 1)[0]


def _groups_folder(root: Path, lang: str) -> Path:
    rng = np.random.default_rng(3)
    rows = ["alloy,hardness (HV),density (g/cm3)"]
    for alloy, centre in (("annealed", 170.0), ("tempered", 300.0), ("quenched", 420.0)):
        for _ in range(8):
            rows.append(f"{alloy},{rng.normal(centre, 12):.1f},{rng.normal(7.85, 0.02):.3f}")
    folder = root / f"alloys-{lang}"
    folder.mkdir()
    (folder / "hardness.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    notes = (
        "# Heat treatment\n\nCompare the hardness and the density of the three heat treatments.\n"
        if lang == "en"
        else "# 热处理\n\n比较三种热处理的硬度和密度，检验组间差异。\n"
    )
    (folder / "notes.md").write_text(notes, encoding="utf-8")
    return folder


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_comparison_of_groups_concludes_which_differ(tmp_path: Path, lang: str) -> None:
    folder = _groups_folder(tmp_path, lang)
    events = list(build_offline(folder, tmp_path / "build", tex_available=False))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, done
    tex = Path(done.tex_path).read_text(encoding="utf-8")
    conclusion = _section(tex, "Conclusion" if lang == "en" else "结论")
    plain = re.sub(r"\\lwnum\{[0-9a-f]+\}\{([^}]*)\}", r"\1", conclusion)
    plain = re.sub(r"\\lwtext\{([^}]*)\}", r"\1", plain)
    if lang == "en":
        assert "hardness differs between the groups of alloy" in plain
        assert "highest in quenched" in plain and "lowest in annealed" in plain
        assert "No difference in density" in plain
        assert "do not answer a specific question" not in plain
    else:
        assert "hardness在alloy各组之间差异显著" in plain
        assert "在quenched组最高" in plain and "在annealed组最低" in plain
        assert "未发现density在alloy各组之间有显著差异" in plain
        assert "不回答具体问题" not in plain
    # Every number of the findings is traced (a tag), none bare.
    assert not re.search(
        r"(?<![\w{.])\d+(?:\.\d+)?(?![\w}])", re.sub(r"\\lwnum\{[^}]*\}\{[^}]*\}", "", conclusion)
    )


def _conclusion(folder: Path, out: Path) -> str:
    events = list(build_offline(folder, out, tex_available=False))
    done = events[-1]
    assert isinstance(done, Done) and done.tex_path, done
    tex = Path(done.tex_path).read_text(encoding="utf-8")
    section = _section(tex, "Conclusion")
    plain = re.sub(r"\\lwnum\{[0-9a-f]+\}\{([^}]*)\}", r"\1", section)
    return re.sub(r"\\lwtext\{([^}]*)\}", r"\1", plain)


def test_a_regression_concludes_how_the_response_moves_with_each_predictor(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(8)
    n = 40
    temp, pressure, stirring = rng.uniform(320, 380, n), rng.uniform(1, 5, n), rng.uniform(0, 1, n)
    yield_ = 5 + 0.07 * temp + 1.8 * pressure + rng.normal(0, 0.5, n)
    rows = ["run,temperature (K),pressure (bar),stirring,yield (%)"]
    rows += [f"{i + 1},{a:.2f},{b:.3f},{c:.3f},{y:.3f}"
             for i, (a, b, c, y) in enumerate(zip(temp, pressure, stirring, yield_, strict=True))]  # fmt: skip
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "runs.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    plain = _conclusion(folder, tmp_path / "build")
    assert "yield rises with temperature by" in plain and "%/K" in plain
    assert "yield rises with pressure by" in plain
    assert "No effect on yield was found of: stirring" in plain
