"""A law written over symbols the notes introduce as the quantities it relates.

"Kleiber's law says that metabolic rate scales with body mass as B = a M^b"
over the columns `BodySize (g)`, `CO2 (ppm)` and `Mrate` ("Mrate, the
metabolic rate"): the sentence says which quantity each of the law's two
variables is, the response first ("metabolic rate" is B) and the variable it
depends on second ("body mass" is M). The written symbols name no column, so
the law bound nothing and the power law the notes asked for was not fitted.

A scientist reads the binding from those words matched against the columns'
names and what the notes say of them: the column that shares the most
content words with each phrase, when exactly one does (a CamelCase name is
its words: "BodySize" is body and size). The column is then named by the
written symbol (`FolderColumn.notes_symbol`) with the reason, and the law
binds as if the column were headed so. Only a relation with one response
and one variable, written in the same clause right after the phrase ("as",
"like", "according to", ":"; "满足", "符合", "遵循", "为"), is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from labwright.analysis.request_rules.columns import FolderColumn
from labwright.analysis.request_rules.symbol_columns import column_words, content_words
from labwright.analysis.request_rules.text import Clause
from labwright.ingest.types import Dataset

_WORD = r"[A-Za-z][\w'-]*"
# "metabolic rate scales with body mass as": up to four words on each side.
_EN = re.compile(
    rf"(?P<y>(?:{_WORD}\s+){{0,3}}{_WORD})\s+"
    r"(?:scales?|varies|vary|grows?|increases?|decreases?|changes?|depends?|falls?|rises?)\s+"
    r"(?:with|on|as\s+a\s+function\s+of|against)\s+"
    rf"(?P<x>(?:{_WORD}\s+){{0,3}}?{_WORD})\s*,?\s*"
    r"(?:as|like|according\s+to|following|via|by|:)\s*$",
    re.I,
)
# "电阻随温度的变化满足": the quantity, 随, the variable.
_ZH = re.compile(
    r"(?P<y>[\u4e00-\u9fff]{1,8})随(?:着)?(?P<x>[\u4e00-\u9fff]{1,8}?)的?"
    r"(?:变化|升高|增大|增加|减小|降低)?(?:而变化)?(?:关系)?"
    r"(?:满足|符合|遵循|服从|为|是)[:：]?\s*$"
)


@dataclass(frozen=True)
class Relation:
    """The notes' words for a written law's response and its one variable."""

    response_words: str
    variable_words: str


def relation_before(clause: Clause, quote: str) -> Relation | None:
    """The "Y scales with X as" words right before the written formula."""
    at = clause.text.find(quote)
    if at < 0:
        return None
    before = clause.text[:at]
    m = _EN.search(before) or _ZH.search(before)
    if m is None:
        return None
    return Relation(_phrase(m.group("y")), _phrase(m.group("x")))


#: Words a phrase starts after: "says that metabolic rate" is the metabolic rate.
_LEAD_INS = frozenset("that which the a an its their how whether says say shows show".split())


def _phrase(words: str) -> str:
    parts = words.split()
    cut = max((i + 1 for i, w in enumerate(parts) if w.lower() in _LEAD_INS), default=0)
    return " ".join(parts[cut:]) or words


def _best(words: set[str], columns: Sequence[FolderColumn]) -> FolderColumn | None:
    """The one column sharing the most content words, or None on a tie or none."""
    hits = sorted(((len(words & column_words(c)), c) for c in columns), key=lambda t: -t[0])
    if not hits or hits[0][0] == 0 or (len(hits) > 1 and hits[1][0] == hits[0][0]):
        return None
    return hits[0][1]


@dataclass(frozen=True)
class Named:
    """A column the notes' words give a written symbol."""

    table: str
    column: str
    symbol: str
    reason: str


def name_columns(
    relation: Relation,
    response: str,
    variable: str,
    tables: Sequence[tuple[Dataset, list[FolderColumn]]],
) -> list[Named]:
    """The response's and the variable's columns in the one table where the
    relation's words name both (distinct columns), or nothing."""
    y_words, x_words = (
        content_words(relation.response_words),
        content_words(relation.variable_words),
    )
    found: list[list[Named]] = []
    for ds, cols in tables:
        measured = [c for c in cols if c.numeric and c.role == "measurement"]
        y = _best(y_words, measured)
        x = _best(x_words, [c for c in measured if c is not y]) if y is not None else None
        if y is None or x is None:
            continue
        found.append(
            [
                Named(ds.name, y.name, response, _why(response, relation.response_words, y)),
                Named(ds.name, x.name, variable, _why(variable, relation.variable_words, x)),
            ]
        )
    return found[0] if len(found) == 1 else []


def _why(symbol: str, words: str, col: FolderColumn) -> str:
    return f"the notes write {symbol} for the {words}, and the column {col.name!r} shares its words"


def with_named(
    tables: Sequence[tuple[Dataset, list[FolderColumn]]], named: Sequence[Named]
) -> list[tuple[Dataset, list[FolderColumn]]]:
    """The tables with each named column carrying its symbol and reason."""
    by_column = {(n.table, n.column): n for n in named}
    out: list[tuple[Dataset, list[FolderColumn]]] = []
    for ds, cols in tables:
        out.append(
            (
                ds,
                [
                    replace(c, notes_symbol=n.symbol, notes_symbol_reason=n.reason)
                    if (n := by_column.get((ds.name, c.name))) is not None
                    else c
                    for c in cols
                ],
            )
        )
    return out
