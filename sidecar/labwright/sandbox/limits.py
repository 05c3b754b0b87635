"""Resource limits for one confined run (shared by every platform)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

_MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Per-run ceilings. Defaults fit a figure from a few hundred MB of data."""

    cpu_seconds: int = 60
    wall_seconds: float = 90.0
    # Address space, not resident memory: numpy + OpenBLAS + matplotlib map
    # roughly 1 GiB before doing any work, so this leaves ~2 GiB for data.
    address_space: int = 3 * 1024 * _MIB
    open_files: int = 256
    file_size: int = 128 * _MIB
    # Tasks (threads; seccomp allows no new processes) alive at once. Linux:
    # a pids cgroup (root) or RLIMIT_NPROC in a user namespace (see isolate.py);
    # macOS/Windows: their job limits.
    processes: int = 64
    # Per job, not per file (RLIMIT_FSIZE is per file): the size and inode
    # count of the tmpfs the job writes into (Linux, see isolate.py).
    disk_bytes: int = 256 * _MIB
    files: int = 4096

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, float]) -> Limits:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)  # type: ignore[arg-type]
