"""labwright.latex: LaTeX structure (issue 4) and compiling (issue 2).

The names below are imported on first use (PEP 562), not with the package:
every `labwright.latex.engine` lookup imports this package first, and an
offline build that only compiles must not pay for the structure toolkit.
(`mask` itself is not re-exported: the name would shadow the submodule.)
"""

from __future__ import annotations

from labwright.lazy import lazy_exports

_EXPORTS = {
    # Structure toolkit: masking, sectionizer, resolution, splice, fragments.
    "FragmentCheck": "labwright.latex.fragment",
    "check_fragment": "labwright.latex.fragment",
    "strip_fragment": "labwright.latex.fragment",
    "MaskResult": "labwright.latex.mask",
    "mask_regions": "labwright.latex.mask",
    "Resolution": "labwright.latex.resolve",
    "resolve": "labwright.latex.resolve",
    "Node": "labwright.latex.sectionizer",
    "Sectioning": "labwright.latex.sectionizer",
    "sectionize": "labwright.latex.sectionizer",
    "Conservation": "labwright.latex.splice",
    "SpliceResult": "labwright.latex.splice",
    "apply_fragment": "labwright.latex.splice",
    "check_conservation": "labwright.latex.splice",
    "splice": "labwright.latex.splice",
    "SectionChange": "labwright.latex.split",
    "split_aligned": "labwright.latex.split",
    # Compiling: templates, sanitizer, compile, diagnose.
    "CompileResult": "labwright.latex.compile",
    "compile_source": "labwright.latex.compile",
    "compile_tex": "labwright.latex.compile",
    "Diagnostics": "labwright.latex.diagnose",
    "diagnose": "labwright.latex.diagnose",
    "humanize": "labwright.latex.diagnose",
    "DoctorReport": "labwright.latex.doctor",
    "run_doctor": "labwright.latex.doctor",
    "TexEngine": "labwright.latex.engine",
    "resolve_engine": "labwright.latex.engine",
    "Change": "labwright.latex.sanitize",
    "SanitizeResult": "labwright.latex.sanitize",
    "sanitize": "labwright.latex.sanitize",
    "latex_escape": "labwright.latex.template",
    "render_template": "labwright.latex.template",
    "template_files": "labwright.latex.template",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
