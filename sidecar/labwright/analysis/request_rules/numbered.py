"""Two ways a table holds more of a law than its columns say.

A law's count in numbered columns (`analysis/numbered_columns.py`): the law
binds a table but for one variable, an independent count (a resonance
number, an order, a ring number), and its response is bound to a column of
a numbered group ("L1" of L1, L2). Read long, with the count from the
columns' numbers, the table binds the whole law; the bindings are to the
long table, and the request records how it was made.

An input held per row: a law takes a tuning fork's frequency as given, but
the table has a column of it, one fork per row. The input is then read as
an independent variable (`ModelEntry.with_inputs_as_variables`); the fit
kind does the same for every input the request binds to a column.
"""

from __future__ import annotations

from collections.abc import Sequence

from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.numbered_columns import numbered_readings, unpivot
from labwright.analysis.request import Evidence, GivenConstant, NumberedReadings
from labwright.analysis.request_rules.bindings import (
    Scored,
    TableBinding,
    _is_count,
    bind_table,
    score,
)
from labwright.analysis.request_rules.columns import FolderColumn, table_columns
from labwright.analysis.request_rules.text import Notes
from labwright.ingest.types import Dataset

#: A column is an input's per-row values only by its symbol (3) and a unit of
#: the input's dimension (2): words alone ("frequency") are no such evidence.
BY_SYMBOL_AND_UNIT = 5.0


def bind_by_column_numbers(
    entry: ModelEntry, bound: Sequence[TableBinding], notes: Notes
) -> tuple[TableBinding, NumberedReadings, tuple[Dataset, list[FolderColumn]]] | None:
    """The law bound to a table read long, when its count is the number of
    its response's columns; None otherwise."""
    for tb in bound:
        missing = [v for v in entry.variables if v.name not in tb.chosen]
        if len(missing) != 1:
            continue
        count = missing[0]
        if count.role != "independent" or not _is_count(count):
            continue
        response = tb.chosen.get(entry.response.name)
        if response is None:
            continue
        spec = numbered_readings(
            tb.dataset,
            response.column.name,
            entry.response.name,
            count.name,
            Evidence(
                source=response.column.file,
                phrase=response.column.name,
                reason=(
                    f"the numbered columns of {response.column.name} are the "
                    f"{entry.response.label.en} at each {count.label.en} ({count.name}), "
                    "the number in their names"
                ),
            ),
        )
        long = unpivot(tb.dataset, spec) if spec is not None else None
        if spec is None or long is None:
            continue
        columns = table_columns(long, notes)
        rebound = bind_table(entry, long, columns)
        counted = next(c for c in columns if c.name == spec.count)
        # The count column is made from the names (a category of two or three
        # levels to the role rules): it is the count by construction.
        why = f"the number in the names of {', '.join(spec.columns)}"
        chosen = {
            **{k: s for k, s in rebound.chosen.items() if s.column.name != spec.count},
            count.name: Scored(counted, BY_SYMBOL_AND_UNIT, (why,)),
        }
        rebound = TableBinding(entry, long, chosen, rebound.fallback)
        if rebound.complete and len({s.column.name for s in chosen.values()}) == len(chosen):
            return rebound, spec, (long, columns)
    return None


def with_per_row_inputs(
    entry: ModelEntry,
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
    given: Sequence[GivenConstant],
) -> ModelEntry:
    """The law with the inputs a table holds per row made variables: an input
    the notes do not give, of which a column carries the symbol and the
    dimension ("f (Hz)" beside the resonance lengths, one fork per row). A
    constant column is not one (`score` refuses it): that is a given value."""
    symbols = {c.symbol for c in given}
    per_row = []
    for i in entry.inputs:
        if {i.name, *i.symbols} & symbols:
            continue
        probe = i.as_variable()
        named = (
            s for _, cols in tables for col in cols if (s := score(probe, col, entry)) is not None
        )
        if any(
            s.score >= BY_SYMBOL_AND_UNIT and any(r.startswith("its name") for r in s.reasons)
            for s in named
        ):
            per_row.append(i.name)
    return entry.with_inputs_as_variables(per_row)
