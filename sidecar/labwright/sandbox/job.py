"""The description of one sandboxed run, passed to the child as a JSON file."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .limits import Limits

JOB_FILE = "job.json"
CODE_FILE = "code.py"
OUT_FILE = "figure.png"
STDOUT_FILE = "stdout.txt"
STDERR_FILE = "stderr.txt"


@dataclass
class Job:
    work_dir: str
    data_root: str | None
    read_roots: list[str]
    policy: bool = True
    confine: bool = True
    audit_hook: bool = True
    limits: dict[str, float] = field(default_factory=lambda: Limits().to_dict())

    @property
    def code_path(self) -> Path:
        return Path(self.work_dir) / CODE_FILE

    @property
    def out_path(self) -> Path:
        return Path(self.work_dir) / OUT_FILE

    def save(self) -> Path:
        path = Path(self.work_dir) / JOB_FILE
        path.write_text(json.dumps(asdict(self)), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Job:
        return cls(**json.loads(Path(path).read_text(encoding="utf-8")))
