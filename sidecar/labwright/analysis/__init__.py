"""The lab analyst: what the notes ask, the laws of the catalogue, one fit
engine, and the typed results the writers print (docs/analyst.md).

This file makes `labwright.analysis` a regular package. As a namespace
package, PyInstaller's `collect_submodules("labwright")` did not walk into
it, so modules that no other module imports statically (the catalogue's
loader and start rules) were missing from the frozen sidecar.
"""
