"""A report whose notes ask no quantity but compare groups (or paired
conditions) concludes what the test found, not only what was computed
(offline/discussion.py, `KindWriter.findings`)."""

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
