"""labwright.latex"""

# Structure toolkit (issue 4): masking, sectionizer, resolution, splice, fragments.
# (`mask` itself is not re-exported: the name would shadow the submodule.)
from labwright.latex.fragment import FragmentCheck, check_fragment, strip_fragment  # noqa: F401
from labwright.latex.mask import MaskResult, mask_regions  # noqa: F401
from labwright.latex.resolve import Resolution, resolve  # noqa: F401
from labwright.latex.sectionizer import Node, Sectioning, sectionize  # noqa: F401
from labwright.latex.splice import (  # noqa: F401
    Conservation,
    SpliceResult,
    apply_fragment,
    check_conservation,
    splice,
)
from labwright.latex.split import SectionChange, split_aligned  # noqa: F401

# isort: split
# Compiling (issue 2): templates, sanitizer, compile, diagnose.
from labwright.latex.compile import CompileResult, compile_source, compile_tex  # noqa: F401
from labwright.latex.diagnose import Diagnostics, diagnose, humanize  # noqa: F401
from labwright.latex.doctor import DoctorReport, run_doctor  # noqa: F401
from labwright.latex.engine import TexEngine, resolve_engine  # noqa: F401
from labwright.latex.sanitize import Change, SanitizeResult, sanitize  # noqa: F401
from labwright.latex.template import latex_escape, render_template, template_files  # noqa: F401
