"""Procedures that are not one curve fit (titration end points, inverse
calibration, ...): one module each, every one a request-driven kind of
`analysis/kinds.py` whose typed result offers `answers()`."""
