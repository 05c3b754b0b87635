"""The agent's messages, built from layered system prompts and task files.

System layers come from labwright.llm.prompts (role, genre, quality anchors,
format rules; the scoped tier drops the anchors). The task instructions are
files under knowledge/agent/, read through the overlay, so their wording is
reviewed like code and replaceable without a release. The material digest is
the first message's cacheable prefix; revision turns trim it to what is
relevant to the request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from labwright.agent.edit_plan import EditItem
from labwright.llm.context import material_digest, trim_for_revision
from labwright.llm.knowledge import read_knowledge
from labwright.llm.model import JsonObject, Messages
from labwright.llm.prompts import (
    GENRES,
    LANGS,
    AssembledPrompt,
    Genre,
    Lang,
    build_messages,
    build_system,
)

LANGUAGE_NAMES = {"en": "English", "zh": "Chinese (简体中文)"}


def task(name: str, **values: str) -> str:
    text = read_knowledge(f"agent/{name}.md")
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


@dataclass
class AgentPrompts:
    lang: Lang
    genre: Genre
    digest: str

    @classmethod
    def for_material(
        cls, files: dict[str, str], lang: str, genre: str = "lab_report"
    ) -> AgentPrompts:
        if lang not in LANGS or genre not in GENRES:
            raise ValueError(f"no prompts for language {lang!r} and genre {genre!r}")
        return cls(lang=lang, genre=genre, digest=material_digest(files))

    def _full(self, request: str, material: str | None = None) -> Messages:
        system = build_system(genre=self.genre, lang=self.lang)
        return build_messages(
            system,
            request,
            material=material if material is not None else self.digest,
            lang=self.lang,
        )

    def _scoped(self, request: str, focus: str) -> Messages:
        """One-block edits: no quality anchors, and only the material relevant
        to the request, placed in the last message (it changes every call, so
        it must not sit in the cacheable prefix)."""
        system = build_system(genre=self.genre, lang=self.lang, scoped=True)
        relevant = trim_for_revision(self.digest, focus)
        return build_messages(system, request, focus=relevant, lang=self.lang)

    def _minimal(self, request: str, material: str | None, *, format_rules: bool) -> Messages:
        """Role boundary (and format rules) only: for calls whose output is not
        prose (JSON, BibTeX, a repaired document), where genre and quality
        anchors would only cost tokens and the scoped instruction would contradict the task."""
        layers = [("role", read_knowledge(f"prompts/role_{self.lang}.md"))]
        if format_rules:
            layers.append(("format_rules", read_knowledge(f"prompts/format_rules_{self.lang}.md")))
        system = AssembledPrompt("\n\n".join(t for _, t in layers), tuple(n for n, _ in layers))
        return build_messages(system, request, material=material, lang=self.lang)

    def explore(self) -> Messages:
        return self._full(task("explore"))

    def gaps(self) -> Messages:
        return self._minimal(task("gaps"), self.digest, format_rules=False)

    def draft(
        self, summary: JsonObject, figures: list[str], gaps: list[str], default_report: str
    ) -> Messages:
        request = "\n\n".join(
            [
                task("draft", language=LANGUAGE_NAMES.get(self.lang, self.lang)),
                "## Exploration summary\n" + json.dumps(summary, ensure_ascii=False, indent=1),
                "## Figures available\n" + ("\n".join(figures) or "(none)"),
                "## Gaps in the material (say so in the report; do not invent)\n"
                + ("\n".join(gaps) or "(none)"),
                "## Template and default report written by code (keep its preamble, figures, tables and numbers)\n"
                + default_report,
            ]
        )
        return self._full(request)

    def review(self, draft: str, outline: str) -> Messages:
        return self._full(task("reflect") + "\n\n## Outline\n" + outline + "\n\n## Draft\n" + draft)

    def scoped(self, section: str, item: EditItem) -> Messages:
        request = (
            task("scoped_edit")
            + f"\n\n## Issue\n{item.issue}\n\n## Action\n{item.action}\n\n## Section\n{section}"
        )
        return self._scoped(request, f"{item.issue} {item.action}")

    def whole(self, draft: str, items: list[EditItem]) -> Messages:
        # The whole digest stays as the first message: it is the same prefix as
        # the draft and review calls, which a prefix-caching provider bills at
        # the cache-hit price (measured cheaper than a trimmed, uncached digest).
        changes = "\n".join(f"- {i.issue}: {i.action}" for i in items)
        return self._full(
            task("whole_revision") + f"\n\n## Changes\n{changes}\n\n## Report\n{draft}"
        )

    def bibliography(self, keys: list[str], draft: str) -> Messages:
        request = (
            task("bibliography") + "\n\n## Keys\n" + "\n".join(keys) + "\n\n## Report\n" + draft
        )
        return self._minimal(request, None, format_rules=False)

    def repair(self, draft: str, errors: str) -> Messages:
        request = task("repair") + f"\n\n## Errors\n{errors}\n\n## Document\n{draft}"
        return self._minimal(request, None, format_rules=True)
