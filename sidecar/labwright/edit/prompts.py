"""The messages of each chat-edit call, as small as the edit allows.

Sizes are measured by benchmarks/prompt_tokens.py on a folder of ~120k
characters of material:

* a block edit (keywords, abstract, title): role boundary, the outline, the
  request and the block; no material, no format rules (target <= 1.0k tokens);
* a one-section edit: the scoped system prompt (no quality anchors), the
  outline, the section and the material trimmed to the request, placed in
  the last message so the first stays cacheable;
* a whole revision: the full system prompt, the report, the material trimmed
  to the request (a smaller cap than a draft's) and the folded history
  (target <= 8k tokens).
"""

from __future__ import annotations

from collections.abc import Sequence

from labwright.llm.context import trim_for_revision
from labwright.llm.knowledge import read_knowledge
from labwright.llm.model import Message, Messages
from labwright.llm.prompts import AssembledPrompt, Lang, build_messages, build_system

#: Material for a one-section edit: what is relevant to the request, at most this many characters.
SECTION_MATERIAL_CAP = 2_000
#: Material for a whole revision.
WHOLE_MATERIAL_CAP = 8_000


def _task(name: str) -> str:
    return read_knowledge(f"agent/{name}.md").strip()


def _role_only(lang: Lang) -> AssembledPrompt:
    return AssembledPrompt(read_knowledge(f"prompts/role_{lang}.md").strip(), ("role",))


def _material(digest: str, request: str, cap: int) -> str | None:
    if not digest:
        return None
    return trim_for_revision(digest, request, threshold=cap, cap=cap) or None


def section_messages(
    request: str,
    section: str,
    outline: str,
    *,
    digest: str = "",
    history: Sequence[Message] = (),
    lang: Lang = "en",
) -> Messages:
    body = (
        f"{_task('scoped_edit')}\n\n## Outline\n{outline}\n\n## Request\n{request}"
        f"\n\n## Section\n{section}"
    )
    system = build_system(lang=lang, scoped=True)
    focus = _material(digest, request, SECTION_MATERIAL_CAP)
    return build_messages(system, body, focus=focus, history=history, lang=lang)


def block_messages(request: str, block: str, outline: str, *, lang: Lang = "en") -> Messages:
    body = f"{_task('block_edit')}\n\n## Outline\n{outline}\n\n## Request\n{request}\n\n## Block\n{block}"
    return build_messages(_role_only(lang), body, lang=lang)


def bibliography_messages(request: str, block: str, *, lang: Lang = "en") -> Messages:
    body = f"{_task('bib_edit')}\n\n## Request\n{request}\n\n## Bibliography\n{block}"
    return build_messages(_role_only(lang), body, lang=lang)


def whole_messages(
    request: str,
    document: str,
    *,
    digest: str = "",
    history: Sequence[Message] = (),
    lang: Lang = "en",
) -> Messages:
    body = f"{_task('whole_revision')}\n\n## Changes\n- {request}\n\n## Report\n{document}"
    focus = _material(digest, request, WHOLE_MATERIAL_CAP)
    return build_messages(build_system(lang=lang), body, focus=focus, history=history, lang=lang)
