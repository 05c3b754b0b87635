"""Prompt size per request type, measured on the wire through the fake server.

Generates a synthetic example folder (~120,000 characters of material: four
sweep CSVs, an instrument log, lab notes, a procedure) in a temporary
directory, then sends each request type through the real client to the fake
OpenAI-compatible server and measures what was recorded there:

* full draft          full system prompt + material digest + draft task
* one-section edit    labwright.edit: scoped system + outline + that section + material
                      trimmed to the request (2,000 characters)
* keywords-only edit  labwright.edit: role boundary + outline + the keywords block
* whole revision      labwright.edit: full system + current document + material trimmed
                      to the request (8,000 characters) + folded history

Targets (issue 16): keywords-only edit at most 1.0k tokens, whole revision at most 8k.

Each is printed beside a naive baseline assembled in the same run (full
system prompt, raw material, full history) and beside the seed system's
published figures. Token rule: 1 token per CJK character plus one per four
other characters (labwright.llm.tokens.ESTIMATE_RULE); reproducible without
a tokenizer download. Run: .venv/bin/python benchmarks/prompt_tokens.py
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from labwright.edit.locate import metadata_block, outline_lines
from labwright.edit.prompts import block_messages, section_messages, whole_messages
from labwright.llm import (
    ESTIMATE_RULE,
    Endpoint,
    LLMClient,
    PriceTable,
    RetryPolicy,
    TierModels,
    UsageLedger,
    build_messages,
    build_system,
    estimate_tokens,
    material_digest,
)
from labwright.llm.prompts import AssembledPrompt
from labwright.testing import FakeOpenAI, Turn

KEYWORDS_REQUEST = (
    "Change the keywords to: damped oscillation, logarithmic decrement, eddy current."
)
TARGETS = {"keywords-only edit": 1_000, "whole revision": 8_000}  # issue 16
SEED = {  # published figures of the seed system (input tokens per request)
    "full draft": "10k+ (whole-document generation)",
    "one-section edit": "~2-3k after",
    "keywords-only edit": "6-7k before, ~1.5k after",
    "whole revision": "40-70k before, 8-15k after",
}


def make_folder(root: Path, seed: int = 7) -> Path:
    """A realistic damped-oscillator experiment folder, about 120k characters."""
    rng = random.Random(seed)
    folder = root / "damped-oscillator"
    folder.mkdir()
    for sweep in range(1, 5):
        gamma = 0.05 * sweep
        rows = ["time_s,displacement_mm,velocity_mm_s"]
        for i in range(1250):
            t = i * 0.01
            x = 12.0 * (2.718281828 ** (-gamma * t)) * (1 if (i // 25) % 2 == 0 else -1)
            rows.append(f"{t:.2f},{x + rng.gauss(0, 0.05):.4f},{rng.gauss(0, 3):.3f}")
        (folder / f"sweep_{sweep:02d}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    log = []
    for i in range(160):
        temp = 21.0 + rng.random()
        log.append(
            f"2026-11-2{i % 3} 10:{i % 60:02d}:00 sweep {i % 4 + 1} started, "
            f"room temperature {temp:.1f} C, damping magnet gap {4 + i % 4} mm, ok"
        )
    (folder / "instrument_log.txt").write_text("\n".join(log) + "\n", encoding="utf-8")
    notes = [
        "# Lab notes: damped harmonic oscillator",
        "The spring constant was measured statically with 50 g slotted masses.",
        "Spring constant k = 24.3 N/m from the slope of extension against load.",
        "The eddy-current brake was set by the gap between magnet and aluminium plate.",
        "Damping coefficient estimated from the logarithmic decrement of successive peaks.",
        "The position sensor (ultrasonic) has a resolution of 0.1 mm per the manual.",
        "Sweep 3 shows a glitch at t = 4.2 s where the cable was touched; exclude that peak.",
    ]
    notes += [
        f"Observation {i}: amplitude ratio of peaks {i} and {i + 1} noted in the table."
        for i in range(60)
    ]
    (folder / "notes.md").write_text("\n".join(notes) + "\n", encoding="utf-8")
    procedure = ["# Procedure"] + [
        f"Step {i}: adjust the magnet gap, release the mass from 12 mm, record 10 s at 100 Hz."
        for i in range(1, 40)
    ]
    (folder / "procedure.md").write_text("\n".join(procedure) + "\n", encoding="utf-8")
    return folder


def make_document(lang: str = "en") -> str:
    body = []
    for title in (
        "Aim",
        "Principle",
        "Apparatus and procedure",
        "Results",
        "Error analysis",
        "Discussion",
        "Conclusion",
    ):
        para = (
            f"This paragraph of the {title.lower()} section discusses the damped oscillator, "
            "the logarithmic decrement and the fitted damping coefficient with its uncertainty. "
        ) * 6
        body.append(f"\\section{{{title}}}\n{para}\n\n{para}")
    return (
        "\\documentclass[en]{labwright-report}\n\\title{Damped harmonic oscillator}\n"
        "\\begin{document}\n\\maketitle\n\\reportabstract{The damping coefficient was measured.}\n"
        "\\keywords{oscillator, damping}\n" + "\n\n".join(body) + "\n\\end{document}\n"
    )


def naive(
    system: AssembledPrompt, raw_material: str, request: str, history: list[dict]
) -> list[dict]:
    """The seed system's 'before': everything, every turn."""
    return [
        {"role": "system", "content": system.text + "\n\n# Material\n\n" + raw_material},
        *history,
        {"role": "user", "content": request},
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(simulate_prefix_cache=True) as fake:
        folder = make_folder(Path(tmp))
        files = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}
        raw = "\n\n".join(f"## {n}\n{t}" for n, t in files.items())
        doc = make_document()
        digest = material_digest(files)
        full, scoped = build_system(), build_system(scoped=True)
        section = doc.split("\\section{Error analysis}")[1].split("\\section")[0]
        section = "\\section{Error analysis}" + section
        history = [
            {"role": "user", "content": "Write the report."},
            {"role": "assistant", "content": doc},
            {"role": "user", "content": "Add the uncertainty of k."},
            {"role": "assistant", "content": doc},
        ]

        section_feedback = (
            "Rewrite the error analysis: explain how the damping uncertainty was estimated."
        )
        whole_feedback = "Make the tone of the whole report more formal."
        req_section = section_feedback + "\n\n" + section
        req_keywords = KEYWORDS_REQUEST + "\n\n\\keywords{oscillator, damping}"
        req_whole = whole_feedback + "\n\n# Current document\n" + doc
        # The edit cases are the messages labwright.edit really sends (edit/prompts.py).
        outline = "\n".join(outline_lines(doc))
        keywords_block = metadata_block(doc, "keywords")
        assert keywords_block is not None
        cases = {
            "full draft": (
                build_messages(
                    full, "Write the complete report from the material.", material=digest
                ),
                naive(full, raw, "Write the complete report from the material.", []),
            ),
            "one-section edit": (
                section_messages(section_feedback, section, outline, digest=digest),
                naive(full, raw, req_section + "\n\n# Current document\n" + doc, []),
            ),
            "keywords-only edit": (
                block_messages(KEYWORDS_REQUEST, keywords_block.text(doc), outline),
                # The seed's documented 'before': full system + first 6,000 characters of material.
                naive(full, raw[:6000], req_keywords, []),
            ),
            "whole revision": (
                whole_messages(whole_feedback, doc, digest=digest, history=history),
                naive(full, raw, req_whole, history),
            ),
        }

        ledger = UsageLedger()
        prices = PriceTable.load()
        endpoint = Endpoint("deepseek", fake.base_url, TierModels(main="deepseek-chat"), "sk-bench")
        client = LLMClient(
            endpoint, retry=RetryPolicy(max_retries=0), usage_sink=ledger, prices=prices
        )
        sizes: dict[str, tuple[int, int]] = {}
        for name, (after, before) in cases.items():
            fake.script(Turn("ok", usage_shape="deepseek"), Turn("ok", usage_shape="deepseek"))
            client.chat(after, step=f"{name} (after)")
            client.chat(before, step=f"{name} (before)")
            rec_after, rec_before = fake.chat_requests[-2], fake.chat_requests[-1]
            sizes[name] = (rec_before.prompt_tokens(), rec_after.prompt_tokens())

        # Prefix caching: a second whole-revision turn with new feedback.
        # Turn 2: the previous feedback and answer are now history; new feedback.
        feedback2 = "Shorten the discussion."
        req2 = feedback2 + "\n\n# Current document\n" + doc
        history2 = [
            *history,
            {"role": "user", "content": whole_feedback},
            {"role": "assistant", "content": doc},
        ]
        fake.script(Turn("ok", usage_shape="deepseek"))
        turn2 = whole_messages(feedback2, doc, digest=digest, history=history2)
        second = client.chat(turn2, step="whole revision, turn 2")

        # Alternative: no trimming, the stable digest as the cached prefix.
        fake.script(Turn("ok", usage_shape="deepseek"), Turn("ok", usage_shape="deepseek"))
        alt1 = client.chat(
            build_messages(full, req_whole, material=digest, history=history), step="alt turn 1"
        )
        alt2 = client.chat(
            build_messages(full, req2, material=digest, history=history2), step="alt turn 2"
        )

        print(
            f"Material: {len(raw):,} characters in {len(files)} files (digest {len(digest):,}); document {len(doc):,} characters."
        )
        print(
            f"Token estimate: {ESTIMATE_RULE} (counted on the requests the fake server recorded).\n"
        )
        print(f"{'request':<20} {'before':>9} {'after':>9} {'ratio':>7}   seed system (published)")
        for name, (before, after) in sizes.items():
            print(f"{name:<20} {before:>9,} {after:>9,} {before / after:>6.1f}x   {SEED[name]}")
        for name, target in TARGETS.items():
            after = sizes[name][1]
            verdict = "meets" if after <= target else "MISSES"
            print(f"Target {name}: at most {target:,} tokens; measured {after:,} ({verdict} it).")
        print(
            f"\nSystem prompt: full {estimate_tokens(full.text):,} tokens, scoped {estimate_tokens(scoped.text):,}"
            f" (quality anchors dropped: {estimate_tokens(full.text) - estimate_tokens(scoped.text):,})."
        )
        u = second.usage
        print(
            f"Whole revision turn 2: {u.prompt_tokens:,} prompt tokens, {u.cached_prompt_tokens:,} served "
            f"from the simulated prefix cache ({u.cached_prompt_tokens / max(1, u.prompt_tokens):.0%})."
        )
        a = alt2.usage
        print(
            f"Same turn with the untrimmed digest as a stable prefix: {a.prompt_tokens:,} prompt tokens,"
            f" {a.cached_prompt_tokens:,} cached ({a.cached_prompt_tokens / max(1, a.prompt_tokens):.0%});"
            f" cost ${alt2.cost or 0:.5f} vs ${second.cost or 0:.5f} trimmed"
            f" (turn 1: ${alt1.cost or 0:.5f})."
        )
        price = prices.price_for("deepseek-chat")
        if price is not None and second.cost is not None:
            undiscounted = price.cost(type(u)(u.prompt_tokens, u.completion_tokens, 0))
            print(
                f"Cost of that turn at deepseek-chat list prices: ${second.cost:.5f} with cache hits "
                f"vs ${undiscounted:.5f} if hits were priced as misses ({1 - second.cost / undiscounted:.0%} less)."
            )


if __name__ == "__main__":
    main()
