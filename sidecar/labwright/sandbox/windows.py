"""Windows confinement: a job object plus a low-integrity token, on the calling process.

What it enforces:
- Job object (the process assigns itself): at most one active process, so
  CreateProcess fails (no commands, no fork bombs); per-process memory and
  CPU-time limits; kill-on-close and die-on-unhandled-exception; UI limits
  (no clipboard, desktop switching, global atoms, system parameters).
- Integrity level lowered to Low: the process can no longer write to
  anything labelled Medium, which is nearly all of the user's profile, the
  data folder and HKCU; the work directory is relabelled Low first so that
  it stays writable.

What it does not enforce, said plainly: Windows' mandatory integrity
control is "no write up", not "no read up", so files readable by the user
stay readable, and low integrity does not block sockets. The audit hook in
the child refuses opens outside the roots and every socket call, and the
environment holds no secrets, but these are Python-level guards. A full
AppContainer (which blocks both) needs the parent to create the process
with CreateProcess + SECURITY_CAPABILITIES; that is the planned next step.
Cannot run on this Linux machine; tests/sandbox/test_platforms.py runs it on
Windows in the release workflow.
"""

from __future__ import annotations

import ctypes
import sys
from ctypes import wintypes

from .limits import Limits

_LOW_INTEGRITY_SID = "S-1-16-4096"
_LOW_LABEL_SDDL = "S:(ML;OICI;NW;;;LW)"  # no-write-up, inherited, Low

_JobObjectBasicUIRestrictions = 4
_JobObjectExtendedLimitInformation = 9
_LIMIT_PROCESS_TIME = 0x00000002
_LIMIT_ACTIVE_PROCESS = 0x00000008
_LIMIT_PROCESS_MEMORY = 0x00000100
_LIMIT_DIE_ON_UNHANDLED_EXCEPTION = 0x00000400
_LIMIT_KILL_ON_JOB_CLOSE = 0x00002000
_UILIMIT_ALL = 0x000000FF
_TOKEN_QUERY = 0x0008
_TOKEN_ADJUST_DEFAULT = 0x0080
_TokenIntegrityLevel = 25
_SE_GROUP_INTEGRITY = 0x00000020
_SE_FILE_OBJECT = 1
_LABEL_SECURITY_INFORMATION = 0x00000010


class _IoCounters(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount",
    )]  # fmt: skip


class _BasicLimit(ctypes.Structure):
    _fields_ = [
        ("PerProcessUserTimeLimit", ctypes.c_longlong),
        ("PerJobUserTimeLimit", ctypes.c_longlong),
        ("LimitFlags", wintypes.DWORD),
        ("MinimumWorkingSetSize", ctypes.c_size_t),
        ("MaximumWorkingSetSize", ctypes.c_size_t),
        ("ActiveProcessLimit", wintypes.DWORD),
        ("Affinity", ctypes.c_size_t),
        ("PriorityClass", wintypes.DWORD),
        ("SchedulingClass", wintypes.DWORD),
    ]


class _ExtendedLimit(ctypes.Structure):
    _fields_ = [
        ("BasicLimitInformation", _BasicLimit),
        ("IoInfo", _IoCounters),
        ("ProcessMemoryLimit", ctypes.c_size_t),
        ("JobMemoryLimit", ctypes.c_size_t),
        ("PeakProcessMemoryUsed", ctypes.c_size_t),
        ("PeakJobMemoryUsed", ctypes.c_size_t),
    ]


class _SidAndAttributes(ctypes.Structure):
    _fields_ = [("Sid", ctypes.c_void_p), ("Attributes", wintypes.DWORD)]


class _TokenMandatoryLabel(ctypes.Structure):
    _fields_ = [("Label", _SidAndAttributes)]


_job_handle: int | None = None  # kept open for the life of the process


def available() -> tuple[bool, str]:
    if sys.platform != "win32":
        return False, "not Windows"
    return True, "job object and low-integrity token (no read or network confinement)"


def job_limits(limits: Limits) -> _ExtendedLimit:
    """The job's limit block. Pure, so its fields are tested on every platform."""
    info = _ExtendedLimit()
    basic = info.BasicLimitInformation
    basic.LimitFlags = (
        _LIMIT_PROCESS_TIME
        | _LIMIT_ACTIVE_PROCESS
        | _LIMIT_PROCESS_MEMORY
        | _LIMIT_DIE_ON_UNHANDLED_EXCEPTION
        | _LIMIT_KILL_ON_JOB_CLOSE
    )
    basic.ActiveProcessLimit = 1
    basic.PerProcessUserTimeLimit = int(limits.cpu_seconds * 10_000_000)  # 100 ns units
    info.ProcessMemoryLimit = int(limits.address_space)
    return info


def _check(ok: int, what: str) -> None:
    if not ok:
        last_error = getattr(ctypes, "get_last_error", lambda: 0)  # Windows-only API
        raise OSError(last_error(), f"{what} failed")


def _label_low(path: str) -> None:
    advapi = ctypes.WinDLL("advapi32", use_last_error=True)  # type: ignore[attr-defined]
    sd = ctypes.c_void_p()
    _check(
        advapi.ConvertStringSecurityDescriptorToSecurityDescriptorW(
            _LOW_LABEL_SDDL, 1, ctypes.byref(sd), None
        ),
        "ConvertStringSecurityDescriptorToSecurityDescriptorW",
    )
    present, defaulted = wintypes.BOOL(), wintypes.BOOL()
    sacl = ctypes.c_void_p()
    _check(
        advapi.GetSecurityDescriptorSacl(
            sd, ctypes.byref(present), ctypes.byref(sacl), ctypes.byref(defaulted)
        ),
        "GetSecurityDescriptorSacl",
    )
    err = advapi.SetNamedSecurityInfoW(
        path, _SE_FILE_OBJECT, _LABEL_SECURITY_INFORMATION, None, None, None, sacl
    )
    if err != 0:
        raise OSError(err, f"SetNamedSecurityInfoW({path}) failed")


def _lower_integrity() -> None:
    advapi = ctypes.WinDLL("advapi32", use_last_error=True)  # type: ignore[attr-defined]
    kernel = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    token = wintypes.HANDLE()
    _check(
        advapi.OpenProcessToken(
            kernel.GetCurrentProcess(), _TOKEN_ADJUST_DEFAULT | _TOKEN_QUERY, ctypes.byref(token)
        ),
        "OpenProcessToken",
    )
    sid = ctypes.c_void_p()
    _check(
        advapi.ConvertStringSidToSidW(_LOW_INTEGRITY_SID, ctypes.byref(sid)),
        "ConvertStringSidToSidW",
    )
    label = _TokenMandatoryLabel(_SidAndAttributes(sid, _SE_GROUP_INTEGRITY))
    size = ctypes.sizeof(label) + advapi.GetLengthSid(sid)
    _check(
        advapi.SetTokenInformation(token, _TokenIntegrityLevel, ctypes.byref(label), size),
        "SetTokenInformation(TokenIntegrityLevel)",
    )
    kernel.CloseHandle(token)


def confine(
    read_roots: list[str], write_root: str, *, network: bool = False, limits: Limits | None = None
) -> str:
    global _job_handle
    kernel = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    kernel.CreateJobObjectW.restype = wintypes.HANDLE
    job = kernel.CreateJobObjectW(None, None)
    _check(job, "CreateJobObjectW")
    info = job_limits(limits or Limits())
    _check(
        kernel.SetInformationJobObject(
            job, _JobObjectExtendedLimitInformation, ctypes.byref(info), ctypes.sizeof(info)
        ),
        "SetInformationJobObject(limits)",
    )
    ui = wintypes.DWORD(_UILIMIT_ALL)
    _check(
        kernel.SetInformationJobObject(job, _JobObjectBasicUIRestrictions, ctypes.byref(ui), 4),
        "SetInformationJobObject(UI)",
    )
    _check(
        kernel.AssignProcessToJobObject(job, kernel.GetCurrentProcess()), "AssignProcessToJobObject"
    )
    _job_handle = job
    _label_low(write_root)
    _lower_integrity()
    return "job-object+low-integrity"
