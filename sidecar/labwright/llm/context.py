"""Context economy: history folding, a stable material digest, revision-only trimming.

All three are deterministic and cost zero tokens. Measured in the seed system:
re-sending whole documents and raw material made a "fix the keywords" request
cost 6-7k input tokens and a whole-document revision 40-70k; these rules
brought them to ~1.5k and 8-15k (benchmarks/prompt_tokens.py measures ours).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from labwright.llm.model import Message

HISTORY_MAX_CHARS = 4000
HISTORY_KEEP_LAST = 40
DOC_PLACEHOLDER = (
    "[earlier version of the document omitted; the current document is given separately]"
)

DIGEST_BUDGET = 48_000  # characters for the whole digest (~12k tokens)
DIGEST_MIN_SHARE = 600  # every file gets at least this many characters
DIGEST_NUMERIC_ROWS = 5  # leading rows of a numeric block that stay visible

TRIM_THRESHOLD = 12_000  # revision trimming starts above this many characters
TRIM_CAP = 12_000
_TRIM_FLOOR_LINES = 2
_TRIM_FLOOR_CHARS = 40


# -- history ------------------------------------------------------------------


def _is_document(content: str) -> bool:
    return "\\documentclass" in content or "\\begin{document}" in content


def fold_history(
    messages: Sequence[Message],
    *,
    max_chars: int = HISTORY_MAX_CHARS,
    keep_last: int = HISTORY_KEEP_LAST,
) -> list[Message]:
    """Fold a conversation for re-sending.

    Assistant messages holding a whole document become a one-line placeholder
    (the current document travels separately); other long messages are cut at
    `max_chars`; only the last `keep_last` messages stay. Short assistant notes
    ("the data is in xrd/") are kept: later turns need those facts.
    """
    tail = [m.copy() for m in messages[-keep_last:] if m.get("role") != "system"]
    # A tool result whose assistant tool call was cut off would be rejected by the API.
    while tail and tail[0].get("role") == "tool":
        tail.pop(0)
    for msg in tail:
        content = msg.get("content")
        if not isinstance(content, str):
            continue
        if msg.get("role") == "assistant" and _is_document(content):
            msg["content"] = DOC_PLACEHOLDER
        elif len(content) > max_chars:
            msg["content"] = content[:max_chars] + " [...truncated]"
    return tail


# -- material digest ------------------------------------------------------------

_NUMERIC_ROW = re.compile(r"^[\s\d.,;:+\-eE/%|()\[\]]*\d[\s\d.,;:+\-eE/%|()\[\]]*$")


def is_numeric_row(line: str) -> bool:
    """A bare data row: numbers and separators only, no word to read."""
    return bool(_NUMERIC_ROW.match(line)) and not re.search(r"[A-DF-Za-df-z]", line)


def _compress_numeric_runs(text: str, keep: int) -> str:
    out: list[str] = []
    run = omitted = 0
    for line in text.splitlines():
        if is_numeric_row(line):
            run += 1
            if run <= keep:
                out.append(line)
            else:
                omitted += 1
            continue
        if omitted:
            out.append(f"[... {omitted} more numeric rows]")
        run = omitted = 0
        out.append(line)
    if omitted:
        out.append(f"[... {omitted} more numeric rows]")
    return "\n".join(out)


def _quotas(lengths: Sequence[int], budget: int, min_share: int) -> list[int]:
    """Water-filling: small files take what they need, the rest is shared evenly,
    and no file gets less than `min_share` (the guarantee wins over the budget)."""
    quotas = [0] * len(lengths)
    remaining = budget
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    for position, i in enumerate(order):
        fair = remaining // (len(order) - position) if remaining > 0 else 0
        quotas[i] = min(lengths[i], max(fair, min_share))
        remaining -= quotas[i]
    return quotas


def _cut(text: str, limit: int, floor: int) -> str:
    """Head of `text` within `limit`, ending at a line break unless that would
    leave less than `floor` characters (the guaranteed share)."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    newline = head.rfind("\n")
    if newline >= max(floor, limit // 2):
        head = head[:newline]
    return f"{head}\n[... {len(text) - len(head)} more characters of this file]"


def material_digest(
    files: Mapping[str, str] | Iterable[tuple[str, str]],
    *,
    budget: int = DIGEST_BUDGET,
    min_share: int = DIGEST_MIN_SHARE,
    numeric_rows: int = DIGEST_NUMERIC_ROWS,
) -> str:
    """A per-file digest of the session's material.

    Depends only on the files (sorted by name), never on the turn, so it is
    byte-identical across turns and can be a cacheable first-message prefix.
    Long runs of bare numeric rows keep their first rows and a count: the
    figure step has digested the raw data, and prose needs none of the rows.
    Every file gets at least `min_share` characters so a large early file
    cannot starve later ones.
    """
    items = sorted(dict(files).items())
    if not items:
        return ""
    bodies = [_compress_numeric_runs(text, numeric_rows) for _, text in items]
    quotas = _quotas([len(b) for b in bodies], budget, min_share)
    blocks = []
    for (name, raw), body, quota in zip(items, bodies, quotas, strict=True):
        blocks.append(
            f"## {name} ({len(raw)} characters)\n{_cut(body, quota, min(min_share, quota))}"
        )
    return "\n\n".join(blocks)


# -- revision trimming ------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{2,}")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_STOP = frozenset(
    "the and for with that this from into are was were make more less please should "
    "could would about report section document text change rewrite tone".split()
)


def _terms(request: str) -> set[str]:
    terms = {w.lower() for w in _WORD.findall(request)} - _STOP
    for run in _CJK_RUN.findall(request):
        terms.update(run[i : i + 2] for i in range(len(run) - 1))
    return terms


def _annotated(line: str) -> bool:
    """A data line with words around it ("measured 0.5 mm at the left clamp")."""
    return bool(re.search(r"\d", line)) and len(_WORD.findall(line)) >= 2


def trim_for_revision(
    material: str, request: str, *, threshold: int = TRIM_THRESHOLD, cap: int = TRIM_CAP
) -> str:
    """Keep the lines of `material` relevant to a revision request. Revision turns only.

    Never call this for a first draft: the material is then the only source
    of facts and must go in whole. Below `threshold` characters nothing is
    trimmed. Bare numeric rows are dropped; lines sharing a word with the
    request come first, then annotated data lines, then headings; the result
    keeps the original order and is at most `cap` characters. If fewer than
    two lines and 40 characters survive, the head of the material is returned
    instead: trimming must never leave the model with nothing.
    """
    if len(material) <= threshold:
        return material
    terms = _terms(request)
    lines = material.splitlines()
    scored: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        if not line.strip() or is_numeric_row(line):
            continue
        low = line.lower()
        if terms and any(t in low for t in terms):
            scored.append((0, i))
        elif _annotated(line):
            scored.append((1, i))
        elif line.startswith("#"):
            scored.append((2, i))
    keep: set[int] = set()
    size = 0
    for _, i in sorted(scored):
        cost = len(lines[i]) + 1
        if size + cost > cap:
            continue
        keep.add(i)
        size += cost
    out = "\n".join(lines[i] for i in sorted(keep))
    if len(keep) >= _TRIM_FLOOR_LINES or len(out) >= _TRIM_FLOOR_CHARS:
        return out
    return material[:cap]


# -- document outline -------------------------------------------------------------

_HEADING = re.compile(r"\\(title|section|subsection|keywords?|reportabstract)\*?\{([^{}]*)")


def document_outline(tex: str) -> str:
    """Title and headings of a LaTeX document, one per line: the context a
    metadata edit (keywords, title) needs instead of the material."""
    return "\n".join(f"{kind}: {text.strip()}" for kind, text in _HEADING.findall(tex))
