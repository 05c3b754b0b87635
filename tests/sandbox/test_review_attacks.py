"""Independent review of issue 11, classes 2-6: payloads the owners' suite
(test_os_attacks.py) does not have, run the same way (Layer 1 and the audit
hook off, cold and fork-server mode) and judged by the same tripwires, plus
POSIX IPC objects, the zygote's liveness and other processes' /proc entries.
"""

from __future__ import annotations

import ctypes
import os
import select
import tty
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from labwright.sandbox.forkserver import default_server
from labwright.sandbox.runner import RunResult

from . import plain
from .conftest import requires_confinement
from .test_os_attacks import LIMITS, World, _effects, _run, _sysv, fork_server_up, world  # noqa: F401

pytestmark = [pytest.mark.smoke, requires_confinement]

_LIBC = "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
# Raw syscalls by number (x86_64), so glibc wrappers cannot hide a call.
_RAW = _LIBC + "sc = libc.syscall\nsc.restype = ctypes.c_long\n"

PAYLOADS: list[tuple[str, str]] = [
    # --- class 2: other processes, by calls outside the owners' list
    ("kill-own-group", "import os, signal\nos.kill(0, signal.SIGKILL)"),
    ("killpg-victim-group", "import os, signal\nos.killpg(os.getpgid(@VICTIM@), signal.SIGTERM)"),
    ("kill-minus-one", "import os, signal\nos.kill(-1, signal.SIGTERM)"),
    # syscall() is variadic: ints go as C longs, or the upper halves are garbage.
    ("tgkill-victim", _RAW + "print(sc(234, ctypes.c_long(@VICTIM@), ctypes.c_long(@VICTIM@), ctypes.c_long(15)))"),
    # The victim's thread by tid alone (tgkill with our tgid and its tid can
    # never reach it: the kernel checks that the thread is in the group).
    ("tkill-victim-tid", _RAW + "print(sc(200, ctypes.c_long(@VICTIM@), ctypes.c_long(15)))"),
    ("prlimit-pid-high-bits", _RAW +
     "buf = (ctypes.c_ulong * 2)(7, 7)\nprint(sc(302, ctypes.c_long(@VICTIM@ | (1 << 32)), 7, buf, 0))"),
    ("pidfd-open-victim", _RAW + "print('LEAKED' if sc(434, @VICTIM@, 0) >= 0 else 'no')"),
    ("proc-victim-environ", "print('LEAKED', open('/proc/@VICTIM@/environ', 'rb').read())"),
    ("proc-victim-cwd", "import os\nprint('LEAKED', os.readlink('/proc/@VICTIM@/cwd'))"),
    ("proc-victim-mem-write",
     "f = open('/proc/@VICTIM@/mem', 'r+b')\nprint('LEAKED')"),
    # Types a byte into a terminal the test holds (its input queue is read after).
    ("ioctl-tiocsti", "import fcntl, os\nfd = os.open('@PTY@', os.O_RDWR | os.O_NOCTTY)\n"
     "fcntl.ioctl(fd, 0x5412, b'x')\nprint('LEAKED')"),
    # LEAKED only from a process whose fork returned (a refused first fork prints nothing).
    ("fork-bomb", "import os\nforked = False\ntry:\n    for _ in range(64):\n"
     "        os.fork()\n        forked = True\nfinally:\n    if forked:\n        print('LEAKED', flush=True)"),
    ("raw-clone-process", _RAW + "r = sc(56, 17, 0, 0, 0, 0)\nprint('LEAKED' if r >= 0 else 'no')"),
    # --- class 3: POSIX IPC and anonymous files
    ("mq-open", _LIBC + "libc.mq_open.restype = ctypes.c_int\n"
     "q = libc.mq_open(b'/lwreview', 0o100 | 2, 0o600, None)\nprint('LEAKED' if q >= 0 else 'no')"),
    ("shm-open-posix",
     "import os\nfd = os.open('/dev/shm/lwreview', os.O_CREAT | os.O_RDWR, 0o600)\nprint('LEAKED')"),
    ("memfd-create", "import os\nfd = os.memfd_create('x')\nprint('LEAKED')"),
    # --- class 4: metadata through raw calls and rename/link/truncate
    ("fchmodat2-raw", _RAW + "print(sc(452, -100, b'@VFILE@', 0o777, 0))"),
    ("fchownat-raw", _RAW + "print(sc(260, -100, b'@VFILE@', 1, 1, 0))"),
    ("utimensat-raw", _RAW + "print(sc(280, -100, b'@VFILE@', None, 0))"),
    ("futimesat-raw", _RAW + "print(sc(261, -100, b'@VFILE@', None))"),
    ("fchmod-opened-outside",
     "import os\nfd = os.open('@VFILE@', os.O_RDONLY)\nos.fchmod(fd, 0o777)"),
    ("open-trunc-outside", "import os\nos.open('@VFILE@', os.O_WRONLY | os.O_TRUNC)"),
    ("truncate-path-outside", "import os\nos.truncate('@VFILE@', 0)"),
    ("rename-outside-in", "import os\nos.rename('@VFILE@', 'stolen')"),
    ("rename-data-file", "import os\nos.rename('@DATA@/d.csv', '@DATA@/e.csv')"),
    ("link-outside-in-chmod", "import os\nos.link('@VFILE@', 'hard')\nos.chmod('hard', 0o777)"),
    ("symlink-into-data", "import os\nos.symlink('/etc/passwd', '@DATA@/p')"),
    ("unlink-data-file", "import os\nos.unlink('@DATA@/d.csv')"),
    ("renameat2-exchange", _RAW + "open('mine', 'w').close()\n"
     "print(sc(316, -100, b'mine', -100, b'@VFILE@', 2))"),
    ("ioctl-setflags-raw", _RAW + "fd = os.open('.', os.O_RDONLY)\n"
     "v = ctypes.c_long(0x10)\nprint(sc(16, fd, 0x40086602, ctypes.byref(v)))"),
    # --- class 5: leaks through handles
    ("name-to-handle", _RAW + "buf = ctypes.create_string_buffer(256)\n"
     "ctypes.memmove(buf, (128).to_bytes(4, 'little'), 4)\nm = ctypes.c_int()\n"
     "r = sc(303, -100, b'@VFILE@', buf, ctypes.byref(m), 0)\nprint('LEAKED' if r == 0 else 'no')"),
    # A real handle of the victim file, made by the test (name_to_handle_at):
    # with CAP_DAC_READ_SEARCH it opens the file past every path rule.
    ("open-by-handle", _RAW + "h = ctypes.create_string_buffer(bytes.fromhex('@HANDLE@'))\n"
     "m = os.open('@DATA@', os.O_RDONLY)\nfd = sc(304, ctypes.c_long(m), h, ctypes.c_long(0))\n"
     "if fd >= 0:\n    print('LEAKED', os.read(fd, 64))"),
    ("read-outside-file", "print('LEAKED', open('@VFILE@').read())"),
    # --- class 6: limits
    ("thread-bomb-raw-loop",
     "import threading, time\nts = []\ntry:\n    while len(ts) < 5000:\n"
     "        t = threading.Thread(target=time.sleep, args=(3,), daemon=True)\n"
     "        t.start()\n        ts.append(t)\nexcept Exception:\n    pass\n"
     "open('threads.txt', 'w').write(str(threading.active_count()))"),
    ("bytes-one-big-sparse", "f = open('big', 'wb')\nf.truncate(1 << 34)"),
    ("bytes-fallocate", "import os\nfd = os.open('fa', os.O_CREAT | os.O_WRONLY)\n"
     "for i in range(20):\n    os.posix_fallocate(fd, i << 24, 1 << 24)"),
    ("bytes-hardlinks", "f = open('a', 'wb')\nf.write(b'x' * (8 << 20))\nf.close()\nimport os\n"
     "for i in range(200):\n    os.link('a', f'l{i}')"),
    ("dirs-many", "import os\nfor i in range(5000):\n    os.mkdir(f'd{i}')"),
]  # fmt: skip
_IDS = [p[0] for p in PAYLOADS]


def _posix_ipc() -> set[str]:
    out: set[str] = set()
    for d in ("/dev/mqueue", "/dev/shm"):
        try:
            out |= {f"{d}/{n}" for n in os.listdir(d)}
        except OSError:
            pass
    return out


def _file_handle(path: Path) -> str:
    """name_to_handle_at(path) as hex: struct file_handle, header and bytes."""
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(8 + 128)
    ctypes.memmove(buf, (128).to_bytes(4, "little"), 4)
    mount_id = ctypes.c_int()
    if libc.name_to_handle_at(-100, bytes(path), buf, ctypes.byref(mount_id), 0) != 0:
        pytest.skip(f"no file handles here: {os.strerror(ctypes.get_errno())}")
    size = int.from_bytes(buf.raw[:4], "little")
    return buf.raw[: 8 + size].hex()


@dataclass
class Terminal:
    """A pty pair; the payload gets the follower's path, we read its input."""

    leader: int
    follower: int
    path: str

    def typed(self) -> bytes:
        return os.read(self.follower, 64) if select.select([self.follower], [], [], 0.1)[0] else b""


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    leader, follower = os.openpty()
    tty.setraw(follower)  # a typed byte is readable without a newline
    try:
        yield Terminal(leader, follower, os.ttyname(follower))
    finally:
        os.close(leader)
        os.close(follower)


def _render(code: str, world: World, terminal: Terminal) -> str:  # noqa: F811
    """The tokens only this suite's payloads use (World's follow in _run)."""
    if "@HANDLE@" in code:
        code = code.replace("@HANDLE@", _file_handle(world.victim_file))
    return code.replace("@PTY@", terminal.path)


def _review_effects(world: World, before: dict[str, object], ipc_before: set[str],  # noqa: F811
                    posix_before: set[str], res: RunResult, work: Path,
                    terminal: Terminal) -> list[str]:  # fmt: skip
    found = _effects(world, before, ipc_before, res, work)
    new_posix = _posix_ipc() - posix_before
    for p in new_posix:
        Path(p).unlink(missing_ok=True)
    if new_posix:
        found.append(f"POSIX IPC objects left: {sorted(new_posix)}")
    typed = terminal.typed()
    if typed:
        found.append(f"bytes typed into the test's terminal: {typed!r}")
    return found


def test_review_payload_ids_unique() -> None:
    assert len(set(_IDS)) == len(_IDS)


@pytest.mark.parametrize("mode", ["cold", "fork"])
@pytest.mark.parametrize(("name", "code"), PAYLOADS, ids=_IDS)
def test_review_os_attack_contained(
    world: World,  # noqa: F811
    fork_server_up: None,  # noqa: F811
    terminal: Terminal,
    mode: str,
    name: str,
    code: str,
) -> None:
    before = world.snapshot()
    ipc_before = _sysv()
    posix_before = _posix_ipc()
    victim_environ = Path(f"/proc/{world.victim.pid}/environ").read_bytes()
    res, work = _run(world, _render(code, world, terminal), mode)
    assert res.mode == mode
    effects = _review_effects(world, before, ipc_before, posix_before, res, work, terminal)
    assert effects == [], f"{name} had an effect: {effects}"
    assert not work.exists()
    if victim_environ:
        assert victim_environ[:40].decode("latin-1") not in res.stdout
    if mode == "fork":
        server = default_server()
        proc = getattr(server, "_proc", None)
        assert proc is None or proc.poll() is None, f"{name} killed the zygote"


# No payload here goes without a control. Those that would reach beyond the
# test unconfined as root (every process, pytest's group, the machine's
# tasks) run as nobody under plain's bounds, against a victim of that user:
# "victim" a sleep leading its own group, "group" the same with the job in
# its group, "bomb" no victim (the thread count or LEAKED is the effect).
_BOUNDED_CONTROL: dict[str, str] = {
    "kill-minus-one": "victim",
    "killpg-victim-group": "victim",
    "kill-own-group": "group",
    "fork-bomb": "bomb",
    "thread-bomb-raw-loop": "bomb",
}
_CONTROLS = [n for n in _IDS if n not in _BOUNDED_CONTROL]


def test_controls_cover_every_payload() -> None:
    assert set(_CONTROLS) | set(_BOUNDED_CONTROL) == set(_IDS)
    assert not set(_CONTROLS) & set(_BOUNDED_CONTROL)


@pytest.mark.parametrize("name", _CONTROLS)
def test_review_control_effect_without_confinement(
    world: World,  # noqa: F811
    fork_server_up: None,  # noqa: F811
    terminal: Terminal,
    name: str,
) -> None:
    code = next(p[1] for p in PAYLOADS if p[0] == name)
    before = world.snapshot()
    ipc_before = _sysv()
    posix_before = _posix_ipc()
    res, work = _run(world, _render(code, world, terminal), "fork", confine=False)
    effects = _review_effects(world, before, ipc_before, posix_before, res, work, terminal)
    assert effects, f"control run of {name} had no effect"


@pytest.mark.skipif(not plain.available(), reason="a control as another user needs root")
@pytest.mark.parametrize("name", sorted(_BOUNDED_CONTROL))
def test_review_bounded_control_as_nobody(world: World, name: str) -> None:  # noqa: F811
    code = next(p[1] for p in PAYLOADS if p[0] == name)
    kind = _BOUNDED_CONTROL[name]
    with plain.control_work_dir() as work, plain.victim_of() as victim:
        code = code.replace("@VICTIM@", str(victim.pid))
        group = victim.pid if kind == "group" else 0
        res = plain.run_plain(code, work, process_group=group)
        effects = ["the payload reports an act"] if "LEAKED" in res.stdout else []
        if victim.poll() is not None:
            effects.append(f"the victim was killed ({victim.returncode})")
        threads = work / "threads.txt"
        if threads.is_file() and int(threads.read_text(encoding="ascii") or 0) > LIMITS.processes:
            effects.append(
                f"{threads.read_text(encoding='ascii')} live threads, cap {LIMITS.processes}"
            )
    assert effects, f"bounded control run of {name} had no effect: {res.stderr[-600:]}"
