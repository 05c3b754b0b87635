"""Draft-output contract: a whole LaTeX document, with no tool-call markup in it.

Drafting passes no tools, yet models still write their internal tool-call
syntax into the text (DeepSeek's DSML, `<tool_call>`, raw function-call JSON).
Such a draft "succeeds" at the API and is garbage; it is retried with a
sharper instruction instead of being patched.
"""

from __future__ import annotations

import re

_MARKUP = re.compile(
    r"<\s*/?\s*(?:tool_call|tool_calls|function_call|invoke|\|?DSML\|?)|"
    r"｜DSML｜|<｜tool|\"tool_calls\"\s*:|\"function\"\s*:\s*\{\s*\"name\"|"
    r"<\|tool_call|<\|im_start\|>|```tool",
    re.IGNORECASE,
)

RETRY_INSTRUCTION = (
    "You have no tools now. Write the complete LaTeX source of the report, from "
    "\\documentclass to \\end{document}, and nothing else: no tool calls, no Markdown fences."
)


def draft_problems(text: str) -> list[str]:
    problems = []
    if "\\documentclass" not in text:
        problems.append("the draft has no \\documentclass")
    if "\\end{document}" not in text:
        problems.append("the draft has no \\end{document}")
    if _MARKUP.search(text):
        problems.append("the draft contains tool-call markup")
    return problems


def extract_document(text: str) -> str:
    """Cut a draft to its document, dropping chatter or fences around it."""
    start = text.find("\\documentclass")
    end = text.rfind("\\end{document}")
    if start < 0 or end < 0:
        return text
    return text[start : end + len("\\end{document}")] + "\n"
