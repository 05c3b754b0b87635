"""A rate asked of a dated series is its trend, not a growth law's constant.

"Find the growth rate per year of each record" (three station records: CO2
by date, a daily price, a monthly temperature) was read as the intrinsic
growth rate r of the logistic or the exponential law, the data to decide;
neither law binds a table whose time is calendar dates, so the report said
"Not answered: r" beside the three trends it had computed. A rate of a
series dated by the calendar is what a scientist reads off its linear
trend (ppm per year); the time-series analysis gives it, with a standard
error robust to autocorrelation.

The rule: an asked quantity the notes ask by a rate phrase ("growth rate",
"增长率"), whose law the notes do not decide (the data were to choose it)
or only imply by the quantity itself, is dropped from the laws' asks when
none of its candidate laws binds a table and the folder holds a table with
a calendar time axis (`analysis.dates.recognise`: dates, YYYYMMDD codes,
years). The notes' trend question answers it. A law the notes name
("logistic growth rate r") keeps its ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from labwright.analysis.dates import recognise
from labwright.analysis.request import AskedQuantity, NamedModel
from labwright.ingest.types import Dataset

_RATE = re.compile(r"\brates?\b|率|速率", re.I)


def has_calendar_time(datasets: Iterable[Dataset]) -> bool:
    """Whether some table has a column read as calendar time."""
    return any(recognise(c) is not None for ds in datasets for c in ds.columns)


def trend_rates(
    asked: Sequence[AskedQuantity],
    models: Sequence[NamedModel],
    binds: Callable[[str], bool],
    datasets: Iterable[Dataset],
) -> list[AskedQuantity]:
    """The asks that are the trend of a dated series (module docstring).
    `binds(key)`: whether the law binds some table of the folder."""
    implied = {m.key for m in models if m.key and m.how == "quantity"}

    def undecided(a: AskedQuantity) -> bool:
        laws = (a.model,) if a.model is not None else a.candidates
        named = a.model is not None and a.model not in implied
        return bool(laws) and not named and not any(binds(k) for k in laws)

    out = [a for a in asked if _RATE.search(a.evidence.phrase) and undecided(a)]
    return out if out and has_calendar_time(datasets) else []
