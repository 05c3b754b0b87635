"""Labwright: turn a folder of raw experiment data into a finished LaTeX report."""

__version__ = "0.1.0"
