"""One module per analysis kind: its typed binding, its typed result, and
the kind object (`bind`, `compute`, `goals`) that `analysis/kinds.py`
registers. The computations themselves live in the modules one level up
(`analysis/timeseries.py`, `analysis/groups.py`, ...); these modules decide
when a kind applies to a table and what it claims.
"""
