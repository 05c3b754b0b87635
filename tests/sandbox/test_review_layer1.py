"""Independent review of issue 11, class 9: more Layer-1 escapes.

Object-graph walks (frames, generators, globals, reduce hooks) and library
attribute chains (numpy, matplotlib, pandas) towards os/sys/subprocess, each
run with Layer 1 and the audit hook on and the OS confinement OFF, so only
Layer 1 stands in the way. The payload tries to create a marker outside the
job; the arena's tripwires check that nothing was made, leaked or run.
"""

from __future__ import annotations

import pytest

from labwright.sandbox.limits import Limits
from labwright.sandbox.policy import PolicyError, check_and_compile
from labwright.sandbox.runner import run_code

from .conftest import Arena

pytestmark = pytest.mark.smoke

_LIMITS = Limits(wall_seconds=30.0)
_TOUCH = "'@MARK@/review'"

PAYLOADS: list[tuple[str, str]] = [
    ("subclasses-walk",
     "for c in ().__class__.__base__.__subclasses__():\n"
     "    if c.__name__ == 'catch_warnings':\n"
     "        c()._module.__builtins__['open'](" + _TOUCH + ", 'w')"),
    ("getattr-dunder-class",
     "b = getattr(getattr((), '__cl' + 'ass__'), '__ba' + 'se__')\nprint(b.__subclasses__())"),
    ("generator-frame-back",
     "def g():\n    yield 1\nit = g()\nf = it.gi_frame.f_back or it.gi_frame\n"
     "f.f_globals['__builtins__']['open'](" + _TOUCH + ", 'w')"),
    ("exception-traceback-frame",
     "try:\n    1/0\nexcept Exception as e:\n    fr = e.__traceback__.tb_frame.f_back\n"
     "    fr.f_builtins['open'](" + _TOUCH + ", 'w')"),
    ("function-globals",
     "def f():\n    pass\nf.__globals__['__builtins__'].open(" + _TOUCH + ", 'w')"),
    ("np-function-globals",
     "np.mean.__globals__['os'].mkdir(" + _TOUCH + ")"),
    ("reduce-ex-os",
     "r = (1).__reduce_ex__(2)\nr[0].__globals__['os'].mkdir(" + _TOUCH + ")"),
    ("format-string-walk",
     "s = '{0.__class__.__init__.__globals__}'.format(np.ndarray)\nprint('LEAK' + 'ED', s[:50])"),
    ("np-lib-os", "np.lib.npyio.os.mkdir(" + _TOUCH + ")"),
    ("np-testing-subprocess",
     "np.testing._private.utils.subprocess.run(['touch', " + _TOUCH + "])"),
    ("np-f2py", "import numpy.f2py\nnumpy.f2py.os.mkdir(" + _TOUCH + ")"),
    ("mpl-cbook-os", "import matplotlib\nmatplotlib.cbook.os.mkdir(" + _TOUCH + ")"),
    ("mpl-sys-modules",
     "import matplotlib\nmatplotlib.sys.modules['os'].mkdir(" + _TOUCH + ")"),
    ("mpl-rcparams-ffmpeg",
     "import matplotlib\nfrom matplotlib import animation\n"
     "plt.rcParams['animation.ffmpeg_path'] = 'touch'\n"
     "fig = plt.figure()\na = animation.FuncAnimation(fig, lambda i: [], frames=2)\n"
     "a.save(" + _TOUCH + ", writer='ffmpeg')"),
    ("mpl-usetex-subprocess",
     "plt.rcParams['text.usetex'] = True\nfig = plt.figure()\nfig.text(0.5, 0.5, 'x')\n"
     "fig.savefig('a.png')"),
    ("pd-io-common-os", "pd.io.common.os.mkdir(" + _TOUCH + ")"),
    ("pd-read-pickle", "pd.read_pickle(srcpath('evil.pkl'))"),
    ("pd-read-pickle-work",
     "open('p.pkl', 'wb').write(b'cposix\\nmkdir\\n(S' + repr(" + _TOUCH + ").encode() "
     "+ b'\\ntR.')\npd.read_pickle('p.pkl')"),
    ("pd-eval-dunder",
     "pd.eval(\"__import__('os').mkdir(" + _TOUCH.replace("'", "\\'") + ")\")"),
    ("df-query-attr",
     "df = pd.DataFrame({'a': [1]})\ndf.query('a.__class__.__init__ == 1')"),
    ("savefig-outside",
     "fig = plt.figure()\nfig.savefig(" + _TOUCH[:-1] + ".png')"),
    ("to-csv-outside", "pd.DataFrame({'a': [1]}).to_csv(" + _TOUCH + ")"),
    ("np-save-outside", "np.save(" + _TOUCH + ", np.zeros(2))"),
    ("np-memmap-outside", "np.memmap(" + _TOUCH + ", mode='w+', shape=(4,))"),
    ("vars-module-dict", "vars(np.lib.npyio)['os'].mkdir(" + _TOUCH + ")"),
    ("type-new-class",
     "T = type('T', (), {})\nprint(T.mro()[-1].__subclasses__())"),
    ("operator-attrgetter-np",
     "np.core.numeric.operator.attrgetter('os.mkdir')(np.lib.npyio)(" + _TOUCH + ")"),
    ("functools-reduce-getattr",
     "import functools\nm = functools.reduce(getattr, ['lib', 'npyio', 'os'], np)\n"
     "m.mkdir(" + _TOUCH + ")"),
    ("builtins-via-np-dict",
     "b = np.__dict__['__builtins__']\nb['open'](" + _TOUCH + ", 'w')"),
    ("gi-code-replace",
     "def g():\n    yield 1\nc = g().gi_code\nprint(c.co_consts)\n"
     "exec(c.replace(co_names=('open',)))"),
    # library calls that open files by name (the audit hook must see them)
    ("pd-read-csv-abs", "print(pd.read_csv('/etc/passwd', sep=':', header=None).to_string())"),
    ("pd-read-csv-file-url",
     "print(pd.read_csv('file:///etc/passwd', sep=':', header=None).to_string())"),
    ("pd-read-fwf-abs", "print(pd.read_fwf('/etc/passwd').to_string())"),
    ("pd-read-stata-abs", "pd.read_stata('/etc/passwd')"),
    ("pd-read-table-proc-environ", "print(pd.read_table('/proc/self/environ'))"),
    ("pd-to-excel-outside", "pd.DataFrame({'a': [1]}).to_excel(" + _TOUCH + ")"),
    ("np-fromfile-abs", "print(np.fromfile('/etc/passwd', dtype=np.uint8).tobytes())"),
    ("np-savetxt-outside", "np.savetxt(" + _TOUCH + ", np.zeros(2))"),
    ("scipy-savemat-outside", "import scipy.io\nscipy.io.savemat(" + _TOUCH + ", {'a': 1})"),
    ("mpl-rc-file-abs", "import matplotlib\nmatplotlib.rc_file('/etc/passwd')"),
    ("mpl-font-fname-abs",
     "import matplotlib.font_manager as fm\nprint(fm.FontProperties(fname='/etc/passwd').get_name())"),
    ("pd-plotting-backend-import",
     "pd.set_option('plotting.backend', 'subprocess')\npd.DataFrame({'a': [1]}).plot()"),
    ("h5py-import", "import h5py\nh5py.File(" + _TOUCH + ", 'w').close()"),
]  # fmt: skip
_IDS = [p[0] for p in PAYLOADS]


def _run(arena: Arena, code: str):  # type: ignore[no-untyped-def]
    work = arena.root / "work"
    work.mkdir(exist_ok=True)
    # pandas is not pre-imported in the job; numpy and pyplot are.
    source = arena.render("import pandas as pd\n" + code, work)
    try:
        check_and_compile(source)
    except PolicyError:
        return None, work  # refused before it ran
    result = run_code(
        source, data_root=arena.data, work_dir=work, policy=True, audit_hook=True,
        confine=False, limits=_LIMITS, mode="fork",
    )  # fmt: skip
    return result, work


@pytest.mark.parametrize(("name", "code"), PAYLOADS, ids=_IDS)
def test_layer1_review_payload_has_no_effect(
    arena: Arena, fork_server: None, name: str, code: str
) -> None:
    result, work = _run(arena, code)
    effects = arena.effects(result, work, _LIMITS)
    assert not (arena.markers / "review").exists(), f"{name} created a marker"
    assert not (arena.markers / "review.png").exists(), f"{name} created a marker"
    assert effects == [], f"{name} had an effect: {effects}"
