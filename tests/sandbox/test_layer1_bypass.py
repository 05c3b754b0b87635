"""Layer 1 on its own holds against the bypasses an attack run found.

Each payload runs with exactly one defence switched on and the others off
(no OS confinement), so the test shows that *that* defence stops the effect;
a control run with nothing switched on shows the effect is real.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from labwright.sandbox.limits import Limits
from labwright.sandbox.policy import check_and_compile
from labwright.sandbox.runner import run_code

from .conftest import Arena, requires_confinement

pytestmark = pytest.mark.smoke

# A canary must never appear literally in a payload: the effects check reads
# the code file left in the work directory too.

_LIMITS = Limits(wall_seconds=30.0)

# (id, code, the defence that must stop it: "policy" = Layer 1's static and
# run-time checks, "hook" = the audit hook)
BYPASSES: list[tuple[str, str, str] | Any] = [
    (
        "re-enum-bltns",
        "import re\nre.enum.bltns.open('@MARK@/bltns', 'w').write('x')",
        "policy",
    ),
    (
        "from-re-import-enum",
        "from re import enum\nenum.bltns.open('@MARK@/bltns2', 'w').write('x')",
        "policy",
    ),
    (
        "fractions-attrgetter",
        "import fractions\nimport matplotlib\n"
        "fractions.operator.attrgetter('cbook.os.mkdir')(matplotlib)('@MARK@/attrgetter')",
        "policy",
    ),
    (
        "dynamic-allow-pickle",
        "np.load(srcpath('evil.npy'), **{'allow_' + 'pickle': True})",
        "policy",
    ),
    ("positional-allow-pickle", "np.load(srcpath('evil.npy'), None, True)", "policy"),
    (
        "imported-load-positional",
        "from numpy import load\nload(srcpath('evil.npy'), None, True)",
        "policy",
    ),
    (
        "ctypes-string-at",
        "import ctypes\nsecret = b'LEAK' + b'ED-by-string-at'\n"
        "print(ctypes.string_at(id(secret) + 32, 6))",
        "hook",
    ),
    pytest.param(
        "ctypes-call-function",
        # memmove is a function pointer ctypes created at import time, before
        # the hook: calling it is only visible as ctypes.call_function.
        "import ctypes\nt = bytes(bytearray(6))\nctypes.memmove(id(t) + 32, b'LEA' + b'KED', 6)\nprint(t)",
        "hook",
        marks=pytest.mark.skipif(
            sys.version_info < (3, 14),
            reason="CPython emits ctypes.call_function only from 3.14 (gh-115322); before, "
            "the defence is that no ctypes object is reachable (see the handle test below)",
        ),
        id="ctypes-call-function",
    ),
    (
        "mkdir-outside",
        "import os\nos.mkdir('@MARK@/made-by-mkdir')",
        "hook",
    ),
    (
        "chmod-outside",
        "import os\nos.chmod('@DATA@/data.csv', 0o777)\nopen('@MARK@/chmod-done', 'w')",
        "hook",
    ),
]
_IDS = [b[0] if isinstance(b, tuple) else b.id for b in BYPASSES]


def _run(arena: Arena, code: str, *, policy: bool, hook: bool, confine: bool = False):  # type: ignore[no-untyped-def]
    work = arena.root / "work"
    work.mkdir(exist_ok=True)
    result = run_code(
        arena.render(code, work),
        data_root=arena.data,
        work_dir=work,
        policy=policy,
        audit_hook=hook,
        confine=confine,
        limits=_LIMITS,
        mode="fork",
    )
    return result, work


@pytest.mark.parametrize(("name", "code", "defence"), BYPASSES, ids=_IDS)
def test_bypass_has_no_effect(
    arena: Arena, fork_server: None, name: str, code: str, defence: str
) -> None:
    if defence == "policy":
        check_and_compile(arena.render(code, arena.root))  # passes the static walk...
    result, work = _run(arena, code, policy=defence == "policy", hook=defence == "hook")
    effects = arena.effects(result, work, _LIMITS)
    assert effects == [], f"{name} had an effect: {effects}"
    # ...and the model is told what to do instead, in one PermissionError.
    assert "PermissionError" in result.stderr
    if defence == "policy":
        assert "srcpath" in result.stderr or "allow_pickle" in result.stderr


@pytest.mark.parametrize(("name", "code", "defence"), BYPASSES, ids=_IDS)
def test_bypass_control_has_an_effect(
    arena: Arena, fork_server: None, name: str, code: str, defence: str
) -> None:
    """Without the defence the same payload does have its effect: the
    tripwires are live, so the test above can fail."""
    result, work = _run(arena, code, policy=False, hook=False)
    assert arena.effects(result, work, _LIMITS), f"control run of {name} had no effect"


@requires_confinement
def test_confiners_libc_handle_is_gone_in_the_child(arena: Arena, fork_server: None) -> None:
    """landlock caches a libc handle (`syscall`) before the audit hook exists;
    a child that reaches it must find nothing to call."""
    code = (
        "import sys\nfrom labwright.sandbox import landlock\n"
        "print('handle', landlock._libc)\n"
        "landlock._libc.syscall(39)\nprint('LEA' + 'KED raw syscall')"
    )
    result, work = _run(arena, code, policy=False, hook=True, confine=True)
    assert "handle None" in result.stdout
    assert arena.effects(result, work, _LIMITS) == []


def test_no_ctypes_object_is_reachable_from_allowed_modules() -> None:
    """On Python < 3.14 a call through a ctypes function pointer raises no
    audit event, so model code must never get one: no public attribute path
    from an allowed import leads to ctypes, or the run-time guard refuses it."""
    from labwright.sandbox.guard import runtime_helpers

    helpers = runtime_helpers()
    code = check_and_compile("import re\nx = re.enum.bltns")
    with pytest.raises(PermissionError, match="module 'enum'"):
        exec(code, dict(helpers))  # noqa: S102 - policy-compiled
    import numpy

    with pytest.raises(PermissionError, match="ctypes"):
        helpers["__lw_attr__"](numpy.ctypeslib, "ctypes")


def test_forget_raw_handles_drops_cached_libc() -> None:
    from labwright.sandbox import landlock
    from labwright.sandbox.guard import forget_raw_handles

    if not sys.platform.startswith("linux"):
        pytest.skip("Landlock is Linux-only")
    saved = landlock._libc
    try:
        landlock.abi_version()  # caches the handle, as confinement does
        assert landlock._libc is not None
        assert forget_raw_handles() >= 1
        assert landlock._libc is None
    finally:
        landlock._libc = saved
