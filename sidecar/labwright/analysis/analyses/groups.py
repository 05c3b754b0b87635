"""The groups kind: per-group statistics of the measurements of a table by
its category, a test of a difference (Welch / ANOVA, Kruskal-Wallis), and
which pairs differ (Tukey HSD).

Binds a table with a category and measurements (no time axis); panel data
(many units observed at the same times); and a time-stamped table of a few
stations when the notes ask to compare the groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from labwright.analysis.analyses.shape_rules import (
    MAX_GROUP_MEASUREMENTS,
    asks_time,
    is_panel,
    levels_of,
    named_first,
    split_by_category,
)
from labwright.analysis.catalogue.schema import Text
from labwright.analysis.groups import GroupResult, compare_groups
from labwright.analysis.jobs import BindContext, Job, Uses
from labwright.analysis.offset import offset_of
from labwright.analysis.question import Question
from labwright.analysis.results import Answer
from labwright.analysis.roles import TableRoles
from labwright.ingest.types import Column, Dataset


@dataclass(frozen=True)
class GroupsBinding:
    dataset: Dataset
    roles: TableRoles
    question: Question


@dataclass
class GroupsFound:
    results: list[GroupResult]
    codes: np.ndarray  # group code of every row
    levels: list[str]  # group labels in code order
    category: str  # the category column
    left_out: list[str] = field(default_factory=list)  # measurements not compared
    # The one measured quantity whose value the notes ask with its
    # uncertainty (Michelson's "report the speed of light with its standard
    # error"): its mean over every reading, with a header's offset put back.
    asked_mean: Column | None = None

    def answers(self) -> list[Answer]:
        col = self.asked_mean
        if col is None:
            return []
        v = np.asarray(col.values, dtype=float)
        v = v[np.isfinite(v)]
        if v.size < 3:
            return []
        found = offset_of(col.name)
        name, shift = found if found is not None else (col.name, 0.0)
        se = float(np.std(v, ddof=1) / np.sqrt(v.size))
        how = Text(
            "mean of every reading, all groups together"
            + (", the header's offset added back" if found else "")
            + "; SE = SD/sqrt(n)",
            "全部读数（各组合并）的平均值"
            + ("，加回表头中减去的常数" if found else "")
            + "；标准误差 = 标准差/sqrt(n)",
        )
        return [
            Answer("mean", Text(name, name), r"\bar{x}", float(np.mean(v)) + shift, se,
                   col.unit, how, None, True, None, (col.provenance,), f"all {v.size}")
        ]  # fmt: skip


class GroupsKind:
    name = "groups"

    def bind(self, ctx: BindContext) -> Sequence[Job[GroupsBinding]]:
        r = ctx.notes
        q = r.question
        jobs: list[Job[GroupsBinding]] = []
        for ds in ctx.read.datasets:
            roles = r.roles_of(ds)
            if roles is None or r.in_series(ds):
                continue
            claims = ctx.claimed_by(ds)
            if claims and claims != ["regression"]:
                continue
            shape = r.shape_of(ds)
            if shape == "category":  # claimed at most by its regression
                cat = roles.of("category")[0]
                why = f"category column {cat.name} ({cat.reason}) with measurements"
            elif shape == "time" and is_panel(ds, roles):
                cat = roles.of("category")[0]
                _, levels = levels_of(ds, roles)
                why = (
                    f"category column {cat.name} ({cat.reason}) with measurements; "
                    f"{len(levels)} units observed at the same times (panel data)"
                )
            elif (
                shape == "time"
                and q.asks("groups")
                and not ("regression" in claims and not asks_time(q))
                and split_by_category(ds, roles, named_first(roles.measurements, r.text))
            ):
                cat = roles.of("category")[0]
                why = f"category column {cat.name} ({cat.reason}) with measurements"
            else:
                continue
            jobs.append(Job(self.name, ds.source, why, GroupsBinding(ds, roles, q), (ds,)))
        return jobs

    def compute(self, job: Job[GroupsBinding]) -> GroupsFound | None:
        ds, roles = job.binding.dataset, job.binding.roles
        cat = roles.of("category")[0]
        codes, levels = levels_of(ds, roles)
        results: list[GroupResult] = []
        for col in roles.measurements[:MAX_GROUP_MEASUREMENTS]:
            res = compare_groups(
                np.asarray(col.values, dtype=float), codes, levels, col.name, cat.name
            )
            if res is not None:
                results.append(res)
        if not results:
            return None
        left = [c.name for c in roles.measurements[MAX_GROUP_MEASUREMENTS:]]
        q = job.binding.question
        one = roles.measurements[0] if len(roles.measurements) == 1 else None
        asked = (
            ds.column(one.name)
            if one is not None and q.asks("error") and not q.asks("groups")
            else None
        )
        return GroupsFound(results, codes, levels, cat.name, left, asked)

    def goals(self, job: Job[GroupsBinding], result: GroupsFound) -> list[str]:
        # "The effect of the treatment on ..." is answered by the group comparison.
        return ["groups"] + (["dependence"] if job.binding.question.asks("dependence") else [])

    def uses(self, job: Job[GroupsBinding], result: GroupsFound) -> Uses:
        ds = job.binding.dataset
        return Uses(
            x=(ds.column(result.category),),
            summarised=tuple(ds.column(g.measurement) for g in result.results),
        )


GROUPS = GroupsKind()
