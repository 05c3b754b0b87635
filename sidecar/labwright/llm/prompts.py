"""Layered system prompts assembled from files under knowledge/prompts/.

Layers, in order (each a file, so wording is reviewed like code and can be
replaced through the overlay without a release):

1. role boundary      role_<lang>.md              always
2. genre spec         genre_<genre>_<lang>.md      always
3. quality anchors    methodology_<lang>.md +      full tier only
                      golden_sample_<lang>.tex wrapped in golden_label_<lang>.md
4. judgment layer     judgment_<lang>.md           only when distilled text is given
5. scoped instruction scoped_<lang>.md             scoped tier only
6. format rules       format_rules_<lang>.md       always

The anchors are injected independently of the judgment layer on purpose: the
seed system once let a "distilled template" path skip them, and generation
depth collapsed without any error. They are skipped only in the scoped tier,
where a one-section edit has no use for an essay about another experiment
(~2k tokens saved per call), or when a legacy judgment text already embeds
the golden sample (no double injection).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from labwright.llm.knowledge import read_knowledge
from labwright.llm.model import Message

Genre = Literal["lab_report", "course_notes"]
Lang = Literal["en", "zh"]
GENRES: tuple[Genre, ...] = ("lab_report", "course_notes")
LANGS: tuple[Lang, ...] = ("en", "zh")

PROMPTS_DIR = "prompts"
_SEPARATOR = "\n\n"
# Marker lines that identify an embedded golden sample in legacy judgment text.
_GOLDEN_MARKERS = ("GOLDEN SAMPLE", "金样例")


def _part(name: str) -> str:
    """One prompt file, overlay first (read on every call), trailing whitespace trimmed."""
    return read_knowledge(f"{PROMPTS_DIR}/{name}").strip()


@dataclass(frozen=True)
class AssembledPrompt:
    text: str
    layers: tuple[str, ...]  # which layers went in, in order (for logs and tests)

    @property
    def prompt_hash(self) -> str:
        return prompt_hash(self.text)

    def message(self) -> Message:
        return {"role": "system", "content": self.text}


def prompt_hash(content: str | Sequence[Message]) -> str:
    """Short stable hash of a prompt text or of a whole message list."""
    if not isinstance(content, str):
        content = json.dumps(list(content), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]


def golden_sample_block(lang: Lang = "en") -> str:
    """The golden sample, always inside its do-not-copy label."""
    label = _part(f"golden_label_{lang}.md")
    sample = _part(f"golden_sample_{lang}.tex")
    if "{sample}" not in label:  # an overlay label that forgot the slot must not drop the sample
        return f"{label}\n{sample}"
    return label.replace("{sample}", sample)


def quality_anchors(lang: Lang = "en") -> str:
    return _part(f"methodology_{lang}.md") + _SEPARATOR + golden_sample_block(lang)


def build_system(
    *,
    genre: Genre = "lab_report",
    lang: Lang = "en",
    scoped: bool = False,
    judgment: str | None = None,
) -> AssembledPrompt:
    """The system prompt for a call site.

    `scoped=True` is for edits of one block (a section, the abstract, the
    keywords): quality anchors are dropped, the scoped instruction is added.
    `judgment` is an optional distilled writing-judgment text.
    """
    if genre not in GENRES:
        raise ValueError(f"unknown genre {genre!r}")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    parts: list[tuple[str, str]] = [
        ("role", _part(f"role_{lang}.md")),
        ("genre", _part(f"genre_{genre}_{lang}.md")),
    ]
    judgment = (judgment or "").strip() or None
    if not scoped:
        embeds_sample = judgment is not None and any(m in judgment for m in _GOLDEN_MARKERS)
        if not embeds_sample:
            parts.append(("quality_anchors", quality_anchors(lang)))
    if judgment is not None:
        wrapper = _part(f"judgment_{lang}.md")
        text = (
            wrapper.replace("{judgment}", judgment)
            if "{judgment}" in wrapper
            else f"{wrapper}\n{judgment}"
        )
        parts.append(("judgment", text))
    if scoped:
        parts.append(("scoped", _part(f"scoped_{lang}.md")))
    parts.append(("format_rules", _part(f"format_rules_{lang}.md")))
    return AssembledPrompt(_SEPARATOR.join(text for _, text in parts), tuple(n for n, _ in parts))


MATERIAL_HEADING = {"en": "# Material of this session", "zh": "# 本次会话的材料"}
FOCUS_HEADING = {"en": "# Material relevant to this request", "zh": "# 与本次请求相关的材料"}


def build_messages(
    system: AssembledPrompt,
    request: str,
    *,
    material: str | None = None,
    focus: str | None = None,
    history: Sequence[Message] = (),
    lang: Lang = "en",
) -> list[Message]:
    """Stable first, variable last: system (+ material), folded history, then this turn.

    `material` goes into messages[0] after the system prompt: pass the
    material digest, which depends only on the material, so the whole first
    message is byte-identical across turns and providers with automatic
    prefix caching (DeepSeek) bill it at the cache-hit price. Anything that
    depends on this turn, such as material trimmed to the request, goes in
    `focus`: it is placed in the final user message, so it never breaks the
    cacheable prefix.
    """
    from labwright.llm.context import fold_history

    first = system.text
    if material:
        first = f"{first}{_SEPARATOR}{MATERIAL_HEADING[lang]}\n\n{material}"
    last = f"{FOCUS_HEADING[lang]}\n\n{focus}{_SEPARATOR}{request}" if focus else request
    return [
        {"role": "system", "content": first},
        *fold_history(history),
        {"role": "user", "content": last},
    ]
