"""Start one TeX program and keep its terminal output bounded.

Incident (issue 11): `communicate()` held all of TeX's terminal output in the
backend's memory -- 631 MiB after one 8 s pass of a document that prints in
a loop. Here the output is drained by a thread in 64 KiB chunks: written to
a file up to `cap` bytes, the rest counted and dropped; the caller gets the
first and last 32 KiB as text (enough for `xelatex --version`, kpsewhich,
and the tail of an xdvipdfmx error) and the file's path. The child is never
blocked on a full pipe, so the timeout still works.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

OUTPUT_CAP_BYTES = 4 << 20
#: Bytes the build folder may hold while a TeX program runs. RLIMIT_FSIZE caps
#: each file (sandbox/tex.py) but not their number: a document that \openout's
#: file after file wrote 600 MB in 13 s, ~27 GB in the wall budget (review of
#: issue 11). The folder is measured every `_DISK_POLL_S` and the process group
#: killed past the cap (as a timeout), so the overshoot is one poll's writing.
BUILD_CAP_BYTES = 2 << 30
_DISK_POLL_S = 0.25
_CHUNK = 64 << 10
_KEEP = 32 << 10


@dataclass(frozen=True)
class SpawnResult:
    returncode: int | None
    #: Head and tail of the terminal output (the whole of it when short).
    output: str
    elapsed_s: float
    timed_out: bool
    #: Bytes of terminal output the child wrote in all (kept or not).
    output_bytes: int = 0
    #: Killed because the build folder outgrew BUILD_CAP_BYTES.
    over_disk_cap: bool = False


def _folder_bytes(folder: Path) -> int:
    total = 0
    stack = [folder]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                else:
                    total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return total


class _Drain:
    """Reads a pipe to its end: head and tail in memory, up to `cap` bytes to a file."""

    def __init__(self, pipe: IO[bytes], sink: IO[bytes] | None, cap: int) -> None:
        self.pipe, self.sink, self.cap = pipe, sink, cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.thread = threading.Thread(target=self._run, name="tex-output", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self._drain()
        except (OSError, ValueError):
            # The pipe was closed under us (a grandchild kept it open past
            # the join timeout): what was read so far is what we have.
            return

    def _drain(self) -> None:
        while True:
            chunk = (
                self.pipe.read1(_CHUNK) if hasattr(self.pipe, "read1") else self.pipe.read(_CHUNK)
            )
            if not chunk:
                return
            if self.sink is not None and self.total < self.cap:
                self.sink.write(chunk[: self.cap - self.total])
            self.total += len(chunk)
            if len(self.head) < _KEEP:
                take = _KEEP - len(self.head)
                self.head += chunk[:take]
                chunk = chunk[take:]
            if chunk:
                self.tail += chunk
                if len(self.tail) > 2 * _KEEP:
                    del self.tail[: len(self.tail) - _KEEP]

    def text(self) -> str:
        tail = bytes(self.tail[-_KEEP:])
        dropped = self.total - len(self.head) - len(tail)
        middle = f"\n[... {dropped} bytes of terminal output not kept ...]\n" if dropped > 0 else ""
        return (
            self.head.decode("utf-8", errors="replace")
            + middle
            + tail.decode("utf-8", errors="replace")
        )


def spawn_tex(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    *,
    output_file: Path | None = None,
    cap: int = OUTPUT_CAP_BYTES,
) -> SpawnResult:
    """Run one TeX program confined (sandbox/tex.py), in its own process
    group so a timeout kills xdvipdfmx too, stdin closed so TeX never waits
    for terminal input. Terminal output goes to `output_file` (truncated
    first) up to `cap` bytes; memory holds at most ~96 KiB of it."""
    return HeldTex(argv, cwd, env, output_file=output_file, cap=cap, hold=False).run(timeout_s)


class HeldTex:
    """One confined TeX program, its process started now and run later.

    With `hold`, the confining launcher (sandbox/tex_launch.py: an
    interpreter's start, the confinement, ~40 ms) starts at once and waits
    for `run` before it becomes the TeX program; `cancel` ends it unrun. The
    offline build starts the PDF driver so while its figures are still being
    drawn, which takes the launcher's start off the build's critical path.
    Where the OS offers no confinement there is no launcher to start early:
    the program is started by `run`. Without `hold` this is `spawn_tex`.
    """

    def __init__(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        *,
        output_file: Path | None = None,
        cap: int = OUTPUT_CAP_BYTES,
        hold: bool = True,
    ) -> None:
        # OS confinement (sandbox/tex.py): reads only the TeX tree, fonts and
        # the build dir, writes only the build dir, no network, no other programs.
        from labwright.sandbox.tex import confine_tex_command

        self._argv, self._env, self._held = confine_tex_command(argv, cwd, env, hold=hold)
        self._cwd, self._output_file, self._cap = cwd, output_file, cap
        self._proc: subprocess.Popen[bytes] | None = None
        self._drain: _Drain | None = None
        self._sink: IO[bytes] | None = None
        self._done = False
        if self._held:
            self._start()

    def _start(self) -> None:
        kwargs: dict[str, object] = {}
        if sys.platform == "win32":
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        else:
            kwargs["start_new_session"] = True
        self._sink = self._output_file.open("wb") if self._output_file is not None else None
        try:
            self._proc = subprocess.Popen(  # noqa: S603 - argv is built by us, never a shell
                list(self._argv),
                cwd=self._cwd,
                env=dict(self._env),
                # A held launcher waits for one byte on stdin; TeX itself
                # then reads end-of-file there, as from a closed stdin.
                stdin=subprocess.PIPE if self._held else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                **kwargs,  # type: ignore[call-overload]
            )
        except BaseException:
            self._close_sink()
            raise
        assert self._proc.stdout is not None
        self._drain = _Drain(self._proc.stdout, self._sink, self._cap)

    def _close_sink(self) -> None:
        if self._sink is not None:
            self._sink.close()
            self._sink = None

    def _release(self, go: bool) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            if go:
                self._proc.stdin.write(b"1")
            self._proc.stdin.close()  # without the byte: the launcher exits unrun
        except (BrokenPipeError, OSError):
            pass  # the launcher is gone already (it failed): `run` reports it

    def cancel(self) -> None:
        """End a program that was not run (nothing of it ran but the launcher)."""
        if self._done:
            return
        self._done = True
        if self._proc is None:
            return
        self._release(go=False)
        try:
            self._proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self._kill()
            self._proc.wait()
        self._finish_output()

    def _kill(self) -> None:
        assert self._proc is not None
        if sys.platform == "win32":
            self._proc.kill()
        else:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _finish_output(self) -> None:
        assert self._proc is not None and self._drain is not None
        # A grandchild that kept the pipe open must not hang us: the group
        # is killed on timeout; otherwise the pipe closes with the child.
        self._drain.thread.join(timeout=5.0)
        assert self._proc.stdout is not None
        self._proc.stdout.close()
        self._close_sink()

    def run(self, timeout_s: float) -> SpawnResult:
        """Let the program run and wait for it (at most `timeout_s`, and
        while the build folder stays under BUILD_CAP_BYTES)."""
        assert not self._done, "a held TeX program runs once"
        self._done = True
        start = time.monotonic()
        if self._proc is None:
            self._start()
        else:
            self._release(go=True)
        proc, drain = self._proc, self._drain
        assert proc is not None and drain is not None
        try:
            timed_out = over_cap = False
            deadline = start + max(timeout_s, 0.1)
            while True:
                step = max(min(_DISK_POLL_S, deadline - time.monotonic()), 0.01)
                if drain.thread.is_alive():
                    # Joining the output reader wakes the moment the program
                    # exits and its pipe closes; Popen.wait(timeout) sleeps in
                    # steps of up to 50 ms, which cost every build ~50 ms.
                    drain.thread.join(timeout=step)
                else:  # the program closed its output and runs on
                    try:
                        proc.wait(timeout=step)
                    except subprocess.TimeoutExpired:
                        pass
                if proc.poll() is not None:
                    break
                over_cap = _folder_bytes(self._cwd) > BUILD_CAP_BYTES
                if over_cap or time.monotonic() >= deadline:
                    timed_out = True
                    break
            if timed_out:
                self._kill()
                proc.wait()
        finally:
            self._finish_output()
        return SpawnResult(
            None if timed_out else proc.returncode,
            drain.text(),
            time.monotonic() - start,
            timed_out,
            drain.total,
            over_cap,
        )
