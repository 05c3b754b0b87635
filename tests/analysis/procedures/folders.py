"""A folder through the offline analyst as the build runs it: read, the
request by rules, the kinds, the writers' text and the compendium's blocks,
with no TeX."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from labwright.agent.offline.figures import FigurePlan, plan_figures
from labwright.agent.offline.kind_writers import scripts
from labwright.agent.offline.provenance import Ledger
from labwright.agent.offline.text import ReportInput, assemble
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import FolderAnalysis, analyse_folder
from labwright.analysis.request_rules import read_request
from labwright.ingest.read import read_folder
from labwright.ingest.types import ReadResult


@dataclass
class Built:
    read: ReadResult
    analysis: FolderAnalysis
    ledger: Ledger
    tex: str
    plans: list[FigurePlan]

    def answer(self, quantity: str) -> list[tuple[float, float | None, str | None, str]]:
        return [(a.value, a.se, a.unit, a.label.en) for a in self.analysis.sheet.answers
                if a.quantity == quantity]  # fmt: skip


def build(folder: Path, lang: str) -> Built:
    read = read_folder(folder)
    fa = analyse_folder(read, read_request(read, catalogue()))
    plans = plan_figures(read.datasets, read.images, analysis=fa, lang=lang)
    ledger = Ledger()
    fields = assemble(ReportInput(lang, folder.name, read, plans, analysis=fa), ledger)
    tex = "\n".join(fields.values())
    return Built(read, fa, ledger, tex, plans)


def recomputed_values_are_printed(b: Built, kind: str) -> int:
    """Run the compendium block of every analysis of `kind`: each value it
    states is one the ledger printed for the same computation. Returns how
    many values were checked."""
    printed: dict[str, list[float]] = {}
    for e in b.ledger.entries:
        printed.setdefault(e.computation, []).append(e.value)
    checked = 0
    for a, block in zip(b.analysis.analyses, scripts(b.analysis.analyses), strict=True):
        if a.kind != kind:
            continue
        said: list[tuple[str, float]] = []

        def table(file: str, part: str | None = None) -> pd.DataFrame:
            for ds in b.read.datasets:
                prov = ds.provenance
                own = (prov.sheet or prov.variable) if prov is not None else None
                if ds.source == file and (part is None or own == part):
                    return pd.DataFrame({c.name: c.values for c in ds.columns})
            raise KeyError(file)

        def report(
            computation: str,
            value: float,
            source: str | None = None,
            *,
            said: list[tuple[str, float]] = said,
        ) -> None:
            # `source`: where the block says the value comes from (the compendium prints it).
            said.append((computation, float(value)))

        source = block.source()
        assert "labwright" not in source
        exec(compile(source, "<compendium>", "exec"), {"table": table, "report": report})  # noqa: S102
        for computation, value in said:
            assert computation in printed, computation
            assert any(math.isclose(value, v, rel_tol=1e-6, abs_tol=1e-9)
                       for v in printed[computation]), (computation, value, printed[computation])  # fmt: skip
            checked += 1
    return checked


def build_offline_record(folder: Path) -> tuple[dict[str, object], list[str]]:
    """The offline build (no TeX) of `folder`: the provenance record's
    `analysis` section, and the numbers of main.tex no tag accounts for."""
    import json

    from labwright.agent.offline import build_offline
    from labwright.agent.offline.provenance import unsourced_numbers

    out = folder.parent / (folder.name + "-out")
    list(build_offline(folder, out, tex_available=False))
    record = json.loads((out / "provenance.json").read_text(encoding="utf-8"))
    tex = (out / "main.tex").read_text(encoding="utf-8")
    return record["analysis"], unsourced_numbers(tex, record)
