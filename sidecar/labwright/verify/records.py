"""A scholarly index's record of a work, read from Crossref's or OpenAlex's JSON.

Both indexes describe the same things in different shapes (Crossref: the
registration agency's deposit, `message` of /works; OpenAlex: its own work
object). `WorkRecord` is the one shape the matcher and the cache use; it is
plain data (`to_json`/`from_json`), so a cached record reads back exactly.

Shapes follow the public API documentation: Crossref's "Work" format (title
and subtitle as arrays, `author[].given/family/name`, `issued.date-parts`,
`container-title`, `relation`), OpenAlex's Work object (`display_name`,
`authorships[].author.display_name` and `raw_author_name`,
`publication_year`, `primary_location.source`, `biblio`, `ids`, `locations`).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from labwright.verify.bibtex import Person

Source = Literal["crossref", "openalex"]

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#\s]+?)(?:v\d+)?(?:\.pdf)?$", re.I)
_TAG = re.compile(r"<[^>]+>")

#: Crossref / OpenAlex work types -> BibTeX entry types.
_BIBTEX_TYPES = {
    "journal-article": "article",
    "article": "article",
    "proceedings-article": "inproceedings",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "book-chapter": "incollection",
    "book-section": "incollection",
    "dissertation": "phdthesis",
    "report": "techreport",
    "posted-content": "misc",
    "preprint": "misc",
    "dataset": "misc",
}
#: Work types that are notices about another work, never the work itself.
NOTICE_TYPES = frozenset({"erratum", "retraction", "correction", "editorial", "peer-review"})


def normalize_doi(value: str) -> str:
    """``https://doi.org/10.1000/ABC`` -> ``10.1000/abc`` (DOIs are case-insensitive)."""
    doi = _DOI_PREFIX.sub("", value.strip()).strip().rstrip(".")
    return doi.lower() if doi.startswith("10.") else ""


def arxiv_of_doi(doi: str) -> str:
    match = _ARXIV_DOI.match(doi)
    return match.group(1).lower() if match else ""


def _clean(text: Any) -> str:
    """Titles in the indexes may carry JATS/HTML markup (<i>, <sub>, <mml:math>)."""
    return re.sub(r"\s+", " ", _TAG.sub("", str(text))).strip() if text else ""


#: A chapter's number that a book series deposits as part of its title
#: (Methods in Enzymology: "[21] Specific synthesis of DNA in vitro …").
_CHAPTER_NUMBER = re.compile(r"^\s*\[\d+[a-z]?\]\s*")


def _clean_title(text: Any) -> str:
    return _CHAPTER_NUMBER.sub("", _clean(text))


@dataclass(frozen=True)
class WorkRecord:
    source: Source
    #: The index's own id: the DOI for Crossref, ``W…`` for OpenAlex.
    record_id: str
    doi: str = ""
    titles: tuple[str, ...] = ()
    subtitles: tuple[str, ...] = ()
    authors: tuple[Person, ...] = ()
    year: int | None = None
    #: Print and online years when they differ from `year` (a reference may give either).
    other_years: tuple[int, ...] = ()
    container: str = ""
    #: Further names of the venue: Crossref's short-container-title, a book series' volume title.
    other_containers: tuple[str, ...] = ()
    volume: str = ""
    issue: str = ""
    pages: str = ""
    publisher: str = ""
    work_type: str = ""
    isbn: tuple[str, ...] = ()
    arxiv: str = ""
    #: DOIs of the version of record when this is a preprint of it.
    published_as: tuple[str, ...] = ()
    language: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.titles[0] if self.titles else ""

    @property
    def url(self) -> str:
        if self.doi:
            return f"https://doi.org/{self.doi}"
        if self.source == "openalex":
            return f"https://openalex.org/{self.record_id}"
        return ""

    @property
    def is_notice(self) -> bool:
        return self.work_type in NOTICE_TYPES

    def bibtex_type(self) -> str:
        return _BIBTEX_TYPES.get(self.work_type, "misc")

    def bibtex_fields(self) -> list[tuple[str, str]]:
        """The record as BibTeX fields, in the order people write them."""
        title = self.title
        if self.subtitles and self.subtitles[0].lower() not in title.lower():
            title = f"{title}: {self.subtitles[0]}"
        container_field = {"inproceedings": "booktitle", "incollection": "booktitle"}.get(
            self.bibtex_type(), "journal"
        )
        fields = [
            ("author", " and ".join(_bib_name(p) for p in self.authors)),
            ("title", "{" + title + "}" if title else ""),
            (container_field, self.container if self.bibtex_type() != "book" else ""),
            ("publisher", self.publisher if self.bibtex_type() in ("book", "incollection") else ""),
            ("year", str(self.year) if self.year else ""),
            ("volume", self.volume),
            ("number", self.issue),
            ("pages", self.pages.replace("-", "--") if "--" not in self.pages else self.pages),
            ("doi", self.doi),
        ]
        if self.arxiv:
            fields += [("eprint", self.arxiv), ("archiveprefix", "arXiv")]
        return [(k, v) for k, v in fields if v]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["authors"] = [[p.family, p.given] for p in self.authors]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WorkRecord:
        data = dict(data)
        data["authors"] = tuple(Person(str(f), str(g)) for f, g in data.get("authors", []))
        for key in (
            "titles",
            "subtitles",
            "isbn",
            "published_as",
            "other_years",
            "other_containers",
        ):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


def _bib_name(person: Person) -> str:
    if not person.given:
        return "{" + person.family + "}" if " " in person.family else person.family
    return f"{person.family}, {person.given}"


def _years(message: dict[str, Any]) -> list[int]:
    years = []
    for key in ("issued", "published-print", "published-online", "published", "created"):
        parts = (message.get(key) or {}).get("date-parts") or []
        if parts and parts[0] and parts[0][0]:
            try:
                years.append(int(parts[0][0]))
            except (TypeError, ValueError):
                continue
        if key == "published" and years:
            break  # "created" is the deposit's date, only a last resort
    return years


def from_crossref(message: dict[str, Any]) -> WorkRecord:
    """A record from one Crossref work (`message` of /works/{doi}, or an item of a list)."""
    doi = normalize_doi(str(message.get("DOI", "")))
    titles = [
        _clean_title(t)
        for t in [*(message.get("title") or []), *(message.get("original-title") or [])]
    ]
    authors = []
    for person in message.get("author") or message.get("editor") or []:
        if person.get("family"):
            authors.append(Person(_clean(person["family"]), _clean(person.get("given", ""))))
        elif person.get("name"):
            authors.append(person_from_display(_clean(person["name"])))
    relation = message.get("relation") or {}
    published = tuple(
        normalize_doi(str(r.get("id", "")))
        for r in relation.get("is-preprint-of") or []
        if r.get("id-type", "doi") == "doi"
    )
    years = _years(message)
    return WorkRecord(
        source="crossref",
        record_id=doi,
        doi=doi,
        titles=tuple(t for t in titles if t),
        subtitles=tuple(_clean(t) for t in message.get("subtitle") or [] if t),
        authors=tuple(authors),
        year=years[0] if years else None,
        other_years=tuple(sorted({y for y in years[1:] if y != years[0]})),
        container=_clean((message.get("container-title") or [""])[0]),
        other_containers=tuple(
            c
            for c in (
                _clean(t)
                for t in [
                    *(message.get("container-title") or [])[1:],
                    *(message.get("short-container-title") or []),
                ]
            )
            if c
        ),
        volume=str(message.get("volume", "") or ""),
        issue=str(message.get("issue", "") or ""),
        pages=str(message.get("page", "") or ""),
        publisher=_clean(message.get("publisher", "")),
        work_type=str(message.get("type", "") or ""),
        isbn=tuple(re.sub(r"[^0-9Xx]", "", i) for i in message.get("ISBN") or []),
        arxiv=arxiv_of_doi(doi),
        published_as=tuple(p for p in published if p),
        language=str(message.get("language", "") or ""),
    )


def person_from_display(name: str) -> Person:
    """ "Kaiming He" -> (He, Kaiming); "张三" -> (张, 三); "He, Kaiming" -> (He, Kaiming)."""
    name = name.strip()
    if "," in name:
        family, _, given = name.partition(",")
        return Person(family.strip(), given.strip())
    if name and all(_is_cjk(c) for c in name.replace(" ", "")):
        compact = name.replace(" ", "")
        cut = 2 if len(compact) >= 4 or compact[:2] in COMPOUND_SURNAMES else 1
        return Person(compact[:cut], compact[cut:])
    tokens = name.split()
    if len(tokens) == 1:
        return Person(tokens[0])
    return Person(tokens[-1], " ".join(tokens[:-1]))


#: Two-character Chinese surnames (the common ones), for splitting "欧阳修".
COMPOUND_SURNAMES = frozenset(
    "欧阳 司马 上官 诸葛 东方 皇甫 尉迟 公孙 慕容 长孙 宇文 司徒 夏侯 轩辕 令狐 端木 独孤 南宫 西门 百里".split()
)


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0xF900 <= code <= 0xFAFF
        or 0x3040 <= code <= 0x30FF  # kana
        or 0xAC00 <= code <= 0xD7AF  # hangul
        or 0x20000 <= code <= 0x2FA1F
    )


def is_cjk(char: str) -> bool:
    return _is_cjk(char)


def from_openalex(work: dict[str, Any]) -> WorkRecord:
    """A record from one OpenAlex work object."""
    doi = normalize_doi(str(work.get("doi") or (work.get("ids") or {}).get("doi") or ""))
    authors = []
    for authorship in work.get("authorships") or []:
        name = (authorship.get("author") or {}).get("display_name") or authorship.get(
            "raw_author_name", ""
        )
        if name:
            authors.append(person_from_display(_clean(name)))
    location = work.get("primary_location") or {}
    source = location.get("source") or {}
    biblio = work.get("biblio") or {}
    first, last = biblio.get("first_page"), biblio.get("last_page")
    pages = f"{first}-{last}" if first and last and first != last else str(first or "")
    arxiv = arxiv_of_doi(doi)
    for place in work.get("locations") or []:
        match = _ARXIV_URL.search(str(place.get("landing_page_url") or ""))
        if match and not arxiv:
            arxiv = match.group(1).lower()
    record_id = str(work.get("id", "")).rsplit("/", 1)[-1]
    title = _clean_title(work.get("title") or work.get("display_name"))
    return WorkRecord(
        source="openalex",
        record_id=record_id,
        doi=doi,
        titles=(title,) if title else (),
        authors=tuple(authors),
        year=int(work["publication_year"]) if work.get("publication_year") else None,
        container=_clean(source.get("display_name", "")),
        volume=str(biblio.get("volume") or ""),
        issue=str(biblio.get("issue") or ""),
        pages=pages,
        publisher=_clean(source.get("host_organization_name", "")),
        work_type=str(work.get("type_crossref") or work.get("type") or ""),
        arxiv=arxiv,
        language=str(work.get("language") or ""),
    )
