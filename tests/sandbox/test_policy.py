"""Layer 1, the static policy: rules, exact-bytes handling, instructional text."""

from __future__ import annotations

import pytest

from labwright.sandbox.policy import PolicyError, check_and_compile, decode_source

REJECTED = [
    ("import os", "import"),
    ("from subprocess import run", "import"),
    ("import numpy.ctypeslib", "module-attribute"),
    ("from matplotlib import cbook", "module-attribute"),
    ("from numpy import ctypeslib", "module-attribute"),
    ("import pandas as pd\npd.compat", "module-attribute"),
    ("x = np.lib.npyio.os", "module-attribute"),
    ("x = _secret", "underscore"),
    ("x = np._core", "underscore"),
    ("def _f():\n    pass", "underscore"),
    ("def __init__(self):\n    pass", "underscore"),
    ("class A:\n    def __getattr__(self, n):\n        return 1", "underscore"),
    ("g = (i for i in [1])\ng.gi_frame", "introspection"),
    ("f.f_back", "introspection"),
    ("c.cr_await", "introspection"),
    ("a.ag_frame", "introspection"),
    ("t.tb_frame", "introspection"),
    ("f.co_code", "introspection"),
    ("eval('1')", "name"),
    ("e = exec", "name"),
    ("open('x')", "name"),
    ("getattr(np, 'os')", "name"),
    ("type(1)", "name"),
    ("object", "name"),
    ("super()", "name"),
    ("vars()", "name"),
    ("breakpoint()", "name"),
    ("help('antigravity')", "name"),
    ("memoryview(b'')", "name"),
    ("'{0.x}'.format(1)", "forbidden-call"),
    ("'{x}'.format_map({})", "forbidden-call"),
    ("s = 'a__b'", "dunder-string"),
    ("s = b'__class__'", "dunder-string"),
    ("df.query('x > 1')", "forbidden-call"),
    ("pd.eval('1+1')", "forbidden-call"),
    ("pd.read_pickle('x')", "forbidden-call"),
    ("df.to_pickle('x')", "forbidden-call"),
    ("np.load('x', allow_pickle=True)", "pickle"),
    ("np.load('x', allow_pickle=flag)", "pickle"),
    ("np.load('x', **{'allow_pickle': True})", "pickle"),
    ("np.lib.npyio.DataSource()", "forbidden-call"),
    ("np.memmap('x')", "forbidden-call"),
    ("df.to_clipboard()", "forbidden-call"),
    ("pd.read_clipboard()", "forbidden-call"),
    ("from . import x", "import"),
    ("from numpy import *", "import"),
    ("async def f():\n    pass", "async"),
    ("class A(metaclass=M):\n    pass", "class"),
    ("\uff45\uff56\uff41\uff4c('1')", "name"),  # fullwidth 'eval', NFKC-normalised
]

ALLOWED = [
    "import numpy as np\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig(OUT)",
    "from scipy.optimize import curve_fit",
    "from scipy.io import loadmat",
    "from scipy import signal, stats",
    "import pandas as pd\ndf = pd.read_csv(srcpath('a.csv'))\ndf[df['x'] > 0]",
    "np.load(srcpath('a.npy'), allow_pickle=False)",
    "f'{x:.2f} and {y!r}'",
    "label = r'$\\alpha_0$'",
    "from mpl_toolkits.mplot3d import Axes3D",
    "class Fit:\n    def value(self, x):\n        return x",
    "x = \u2135",
    "for i, (a, b) in enumerate(zip([1], [2])):\n    print(a + b)",
    "try:\n    1 / 0\nexcept ZeroDivisionError as err:\n    print(err)",
]


@pytest.mark.parametrize(("code", "rule"), REJECTED)
def test_rejections_name_the_rule(code: str, rule: str) -> None:
    with pytest.raises(PolicyError) as info:
        check_and_compile(code)
    assert info.value.rule == rule
    text = str(info.value)
    # Instructional: which rule, what to do instead.
    assert rule in text and "srcpath(" in text and "plt.savefig(OUT)" in text


@pytest.mark.parametrize("code", ALLOWED)
def test_allowed_code_compiles(code: str) -> None:
    compiled = check_and_compile(code)
    assert compiled.co_filename == "<figure>"


@pytest.mark.parametrize(
    "raw",
    [
        b"# -*- coding: utf-7 -*-\nx = 1\n",
        b"#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nx = 1\n",
        b"\xef\xbb\xbfx = 1\n",
        b"\xff\xfex\x00",
        b"x = '\xff'\n",
        b"x = 1\x00\n",
    ],
)
def test_encoding_tricks_rejected(raw: bytes) -> None:
    with pytest.raises(PolicyError) as info:
        decode_source(raw)
    assert info.value.rule == "encoding"


def test_cookie_on_third_line_is_just_a_comment() -> None:
    # PEP 263 only honours lines 1-2, and we decode as UTF-8 ourselves anyway.
    assert check_and_compile(b"x = 1\ny = 2\n# coding: utf-7\n")


def test_executes_the_checked_tree_not_the_text() -> None:
    """The code object comes from the tree we checked: a utf-7 smuggled line
    (which a cookie-honouring reader would decode into code) is refused, and
    the same text without the cookie compiles to a harmless comment."""
    smuggled = b"# +AAo-open('x', 'w')\nresult = 41 + 1\n"
    code = check_and_compile(smuggled)
    ns: dict[str, object] = {}
    exec(code, ns)  # noqa: S102 - compiled from a checked tree
    assert ns["result"] == 42 and "open" not in code.co_names


def test_syntax_error_is_instructional() -> None:
    with pytest.raises(PolicyError) as info:
        check_and_compile("plt.plot(")
    assert info.value.rule == "syntax" and info.value.line == 1


def test_column_named_like_a_module_gets_a_useful_hint() -> None:
    with pytest.raises(PolicyError) as info:
        check_and_compile("import pandas as pd\ndf = pd.read_csv(srcpath('a.csv'))\ndf.site.plot()")
    assert "df['site']" in str(info.value)


def _run_checked(code: str) -> dict[str, object]:
    import numpy as np

    from labwright.sandbox.guard import runtime_helpers

    ns: dict[str, object] = {"np": np, **runtime_helpers()}
    exec(check_and_compile(code), ns)  # noqa: S102 - compiled from a checked tree
    return ns


@pytest.mark.parametrize(
    ("code", "needle"),
    [
        ("import re\nb = re.enum.bltns", "module 'enum'"),
        ("from re import enum", "module 'enum'"),
        ("import fractions\ng = fractions.operator.attrgetter", "module 'operator'"),
        ("import matplotlib.colors\nx = matplotlib.colors.np.linalg.norm", None),
        ("np.load('x.npy', **{'allow_' + 'pickle': True})", "allow_pickle"),
        ("np.load('x.npy', None, True)", "allow_pickle"),
        ("from numpy import load\nload('x.npy', None, True)", "allow_pickle"),
        ("np.load('x.npy', mmap_mode='r+')", "mmap_mode"),
        ("d = {'_x': 1}\nnp.zeros(3, **d)", "keyword"),
    ],
)
def test_runtime_half_refuses_what_the_tree_cannot_see(code: str, needle: str | None) -> None:
    """These pass the static walk; the rewritten code refuses them when it runs,
    with a sentence that says what to do instead."""
    if needle is None:
        _run_checked(code)  # an allowed module's own attribute chain still works
        return
    with pytest.raises(PermissionError) as info:
        _run_checked(code)
    assert needle in str(info.value)


def test_rewritten_code_keeps_its_meaning() -> None:
    ns = _run_checked(
        "import math\nfrom collections import Counter\n"
        "style = {'dtype': float}\nz = np.zeros(3, **style)\n"
        "match z.shape:\n    case (3,):\n        kind = 'vector'\n    case _:\n        kind = 'other'\n"
        "class P:\n    def value(self):\n        return math.pi\n"
        "p = P()\np.extra = 2\np.extra += 1\nresult = (kind, p.value(), p.extra, Counter('aab').most_common(1))"
    )
    assert ns["result"] == ("vector", 3.141592653589793, 3, [("a", 2)])
