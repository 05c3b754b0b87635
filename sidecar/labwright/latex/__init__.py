"""labwright.latex: LaTeX structure (issue 4) and compiling (issue 2).

The names below are imported on first use (PEP 562), not with the package:
every `labwright.latex.engine` lookup imports this package first, and an
offline build that only compiles must not pay for the structure toolkit.
(`mask` itself is not re-exported: the name would shadow the submodule.)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    # Structure toolkit: masking, sectionizer, resolution, splice, fragments.
    "FragmentCheck": "fragment",
    "check_fragment": "fragment",
    "strip_fragment": "fragment",
    "MaskResult": "mask",
    "mask_regions": "mask",
    "Resolution": "resolve",
    "resolve": "resolve",
    "Node": "sectionizer",
    "Sectioning": "sectionizer",
    "sectionize": "sectionizer",
    "Conservation": "splice",
    "SpliceResult": "splice",
    "apply_fragment": "splice",
    "check_conservation": "splice",
    "splice": "splice",
    "SectionChange": "split",
    "split_aligned": "split",
    # Compiling: templates, sanitizer, compile, diagnose.
    "CompileResult": "compile",
    "compile_source": "compile",
    "compile_tex": "compile",
    "Diagnostics": "diagnose",
    "diagnose": "diagnose",
    "humanize": "diagnose",
    "DoctorReport": "doctor",
    "run_doctor": "doctor",
    "TexEngine": "engine",
    "resolve_engine": "engine",
    "Change": "sanitize",
    "SanitizeResult": "sanitize",
    "sanitize": "sanitize",
    "latex_escape": "template",
    "render_template": "template",
    "template_files": "template",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
