"""Fixtures for the sandbox suites: an attack arena with tripwires.

Every tripwire observes an *effect*, never an error message: files appearing
outside the work directory, bytes arriving at sockets this test opened on the
loopback, a victim process dying or being stopped, canary secrets showing up
in anything the child produced.
"""

from __future__ import annotations

import os
import pickle
import re
import select
import socket
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from labwright.sandbox import confinement_available
from labwright.sandbox.forkserver import ForkServerError, default_server, shutdown_default_server
from labwright.sandbox.limits import Limits
from labwright.sandbox.policy import PolicyError, check_and_compile
from labwright.sandbox.runner import RunResult, run_code

CANARY_ENV = "sk-lw-canary-env-5f1e2d"
CANARY_SSH = "lw-canary-ssh-key-8a7b6c"
CANARY_VICTIM = "lw-canary-victim-environ-3c4d"
CANARY_DB = "lw-canary-database-9e8f"
CANARY_MAT = "lw-canary-matfile-0a1b"
PTH_NAME = "lw_sandbox_attack_test.pth"
#: What one step of the memory-grow payload holds (np.ones(10**7) doubles).
GROW_STEP_BYTES = 8 * 10**7

requires_confinement = pytest.mark.skipif(
    not confinement_available()[0], reason=f"no OS confinement: {confinement_available()[1]}"
)


class _Exec:
    """Unpickling runs a command that would create a marker in the work dir."""

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, ("touch exec_marker_pickle",))


class _WriteOutside:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (open, (self.path, "w"))


@dataclass
class Arena:
    root: Path
    data: Path
    markers: Path
    secret_dir: Path
    site_packages: Path
    lw_home: Path
    tcp: socket.socket
    udp: socket.socket
    unix: socket.socket
    unix_path: Path
    victim: subprocess.Popen[bytes]
    data_snapshot: dict[str, bytes] = field(default_factory=dict)

    def tokens(self, work: Path) -> dict[str, str]:
        return {
            "@MARK@": str(self.markers),
            "@DATA@": str(self.data),
            "@SECRET@": str(self.secret_dir),
            "@SITE@": str(self.site_packages),
            "@PORT@": str(self.tcp.getsockname()[1]),
            "@UDP@": str(self.udp.getsockname()[1]),
            "@USOCK@": str(self.unix_path),
            "@VICTIM@": str(self.victim.pid),
            "@LWHOME@": str(self.lw_home),
            "@WORK@": str(work),
        }

    def render(self, code: str, work: Path) -> str:
        for key, value in self.tokens(work).items():
            code = code.replace(key, value)
        return code

    def effects(self, result: RunResult | None, work: Path, limits: Limits) -> list[str]:
        """Every effect an attack could have had; empty means contained."""
        found: list[str] = []
        if any(self.markers.iterdir()):
            found.append(f"marker outside the work dir: {sorted(os.listdir(self.markers))}")
        for p in work.rglob("*"):
            if p.is_symlink():
                continue
            if p.name.startswith(("exec_marker", "forked")):
                found.append(f"process creation left {p.name}")
            if p.is_file() and p.stat().st_size > limits.file_size:
                found.append(f"{p.name} is {p.stat().st_size} bytes, above the file-size limit")
        if (self.site_packages / PTH_NAME).exists():
            found.append(".pth file written into site-packages")
        for sock, what in ((self.tcp, "TCP"), (self.unix, "Unix")):
            if select.select([sock], [], [], 0.05)[0]:
                found.append(f"{what} listener received a connection")
        try:
            self.udp.recv(65536)
            found.append("UDP listener received a datagram")
        except BlockingIOError:
            pass
        if self.victim.poll() is not None:
            found.append("victim process was killed")
        else:
            state = (
                Path(f"/proc/{self.victim.pid}/stat")
                .read_text(encoding="utf-8")
                .split(")")[-1]
                .split()[0]
            )
            if state in ("t", "T"):
                found.append("victim process was stopped/traced")
        if self._data_now() != self.data_snapshot:
            found.append("the read-only data folder changed")
        texts = []
        if result is not None:
            texts += [result.stdout, result.stderr]
        for p in work.rglob("*"):
            # Never follow a link the child planted (that would be us leaking).
            if not p.is_symlink() and p.is_file() and p.stat().st_size < 50_000_000:
                texts.append(p.read_bytes().decode("latin-1"))
        blob = "\n".join(texts)
        for canary in (CANARY_ENV, CANARY_SSH, CANARY_VICTIM, CANARY_DB, CANARY_MAT, "LEAKED"):
            if canary in blob:
                found.append(f"secret {canary!r} reached the child's output")
        if "root:x:0:0" in blob or "root:*:0:0" in blob:
            found.append("/etc/passwd content reached the child's output")
        if "ALLOCATED" in blob:
            found.append("an allocation above the address-space limit succeeded")
        grown = re.findall(r"GREW (\d+)", blob)
        if grown and max(int(n) for n in grown) * GROW_STEP_BYTES > limits.address_space:
            found.append(f"the job held {max(map(int, grown))} x 80 MB, above its address space")
        spun = re.findall(r"SPUN (\d+(?:\.\d+)?)", blob)
        if spun and max(map(float, spun)) > limits.cpu_seconds:
            found.append(f"the job used {max(map(float, spun))} s of CPU, above its limit")
        return found

    def _data_now(self) -> dict[str, bytes]:
        out = {}
        for p in sorted(self.data.rglob("*")):
            if p.is_symlink():
                out[str(p)] = os.readlink(p).encode()
            elif p.is_file():
                out[str(p)] = p.read_bytes()
        return out


@pytest.fixture
def arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _isolated_home: Path) -> Iterator[Arena]:
    monkeypatch.setenv("LABWRIGHT_API_KEY", CANARY_ENV)
    monkeypatch.setenv("OPENAI_API_KEY", CANARY_ENV)
    data = tmp_path / "data"
    markers = tmp_path / "markers"
    secret = tmp_path / "home" / ".ssh"
    for d in (data, markers, secret):
        d.mkdir(parents=True)
    (secret / "id_rsa").write_text(f"-----BEGIN KEY-----\n{CANARY_SSH}\n", encoding="utf-8")
    (_isolated_home / "labwright.db").write_text(f"api_key,{CANARY_DB}\n", encoding="utf-8")
    from scipy.io import savemat

    savemat(secret / "outside.mat", {"s": np.array([CANARY_MAT])})
    (data / "data.csv").write_text("x,y\n1,2\n2,4\n3,9\n", encoding="utf-8")
    np.save(data / "evil.npy", np.array([_Exec()], dtype=object), allow_pickle=True)
    (data / "evil.pkl").write_bytes(pickle.dumps(_WriteOutside(str(markers / "pickled"))))
    (data / "evil_exec.pkl").write_bytes(pickle.dumps(_Exec()))
    os.symlink(secret / "id_rsa", data / "link")
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    unix_path = tmp_path / "u.sock"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(unix_path))
    unix.listen(8)
    victim = subprocess.Popen(
        ["sleep", "600"],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LW_SECRET": CANARY_VICTIM},
    )
    site = Path(sysconfig.get_paths()["purelib"])
    arena = Arena(
        tmp_path,
        data,
        markers,
        secret.parent,
        site,
        _isolated_home,
        tcp,
        udp,
        unix,
        unix_path,
        victim,
    )
    arena.data_snapshot = arena._data_now()
    try:
        yield arena
    finally:
        victim.kill()
        victim.wait()
        for s in (tcp, udp, unix):
            s.close()
        (site / PTH_NAME).unlink(missing_ok=True)


@pytest.fixture(scope="session")
def fork_server() -> Iterator[None]:
    """One warm zygote for the whole session (the default server)."""
    if default_server() is None:
        pytest.skip("fork-server not available on this platform")
    yield
    shutdown_default_server()


def run_attack(
    arena: Arena, code: str, *, mode: str, layer1: bool, limits: Limits, confine: bool = True
) -> tuple[RunResult | None, Path]:
    """Run a payload; with layer1, a policy rejection means it never ran."""
    work = arena.root / "work"
    work.mkdir(exist_ok=True)
    source = arena.render(code, work)
    if layer1:
        try:
            check_and_compile(source)
        except PolicyError:
            return None, work
    result = run_code(
        source,
        data_root=arena.data,
        work_dir=work,
        policy=layer1,
        audit_hook=layer1,
        confine=confine,
        limits=limits,
        mode=mode,  # type: ignore[arg-type]
    )
    return result, work


__all__ = ["Arena", "ForkServerError", "requires_confinement", "run_attack", "sys"]
