"""The frozen sidecar's entry script (PyInstaller needs a file, not `-m`)."""

from labwright.__main__ import _entry

if __name__ == "__main__":
    _entry()
