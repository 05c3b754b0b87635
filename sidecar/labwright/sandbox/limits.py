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
    processes: int = 64  # macOS/Windows job limits; Linux relies on seccomp

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, float]) -> Limits:
        return cls(**data)  # type: ignore[arg-type]
