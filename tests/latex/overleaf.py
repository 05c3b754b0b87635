"""Compile an unpacked export as Overleaf does (`latexmk -xelatex`)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def compile_as_overleaf(folder: Path, timeout: int = 300) -> Path:
    """Run latexmk -xelatex on folder/main.tex (raising on failure); the PDF."""
    subprocess.run(
        ["latexmk", "-xelatex", "-interaction=nonstopmode", "main.tex"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=timeout,
    )
    return folder / "main.pdf"
