"""The frozen sidecar's entry script (PyInstaller needs a file, not `-m`)."""

import os

# The bundle carries statsmodels' patsy formula engine only (formulaic is
# excluded in labwright-sidecar.spec); with SM_FORMULA_ENGINE=formulaic in the
# user's environment statsmodels would refuse to import at all.
os.environ["SM_FORMULA_ENGINE"] = "patsy"

from labwright.__main__ import _entry  # noqa: E402

if __name__ == "__main__":
    _entry()
