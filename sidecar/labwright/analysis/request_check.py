"""The gate a request passes before anything is computed: every key,
variable, file, column, unit and number checked against the catalogue and
the folder; what fails is dropped with one sentence; then the model's
request merged with the one code read (code wins where code can answer).

A language model fills the request through a typed tool (`agent/
request_tool.py`). Its output changes nothing until it passes here:

- a model key must be in the catalogue; a formula must be read by the
  catalogue's safe reader; a quantity must be a parameter or derived
  quantity of its law (or of the written formula);
- a binding's file, sheet and column must exist, its variable must be the
  law's, its unit must be a unit and agree with the variable's dimension;
  a row index or a category is never bound, a set-point never as response;
- a constant must be an input or constant of a law of the request, or a
  symbol of the written formula; its number, like an expected value's and
  a run's, must be written in the notes or the file name (the model may not
  invent a measurement);
- an asked quantity's phrase must be in the notes.

Merging: what code read stays (its bindings, constants, file roles,
expected values, procedure); the model adds what code could not decide (a
law among candidates, a binding code found no evidence for, a role).
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from labwright.analysis.catalogue.expr import FormulaError
from labwright.analysis.catalogue.schema import ModelEntry
from labwright.analysis.catalogue.written import read_formula
from labwright.analysis.quantities import dimensionality
from labwright.analysis.request import (
    AnalysisRequest,
    AskedQuantity,
    Binding,
    ExpectedValue,
    FileRole,
    GivenConstant,
    NamedModel,
)
from labwright.analysis.request_rules.bindings import variable_dimension
from labwright.analysis.request_rules.columns import FolderColumn, folder_tables
from labwright.analysis.request_rules.formula import CUSTOM
from labwright.analysis.request_rules.text import Notes, normalise, read_notes
from labwright.ingest.types import ReadResult

_NEVER = frozenset({"index", "category", "constant", "empty"})
MAX_UNANSWERED = 12
MAX_TEXT = 300


@dataclass(frozen=True)
class Dropped:
    """An item of the model's request that failed the gate, and why."""

    what: str
    why: str


@dataclass
class Checked:
    request: AnalysisRequest
    dropped: list[Dropped] = field(default_factory=list)

    def feedback(self) -> str:
        """One line per dropped item, for the model's next turn."""
        if not self.dropped:
            return "The request was accepted as it is."
        lines = [f"- {d.what}: {d.why}" for d in self.dropped[:20]]
        return "These items were dropped:\n" + "\n".join(lines)


@dataclass
class _Folder:
    """What the gate checks against."""

    entries: dict[str, ModelEntry]
    columns: dict[tuple[str, str | None], dict[str, FolderColumn]]
    files: set[str]
    notes: Notes
    notes_text: str  # normalised, for finding phrases and numbers

    def table(self, file: str, sheet: str | None) -> dict[str, FolderColumn] | None:
        found = self.columns.get((file, sheet))
        if found is None and sheet is None:
            sheets = [cols for (f, _s), cols in self.columns.items() if f == file]
            if len(sheets) == 1:
                return sheets[0]
        return found


def _folder(catalogue: Iterable[ModelEntry], read: ReadResult) -> _Folder:
    notes = read_notes(read.documents)
    columns: dict[tuple[str, str | None], dict[str, FolderColumn]] = {}
    for ds, cols in folder_tables(read, notes):
        key = (ds.source, ds.provenance.sheet if ds.provenance else None)
        columns[key] = {c.name: c for c in cols}
    files = {ds.source for ds in read.datasets} | {d.source for d in read.documents}
    return _Folder({e.key: e for e in catalogue}, columns, files, notes, notes.text.lower())


def _in_notes(folder: _Folder, phrase: str) -> bool:
    p = " ".join(normalise(phrase).lower().split())
    text = " ".join(folder.notes_text.split())
    return bool(p) and (p in text or p.replace(" ", "") in text.replace(" ", ""))


_NUMBER = re.compile(r"[-+]?(?:\d+(?:[.,]\d+)?|[.]\d+)(?:[eE][-+]?\d+)?")


def _written(folder: _Folder, value: float, *extra: str) -> bool:
    """The number is written in the notes (or in one of `extra`, a file
    name), up to the digits the author wrote and a power of ten (a unit
    conversion: 12 g given as 0.012 kg)."""
    if not math.isfinite(value):
        return False
    texts = [folder.notes_text, *extra]
    for text in texts:
        for m in _NUMBER.finditer(text.replace("×10^", "e").replace("x10^", "e")):
            try:
                written = float(m.group(0).replace(",", "."))
            except ValueError:
                continue
            if written == 0:
                if value == 0:
                    return True
                continue
            ratio = abs(value / written)
            if ratio > 0 and abs(math.log10(ratio) - round(math.log10(ratio))) < 1e-9:
                if round(math.log10(ratio)) % 3 == 0 and abs(round(math.log10(ratio))) <= 9:
                    return True
    return False


def _quantities(entry: ModelEntry) -> set[str]:
    return set(entry.quantity_keys())


def _custom_names(models: Sequence[NamedModel]) -> set[str]:
    names: set[str] = set()
    for m in models:
        if m.key is None and m.formula:
            try:
                names |= set(read_formula(m.formula).names)
            except FormulaError:
                continue
    return names


def _check_models(
    req: AnalysisRequest, folder: _Folder, dropped: list[Dropped]
) -> list[NamedModel]:
    out: list[NamedModel] = []
    for m in req.models:
        if m.key is not None and m.key not in folder.entries:
            dropped.append(Dropped(f"model {m.key!r}", "no law of this key is in the catalogue"))
            continue
        if m.formula:
            try:
                text = read_formula(m.formula).text
            except FormulaError as exc:
                if m.key is None:
                    dropped.append(Dropped(f"formula {m.formula[:60]!r}", str(exc)))
                    continue
                m = m.model_copy(update={"formula": None})
            else:
                m = m.model_copy(update={"formula": text})
        if m.key is None and not m.formula:
            dropped.append(Dropped("a model", "it names neither a catalogue law nor a formula"))
            continue
        out.append(m)
    return out


def _check_asked(
    req: AnalysisRequest, folder: _Folder, models: Sequence[NamedModel], dropped: list[Dropped]
) -> list[AskedQuantity]:
    custom = _custom_names(models)
    out: list[AskedQuantity] = []
    for a in req.asked:
        what = f"asked quantity {a.quantity!r}"
        if a.model == CUSTOM:
            if a.quantity not in custom:
                dropped.append(Dropped(what, "it is not a symbol of the written formula"))
                continue
        elif a.model is not None:
            entry = folder.entries.get(a.model)
            if entry is None:
                dropped.append(Dropped(what, f"no law {a.model!r} is in the catalogue"))
                continue
            if a.quantity not in _quantities(entry):
                keys = ", ".join(sorted(_quantities(entry)))
                dropped.append(
                    Dropped(what, f"the {entry.name.en} law has no such quantity (it has {keys})")
                )
                continue
        else:
            holders = [k for k, e in folder.entries.items() if a.quantity in _quantities(e)]
            if not holders:
                dropped.append(Dropped(what, "no law of the catalogue has this quantity"))
                continue
            cands = tuple(k for k in a.candidates if k in holders) or tuple(holders)
            a = a.model_copy(update={"candidates": cands})
        if not _in_notes(folder, a.evidence.phrase):
            dropped.append(Dropped(what, f"the notes do not say {a.evidence.phrase[:60]!r}"))
            continue
        out.append(a)
    return out


def _check_bindings(
    req: AnalysisRequest, folder: _Folder, models: Sequence[NamedModel], dropped: list[Dropped]
) -> list[Binding]:
    custom = _custom_names(models)
    out: list[Binding] = []
    for b in req.bindings:
        what = f"binding of {b.variable!r} ({b.model}) to {b.file}: {b.column}"
        if b.model == CUSTOM:
            if b.variable not in custom:
                dropped.append(Dropped(what, "the written formula has no such symbol"))
                continue
            entry, variable = None, None
        else:
            entry = folder.entries.get(b.model)
            if entry is None:
                dropped.append(Dropped(what, f"no law {b.model!r} is in the catalogue"))
                continue
            variable = next((v for v in entry.variables if v.name == b.variable), None)
            if variable is None:
                names = ", ".join(v.name for v in entry.variables)
                dropped.append(
                    Dropped(what, f"the {entry.name.en} law has no variable of this name ({names})")
                )
                continue
        if b.source == "file_names":
            if not any(fnmatch.fnmatch(f, b.file) for f in folder.files):
                dropped.append(Dropped(what, "no file of the folder has this name"))
                continue
            out.append(b)
            continue
        if b.source == "per_run":
            model, _, quantity = b.column.partition(".")
            entry = folder.entries.get(model)
            if entry is None or quantity not in _quantities(entry):
                dropped.append(Dropped(what, "it names no quantity of a catalogue law"))
                continue
            out.append(b)
            continue
        table = folder.table(b.file, b.sheet)
        if table is None:
            dropped.append(Dropped(what, "the folder has no such table"))
            continue
        col = table.get(b.column)
        if col is None:
            dropped.append(
                Dropped(what, f"{b.file} has no column {b.column!r} (it has {', '.join(table)})")
            )
            continue
        if not col.numeric or col.role in _NEVER:
            dropped.append(
                Dropped(what, f"the column is a {col.role} ({col.role_reason}), not a measurement")
            )
            continue
        if (
            variable is not None
            and variable.role == "response"
            and col.set_point
            and (entry is None or entry.inverse is None)
        ):
            dropped.append(Dropped(what, f"a set-point is never the response ({col.set_point})"))
            continue
        unit = b.unit
        if col.unit and col.unit_from == "the header":
            unit = col.unit  # what the header says wins
        elif unit is not None and dimensionality(unit) is None:
            dropped.append(Dropped(f"unit {unit!r} of {b.column}", "not a unit"))
            unit = col.unit
        want = variable_dimension(variable) if variable is not None else None
        got = dimensionality(unit) if unit else None
        if want and got and want != got:
            dropped.append(
                Dropped(what, f"its unit ({unit}) is not a {variable.label.en if variable else ''}")
            )
            continue
        sheet = b.sheet if b.sheet is not None else col.sheet
        out.append(b.model_copy(update={"unit": unit, "sheet": sheet}))
    return out


def _check_constants(
    req: AnalysisRequest, folder: _Folder, models: Sequence[NamedModel], dropped: list[Dropped]
) -> list[GivenConstant]:
    symbols = _custom_names(models)
    for m in models:
        entry = folder.entries.get(m.key or "")
        if entry is not None:
            symbols |= {i.name for i in entry.inputs} | {c.name for c in entry.constants}
    out: list[GivenConstant] = []
    for c in req.constants:
        what = f"constant {c.symbol} = {c.value:g}"
        if c.symbol not in symbols:
            dropped.append(Dropped(what, "it is no input or constant of the laws of the request"))
            continue
        if not _written(folder, c.value):
            dropped.append(Dropped(what, "the notes do not give this value"))
            continue
        if c.unit is not None and dimensionality(c.unit) is None:
            dropped.append(Dropped(what, f"{c.unit!r} is not a unit"))
            continue
        out.append(c)
    return out


def _check_files(req: AnalysisRequest, folder: _Folder, dropped: list[Dropped]) -> list[FileRole]:
    out: list[FileRole] = []
    for f in req.files:
        what = f"role of {f.file}"
        if f.file not in folder.files:
            dropped.append(Dropped(what, "no such file in the folder"))
            continue
        if f.value is not None and not _written(folder, f.value, f.file):
            dropped.append(Dropped(what, "its value is neither in the file name nor in the notes"))
            continue
        if f.unit is not None and dimensionality(f.unit) is None:
            f = f.model_copy(update={"unit": None})
        out.append(f)
    return out


def _check_expected(
    req: AnalysisRequest, folder: _Folder, models: Sequence[NamedModel], dropped: list[Dropped]
) -> list[ExpectedValue]:
    custom = _custom_names(models)
    out: list[ExpectedValue] = []
    for e in req.expected:
        what = f"expected {e.quantity} = {e.value:g}"
        known = (
            (e.model == CUSTOM and e.quantity in custom)
            or (e.model in folder.entries and e.quantity in _quantities(folder.entries[e.model]))
            or (
                e.model is None
                and any(e.quantity in _quantities(x) for x in folder.entries.values())
            )
        )
        if not known:
            dropped.append(Dropped(what, "no law of the request has this quantity"))
            continue
        if not _written(folder, e.value):
            dropped.append(Dropped(what, "the notes do not give this value"))
            continue
        out.append(e)
    return out


def validate_request(
    request: AnalysisRequest, catalogue: Iterable[ModelEntry], read: ReadResult
) -> Checked:
    """The request with every item that fails the catalogue or the folder
    dropped, each with the reason."""
    folder = _folder(catalogue, read)
    dropped: list[Dropped] = []
    models = _check_models(request, folder, dropped)
    checked = AnalysisRequest(
        asked=tuple(_check_asked(request, folder, models, dropped)),
        models=tuple(models),
        procedure=request.procedure,
        bindings=tuple(_check_bindings(request, folder, models, dropped)),
        constants=tuple(_check_constants(request, folder, models, dropped)),
        files=tuple(_check_files(request, folder, dropped)),
        expected=tuple(_check_expected(request, folder, models, dropped)),
        replicates=request.replicates,
        unanswered=tuple(
            u.model_copy(update={"what": u.what[:MAX_TEXT], "why": u.why[:MAX_TEXT]})
            for u in request.unanswered[:MAX_UNANSWERED]
        ),
    )
    return Checked(checked, dropped)


def merge_requests(code: AnalysisRequest, model: AnalysisRequest) -> AnalysisRequest:
    """The rules' request completed by the model's (already validated): code
    wins on every item it answered; the model adds the rest."""
    asked = list(code.asked)
    decided = {(a.model, a.quantity) for a in asked}
    open_ = {a.quantity: i for i, a in enumerate(asked) if a.model is None}
    for a in model.asked:
        if (a.model, a.quantity) in decided:
            continue
        i = open_.get(a.quantity)
        if i is not None and a.model in asked[i].candidates:
            asked[i] = a  # the model chose among the laws code could not tell apart
            continue
        if a.model is None and any(x.quantity == a.quantity for x in asked):
            continue
        asked.append(a)
        decided.add((a.model, a.quantity))
    models = list(code.models)
    for m in model.models:
        same = (x for x in models if (x.key == m.key if m.key else x.formula == m.formula))
        if next(same, None) is None:
            models.append(m)
    bindings = list(code.bindings)
    bound = {(b.model, b.variable, b.file, b.sheet) for b in bindings}
    bound_models = {(b.model, b.file, b.sheet) for b in bindings}
    for b in model.bindings:
        # A law code bound in a table keeps code's columns there.
        if (b.model, b.variable, b.file, b.sheet) in bound or (
            b.model,
            b.file,
            b.sheet,
        ) in bound_models:
            continue
        bindings.append(b)
    constants = list(code.constants)
    for c in model.constants:
        if all(x.symbol != c.symbol for x in constants):
            constants.append(c)
    files = list(code.files)
    for f in model.files:
        if all((x.file, x.sheet) != (f.file, f.sheet) for x in files):
            files.append(f)
    expected = list(code.expected)
    for e in model.expected:
        if all((x.model, x.quantity) != (e.model, e.quantity) for x in expected):
            expected.append(e)
    now_bound = {(b.model, b.variable) for b in bindings}
    unanswered = [
        u for u in code.unanswered if (u.model, u.variable) not in now_bound or u.variable is None
    ]
    for u in model.unanswered:
        if all(x.what != u.what for x in unanswered):
            unanswered.append(u)
    return AnalysisRequest(
        asked=tuple(asked),
        models=tuple(models),
        procedure=code.procedure or model.procedure,
        bindings=tuple(bindings),
        constants=tuple(constants),
        files=tuple(files),
        expected=tuple(expected),
        replicates=code.replicates or model.replicates,
        unanswered=tuple(unanswered),
    )
