"""A witnessed control run for payloads that set the real-time clock.

Why this exists. Issue 22 asks that every attack payload be proven effective
in a control run with confinement off. `clock-settime-same`
(test_os_attacks.py) sets CLOCK_REALTIME, and that clock cannot be given to
a test on its own: a time namespace virtualises only CLOCK_MONOTONIC and
CLOCK_BOOTTIME (test_a_time_namespace_cannot_hold_the_clock_settime_control
checks that it refuses a realtime offset), and CAP_SYS_TIME in a user
namespace does not cover the real clock. Run unconfined as root, the payload
would step the clock of the shared machine (by the few microseconds between
its read and its write, and it would reset the NTP state); run as nobody it
is refused, which shows nothing.

So its control is *witnessed* instead of performed. The payload runs
unconfined as root (under tests/sandbox/plain.py's bounds: no Landlock, none
of the project's seccomp filter, Layer 1 off), in a process that first loads
one seccomp filter of this module's: the clock-setting calls
(clock_settime, settimeofday, clock_adjtime, adjtimex) return
SECCOMP_RET_USER_NOTIF, everything else is allowed. The listener fd goes
over a unix socket to a `Witness` thread in the test process, which for each
call (SECCOMP_IOCTL_NOTIF_RECV) records what was asked: the call, the clock,
the time read from the caller's memory, the caller's uid, whether
CAP_SYS_TIME is in its effective set (/proc/<tid>/status CapEff) and whether
it is in the witness's user namespace. It checks SECCOMP_IOCTL_NOTIF_ID_VALID
and answers (SECCOMP_IOCTL_NOTIF_SEND) what the kernel would answer: success
(0) for a well-formed set from a caller allowed to make it, else the
kernel's error (EINVAL, EFAULT, EPERM, ...). It never performs a set and
never answers with SECCOMP_USER_NOTIF_FLAG_CONTINUE, so the kernel never runs
a notified call: a read-only adjtimex (modes 0 or ADJ_OFFSET_SS_READ) is
emulated, the witness making the same read itself and writing the result into
the caller's buffer.

The control holds when the witness saw a request that would have set
CLOCK_REALTIME (a well-formed time, from a caller holding CAP_SYS_TIME in the
initial user namespace, answered with success) *and* the payload's own
tripwire fired (it printed LEAKED after the call returned). A payload that
only reads the clock, or asks for a clock the kernel would not set, or runs
without the capability, does not pass (tests/sandbox/test_clock_witness.py).

Guards: the payload runs only after the filter is loaded (the launcher exits
without executing it if loading fails); calls of a foreign ABI (x32, i386
on x86_64), whose numbers the filter does not list, get ENOSYS; and
`run_witnessed` measures CLOCK_REALTIME - CLOCK_MONOTONIC before and after,
which only a step of the clock changes (NTP slewing moves both clocks
alike). The tests allow it STEP_BOUND_NS: far above the noise of the
reading (tens of nanoseconds here), but above the 0.2-2 microseconds a real
"set to the same time" would step back by, too; so it shows a witness that
performed a set of any other time, and for the same-time set the guarantee
is structural (the filter is loaded before the payload runs, and nothing is
ever answered with CONTINUE).
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import select
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from labwright.sandbox import seccomp
from labwright.sandbox.runner import RunResult

# The BPF helpers of the project's filter (one instruction per _ins call).
from labwright.sandbox.seccomp import _ARCH, _JEQ, _JGE, _LD_W_ABS, _OFF_ARCH, _OFF_NR, _RET, _ins

from . import plain

#: The calls handed to the witness: every call that sets or adjusts the
#: system clock (adjtimex and clock_adjtime also read it; see `_adjtimex`).
WATCHED = ("clock_settime", "settimeofday", "clock_adjtime", "adjtimex")

CLOCK_REALTIME = 0
CAP_SYS_TIME = 25
RET_USER_NOTIF = 0x7FC00000

_SECCOMP_NR = {"x86_64": 317, "aarch64": 277}
_SECCOMP_GET_NOTIF_SIZES = 3


def _iowr(nr: int, size: int, *, read: bool) -> int:
    """_IOC(dir, '!', nr, size) as linux/seccomp.h defines its ioctls."""
    direction = (3 if read else 1) << 30  # _IOC_READ|_IOC_WRITE, or _IOC_WRITE
    return direction | (size << 16) | (ord("!") << 8) | nr


_NOTIF_SIZE, _RESP_SIZE, _DATA_SIZE = 80, 24, 64  # struct seccomp_notif{,_resp}, seccomp_data
NOTIF_RECV = _iowr(0, _NOTIF_SIZE, read=True)
NOTIF_SEND = _iowr(1, _RESP_SIZE, read=True)
NOTIF_ID_VALID = _iowr(2, 8, read=False)

# struct timex (64-bit): modes at 0, status at 40, time (timeval) at 72; 208 bytes.
_TIMEX_SIZE = 208
_ADJ_SETOFFSET = 0x0100
_ADJ_NANO = 0x2000
_ADJ_OFFSET_SS_READ = 0xA001
#: timespec64_valid_settod: seconds below KTIME_SEC_MAX less 30 years of uptime.
_SETTOD_SEC_MAX = 9_223_372_036 - 30 * 365 * 86_400
_NSEC = 1_000_000_000
#: How far CLOCK_REALTIME - CLOCK_MONOTONIC may move during a witnessed run.
STEP_BOUND_NS = 50_000
_ACTIONS_AVAIL = Path("/proc/sys/kernel/seccomp/actions_avail")


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)  # a fresh instance: argtypes stay ours
    libc.syscall.restype = ctypes.c_long
    libc.ioctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)
    libc.adjtimex.argtypes = (ctypes.c_void_p,)
    return libc


def build_filter() -> bytes:
    """Notify on the clock-setting calls, allow everything else (native ABI)."""
    machine = platform.machine()
    numbers = seccomp.table()
    enosys = seccomp.RET_ERRNO | errno.ENOSYS
    prog = [
        _ins(_LD_W_ABS, 0, 0, _OFF_ARCH),
        _ins(_JEQ, 1, 0, _ARCH[machine]),
        _ins(_RET, 0, 0, enosys),  # i386 numbers differ: not listed, so refused
        _ins(_LD_W_ABS, 0, 0, _OFF_NR),
    ]
    if machine == "x86_64":  # x32 shares the arch value; its numbers carry bit 30
        prog += [_ins(_JGE, 0, 1, 0x40000000), _ins(_RET, 0, 0, enosys)]
    for name in WATCHED:
        prog += [_ins(_JEQ, 0, 1, numbers[name]), _ins(_RET, 0, 0, RET_USER_NOTIF)]
    prog.append(_ins(_RET, 0, 0, seccomp.RET_ALLOW))
    return b"".join(prog)


def unavailable() -> str | None:
    """Why this machine cannot run a witnessed control, or None if it can."""
    if not seccomp.supported():
        return "seccomp user notification needs Linux on x86_64 or aarch64"
    try:
        actions = _ACTIONS_AVAIL.read_text(encoding="ascii")
    except OSError:
        actions = ""
    if "user_notif" not in actions.split():
        return f"seccomp user notification not available (kernel {platform.release()})"
    sizes = (ctypes.c_uint16 * 3)()
    libc = _libc()
    if libc.syscall(ctypes.c_long(_SECCOMP_NR[platform.machine()]),
                    ctypes.c_long(_SECCOMP_GET_NOTIF_SIZES), ctypes.c_long(0), sizes) != 0:  # fmt: skip
        return f"seccomp user notification sizes unknown: {os.strerror(ctypes.get_errno())}"
    if tuple(sizes) != (_NOTIF_SIZE, _RESP_SIZE, _DATA_SIZE):
        return f"seccomp user notification structures of unexpected sizes {tuple(sizes)}"
    return None


def missing_for_control() -> str | None:
    """Why a witnessed control cannot run here (it needs a root that holds
    CAP_SYS_TIME: else the payload could not set the clock even unconfined)."""
    reason = unavailable()
    if reason is not None:
        return reason
    if os.geteuid() != 0:
        return "a witnessed control runs as root"
    status = Path("/proc/self/status").read_text(encoding="ascii")
    cap_eff = next(int(ln.split()[1], 16) for ln in status.splitlines() if ln.startswith("CapEff"))
    if not cap_eff >> CAP_SYS_TIME & 1:
        return "root here lacks CAP_SYS_TIME: the clock cannot be set even unconfined"
    return None


# Run by the payload's process before the payload: load the filter with a
# listener, send the listener to the witness, close it, execute the rest of
# the command line (plain's bootstrap). If anything fails, the payload never runs.
_LAUNCH = """\
import ctypes, os, socket, sys
sock_fd, nr, program, argv = int(sys.argv[1]), int(sys.argv[2]), bytes.fromhex(sys.argv[3]), sys.argv[4:]
class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
buf = ctypes.create_string_buffer(program, len(program))
prog = Fprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
    sys.exit("clock witness: no_new_privs refused: " + os.strerror(ctypes.get_errno()))
# seccomp(SECCOMP_SET_MODE_FILTER = 1, SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3, &prog)
listener = libc.syscall(ctypes.c_long(nr), ctypes.c_long(1), ctypes.c_long(8), ctypes.byref(prog))
if listener < 0:
    sys.exit("clock witness: filter refused: " + os.strerror(ctypes.get_errno()))
with socket.socket(fileno=sock_fd) as sock:
    socket.send_fds(sock, [b"L"], [listener])
os.close(listener)
os.execv(argv[0], argv)
"""


@dataclass(frozen=True)
class Request:
    """One clock call the witness received, and what it answered."""

    syscall: str
    tid: int
    clock: int | None  # the clock named (settimeofday/adjtimex act on CLOCK_REALTIME)
    time: tuple[int, int] | None  # (s, ns) asked for, from the caller's memory
    modes: int | None  # adjtimex/clock_adjtime modes
    uid: int | None  # the caller's effective uid
    cap_sys_time: bool  # CAP_SYS_TIME in the caller's effective set
    initial_userns: bool  # in the witness's user namespace (else the cap is not the real one)
    id_valid: bool  # SECCOMP_IOCTL_NOTIF_ID_VALID after reading the caller
    error: int  # errno answered, 0 for success
    val: int  # return value answered on success
    sets_realtime: bool  # the kernel would have set (stepped) CLOCK_REALTIME
    seen_ns: int  # CLOCK_REALTIME when the witness received it
    note: str = ""


class _Refused(Exception):
    def __init__(self, err: int, note: str) -> None:
        super().__init__(note)
        self.err, self.note = err, note


class _Caller:
    """The calling thread's memory (through an fd opened before ID_VALID, so
    a reused tid cannot redirect it) and credentials."""

    def __init__(self, tid: int) -> None:
        try:
            self.mem: int | None = os.open(f"/proc/{tid}/mem", os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            self.mem = None
        try:
            status = Path(f"/proc/{tid}/status").read_text(encoding="ascii")
        except OSError:
            status = ""
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        uids = fields.get("Uid", "").split()
        self.uid = int(uids[1]) if len(uids) > 1 else None
        cap_eff = int(fields.get("CapEff", "0").strip() or "0", 16)
        self.cap_sys_time = bool(cap_eff >> CAP_SYS_TIME & 1)
        try:
            theirs, ours = os.stat(f"/proc/{tid}/ns/user"), os.stat("/proc/self/ns/user")
            self.initial_userns = (theirs.st_dev, theirs.st_ino) == (ours.st_dev, ours.st_ino)
        except OSError:
            self.initial_userns = False

    def read(self, addr: int, size: int) -> bytes:
        try:
            if self.mem is None or addr == 0:
                raise OSError(errno.EFAULT, "no memory")
            data = os.pread(self.mem, size, addr)
        except (OSError, OverflowError) as exc:
            raise _Refused(errno.EFAULT, f"cannot read {size} bytes at {addr:#x}") from exc
        if len(data) != size:
            raise _Refused(errno.EFAULT, f"short read at {addr:#x}")
        return data

    def write(self, addr: int, data: bytes) -> None:
        try:
            if self.mem is None or os.pwrite(self.mem, data, addr) != len(data):
                raise OSError(errno.EFAULT, "short write")
        except (OSError, OverflowError) as exc:
            raise _Refused(errno.EFAULT, f"cannot write {len(data)} bytes at {addr:#x}") from exc

    def may_set_time(self) -> None:
        """capable(CAP_SYS_TIME) as the kernel asks it: in the initial user namespace."""
        if not (self.cap_sys_time and self.initial_userns):
            raise _Refused(errno.EPERM, "caller lacks CAP_SYS_TIME in the initial user namespace")

    def close(self) -> None:
        if self.mem is not None:
            os.close(self.mem)


def _valid_settod(sec: int, nsec: int) -> None:
    if not (0 <= sec < _SETTOD_SEC_MAX and 0 <= nsec < _NSEC):
        raise _Refused(errno.EINVAL, f"not a valid time to set: {sec} s {nsec} ns")


def _not_before_boot(sec: int, nsec: int) -> None:
    """do_settimeofday64 refuses a real time below the current monotonic time."""
    if sec * _NSEC + nsec < time.clock_gettime_ns(time.CLOCK_MONOTONIC):
        raise _Refused(errno.EINVAL, "a real time before boot")


@dataclass
class _Answer:
    clock: int | None = None
    time: tuple[int, int] | None = None
    modes: int | None = None
    val: int = 0
    sets_realtime: bool = False
    note: str = ""


def _clock_settime(caller: _Caller, args: tuple[int, ...], ans: _Answer) -> None:
    ans.clock = ctypes.c_int32(args[0] & 0xFFFFFFFF).value
    if ans.clock != CLOCK_REALTIME:
        # Every static clock but REALTIME has no clock_set (EINVAL); a CPU or
        # device clock is not emulated: the witness sets no clock of any kind.
        raise _Refused(errno.EINVAL, f"clock {ans.clock} is not settable here")
    sec, nsec = struct.unpack("=qq", caller.read(args[1], 16))
    ans.time = (sec, nsec)
    _valid_settod(sec, nsec)
    caller.may_set_time()
    _not_before_boot(sec, nsec)
    ans.sets_realtime = True


def _settimeofday(caller: _Caller, args: tuple[int, ...], ans: _Answer) -> None:
    tv, tz = args[0], args[1]
    ans.clock = CLOCK_REALTIME if tv else None
    if tv:
        sec, usec = struct.unpack("=qq", caller.read(tv, 16))
        ans.time = (sec, usec * 1000)
        if not 0 <= usec <= 1_000_000:
            raise _Refused(errno.EINVAL, f"tv_usec {usec}")
    minuteswest = struct.unpack("=ii", caller.read(tz, 8))[0] if tz else 0
    if ans.time is not None:
        _valid_settod(*ans.time)
    caller.may_set_time()
    if tz:
        if not -15 * 60 <= minuteswest <= 15 * 60:
            raise _Refused(errno.EINVAL, f"tz_minuteswest {minuteswest}")
        ans.note = "sets the kernel's time zone"
    if ans.time is not None:
        _not_before_boot(*ans.time)
        ans.sets_realtime = True


def _adjtimex(caller: _Caller, clock: int, addr: int, ans: _Answer, libc: ctypes.CDLL) -> None:
    ans.clock = clock
    if clock != CLOCK_REALTIME:
        raise _Refused(errno.EOPNOTSUPP, f"clock {clock} is not adjusted here")
    raw = bytearray(caller.read(addr, _TIMEX_SIZE))
    modes = ans.modes = struct.unpack_from("=I", raw, 0)[0]
    if modes in (0, _ADJ_OFFSET_SS_READ):
        # A read: made here with the same (constant, read-only) modes, the
        # result written into the caller's buffer as the kernel would.
        mine = ctypes.create_string_buffer(_TIMEX_SIZE)
        struct.pack_into("=I", mine, 0, modes)
        ans.val = libc.adjtimex(mine)
        if ans.val < 0:
            raise _Refused(ctypes.get_errno(), "the witness's own read failed")
        caller.write(addr, mine.raw)
        ans.note = "a read, emulated"
        return
    caller.may_set_time()
    if modes & _ADJ_SETOFFSET:
        sec, sub = struct.unpack_from("=qq", raw, 72)
        if not 0 <= sub < (_NSEC if modes & _ADJ_NANO else 1_000_000):
            raise _Refused(errno.EINVAL, f"ADJ_SETOFFSET with time.tv_usec {sub}")
        ans.time = (sec, sub if modes & _ADJ_NANO else sub * 1000)
    # Other modes (frequency, offset, status, ...) are validated no further.
    # Success: the clock state a read returns now (the witness changes nothing).
    ans.val = libc.adjtimex(ctypes.create_string_buffer(_TIMEX_SIZE))
    ans.sets_realtime = bool(modes & _ADJ_SETOFFSET)
    ans.note = "steps the clock by an offset" if ans.sets_realtime else "adjusts the clock"


class Witness:
    """Receives the listener from the launcher and answers every notification.

    Use as a context manager around the run; `launcher` and `pass_fds` go to
    plain.run_plain. `requests` holds what was asked, in order.
    """

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.listener_received = False
        self._libc = _libc()
        self._names = {seccomp.table()[n]: n for n in WATCHED}
        self._ours, self._theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, name="clock-witness", daemon=True)

    @property
    def launcher(self) -> list[str]:
        machine = platform.machine()
        return [sys.executable, "-c", _LAUNCH, str(self._theirs.fileno()),
                str(_SECCOMP_NR[machine]), build_filter().hex()]  # fmt: skip

    @property
    def pass_fds(self) -> tuple[int, ...]:
        return (self._theirs.fileno(),)

    def __enter__(self) -> Witness:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self._ours.close()
        self._theirs.close()
        if self._thread.is_alive():
            raise RuntimeError("the clock witness did not stop")
        if self._error is not None:
            raise RuntimeError("the clock witness failed") from self._error

    def _serve(self) -> None:
        try:
            listener = self._receive_listener()
            if listener is not None:
                self.listener_received = True
                try:
                    self._answer_all(listener)
                finally:
                    os.close(listener)
        except BaseException as exc:  # reported by __exit__
            self._error = exc

    def _receive_listener(self) -> int | None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._ours], [], [], 0.1)
            if ready:
                _msg, fds, _flags, _addr = socket.recv_fds(
                    self._ours, 1, 1, socket.MSG_CMSG_CLOEXEC
                )
                return fds[0] if fds else None
        return None

    def _answer_all(self, listener: int) -> None:
        poller = select.poll()
        poller.register(listener, select.POLLIN)
        while not self._stop.is_set():
            for _fd, events in poller.poll(100):
                if events & select.POLLIN:
                    self._answer_one(listener)
                elif events & (select.POLLHUP | select.POLLERR):
                    return  # no task uses the filter any more

    def _answer_one(self, listener: int) -> None:
        notif = ctypes.create_string_buffer(_NOTIF_SIZE)  # zeroed, as RECV requires
        if self._libc.ioctl(listener, NOTIF_RECV, notif) != 0:
            err = ctypes.get_errno()
            if err in (errno.ENOENT, errno.EINTR):
                return  # the caller died before we got to it
            raise OSError(err, os.strerror(err))
        seen_ns = time.clock_gettime_ns(time.CLOCK_REALTIME)
        ident, tid, _flags = struct.unpack_from("=QII", notif, 0)
        nr, _arch, _ip = struct.unpack_from("=iIQ", notif, 16)
        args = struct.unpack_from("=6Q", notif, 32)
        name = self._names.get(nr, f"syscall {nr}")
        caller = _Caller(tid)
        ans = _Answer()
        try:
            valid = self._id_valid(listener, ident)
            err = 0
            if valid:
                try:
                    if name == "clock_settime":
                        _clock_settime(caller, args, ans)
                    elif name == "settimeofday":
                        _settimeofday(caller, args, ans)
                    elif name == "adjtimex":
                        _adjtimex(caller, CLOCK_REALTIME, args[0], ans, self._libc)
                    elif name == "clock_adjtime":
                        clock = ctypes.c_int32(args[0] & 0xFFFFFFFF).value
                        _adjtimex(caller, clock, args[1], ans, self._libc)
                    else:
                        raise _Refused(errno.ENOSYS, "not a watched call")
                except _Refused as refusal:
                    err, ans.note, ans.sets_realtime = refusal.err, refusal.note, False
                self._send(listener, ident, 0 if err else ans.val, err)
            self.requests.append(Request(
                syscall=name, tid=tid, clock=ans.clock, time=ans.time, modes=ans.modes,
                uid=caller.uid, cap_sys_time=caller.cap_sys_time,
                initial_userns=caller.initial_userns, id_valid=valid, error=err,
                val=0 if err else ans.val, sets_realtime=valid and ans.sets_realtime,
                seen_ns=seen_ns, note=ans.note,
            ))  # fmt: skip
        finally:
            caller.close()

    def _id_valid(self, listener: int, ident: int) -> bool:
        return self._libc.ioctl(listener, NOTIF_ID_VALID, ctypes.byref(ctypes.c_uint64(ident))) == 0

    def _send(self, listener: int, ident: int, val: int, err: int) -> None:
        # struct seccomp_notif_resp: id, val, error (0 or -errno), flags (never CONTINUE)
        resp = ctypes.create_string_buffer(struct.pack("=QqiI", ident, val, -err, 0), _RESP_SIZE)
        if self._libc.ioctl(listener, NOTIF_SEND, resp) != 0:
            err = ctypes.get_errno()
            if err != errno.ENOENT:  # ENOENT: the caller was killed meanwhile
                raise OSError(err, os.strerror(err))


def realtime_offset_ns() -> int:
    """CLOCK_REALTIME - CLOCK_MONOTONIC, from the tightest of a few reads.

    Only a step of the clock changes it (settimeofday, clock_settime,
    ADJ_SETOFFSET, a leap second): NTP slewing moves both clocks alike.
    """
    best: tuple[int, int] | None = None
    for _ in range(20):
        a = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        r = time.clock_gettime_ns(time.CLOCK_REALTIME)
        b = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if best is None or b - a < best[0]:
            best = (b - a, r - (a + b) // 2)
    assert best is not None
    return best[1]


@dataclass
class Witnessed:
    """A witnessed run: the payload's result, what it asked, the clock around it."""

    result: RunResult
    requests: list[Request]
    listener_received: bool
    offset_before_ns: int
    offset_after_ns: int
    effects: list[str] = field(default_factory=list)

    @property
    def clock_step_ns(self) -> int:
        return self.offset_after_ns - self.offset_before_ns


def control_effects(run: Witnessed) -> list[str]:
    """The control's effects: empty unless the witness saw a request the
    kernel would have carried out, setting CLOCK_REALTIME for a caller
    holding CAP_SYS_TIME, and the payload's tripwire (LEAKED) fired."""
    sets = [
        r for r in run.requests
        if r.sets_realtime and r.id_valid and r.clock == CLOCK_REALTIME and r.time is not None
        and r.cap_sys_time and r.initial_userns and r.error == 0
    ]  # fmt: skip
    if not sets or "LEAKED" not in run.result.stdout:
        return []
    return [
        f"{r.syscall} asked to set CLOCK_REALTIME ({r.time}, {r.note or 'a time'}) as uid "
        f"{r.uid} holding CAP_SYS_TIME: the kernel would have set the clock"
        for r in sets
    ] + ["the payload reports an act that should have been refused"]


def run_witnessed(code: str, work: Path, *, uid: int | None = None) -> Witnessed:
    """Run `code` unconfined under plain's bounds (as root unless `uid`),
    with the clock-setting calls answered by a witness, never performed."""
    before = realtime_offset_ns()
    with Witness() as witness:
        result = plain.run_plain(
            code, work, uid=uid, launcher=witness.launcher, pass_fds=witness.pass_fds
        )
    after = realtime_offset_ns()
    run = Witnessed(result, witness.requests, witness.listener_received, before, after)
    run.effects = control_effects(run)
    return run
