"""`check_reference`: the model asks whether a work exists before it cites it.

A typed tool (agent/tools.py): the model names what it knows of the work
(title, first author, year, DOI, arXiv id, ISBN); code looks it up in Crossref
and OpenAlex (verify/resolve.py, through the run's cache) and answers with
the verdict and the index's record. The answer informs only: what is cited
is still decided by the bibliography step's own check of the entries the
model writes, which finds the same answers in the cache.
"""

from __future__ import annotations

import json
import time

from pydantic import Field

from labwright.agent.citation_check import CitationCheck
from labwright.agent.tools import Tool, ToolArguments, ToolRefusal
from labwright.verify.bibtex import BibEntry

DESCRIPTION = (
    "Look a reference up in Crossref and OpenAlex before citing it. Give the title and "
    "what else you know; the answer says whether the work exists and how the index records it."
)
_DEADLINE_S = 6.0


class CheckReferenceArgs(ToolArguments):
    title: str = Field(default="", description="The work's title, as exactly as you know it.")
    first_author: str = Field(default="", description="The first author's family name.")
    year: int | None = Field(default=None, description="The year of publication.")
    doi: str = Field(default="", description="The DOI, if you know it.")
    arxiv: str = Field(default="", description="The arXiv id (e.g. 1706.03762), if any.")
    isbn: str = Field(default="", description="The ISBN of a book, if any.")


def _entry(args: CheckReferenceArgs) -> BibEntry:
    fields = {
        "title": args.title,
        "author": args.first_author,
        "year": str(args.year) if args.year else "",
        "doi": args.doi,
        "eprint": args.arxiv,
        "isbn": args.isbn,
    }
    return BibEntry("lookup", "misc", {k: v for k, v in fields.items() if v}, "")


def check_reference_tool(check: CitationCheck) -> Tool[CheckReferenceArgs]:
    def handle(args: CheckReferenceArgs) -> str:
        if not (args.title or args.doi or args.arxiv or args.isbn):
            raise ToolRefusal("Give at least a title, a DOI, an arXiv id or an ISBN.")
        resolver = check.resolver()
        if resolver is None:
            return json.dumps({"verdict": "unverifiable", "reason": check.failed})
        verdict = resolver.check_one(_entry(args), time.monotonic() + _DEADLINE_S, "model")
        answer: dict[str, object] = {"verdict": verdict.verdict, "reason": verdict.reason}
        if verdict.evidence is not None:
            e = verdict.evidence
            answer["record"] = {
                "title": e.title,
                "authors": list(e.authors[:4]),
                "year": e.year,
                "venue": e.venue,
                "doi": e.doi,
            }
        return json.dumps(answer, ensure_ascii=False)

    return Tool("check_reference", DESCRIPTION, CheckReferenceArgs, handle)
