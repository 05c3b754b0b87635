"""Import a list of modules and report which fail; run by the venv's Python and
by the frozen sidecar (LABWRIGHT_PYRUN=this file), see test_frozen_imports.py.

Input: the JSON file named by LW_PROBE_IN, {"modules": [...], "walk": [...]}.
`walk` names packages whose public submodules (no part starting with "_",
no tests) are added to the list; only the venv run walks, and its answer
carries the full list the frozen run must import.

Output on stdout, one JSON line: {"modules": [...], "failed": {name: error},
"libs": n, "libs_failed": {path: error}}. In a frozen process every ELF
shared object in the bundle is also loaded with dlopen: a library damaged
by stripping fails there even if no module above loads it.
"""

import ctypes
import importlib
import json
import os
import pkgutil
import sys

SKIP_PARTS = {"tests", "test", "testing", "conftest", "benchmarks"}


def _public(name: str) -> bool:
    parts = name.split(".")
    return not any(p.startswith("_") or p in SKIP_PARTS for p in parts)


def walk(package: str) -> list[str]:
    found = [package]
    try:
        mod = importlib.import_module(package)
    except Exception:  # noqa: BLE001 - reported by the import pass below
        return found
    path = getattr(mod, "__path__", None)
    if path is None:
        return found
    for info in pkgutil.walk_packages(path, package + ".", onerror=lambda _name: None):
        if _public(info.name):
            found.append(info.name)
    return found


def load_libraries(root: str) -> tuple[int, dict[str, str]]:
    count, failed = 0, {}
    for folder, _dirs, files in os.walk(root):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if (".so" not in name) or os.path.islink(path):
                continue
            with open(path, "rb") as handle:
                if handle.read(4) != b"\x7fELF":
                    continue
            count += 1
            try:
                ctypes.CDLL(path, mode=os.RTLD_LAZY)
            except OSError as exc:
                # An extension module resolves Python's symbols from the
                # interpreter; only a library that cannot be mapped counts.
                if "undefined symbol" not in str(exc):
                    failed[os.path.relpath(path, root)] = str(exc)
    return count, failed


def main() -> None:
    with open(os.environ["LW_PROBE_IN"], encoding="utf-8") as handle:
        spec = json.load(handle)
    modules = list(spec["modules"])
    for package in spec.get("walk", []):
        modules.extend(walk(package))
    modules = sorted(set(modules))
    failed = {}
    for name in modules:
        try:
            importlib.import_module(name)
        except BaseException as exc:  # noqa: BLE001 - SystemExit from a module counts too
            failed[name] = f"{type(exc).__name__}: {exc}"[:300]
    libs, libs_failed = 0, {}
    if getattr(sys, "frozen", False):
        libs, libs_failed = load_libraries(sys._MEIPASS)  # type: ignore[attr-defined]
    result = {"modules": modules, "failed": failed, "libs": libs, "libs_failed": libs_failed}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    # Some extension modules crash in interpreter teardown once loaded this
    # way; the answer is out, so leave without it.
    os._exit(0)


if __name__ == "__main__":
    main()
