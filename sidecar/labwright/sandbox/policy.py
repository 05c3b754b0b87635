"""Layer 1: the static policy for model-written plotting code.

This is a fast first filter and a teacher, not the security boundary (that is
the operating-system confinement in `confine`). It runs on the exact bytes that
will execute: the bytes are decoded as strict UTF-8 by us, parsed once, checked,
and the *checked tree* is compiled. The source text is never re-read, so there
is no gap between what was checked and what runs.

Every rejection names the rule and says what to do instead, because the error
text goes back to the model as its next prompt.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from types import CodeType

#: Top-level packages the plotting code may import.
ALLOWED_IMPORTS: frozenset[str] = frozenset(
    {
        "numpy",
        "scipy",
        "matplotlib",
        "pandas",
        "mpl_toolkits",
        "math",
        "cmath",
        "statistics",
        "random",
        "json",
        "csv",
        "re",
        "datetime",
        "collections",
        "itertools",
        "functools",
        "textwrap",
        "decimal",
        "fractions",
    }
)

#: Attribute names that are (or commonly hold) modules giving process, file or
#: code-loading power. Allowed libraries hand these out as ordinary attributes
#: (`matplotlib.os`, `np.ctypeslib.ctypes`, `pd.compat.pickle_compat.pickle`).
MODULE_LIKE_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "os",
        "sys",
        "posix",
        "nt",
        "subprocess",
        "ctypes",
        "ctypeslib",
        "builtins",
        "inspect",
        "importlib",
        "pickle",
        "pickle_compat",
        "cPickle",
        "marshal",
        "shutil",
        "socket",
        "f2py",
        "compat",
        "cbook",
        "pathlib",
        "glob",
        "tempfile",
        "threading",
        "multiprocessing",
        "pty",
        "runpy",
        "code",
        "codeop",
        "gc",
        "weakref",
        "urllib",
        "request",
        "http",
        "ftplib",
        "webbrowser",
        "pydoc",
        "platform",
        "site",
        "sysconfig",
        "distutils",
        "setuptools",
        "testing",
        "pytest",
        "mmap",
        "resource",
        "fcntl",
        "select",
        "asyncio",
        "dill",
        "joblib",
        "cloudpickle",
        "h5py",
        "PIL",
        "zipfile",
        "tarfile",
        "lzma",
        "bz2",
        "gzip",
        "sqlite3",
        "dbm",
        "shelve",
        "linecache",
        "tokenize",
        "traceback",
        "warnings",
        "logging",
        "unittest",
        "doctest",
        "pdb",
        "bdb",
        "faulthandler",
        "tracemalloc",
        "_thread",
    }
)

#: Frame, code, generator and coroutine introspection: these reach
#: `f_builtins`/`f_globals` without writing a single underscore.
INTROSPECTION_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "gi_frame",
        "gi_code",
        "gi_yieldfrom",
        "gi_running",
        "f_back",
        "f_builtins",
        "f_globals",
        "f_locals",
        "f_code",
        "f_trace",
        "f_lineno",
        "tb_frame",
        "tb_next",
        "tb_lasti",
        "co_code",
        "co_consts",
        "co_names",
        "co_varnames",
        "func_globals",
        "func_code",
        "im_func",
        "im_self",
        "mro",
        "with_traceback",
    }
)

_INTROSPECTION_PREFIXES = ("cr_", "ag_", "gi_", "co_", "tb_")

#: Builtins that must not appear as a name at all (called or aliased).
FORBIDDEN_NAMES: frozenset[str] = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "open",
        "getattr",
        "setattr",
        "delattr",
        "hasattr",
        "vars",
        "dir",
        "type",
        "object",
        "super",
        "globals",
        "locals",
        "breakpoint",
        "help",
        "input",
        "memoryview",
        "classmethod",
        "staticmethod",
        "property",
        "exit",
        "quit",
        "copyright",
        "credits",
        "license",
        "__import__",
        "__builtins__",
        "__loader__",
        "__spec__",
    }
)

#: Library calls that evaluate code held in strings, unpickle, or write/read
#: outside the figure (`query`, `pd.eval`, pickles, memory maps, clipboard).
FORBIDDEN_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "query",
        "eval",
        "exec",
        "read_pickle",
        "to_pickle",
        "DataSource",
        "memmap",
        "open_memmap",
        "to_clipboard",
        "read_clipboard",
        "format",
        "format_map",
        "load_library",
        "system",
        "popen",
        "to_filehandle",
    }
)

_HELP = (
    "Write plain plotting code: import only from "
    + ", ".join(sorted(ALLOWED_IMPORTS))
    + "; read input files with srcpath('name.csv') (list them with listdir() or walkfiles()); "
    "finish with plt.savefig(OUT). File access other than through these helpers, "
    "introspection, code in strings and names starting with '_' are not allowed."
)

#: The globals `_Rewriter` makes model code call (implemented in
#: `guard.runtime_helpers`). Model code cannot spell them: they start with '_'.
ATTR_HELPER = "__lw_attr__"
VALUE_HELPER = "__lw_value__"
KWARGS_HELPER = "__lw_kwargs__"

_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]")


@dataclass(frozen=True)
class PolicyError(Exception):
    """The code broke a rule; `message` is written for the model to act on."""

    rule: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"Rejected by rule '{self.rule}'{where}: {self.message} {_HELP}"


def decode_source(source: bytes | str) -> str:
    """Decode exactly the bytes that will run; refuse anything that could make
    the parser see different text from the one we check (BOMs, coding cookies)."""
    raw = source.encode("utf-8") if isinstance(source, str) else bytes(source)
    if raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        raise PolicyError("encoding", "A byte-order mark is not allowed; send plain UTF-8 text.")
    for number, line in enumerate(raw.splitlines()[:2], start=1):
        if _COOKIE.match(line):
            raise PolicyError(
                "encoding",
                "An encoding declaration ('# coding: ...') is not allowed; remove it, "
                "the code is always read as UTF-8.",
                number,
            )
    if b"\x00" in raw:
        raise PolicyError("encoding", "NUL bytes are not allowed in code.")
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise PolicyError("encoding", f"The code is not valid UTF-8 ({exc.reason}).") from None


def _is_introspection(attr: str) -> bool:
    return attr in INTROSPECTION_ATTRIBUTES or attr.startswith(_INTROSPECTION_PREFIXES)


class _Checker(ast.NodeVisitor):
    def _fail(self, node: ast.AST, rule: str, message: str) -> None:
        raise PolicyError(rule, message, getattr(node, "lineno", None))

    def _check_identifier(self, node: ast.AST, name: str, what: str) -> None:
        if name.startswith("_"):
            self._fail(
                node,
                "underscore",
                f"The {what} '{name}' starts with '_'; use public names only.",
            )

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_import(node, alias.name)
            if alias.asname:
                self._check_identifier(node, alias.asname, "name")
                if alias.asname in FORBIDDEN_NAMES:
                    self._fail(node, "name", f"'{alias.asname}' cannot be used as a name.")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            self._fail(node, "import", "Relative imports are not allowed.")
        self._check_import(node, node.module or "")
        for alias in node.names:
            if alias.name == "*":
                self._fail(node, "import", "'from ... import *' is not allowed; import names.")
            self._check_attribute_name(node, alias.name)
            bound = alias.asname or alias.name
            self._check_identifier(node, bound, "name")
            if bound in FORBIDDEN_NAMES:
                self._fail(node, "name", f"'{bound}' cannot be imported as a name.")

    def _check_import(self, node: ast.AST, dotted: str) -> None:
        parts = dotted.split(".")
        if parts[0] not in ALLOWED_IMPORTS:
            self._fail(node, "import", f"Importing '{dotted}' is not allowed.")
        for part in parts[1:]:
            self._check_attribute_name(node, part)

    def _check_attribute_name(self, node: ast.AST, attr: str) -> None:
        self._check_identifier(node, attr, "attribute")
        if attr in MODULE_LIKE_ATTRIBUTES:
            self._fail(
                node,
                "module-attribute",
                f"The attribute '{attr}' reaches a module that is not allowed; "
                "use the allowed libraries' plotting and data functions directly "
                f"(for a table column of that name write df['{attr}']).",
            )
        if _is_introspection(attr):
            self._fail(
                node,
                "introspection",
                f"The attribute '{attr}' inspects frames, code or generators; it is not needed "
                "for plotting.",
            )
        if attr in FORBIDDEN_ATTRIBUTES:
            hint = {
                "format": "use an f-string with plain names instead of str.format",
                "format_map": "use an f-string with plain names instead",
                "query": "filter with boolean masks, e.g. df[df['x'] > 0]",
                "eval": "compute with ordinary expressions on columns",
            }.get(attr, "read data with pandas/numpy readers on srcpath(...) files instead")
            self._fail(node, "forbidden-call", f"'.{attr}' is not allowed; {hint}.")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_attribute_name(node, node.attr)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        self._check_identifier(node, node.id, "name")
        if node.id in FORBIDDEN_NAMES:
            self._fail(node, "name", f"The built-in '{node.id}' is not allowed.")
        self.generic_visit(node)

    def _check_def(self, node: ast.AST, name: str) -> None:
        self._check_identifier(node, name, "definition")
        if name in FORBIDDEN_NAMES:
            self._fail(node, "name", f"'{name}' cannot be redefined.")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._check_def(node, node.name)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._fail(node, "async", "async functions are not needed for plotting.")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._check_def(node, node.name)
        if node.keywords:
            self._fail(node, "class", "Class keywords (metaclass=...) are not allowed.")
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self._check_def(node, node.arg)
        self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg is not None:
            self._check_keyword(node, node.arg, node.value)
        elif isinstance(node.value, ast.Dict):
            # `**{'allow_pickle': True}` spelled out: judge it like a keyword
            # here; computed keys are judged at run time (`guard`, `_Rewriter`).
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    self._check_keyword(node, key.value, value)
        self.generic_visit(node)

    def _check_keyword(self, node: ast.AST, name: str, value: ast.expr) -> None:
        self._check_identifier(node, name, "keyword")
        if name == "allow_pickle" and not (
            isinstance(value, ast.Constant) and value.value is False
        ):
            self._fail(
                node,
                "pickle",
                "allow_pickle must stay False; save data as CSV or plain .npy arrays.",
            )

    def visit_Global(self, node: ast.Global) -> None:
        for name in node.names:
            self._check_def(node, name)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        for name in node.names:
            self._check_def(node, name)

    def visit_alias(self, node: ast.alias) -> None:  # handled by the import visitors
        return

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        if isinstance(value, str) and "__" in value:
            self._fail(
                node, "dunder-string", "String constants must not contain '__' (double underscore)."
            )

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # f-string parts are Constants and FormattedValues, both visited below;
        # a nested format spec can itself be an f-string (also visited).
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self._check_def(node, node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self._check_def(node, node.name)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for attr in node.kwd_attrs:
            self._check_attribute_name(node, attr)
        self.generic_visit(node)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self._check_def(node, node.rest)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self._check_def(node, node.name)
        self.generic_visit(node)


def check_tree(tree: ast.AST) -> None:
    """Raise PolicyError for the first rule the tree breaks."""
    _Checker().visit(tree)


def _helper_call(helper: str, node: ast.AST, *args: ast.expr) -> ast.Call:
    call = ast.Call(func=ast.Name(id=helper, ctx=ast.Load()), args=list(args), keywords=[])
    return ast.copy_location(call, node)


class _Rewriter(ast.NodeTransformer):
    """Route what a static check cannot judge through run-time checks.

    Types are unknown to a tree walk: `re.enum.bltns` is `builtins`, and
    `fractions.operator.attrgetter` turns any string into an attribute access.
    So every attribute *read* becomes `__lw_attr__(obj, 'name')`, every name
    bound by `from ... import` is passed through `__lw_value__`, and every
    `**mapping` through `__lw_kwargs__` (`guard.runtime_helpers` implements
    them: no module outside the allowed imports, no forbidden built-in, no
    value of a dangerous module, no pickles). Stores and deletes keep their
    form; match patterns must stay dotted names, and a pattern only compares.
    """

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return node
        return _helper_call(ATTR_HELPER, node, node.value, ast.Constant(node.attr))

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        for kw in node.keywords:
            if kw.arg is None:
                kw.value = _helper_call(KWARGS_HELPER, kw, kw.value)
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> list[ast.stmt]:
        out: list[ast.stmt] = [node]
        for alias in node.names:
            bound = alias.asname or alias.name
            check = ast.Assign(
                targets=[ast.Name(id=bound, ctx=ast.Store())],
                value=_helper_call(
                    VALUE_HELPER,
                    node,
                    ast.Name(id=bound, ctx=ast.Load()),
                    ast.Constant(f"'from {node.module} import {alias.name}'"),
                ),
            )
            out.append(ast.copy_location(check, node))
        return out

    def visit_match_case(self, node: ast.match_case) -> ast.match_case:
        if node.guard is not None:
            node.guard = self.visit(node.guard)
        node.body = [s for stmt in node.body for s in _as_list(self.visit(stmt))]
        return node


def _as_list(result: ast.AST | list[ast.stmt]) -> list[ast.stmt]:
    return result if isinstance(result, list) else [result]  # type: ignore[list-item]


def check_and_compile(source: bytes | str, filename: str = "<figure>") -> CodeType:
    """Decode, parse, check and compile the checked tree; raise PolicyError.

    The code object calls the run-time checks of `guard.runtime_helpers()`,
    which must be in the globals it runs with.
    """
    text = decode_source(source)
    try:
        tree = ast.parse(text, filename=filename, mode="exec")
    except SyntaxError as exc:
        raise PolicyError("syntax", f"The code does not parse: {exc.msg}.", exc.lineno) from None
    check_tree(tree)
    tree = ast.fix_missing_locations(_Rewriter().visit(tree))
    return compile(tree, filename, "exec", dont_inherit=True)


def compile_unchecked(source: bytes | str, filename: str = "<figure>") -> CodeType:
    """Compile without the policy (our own trusted code, and tests of Layer 2 alone).

    Bytes are decoded as UTF-8 by us, so a coding cookie in them is inert.
    """
    text = source.decode("utf-8") if isinstance(source, bytes) else source
    return compile(text, filename, "exec", dont_inherit=True)
