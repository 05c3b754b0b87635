"""Per-platform confinement: Linux runs here; macOS and Windows run in the
release workflow on those systems and are skipped elsewhere with the reason."""

from __future__ import annotations

import errno
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from labwright.sandbox import confinement_available, landlock, macos, make_figure, seccomp, windows
from labwright.sandbox import figure as figure_mod
from labwright.sandbox.limits import Limits

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="Linux confinement (Landlock + seccomp)"
)
macos_only = pytest.mark.skipif(sys.platform != "darwin", reason="Seatbelt runs only on macOS")
windows_only = pytest.mark.skipif(sys.platform != "win32", reason="job objects run only on Windows")

# A confined probe: confine, then try to write outside, read outside, spawn.
_PROBE = textwrap.dedent(
    """
    import os, sys, subprocess
    from labwright.sandbox.confine import confine, python_read_roots, system_read_roots
    work, outside = sys.argv[1], sys.argv[2]
    confine(python_read_roots() + system_read_roots(), work, limits=None)
    results = {}
    for name, fn in {
        "write_outside": lambda: open(os.path.join(outside, "w.txt"), "w").write("x"),
        "read_outside": lambda: open(os.path.join(outside, "secret.txt")).read(),
        "write_inside": lambda: open(os.path.join(work, "ok.txt"), "w").write("x"),
        "spawn": lambda: subprocess.run(["true"]),
    }.items():
        try:
            fn()
            results[name] = "allowed"
        except Exception as exc:
            results[name] = "denied"
    print(results)
    """
)


def _probe(tmp_path: Path) -> dict[str, str]:
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("s", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-I", "-c", _PROBE, str(work), str(outside)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert not (outside / "w.txt").exists()
    return eval(proc.stdout.strip())  # noqa: S307 - our own probe's dict repr


@linux_only
def test_linux_reports_landlock_abi() -> None:
    ok, reason = confinement_available()
    assert ok == (landlock.abi_version() >= 1)
    if ok:
        assert "Landlock ABI" in reason


@linux_only
def test_seccomp_filter_is_well_formed() -> None:
    prog = seccomp.build_filter(allow_exec=False, own_pid=1234)
    assert len(prog) % 8 == 0 and len(prog) // 8 < 4096
    # First instruction loads the architecture; the last one (an allow-list)
    # refuses whatever was not listed, with ENOSYS.
    code, _jt, _jf, k = struct.unpack("=HBBI", prog[:8])
    assert (code, k) == (0x20, 4)
    assert struct.unpack("=HBBI", prog[-8:])[3] == seccomp.RET_ERRNO | errno.ENOSYS
    # Allowing exec adds execve and friends to the list.
    assert "execve" in seccomp.allowed_names(allow_exec=True)
    assert "execve" not in seccomp.allowed_names(allow_exec=False)


@linux_only
@pytest.mark.smoke
def test_linux_confine_blocks_outside_and_spawn(tmp_path: Path) -> None:
    if not confinement_available()[0]:
        pytest.skip(confinement_available()[1])
    results = _probe(tmp_path)
    assert results == {
        "write_outside": "denied",
        "read_outside": "denied",
        "write_inside": "allowed",
        "spawn": "denied",
    }
    assert (tmp_path / "work" / "ok.txt").exists()


def test_macos_profile_denies_by_default_and_quotes_paths() -> None:
    text = macos.build_profile(['/data/a "b"'], "/tmp/w")
    assert text.startswith("(version 1)\n(deny default)")
    assert '(subpath "/data/a \\"b\\"")' in text
    assert "network" not in text and "process-exec" not in text and "process-fork" not in text
    tex = macos.build_profile([], "/b", allow_exec=True, exec_roots=["/tex/bin"])
    assert '(allow process-exec (subpath "/tex/bin"))' in tex


def test_windows_job_limits_forbid_child_processes() -> None:
    info = windows.job_limits(Limits(cpu_seconds=7, address_space=123 * 1024**2))
    basic = info.BasicLimitInformation
    assert basic.ActiveProcessLimit == 1
    assert basic.PerProcessUserTimeLimit == 7 * 10_000_000
    assert info.ProcessMemoryLimit == 123 * 1024**2
    assert basic.LimitFlags & 0x2000  # kill on job close


@macos_only
@pytest.mark.smoke
def test_macos_seatbelt_blocks_outside_and_spawn(tmp_path: Path) -> None:
    results = _probe(tmp_path)
    assert results["write_outside"] == "denied" and results["read_outside"] == "denied"
    assert results["write_inside"] == "allowed" and results["spawn"] == "denied"


@windows_only
@pytest.mark.smoke
def test_windows_job_blocks_write_outside_and_spawn(tmp_path: Path) -> None:
    results = _probe(tmp_path)
    # Low integrity is no-write-up, not no-read-up (documented in windows.py).
    assert results["write_outside"] == "denied" and results["spawn"] == "denied"
    assert results["write_inside"] == "allowed"


def test_model_code_refused_without_confinement(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No sandbox -> model code is refused with a reason; nothing is spawned."""
    monkeypatch.setattr(
        figure_mod, "confinement_available", lambda: (False, "test: no kernel support")
    )
    spawned: list[object] = []
    monkeypatch.setattr(figure_mod, "run_code", lambda *a, **k: spawned.append(a))
    res = make_figure("f", "plt.plot([1])\nplt.savefig(OUT)", data_root=None, out_dir=tmp_path)
    assert (
        not res.ok and "no sandbox" in (res.error or "") and "test: no kernel support" in res.error
    )
    assert spawned == [] and not list(tmp_path.iterdir())


@pytest.mark.smoke
def test_trusted_code_runs_without_confinement(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Our own drawing code still runs where no sandbox exists (unconfined)."""
    from labwright.sandbox import trusted

    monkeypatch.setattr(trusted, "confinement_available", lambda: (False, "test"))
    with trusted.TrustedWorker(None) as worker:
        replies = list(worker.request("labwright.sandbox.images:probe", {"path": "/nowhere"}))
        assert worker.confined == "none"
    assert replies == [{"reason": "is not inside the data folder"}]
