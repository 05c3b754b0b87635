"""Data an entry generates from its own `example`: the truth, the sampling,
the noise (`[model.example]` in `knowledge/models/*.toml`).

The coverage test fits every entry back from these draws
(`tests/analysis/test_catalogue_coverage.py`), and the labelled evaluation
folders can write them as columns. The independent variables are sampled
as the example says (several crossed as a grid, linear or log spacing, or
discrete values: orders n = 3..7), in the variables' typical units; the
response is the formula at the true parameters plus noise:

- `absolute`: Gaussian noise of standard deviation `noise` in the
  response's unit (the fit is unweighted: the scatter estimates it);
- `relative`: Gaussian noise of `noise` times the value (a rate known to 2%);
- `poisson`: counts drawn with the formula as their mean.

For relative and Poisson noise each draw carries `sigma`, the standard
deviation the generator used, so the fit is weighted as a lab would weight
it (known uncertainties; for counts the square root of the expected count).

A composite entry's formula is its one-peak form, so its draws say
`peaks=1`.

Draws are vectorised: one noise matrix for all draws of one entry, from one
seeded `numpy.random.Generator`, so a seed gives the same draws everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from labwright.analysis.catalogue.load import (
    evaluate_in_typical_units,
    example_grid,
    example_inputs,
)
from labwright.analysis.catalogue.schema import Example, ModelEntry
from labwright.analysis.engine import FitData

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Draw:
    """One generated data set and the truth it was generated from (the
    parameters in the typical units of the entry, which the data use)."""

    data: FitData
    truth: dict[str, float]
    y_true: FloatArray


def _example(entry: ModelEntry, example: Example | None) -> Example:
    chosen = example if example is not None else entry.example
    if chosen is None:
        raise ValueError(f"the catalogue entry {entry.key} has no example")
    return chosen


def true_curve(entry: ModelEntry, example: Example | None = None) -> dict[str, FloatArray]:
    """The independent variables of the example and the noiseless response."""
    ex = _example(entry, example)
    grid = example_grid(entry, ex)
    env: dict[str, Any] = {**example_inputs(entry, ex), **ex.truth_dict(), **grid}
    y = evaluate_in_typical_units(entry, env)
    size = next(iter(grid.values())).shape
    return {**grid, entry.response.name: np.broadcast_to(np.asarray(y, dtype=float), size).copy()}


def draws(
    entry: ModelEntry,
    count: int,
    rng: np.random.Generator | int = 0,
    example: Example | None = None,
) -> list[Draw]:
    """`count` noisy data sets of the entry's example (vectorised)."""
    ex = _example(entry, example)
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    curve = true_curve(entry, ex)
    response = entry.response.name
    y = curve[response]
    shape = (count, y.size)
    sigma: FloatArray | None
    if ex.noise_kind == "poisson":
        mean = np.clip(y, 0.0, None)
        noisy = generator.poisson(np.broadcast_to(mean, shape)).astype(float)
        sigma = np.sqrt(np.maximum(mean, 1.0))
    elif ex.noise_kind == "relative":
        noisy = y * (1.0 + ex.noise * generator.standard_normal(shape))
        sigma = ex.noise * np.abs(y)
    else:
        noisy = y + ex.noise * generator.standard_normal(shape)
        sigma = None
    units = {v.name: v.unit for v in entry.variables}
    inputs = ex.inputs_dict()
    grid = {name: values for name, values in curve.items() if name != response}
    truth = ex.truth_dict()
    return [
        Draw(
            data=FitData(
                variables={**grid, response: noisy[k]},
                units=units,
                inputs=inputs,
                sigma=sigma,
                peaks=1 if entry.composite is not None else None,
            ),
            truth=truth,
            y_true=y,
        )
        for k in range(count)
    ]


def generate(
    entry: ModelEntry, rng: np.random.Generator | int = 0, example: Example | None = None
) -> Draw:
    """One noisy data set of the entry's example."""
    return draws(entry, 1, rng, example)[0]
