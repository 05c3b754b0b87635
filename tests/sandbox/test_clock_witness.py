"""The clock witness (clock_witness.py) passes a control only for a real try.

A witnessed control stands in for running a payload that would set the
shared machine's real-time clock. It must not pass a payload that merely
reads the clock, asks for a clock or time the kernel would refuse, or runs
without CAP_SYS_TIME, however loudly that payload claims success (each
variant here prints LEAKED regardless); it must answer as the kernel would;
and it must perform nothing, whichever clock-setting call is made.
"""

from __future__ import annotations

import ctypes
import errno
import struct
from pathlib import Path

import pytest

from tests._layers import is_missing_layer

from . import clock_witness, plain
from .clock_witness import RET_USER_NOTIF, WATCHED

pytestmark = pytest.mark.smoke

_SAME = (
    "import time\ntime.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME))\n"
    "print('LEAKED')"
)
# Raw system calls: glibc would turn adjtimex and settimeofday into
# clock_adjtime and clock_settime, check nanoseconds itself, and fault on NULL.
_LIBC = (
    "import ctypes, struct, time\nlibc = ctypes.CDLL(None, use_errno=True)\n"
    "libc.syscall.restype = ctypes.c_long\n"
    "def sc(nr, *args):\n"
    "    return libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])\n"
)
# A payload that reports the answer it got, then claims success regardless.
_REPORT = "print('ANSWER', r if r >= 0 else -ctypes.get_errno())\nprint('LEAKED')"


def _nr(code: str) -> str:
    """The payload with @name@ replaced by that call's number here."""
    if clock_witness.seccomp.supported():
        for name in WATCHED:
            code = code.replace(f"@{name}@", str(clock_witness.seccomp.table()[name]))
    return code


def _need_witness() -> None:
    missing = clock_witness.missing_for_control()
    if missing:
        pytest.skip(missing)


def _answer(run: clock_witness.Witnessed) -> int:
    line = next(ln for ln in run.result.stdout.splitlines() if ln.startswith("ANSWER"))
    return int(line.split()[1])


def _work(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    return work


def test_filter_notifies_exactly_the_clock_setting_calls() -> None:
    if not clock_witness.seccomp.supported():
        pytest.skip("seccomp filters need Linux on x86_64 or aarch64")
    prog = clock_witness.build_filter()
    ins = [struct.unpack_from("=HBBI", prog, i) for i in range(0, len(prog), 8)]
    notified = {
        ins[i - 1][3] for i, (code, _jt, _jf, k) in enumerate(ins)
        if code == 0x06 and k == RET_USER_NOTIF
    }  # fmt: skip
    numbers = clock_witness.seccomp.table()
    assert notified == {numbers[n] for n in WATCHED}
    assert ins[-1] == (0x06, 0, 0, clock_witness.seccomp.RET_ALLOW)


def test_a_kernel_without_user_notification_is_a_missing_layer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On such a kernel the witnessed control skips, and fails under
    LABWRIGHT_REQUIRE_LAYERS=1 like any missing sandbox layer."""
    if not clock_witness.seccomp.supported():
        pytest.skip("seccomp filters need Linux on x86_64 or aarch64")
    old_kernel = tmp_path / "actions_avail"
    old_kernel.write_text("kill_process kill_thread trap errno trace log allow\n", "ascii")
    monkeypatch.setattr(clock_witness, "_ACTIONS_AVAIL", old_kernel)
    reason = clock_witness.missing_for_control()
    assert reason is not None and is_missing_layer(reason), reason


def test_a_payload_that_only_reads_the_clock_does_not_pass(tmp_path: Path) -> None:
    _need_witness()
    code = "import time\ntime.clock_gettime(time.CLOCK_REALTIME)\nprint('LEAKED')"
    run = clock_witness.run_witnessed(_nr(code), _work(tmp_path))
    assert run.listener_received
    assert "LEAKED" in run.result.stdout
    assert run.requests == []
    assert run.effects == []


def test_an_adjtimex_read_is_emulated_and_does_not_pass(tmp_path: Path) -> None:
    """adjtimex with modes 0 only reads: the witness makes the read itself
    (never letting the call through) and the caller gets the kernel's answer."""
    _need_witness()
    code = _LIBC + (
        "buf = ctypes.create_string_buffer(208)\nr = sc(@adjtimex@, buf)\n"
        "print('TICK', struct.unpack_from('=q', buf, 88)[0])\n"
    ) + _REPORT  # fmt: skip
    run = clock_witness.run_witnessed(_nr(code), _work(tmp_path))
    mine = ctypes.create_string_buffer(208)
    state = ctypes.CDLL(None).adjtimex(mine)
    tick = next(ln for ln in run.result.stdout.splitlines() if ln.startswith("TICK"))
    assert (_answer(run), int(tick.split()[1])) == (state, struct.unpack_from("=q", mine, 88)[0])
    assert [(r.syscall, r.modes, r.sets_realtime, r.note) for r in run.requests] == [
        ("adjtimex", 0, False, "a read, emulated")
    ]
    assert run.effects == []


@pytest.mark.parametrize(
    ("variant", "code", "expected"),
    [
        ("monotonic", _LIBC + "ts = (ctypes.c_long * 2)(*divmod(time.monotonic_ns(), 10**9))\n"
         "r = sc(@clock_settime@, 1, ts)\n" + _REPORT, -errno.EINVAL),
        ("bad-nanoseconds", _LIBC + "ts = (ctypes.c_long * 2)(int(time.time()), 2 * 10**9)\n"
         "r = sc(@clock_settime@, 0, ts)\n" + _REPORT, -errno.EINVAL),
        ("null-pointer", _LIBC + "r = sc(@clock_settime@, 0, None)\n" + _REPORT, -errno.EFAULT),
        ("before-boot", _LIBC + "ts = (ctypes.c_long * 2)(0, 0)\n"
         "r = sc(@clock_settime@, 0, ts)\n" + _REPORT, -errno.EINVAL),
    ],
    ids=["monotonic", "bad-nanoseconds", "null-pointer", "before-boot"],
)  # fmt: skip
def test_a_request_the_kernel_would_refuse_does_not_pass(
    tmp_path: Path, variant: str, code: str, expected: int
) -> None:
    """The witness answers the kernel's error, and LEAKED alone passes nothing."""
    _need_witness()
    run = clock_witness.run_witnessed(_nr(code), _work(tmp_path))
    assert _answer(run) == expected, run.result.stderr[-600:]
    assert [(r.syscall, r.error, r.sets_realtime) for r in run.requests] == [
        ("clock_settime", -expected, False)
    ]
    assert "LEAKED" in run.result.stdout
    assert run.effects == []


@pytest.mark.skipif(not plain.available(), reason="a control as another user needs root")
def test_a_caller_without_cap_sys_time_is_refused_and_does_not_pass() -> None:
    """As nobody the kernel would refuse with EPERM: so does the witness, and
    the payload (which prints LEAKED only on success) shows nothing."""
    _need_witness()
    with plain.control_work_dir() as work:
        run = clock_witness.run_witnessed(_SAME, work, uid=plain.CONTROL_UID)
    assert "PermissionError" in run.result.stderr, run.result.stderr[-600:]
    [request] = run.requests
    assert (request.uid, request.cap_sys_time, request.error) == (
        plain.CONTROL_UID, False, errno.EPERM
    )  # fmt: skip
    assert not request.sets_realtime and run.effects == []


_NOW_TV = "t = time.time_ns()\ntv = (ctypes.c_long * 2)(t // 10**9, t % 10**9 // 1000)\n"
_SETOFFSET_ZERO = "buf = ctypes.create_string_buffer(208)\nstruct.pack_into('=I', buf, 0, 0x0100)\n"


@pytest.mark.parametrize(
    ("syscall", "code"),
    [
        ("clock_settime", _SAME),
        ("settimeofday", _LIBC + _NOW_TV + "r = sc(@settimeofday@, tv, None)\n" + _REPORT),
        ("adjtimex", _LIBC + _SETOFFSET_ZERO + "r = sc(@adjtimex@, buf)\n" + _REPORT),
        ("clock_adjtime", _LIBC + _SETOFFSET_ZERO + "r = sc(@clock_adjtime@, 0, buf)\n" + _REPORT),
    ],
    ids=["clock_settime", "settimeofday", "adjtimex-setoffset", "clock_adjtime-setoffset"],
)  # fmt: skip
def test_every_clock_setting_call_is_witnessed_never_performed(
    tmp_path: Path, syscall: str, code: str
) -> None:
    """Each call that would step the real-time clock reaches the witness,
    is answered with success, and the clock is not stepped."""
    _need_witness()
    run = clock_witness.run_witnessed(_nr(code), _work(tmp_path))
    assert [(r.syscall, r.error, r.sets_realtime) for r in run.requests] == [(syscall, 0, True)]
    assert run.effects, run.result.stderr[-600:]
    assert abs(run.clock_step_ns) < clock_witness.STEP_BOUND_NS, run.clock_step_ns
