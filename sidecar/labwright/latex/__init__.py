"""labwright.latex"""

# Structure toolkit (issue 4): masking, sectionizer, resolution, splice, fragments.
from labwright.latex.fragment import FragmentCheck, check_fragment, strip_fragment  # noqa: F401
from labwright.latex.mask import mask, mask_regions  # noqa: F401
from labwright.latex.resolve import Resolution, resolve  # noqa: F401
from labwright.latex.sectionizer import Node, Sectioning, sectionize  # noqa: F401
from labwright.latex.splice import (  # noqa: F401
    Conservation,
    SpliceResult,
    apply_fragment,
    check_conservation,
    splice,
)
