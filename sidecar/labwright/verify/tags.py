"""The number tag: how a traced number is written in the TeX, read back, and gated.

Every number the offline writer prints through its ledger is emitted as
`\\lwnum{ID}{printed}`, ID being the ledger entry's stable id. The class
(knowledge/templates/labwright-report.cls) typesets it as the number itself
inside a link whose destination is named `lwnum.ID`, so the PDF carries
which printed number is which traced value (the window's popover and the
appendix both key on the id). A number is linked because the writer emitted
it, never because its digits equal some recorded string.

Model-written text reaches a version only through `gate`: a tag survives
only when its id is known and its printed text is the recorded one, or a
re-rounding of the recorded value (re-traced); anything else loses its tag
and is an untraced number. So a model cannot make an invented number look
traced by writing the macro.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

MACRO = "\\lwnum"
#: PDF destination names are this prefix plus the id (the window's contract).
DEST_PREFIX = "lwnum."
#: Ids are short lowercase hex (a hash of the entry), with a -N suffix on a clash.
ID_PATTERN = r"[0-9a-f]{4,16}(?:-[0-9]{1,4})?"
_HEAD = re.compile(r"\\lwnum\s*\{\s*(" + ID_PATTERN + r")\s*\}\s*\{")
#: Any two-argument use, whatever its first argument (what a model may write).
_LOOSE = re.compile(r"\\lwnum\s*\{([^{}]*)\}\s*\{")
_ID = re.compile(r"^" + ID_PATTERN + r"$")
_ANY_HEAD = re.compile(r"\\lwnum(?![A-Za-z@])")
_SCI = re.compile(r"^(-?\d+(?:\.\d+)?)\\times10\^\{(-?\d+)\}$")
_PLAIN = re.compile(r"^-?\d+(?:\.\d+)?$")

Status = Literal["traced", "retraced", "not_traced"]


@dataclass(frozen=True)
class Tag:
    """One `\\lwnum{id}{printed}` in a text: its span and its two arguments."""

    start: int
    end: int
    id: str
    printed: str


@dataclass(frozen=True)
class Known:
    """What the record says of one id: the text printed and the value behind it."""

    id: str
    printed: str
    value: float


def tag(entry_id: str, printed: str) -> str:
    return f"{MACRO}{{{entry_id}}}{{{printed}}}"


def _group_end(text: str, open_at: int) -> int | None:
    """Index just past the balanced group whose `{` is at `open_at`, or None."""
    depth = 0
    i = open_at
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def find_tags(text: str, *, loose: bool = False) -> list[Tag]:
    """Every well-formed tag, in order. `loose` also returns two-argument
    uses whose first argument is not an id (their `id` is that argument)."""
    out: list[Tag] = []
    pos = 0
    head = _LOOSE if loose else _HEAD
    while True:
        m = head.search(text, pos)
        if m is None:
            return out
        end = _group_end(text, m.end() - 1)
        if end is None:
            pos = m.end()
            continue
        out.append(Tag(m.start(), end, m.group(1).strip(), text[m.end() : end - 1].strip()))
        pos = end


def has_tags(text: str) -> bool:
    return _HEAD.search(text) is not None


def _replace(text: str, tags: Iterable[Tag], render: Any) -> str:
    parts: list[str] = []
    last = 0
    for t in tags:
        parts.append(text[last : t.start])
        parts.append(render(t))
        last = t.end
    parts.append(text[last:])
    return "".join(parts)


def untag(text: str) -> str:
    """The text as a reader sees it: every tag replaced by its printed number,
    and any stray `\\lwnum` that is not a well-formed tag removed."""
    plain = _replace(text, find_tags(text, loose=True), lambda t: t.printed)
    return _ANY_HEAD.sub("", plain)


# --- values and precision ---------------------------------------------------------


def parse_printed(printed: str) -> tuple[float, float] | None:
    """(value, half a unit in the last printed place) of a printed number, or
    None when it is not one (`\\text{n/a}`)."""
    text = printed.replace(" ", "").replace("{}", "")
    m = _SCI.match(text)
    if m is not None:
        mantissa, exponent = m.group(1), int(m.group(2))
        decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
        return float(mantissa) * 10.0**exponent, 0.5 * 10.0 ** (exponent - decimals)
    if _PLAIN.match(text):
        decimals = len(text.split(".", 1)[1]) if "." in text else 0
        return float(text), 0.5 * 10.0 ** (-decimals)
    return None


def consistent(value: float, printed: str) -> bool:
    """Whether `printed` is `value` rounded to the places it shows."""
    parsed = parse_printed(printed)
    if parsed is None or not math.isfinite(value):
        return False
    shown, half = parsed
    return abs(value - shown) <= half * (1 + 1e-9) + 1e-300


def status_of(t: Tag, known: Mapping[str, Known]) -> Status:
    entry = known.get(t.id) if _ID.match(t.id) else None
    if entry is None:
        return "not_traced"
    if t.printed == entry.printed:
        return "traced"
    return "retraced" if consistent(entry.value, t.printed) else "not_traced"


def known_from_record(record: Mapping[str, Any] | None) -> dict[str, Known]:
    """The ids of a provenance record (provenance.json's `numbers`)."""
    out: dict[str, Known] = {}
    for item in (record or {}).get("numbers", []):
        if not isinstance(item, dict):
            continue
        entry_id, printed = item.get("id"), item.get("printed")
        if not (isinstance(entry_id, str) and isinstance(printed, str)):
            continue
        try:
            value = float(item.get("value", "nan"))
        except (TypeError, ValueError):
            value = math.nan
        out.setdefault(entry_id, Known(entry_id, printed, value))
    return out


def known_from_text(text: str) -> dict[str, Known]:
    """The tags a gated text carries, as known numbers (values unknown)."""
    out: dict[str, Known] = {}
    for t in find_tags(text):
        out.setdefault(t.id, Known(t.id, t.printed, math.nan))
    return out


# --- the gate for model text --------------------------------------------------------


@dataclass
class Gated:
    text: str
    kept: list[str] = field(default_factory=list)
    retraced: list[str] = field(default_factory=list)
    untagged: list[str] = field(default_factory=list)  # printed texts that lost their tag
    retagged: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        """One sentence each for what lost its tag and what was re-traced."""
        from labwright.messages import say_count

        out: list[str] = []
        if self.untagged:
            shown = ", ".join(self.untagged[:8]) + (", …" if len(self.untagged) > 8 else "")
            out.append(say_count("tags.untagged", len(self.untagged), numbers=shown))
        if self.retraced:
            out.append(say_count("tags.retraced", len(self.retraced)))
        return out


#: A bare number as the ledger prints it (the same rule as the provenance check).
_BARE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:\\times10\^\{-?\d+\})?(?![\w.])")


def _retag_dropped(text: str, dropped: list[Tag], gated: Gated) -> str:
    """Tags of the replaced text the fragment lost, put back on a bare number
    of exactly their printed text, each at most once, in order. Only the
    replaced region's own tags are candidates: a fragment's number is never
    matched against the rest of the document."""
    if not dropped:
        return text
    pending = list(dropped)
    tags = find_tags(text)
    parts: list[str] = []
    last = 0
    for m in _BARE.finditer(text):
        if any(t.start <= m.start() < t.end for t in tags):
            continue
        hit = next((t for t in pending if t.printed == m.group(0)), None)
        if hit is None:
            continue
        pending.remove(hit)
        parts.append(text[last : m.start()])
        parts.append(tag(hit.id, hit.printed))
        gated.retagged.append(hit.printed)
        last = m.end()
    parts.append(text[last:])
    return "".join(parts)


def gate(text: str, known: Mapping[str, Known], *, replaced: str = "") -> Gated:
    """Keep the tags of `text` that are true traces; untag the rest.

    `known` holds the numbers a tag may name (the record's, or the base
    document's own tags). `replaced` is the text this fragment replaces:
    its tags the fragment dropped but whose exact number it still prints
    are put back. Stray `\\lwnum` heads are removed."""
    gated = Gated(text="")

    def render(t: Tag) -> str:
        state = status_of(t, known)
        if state == "traced":
            gated.kept.append(t.printed)
            return tag(t.id, t.printed)
        if state == "retraced":
            gated.retraced.append(t.printed)
            return tag(t.id, t.printed)
        gated.untagged.append(untag(t.printed))
        return untag(t.printed)

    out = _replace(text, find_tags(text, loose=True), render)
    # Outside the tags just checked, the name may not occur at all: a
    # `\csname lwnum\endcsname` or a `\let` alias would typeset a link the
    # source check cannot see.
    out = _ANY_HEAD.sub("", _protect_heads(out)).replace("lwnum", "lw-num")
    out = _restore_heads(out)
    if replaced:
        present = {t.id for t in find_tags(out)}
        dropped = [t for t in find_tags(replaced) if t.id not in present and t.id in known]
        out = _retag_dropped(out, dropped, gated)
    gated.text = out
    return gated


_GUARD = "\ue000"
_PRIVATE = 0xF0000  # supplementary private use area A


def _protect_heads(text: str) -> str:
    return _HEAD.sub(lambda m: m.group(0).replace("\\lwnum", _GUARD, 1), text)


def _restore_heads(text: str) -> str:
    return text.replace(_GUARD, "\\lwnum")


def hide_ids(text: str) -> tuple[str, Callable[[str], str]]:
    """`text` with every tag's `\\lwnum{ID}` hidden, and the function that
    puts them back: a text replacement made in between (a unit in a table)
    cannot reach into an id."""
    heads: list[str] = []

    # One private-use character per head: no digit or letter a replacement
    # could match.
    def hide(m: re.Match[str]) -> str:
        heads.append(m.group(0))
        return chr(_PRIVATE + len(heads) - 1)

    def restore(edited: str) -> str:
        return re.sub(
            f"[{chr(_PRIVATE)}-{chr(_PRIVATE + 0xFFFD)}]",
            lambda m: heads[ord(m.group(0)) - _PRIVATE],
            edited,
        )

    return _HEAD.sub(hide, text), restore


def iter_ids(text: str) -> Iterator[str]:
    for t in find_tags(text):
        yield t.id
