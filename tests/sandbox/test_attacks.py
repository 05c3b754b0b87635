"""The attack suite: each payload tries to have an effect; none may have one.

Modes: cold spawn and fork-server; with both layers ("full") and with Layer 1
*and* the audit hook switched off ("os-only"), where the kernel confinement
alone must contain every payload. Control runs without any confinement prove
that the tripwires fire, so these tests can fail.
"""

from __future__ import annotations

import pytest

from labwright.sandbox.child import EXIT_POLICY
from labwright.sandbox.limits import Limits
from labwright.sandbox.policy import PolicyError, check_and_compile
from labwright.sandbox.runner import run_code

from . import plain
from .conftest import Arena, requires_confinement, run_attack
from .plain import Bounds

pytestmark = [pytest.mark.smoke, requires_confinement]

_BOMB = Limits(cpu_seconds=2, wall_seconds=6.0, address_space=2 * 1024**3, file_size=16 * 1024**2)
_DEFAULT = Limits(wall_seconds=40.0)

# (id, class, code, layer-1 must reject)
PAYLOADS: list[tuple[str, str, str, bool]] = [
    # --- dangerous modules through attributes of allowed libraries
    (
        "mpl-os-system",
        "module-attr",
        "import matplotlib\nmatplotlib.os.system('touch exec_marker')",
        True,
    ),
    (
        "mpl-subprocess",
        "module-attr",
        "import matplotlib\nmatplotlib.subprocess.run(['touch', 'exec_marker'])",
        True,
    ),
    (
        "mpl-shutil-copy",
        "module-attr",
        "import matplotlib\nmatplotlib.shutil.copy(srcpath('data.csv'), '@MARK@/copied')",
        True,
    ),
    (
        "cbook-os-mkdir",
        "module-attr",
        "import matplotlib\nmatplotlib.cbook.os.mkdir('@MARK@/dir')",
        True,
    ),
    (
        "ctypeslib-cdll",
        "module-attr",
        "np.ctypeslib.ctypes.CDLL(None).system(b'touch exec_marker')",
        True,
    ),
    (
        "pd-compat-pickle",
        "module-attr",
        "import pandas as pd\npd.compat.pickle_compat.pickle.loads(np.fromfile(srcpath('evil_exec.pkl'), dtype='u1').tobytes())",
        True,
    ),
    (
        "pd-io-common-os",
        "module-attr",
        "import pandas as pd\npd.io.common.os.mkdir('@MARK@/d')",
        True,
    ),
    (
        "font-manager-subprocess",
        "module-attr",
        "import matplotlib.font_manager as fm\nfm.subprocess.check_output(['touch', 'exec_marker'])",
        True,
    ),
    # --- frame / generator / coroutine introspection
    (
        "gi-frame-builtins",
        "introspection",
        "g = (i for i in [1])\ng.gi_frame.f_builtins['open']('@MARK@/gi', 'w')",
        True,
    ),
    (
        "f-back-globals",
        "introspection",
        "def gen():\n    yield g.gi_frame.f_back.f_globals\ng = gen()\nb = next(g)['__builtins__']\nb['open']('@MARK@/fb', 'w')",
        True,
    ),
    (
        "cr-frame",
        "introspection",
        "async def c():\n    pass\nco = c()\nco.cr_frame.f_builtins['exec'](\"import os; os.system('touch exec_marker')\")",
        True,
    ),
    (
        "tb-frame",
        "introspection",
        "try:\n    1/0\nexcept ZeroDivisionError as e:\n    t = e.__traceback__\n    t.tb_frame.f_builtins['open']('@MARK@/tb', 'w')",
        True,
    ),
    # --- code in strings and pickles
    (
        "df-query",
        "code-in-string",
        "import pandas as pd\ndf = pd.read_csv(srcpath('data.csv'))\ndf.query(\"x > 0 and @pd.io.common.os.system('touch exec_marker') == 0\", engine='python')",
        True,
    ),
    (
        "pd-eval",
        "code-in-string",
        "import pandas as pd\npd.eval(\"pd.io.common.os.system('touch exec_marker')\", engine='python')",
        True,
    ),
    (
        "builtin-eval",
        "code-in-string",
        "eval(\"__import__('os').system('touch exec_marker')\")",
        True,
    ),
    ("builtin-exec", "code-in-string", "exec(\"open('@MARK@/ex', 'w')\")", True),
    ("np-load-pickle", "pickle", "np.load(srcpath('evil.npy'), allow_pickle=True)", True),
    ("pd-read-pickle", "pickle", "import pandas as pd\npd.read_pickle(srcpath('evil.pkl'))", True),
    (
        "pd-read-pickle-exec",
        "pickle",
        "import pandas as pd\npd.read_pickle(srcpath('evil_exec.pkl'))",
        True,
    ),
    # --- reads of secrets through library APIs (Layer 1 cannot see these)
    (
        "np-loadtxt-passwd",
        "read",
        "print(np.loadtxt('/etc/passwd', dtype=str, delimiter='|', comments=None))",
        False,
    ),
    (
        "pd-read-csv-passwd",
        "read",
        "import pandas as pd\nprint(pd.read_csv('/etc/passwd', sep='|', header=None).to_string())",
        False,
    ),
    (
        "np-fromfile-ssh",
        "read",
        "print(np.fromfile('@SECRET@/.ssh/id_rsa', dtype='u1').tobytes())",
        False,
    ),
    (
        "pd-read-csv-ssh",
        "read",
        "import pandas as pd\nprint(pd.read_csv('@SECRET@/.ssh/id_rsa', header=None).to_string())",
        False,
    ),
    (
        "scipy-loadmat-outside",
        "read",
        "from scipy.io import loadmat\nprint(loadmat('@SECRET@/.ssh/outside.mat'))",
        False,
    ),
    (
        "np-proc-environ",
        "read",
        "print(np.loadtxt('/proc/@VICTIM@/environ', dtype=str, delimiter='|', comments=None))",
        False,
    ),
    (
        "cbook-filehandle-environ",
        "read",
        "import matplotlib.cbook as cb\nprint(cb.to_filehandle('/proc/@VICTIM@/environ', 'rb').read())",
        True,
    ),
    ("symlink-in-data", "read", "print(np.fromfile('@DATA@/link', dtype='u1').tobytes())", False),
    (
        "backend-database",
        "read",
        "import pandas as pd\nprint(pd.read_csv('@LWHOME@/labwright.db', header=None).to_string())",
        False,
    ),
    (
        "np-genfromtxt-ssh",
        "read",
        "print(np.genfromtxt('@SECRET@/.ssh/id_rsa', dtype=str, delimiter='|'))",
        False,
    ),
    # --- writes outside the work directory
    ("np-savetxt-outside", "write", "np.savetxt('@MARK@/m.txt', [1.0])", False),
    (
        "df-to-csv-outside",
        "write",
        "import pandas as pd\npd.DataFrame({'a': [1]}).to_csv('@MARK@/m.csv')",
        False,
    ),
    ("savefig-outside", "write", "plt.plot([1, 2])\nplt.savefig('@MARK@/m.png')", False),
    (
        "pth-into-site-packages",
        "write",
        "np.savetxt('@SITE@/lw_sandbox_attack_test.pth', ['import os'], fmt='%s')",
        False,
    ),
    ("overwrite-data-file", "write", "np.savetxt(srcpath('data.csv'), [0.0])", False),
    (
        "new-file-in-data",
        "write",
        "import pandas as pd\npd.DataFrame({'a': [1]}).to_csv(srcpath('data.csv') + '.new')",
        False,
    ),
    (
        "symlink-then-write",
        "write",
        "import os\nos.symlink('@MARK@/viasym', 'sym')\nopen('sym', 'w').write('x')",
        True,
    ),
    (
        "hardlink-data-then-append",
        "write",
        "import os\nos.link(srcpath('data.csv'), 'hl')\nopen('hl', 'a').write('tampered')",
        True,
    ),
    (
        "rename-data-away",
        "write",
        "import os\nos.rename(srcpath('data.csv'), '@WORK@/stolen.csv')",
        True,
    ),
    # --- network to listeners this test opened
    (
        "pd-read-csv-http",
        "network",
        "import pandas as pd\npd.read_csv('http://127.0.0.1:@PORT@/x.csv')",
        False,
    ),
    (
        "pd-read-json-http",
        "network",
        "import pandas as pd\npd.read_json('http://127.0.0.1:@PORT@/x.json')",
        False,
    ),
    (
        "urllib-urlopen",
        "network",
        "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:@PORT@/')",
        True,
    ),
    (
        "socket-tcp",
        "network",
        "import socket\ns = socket.create_connection(('127.0.0.1', @PORT@))\ns.sendall(b'hello')",
        True,
    ),
    (
        "socket-udp",
        "network",
        "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', @UDP@))",
        True,
    ),
    (
        "socket-unix",
        "network",
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('@USOCK@')\ns.sendall(b'x')",
        True,
    ),
    (
        "np-datasource",
        "network",
        "np.lib.npyio.DataSource().open('http://127.0.0.1:@PORT@/x')",
        True,
    ),
    # --- fork / exec / posix_spawn
    (
        "os-fork",
        "process",
        "import os\npid = os.fork()\nif pid == 0:\n    open('forked', 'w').write('x')\n    os._exit(0)\nos.waitpid(pid, 0)",
        True,
    ),
    (
        "subprocess-run",
        "process",
        "import subprocess\nsubprocess.run(['touch', 'exec_marker'])",
        True,
    ),
    (
        "posix-spawn",
        "process",
        "import os\nos.posix_spawn('/usr/bin/touch', ['touch', 'exec_marker'], {})",
        True,
    ),
    (
        "os-execv",
        "process",
        "import os\nos.execv('/usr/bin/touch', ['touch', 'exec_marker'])",
        True,
    ),
    (
        "os-spawnv",
        "process",
        "import os\nos.spawnv(os.P_WAIT, '/usr/bin/touch', ['touch', 'exec_marker'])",
        True,
    ),
    (
        "multiprocessing",
        "process",
        "import multiprocessing as mp\nmp.set_start_method('fork')\np = mp.Process(target=lambda: open('forked_mp', 'w'))\np.start()\np.join()",
        True,
    ),
    (
        "ctypes-libc-system",
        "process",
        "import ctypes\nctypes.CDLL('libc.so.6').system(b'touch exec_marker')",
        True,
    ),
    ("kill-victim", "process", "import os\nos.kill(@VICTIM@, 9)", True),
    (
        "ptrace-victim",
        "process",
        "import ctypes\nctypes.CDLL(None).ptrace(16, @VICTIM@, 0, 0)",
        True,
    ),
    # --- resource bombs
    # One allocation above the address-space limit (2 GiB with ~1 GiB of
    # the plotting stack mapped). It was 10**11 doubles: 800 GB, which the
    # kernel's overcommit heuristic refuses even unconfined, so it tested
    # nothing. The split literal keeps code.py itself off the tripwire.
    ("memory-bomb", "resource", "a = np.ones(2**28)\nprint('ALLOC' + 'ATED', a.sum())", False),
    # Grows until refused, then reports how far it got (GREW n x 80 MB).
    (
        "memory-grow",
        "resource",
        "keep = []\ntry:\n    while True:\n        keep.append(np.ones(10**7))\n"
        "finally:\n    print('GR' + 'EW', len(keep))",
        False,
    ),
    # Spins, reporting each half second of CPU it has used (SPUN t): the
    # tripwire compares the last report with RLIMIT_CPU, an amount of CPU,
    # not a duration. `time` is outside Layer 1's imports, so with Layer 1 on
    # this is refused; the os-only runs are the CPU limit's test.
    (
        "cpu-loop",
        "resource",
        "import time\nmark = 0.5\nwhile True:\n    if time.process_time() >= mark:\n"
        "        print('SP' + 'UN', mark, flush=True)\n        mark += 0.5",
        True,
    ),
    (
        "fork-bomb",
        "resource",
        "import os\nfor i in range(200):\n    if os.fork() == 0:\n        open(f'forked_{i}', 'w')",
        True,
    ),
    ("one-gb-tofile", "resource", "np.zeros(2**30, dtype='u1').tofile('big.bin')", False),
    (
        "memmap-10gb",
        "resource",
        "f = np.memmap('big2.bin', dtype='u1', mode='w+', shape=(10 * 2**30,))\nf[-1] = 1\nf.flush()",
        True,
    ),
    (
        "ten-gb-seek",
        "resource",
        "f = open('big3.bin', 'wb')\nf.seek(10 * 2**30)\nf.write(b'x')",
        True,
    ),
    ("infinite-output", "resource", "while True:\n    print('x' * 10000)", False),
    # --- Unicode-normalised identifiers (NFKC makes these the real names)
    (
        "unicode-eval",
        "unicode",
        "\uff45\uff56\uff41\uff4c(\"__import__('os').system('touch exec_marker')\")",
        True,
    ),
    ("unicode-open", "unicode", "\uff4f\uff50\uff45\uff4e('@MARK@/uni', 'w')", True),
    (
        "unicode-ctypeslib",
        "unicode",
        "np.\uff43\uff54\uff59\uff50\uff45\uff53\uff4c\uff49\uff42.ctypes.CDLL(None).system(b'touch exec_marker')",
        True,
    ),
    # --- interactive helpers
    ("help-antigravity", "interactive", "help('antigravity')\nopen('@MARK@/help', 'w')", True),
]

# Payloads only Layer 1 can judge: run, even unconfined, they do nothing the
# OS could see (they print frames; the child decodes the bytes as UTF-8
# itself, so the UTF-7 act stays a comment and the BOM'd source does not
# compile; breakpoint() has no terminal), so they are outside the OS-layer
# claim and its control rule. test_layer1_payload_blocked runs them with
# Layer 1 on.
LAYER1_ONLY: list[tuple[str, str, str, bool]] = [
    (
        "format-gi-frame",
        "format",
        "g = (i for i in [1])\nprint('{0.gi_frame.f_builtins[open]}'.format(g))\nprint('{0.gi_frame.f_globals}'.format(g))",
        True,
    ),
    (
        "format-map",
        "format",
        "g = (i for i in [1])\nprint('{x.gi_frame.f_globals}'.format_map({'x': g}))",
        True,
    ),
    (
        "str-format-unbound",
        "format",
        "f = str.format\nprint(f('{0.__globals__}', lambda: 0))",
        True,
    ),
    (
        "utf7-cookie",
        "encoding",
        "# -*- coding: utf-7 -*-\n# +AAo-open('@MARK@/utf7', 'w')\nplt.plot([1])",
        True,
    ),
    (
        "bom-prefix",
        "encoding",
        "\ufeffimport matplotlib\nmatplotlib.os.system('touch exec_marker')",
        True,
    ),
    ("breakpoint", "interactive", "breakpoint()\nopen('@MARK@/bp', 'w')", True),
]

_IDS = [p[0] for p in PAYLOADS]
_LIMITS = {p[0]: (_BOMB if p[1] == "resource" else _DEFAULT) for p in PAYLOADS}


def test_suite_size_and_classes() -> None:
    assert len(PAYLOADS) >= 40
    assert len(set(_IDS)) == len(_IDS)
    assert not set(_IDS) & {p[0] for p in LAYER1_ONLY}
    classes = {p[1] for p in PAYLOADS + LAYER1_ONLY}
    assert classes >= {
        "module-attr", "introspection", "format", "code-in-string", "pickle", "read",
        "write", "network", "process", "resource", "unicode", "encoding", "interactive",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("name", "cls", "code", "rejects"),
    PAYLOADS + LAYER1_ONLY,
    ids=_IDS + [p[0] for p in LAYER1_ONLY],
)
def test_layer1_verdict(name: str, cls: str, code: str, rejects: bool) -> None:
    """Layer 1 rejects what it is meant to catch (and says which rule)."""
    source = code.encode("utf-8")
    if rejects:
        with pytest.raises(PolicyError) as info:
            check_and_compile(source)
        assert info.value.rule and "savefig(OUT)" in str(info.value)
    else:
        check_and_compile(source)  # passes Layer 1; only Layer 2 stops it


@pytest.mark.parametrize("layers", ["full", "os-only"])
@pytest.mark.parametrize("mode", ["cold", "fork"])
@pytest.mark.parametrize(("name", "cls", "code", "rejects"), PAYLOADS, ids=_IDS)
def test_attack_contained(
    arena: Arena, fork_server: None, mode: str, layers: str, name: str, cls: str, code: str,
    rejects: bool,
) -> None:  # fmt: skip
    if mode == "cold" and layers == "full" and not rejects:
        # Same fresh process as cold/os-only plus Layer 1 and the audit hook,
        # which only ever add denials: contained there implies contained here.
        pytest.skip("cold/os-only runs this payload with strictly fewer defences")
    limits = _LIMITS[name]
    result, work = run_attack(arena, code, mode=mode, layer1=(layers == "full"), limits=limits)
    if result is not None:
        assert result.mode == mode
    effects = arena.effects(result, work, limits)
    assert effects == [], f"{name} had an effect: {effects}"


# Payloads not run with confinement off, and why; test_controls_cover_every_payload
# pins this list, so a new exception is a visible change.
_NO_CONTROL: dict[str, str] = {}
# The other resource bombs run unconfined under looser but bounded limits
# (plain.Bounds, as nobody): each shows its effect, and the machine is safe.
_BOUNDED_CONTROL: dict[str, Bounds] = {
    "memory-bomb": Bounds(),
    "memory-grow": Bounds(),
    "fork-bomb": Bounds(tasks=48),
    "one-gb-tofile": Bounds(),
    # Sparse: 10 GiB of size, one block written; the mapping needs the space.
    "memmap-10gb": Bounds(address_space=16 * 1024**3, file_size=11 * 1024**3),
    "ten-gb-seek": Bounds(file_size=11 * 1024**3),
    "infinite-output": Bounds(),  # stops at RLIMIT_FSIZE (64 MiB)
    # Ended by its CPU limit, 4 s, twice the confined run's; the wall clock
    # is only a safety net, so a loaded machine makes the run longer, never
    # different (the control does not race a wall-clock kill).
    "cpu-loop": Bounds(cpu_seconds=4, wall_seconds=120.0),
}
# Unconfined, antigravity would open a web browser on the machine. Its
# control runs under plain's bounds (as root: the markers folder is in
# pytest's 0700 temp root) with $BROWSER naming a script of the test's, which
# webbrowser prefers to any real browser; the script leaves a marker, so the
# control shows both acts: a program started, a file written outside.
_BROWSER = "help-antigravity"
_CONTROLS = [
    n for n in _IDS if n not in _NO_CONTROL and n not in _BOUNDED_CONTROL and n != _BROWSER
]


def test_controls_cover_every_payload() -> None:
    """Every payload has a control run, but the pinned exceptions."""
    assert set(_NO_CONTROL) == set()
    assert not set(_NO_CONTROL) & (set(_BOUNDED_CONTROL) | {_BROWSER})
    assert set(_CONTROLS) | set(_BOUNDED_CONTROL) | set(_NO_CONTROL) | {_BROWSER} == set(_IDS)


@pytest.mark.parametrize("name", _CONTROLS)
def test_control_effect_happens_without_confinement(
    arena: Arena, fork_server: None, name: str
) -> None:
    """The same payload, unconfined, *does* trip the wire: the checks are live."""
    code = next(p[2] for p in PAYLOADS if p[0] == name)
    limits = Limits(wall_seconds=5.0)
    result, work = run_attack(arena, code, mode="fork", layer1=False, limits=limits, confine=False)
    assert arena.effects(result, work, limits), f"control run of {name} had no visible effect"


@pytest.mark.skipif(not plain.available(), reason="a control as another user needs root")
@pytest.mark.parametrize("name", sorted(_BOUNDED_CONTROL))
def test_bomb_control_under_bounds_only(arena: Arena, name: str) -> None:
    """A resource bomb, unconfined but bounded, trips the wire its confined
    run is judged by (the same limits: the confined run's)."""
    code = next(p[2] for p in PAYLOADS if p[0] == name)
    with plain.control_work_dir() as work:
        result = plain.run_plain(arena.render(code, work), work, bounds=_BOUNDED_CONTROL[name])
        effects = arena.effects(result, work, _LIMITS[name])
    assert effects, f"bounded control run of {name} had no visible effect: {result.stderr[-600:]}"


@pytest.mark.skipif(not plain.available(), reason="a bounded control needs root here")
def test_browser_control_under_bounds_only(arena: Arena) -> None:
    code = next(p[2] for p in PAYLOADS if p[0] == _BROWSER)
    browser = arena.root / "browser.sh"
    # webbrowser takes $BROWSER as one program name (no arguments).
    browser.write_text(f"#!/bin/sh\n: > {arena.markers}/browser-started\n", encoding="utf-8")
    browser.chmod(0o755)
    with plain.control_work_dir() as work:
        result = plain.run_plain(
            arena.render(code, work), work, uid=None, env={"BROWSER": str(browser)}
        )
        effects = arena.effects(result, work, _DEFAULT)
    started = (arena.markers / "browser-started").exists()
    assert started, f"antigravity started no browser unconfined: {result.stderr[-600:]}"
    assert effects, "the control run left no visible effect"


@pytest.mark.parametrize("mode", ["cold", "fork"])
@pytest.mark.parametrize(
    ("name", "cls", "code", "rejects"), LAYER1_ONLY, ids=[p[0] for p in LAYER1_ONLY]
)
def test_layer1_payload_blocked(
    arena: Arena, fork_server: None, mode: str, name: str, cls: str, code: str, rejects: bool
) -> None:  # fmt: skip
    """Layer 1 in the child (not the caller's pre-check) refuses these, with
    both layers on; the OS layer is not what this shows."""
    work = arena.root / "work"
    work.mkdir(exist_ok=True)
    result = run_code(
        arena.render(code, work), data_root=arena.data, work_dir=work, limits=_DEFAULT,
        mode=mode,  # type: ignore[arg-type]
    )  # fmt: skip
    assert result.mode == mode
    assert result.returncode == EXIT_POLICY, (result.returncode, result.stderr[-600:])
    assert arena.effects(result, work, _DEFAULT) == []
