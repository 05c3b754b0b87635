"""Is this index record the work a .bib entry means? Field by field, by code.

Tolerated: LaTeX escapes and Unicode in titles (``Schr\\"{o}dinger`` and
``Schrödinger``), markup in the index's titles, case and punctuation, a
subtitle present on one side only, a typo (a word or two a few letters off),
initials against full given names, "Family, Given" against "Given Family",
CJK names written with or without a space and split into family/given or not.

Never tolerated, because each is how a *different* work looks: a word added or
removed that is not a typo ("Attention is not all you need"), a different
number ("Part II", "3D"), a first author who differs, a year more than one
off with no identifier to tie them, a notice (erratum, retraction) taken for
the work it is about. A field that cannot be compared (no year given; CJK
name against a romanised one) counts neither way; identity then needs the
fields that can.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal

from labwright.verify.bibtex import BibEntry, Person
from labwright.verify.records import WorkRecord, is_cjk, normalize_doi

TitleFit = Literal["same", "typo", "subtitle", "different"]
FieldFit = Literal["match", "close", "mismatch", "unknown"]

#: Words whose presence or absence does not make another work.
_SLIGHT = frozenset(
    "a an the of and on in for to with by from at as its via using toward towards".split()
)
#: An index's back-file mojibake (a character it lost: ``Schr�dinger``, ``Ba?La?Cu?O``)
#: stands for one unknown character, or none.
WILDCARD = "\ufffd"
_WORD = re.compile(r"(?:[^\W_]|\ufffd)+", re.UNICODE)
_LOST_CHAR = re.compile(r"(?<=[^\W\d_])\?(?=[^\W_])")


@lru_cache(maxsize=1)
def _latex() -> object:
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """LaTeX and markup to plain Unicode text (``{\\"o}`` -> ``ö``, ``$\\alpha$`` -> ``α``)."""
    text = re.sub(r"<[^>]+>", " ", text)
    text = _LOST_CHAR.sub(WILDCARD, text)
    # TeX quotes first: pylatexenc reads '' as two acute accents on the letter before.
    text = text.replace("``", "\u201c").replace("''", "\u201d")
    if "\\" in text or "{" in text or "$" in text or "~" in text:
        try:
            text = _latex().latex_to_text(text)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - a malformed title still compares, less decoded
            text = text.replace("{", "").replace("}", "")
    return unicodedata.normalize("NFKC", text)


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Casefolded, accents dropped (ö -> o), punctuation to spaces; CJK kept as is."""
    decomposed = unicodedata.normalize("NFKD", plain(text).casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_WORD.findall(stripped.replace("ß", "ss")))


def tokens(text: str) -> list[str]:
    """Words; each CJK character is its own token (Chinese has no spaces)."""
    out: list[str] = []
    for word in fold(text).split():
        run = ""
        for char in word:
            if is_cjk(char):
                if run:
                    out.append(run)
                    run = ""
                out.append(char)
            else:
                run += char
        if run:
            out.append(run)
    return out


def normalized_title(text: str) -> str:
    """The cache key of a title: its tokens, joined."""
    return " ".join(tokens(text))


def wild_equal(a: str, b: str) -> bool:
    """Equal, where the index's lost characters (WILDCARD) stand for one character or none."""
    if WILDCARD not in a and WILDCARD not in b:
        return a == b
    for pattern, text in ((a, b), (b, a)):
        if WILDCARD in pattern and WILDCARD not in text:
            regex = ".?".join(re.escape(part) for part in pattern.split(WILDCARD))
            return re.fullmatch(regex, text) is not None
    return a.replace(WILDCARD, "") == b.replace(WILDCARD, "")


def _compact_same(a: list[str], b: list[str]) -> bool:
    """The same letters in the same order, spacing aside: the index lost spaces around
    inline math (``the2πDecay of theK20Meson``) or wrote ``highT c`` for ``high $T_c$``."""
    return wild_equal("".join(a), "".join(b))


def _similar(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def _is_typo(a: str, b: str) -> bool:
    """Two words one mistyping apart (not two different words or numbers)."""
    if a.isdigit() or b.isdigit() or len(a) < 4 or len(b) < 4:
        return False
    return _similar(a, b) >= 0.8


def _unexplained(a: list[str], b: list[str]) -> tuple[list[str], list[str], int]:
    """Tokens of a and of b the other lacks, after pairing off typos; and the typo count."""
    rest_a, rest_b = list(a), list(b)
    for token in a:
        partner = token if token in rest_b else None
        if partner is None and WILDCARD in token + "".join(rest_b):
            partner = next((t for t in rest_b if wild_equal(token, t)), None)
        if partner is not None:
            rest_b.remove(partner)
            rest_a.remove(token)
    _pair_compounds(a, rest_a, rest_b)
    _pair_compounds(b, rest_b, rest_a)
    typos = 0
    for token in list(rest_a):
        partner = next((t for t in rest_b if _is_typo(token, t)), None)
        if partner is not None:
            rest_a.remove(token)
            rest_b.remove(partner)
            typos += 1
    return rest_a, rest_b, typos


def _pair_compounds(order: list[str], rest: list[str], other: list[str]) -> None:
    """Drop "non" + "linear" from `rest` when `other` has "nonlinear" (and the reverse)."""
    for left, right in zip(order, order[1:], strict=False):
        joined = left + right
        if left in rest and right in rest and joined in other:
            rest.remove(left)
            rest.remove(right)
            other.remove(joined)


_ROMAN = frozenset("i ii iii iv v vi vii viii ix x xi xii".split())


def _is_number(token: str) -> bool:
    return token.isdigit() or token in _ROMAN


def _is_designation(token: str) -> bool:
    return _is_number(token) or token in ("part", "vol", "volume")


def _fit_tokens(entry: list[str], record: list[str]) -> TitleFit:
    if not entry or not record:
        return "different"
    if entry == record or _compact_same(entry, record):
        return "same"
    extra_entry, extra_record, typos = _unexplained(entry, record)
    cjk = sum(1 for t in entry if len(t) == 1 and is_cjk(t))
    if cjk >= len(entry) / 2:
        # Chinese: one character in ten may be a slip (a homophone), no more.
        allowed = max(1, len(entry) // 10) if len(entry) >= 6 else 0
        if (
            len(extra_entry) == len(extra_record) <= allowed
            and _similar("".join(entry), "".join(record)) >= 0.85
        ):
            return "typo"
        return "different"
    slight_only = all(t in _SLIGHT for t in extra_entry + extra_record)
    if not extra_entry and not extra_record:
        return "typo" if typos else "same"
    if slight_only and len(extra_entry) + len(extra_record) <= 2:
        return "typo"
    return "different"


def title_fit(entry_title: str, record: WorkRecord) -> TitleFit:
    """How the entry's title fits any of the record's titles (with or without its subtitle)."""
    mine = tokens(entry_title)
    best: TitleFit = "different"
    rank = {"same": 3, "typo": 2, "subtitle": 1, "different": 0}
    for main in record.titles:
        candidates = [tokens(main)] + [tokens(f"{main} {sub}") for sub in record.subtitles]
        for theirs in candidates:
            fit = _fit_tokens(mine, theirs)
            if fit == "different":
                fit = _subtitle_fit(mine, theirs)
            if rank[fit] > rank[best]:
                best = fit
    return best


def _subtitle_fit(mine: list[str], theirs: list[str]) -> TitleFit:
    """One title is the other with a subtitle (or main title) left out."""
    short, long = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
    weight = sum(1 if not (len(t) == 1 and is_cjk(t)) else 0.5 for t in short)
    if weight < 2:
        return "different"  # "Introduction" is the start of too many titles
    n = len(short)
    for part, rest, next_to_cut in ((long[:n], long[n:], 0), (long[-n:], long[:-n], -1)):
        # A subtitle is words; "II", "3" or "Part 2" next to the cut make another
        # work (a part of a series); "Copper(I)" inside the subtitle does not.
        if len(rest) < 2 or all(_is_designation(t) for t in rest):
            continue
        if _is_designation(rest[next_to_cut]):
            continue
        if part == short or _fit_tokens(short, part) in ("same", "typo"):
            return "subtitle"
    return "different"


# -- people ---------------------------------------------------------------------


def _script_cjk(text: str) -> bool:
    return any(is_cjk(c) for c in text)


def _name_tokens(person: Person) -> list[str]:
    return fold(f"{person.given} {person.family}").split()


#: Words that make an author a collaboration or an institution, not a person: the
#: index lists its members instead (the ATLAS paper's first author is "Aad, G.").
_GROUP = re.compile(
    r"\b(?:collaboration|consortium|collaborative|group|team|project|committee|working"
    r"|association|society|organi[sz]ation|institute|department|laboratory|council"
    r"|agency|office|bureau|survey)\b|协作组|课题组|研究组|小组|委员会|协会|学会|研究所|研究院",
    re.I,
)


def is_group(person: Person) -> bool:
    return bool(_GROUP.search(fold(f"{person.given} {person.family}"))) or bool(
        _GROUP.search(person.family)
    )


def person_fit(entry: Person, record: Person) -> FieldFit:
    """Same person? CJK names compare whole; a romanised name against a CJK one is unknown."""
    if is_group(entry) or is_group(record):
        return "unknown"
    e_cjk = _script_cjk(entry.family + entry.given)
    r_cjk = _script_cjk(record.family + record.given)
    if e_cjk != r_cjk:
        return "unknown"
    if e_cjk:
        e_full = fold(entry.family + entry.given).replace(" ", "")
        r_full = fold(record.family + record.given).replace(" ", "")
        # "张 伟" reads to BibTeX as given "张", family "伟": either order is the name.
        e_swapped = fold(entry.given + entry.family).replace(" ", "")
        if r_full in (e_full, e_swapped):
            return "match"
        e_fam, r_fam = fold(entry.family).replace(" ", ""), fold(record.family).replace(" ", "")
        if (not entry.given or not record.given) and (
            e_full.startswith(r_fam) and r_full.startswith(e_fam)
        ):
            return "match"
        return "mismatch"
    e_family, r_family = fold(entry.family), fold(record.family)
    e_tokens, r_tokens = _name_tokens(entry), _name_tokens(record)
    exact_family = wild_equal(e_family.replace(" ", ""), r_family.replace(" ", ""))
    family_same = exact_family or _is_typo(e_family.replace(" ", ""), r_family.replace(" ", ""))
    if not family_same:
        # "Zhang San" written as First Last, or a family name with particles.
        swapped = r_family in e_tokens and (e_family in r_tokens or not record.given)
        if not swapped:
            return "mismatch"
        return "match"
    e_initial = next((t[0] for t in fold(entry.given).split()), "")
    r_initial = next((t[0] for t in fold(record.given).split()), "")
    if e_initial and r_initial and e_initial != r_initial:
        return "mismatch"
    return "match" if exact_family else "close"


def authors_fit(entry: list[Person], record: tuple[Person, ...]) -> FieldFit:
    """The first author decides; a typo'd first author is "close"."""
    if not entry or not record:
        return "unknown"
    first = person_fit(entry[0], record[0])
    if first == "mismatch" and len(record) > 1:
        # The index sometimes lists a consortium or an editor first.
        if any(person_fit(entry[0], r) == "match" for r in record[1:3]) and len(entry) > 1:
            second = person_fit(entry[1], record[0])
            return "close" if second in ("match", "close") else "mismatch"
    return first


def year_fit(entry_year: str, record: WorkRecord) -> FieldFit:
    match = re.search(r"\d{4}", entry_year or "")
    if not match or not record.year:
        return "unknown"
    year = int(match.group())
    if year == record.year or year in record.other_years:
        return "match"
    return "close" if abs(year - record.year) == 1 else "mismatch"


def _pages(text: str) -> str:
    return re.sub(r"[\s\-–—]+", "-", text.strip()).strip("-")


def pages_same(mine: str, theirs: str) -> bool:
    """The same page range. Tolerated: only the first page given (on either side), and
    a last page written short ("816--21" for 816-821); a different last page is not."""
    m, t = _pages(mine).lower().split("-"), _pages(theirs).lower().split("-")
    if m[0] != t[0]:
        return False
    if len(m) < 2 or len(t) < 2 or m[1] == t[1]:
        return True
    short, full = m[1], t[1]
    cut = len(full) - len(short)
    return 0 < cut and full.endswith(short) and full[:cut] == m[0][:cut]


# -- venues ---------------------------------------------------------------------

_VENUE_SKIP = frozenset("the of and for in on de der die das fur la le les des du et und".split())
_PREPRINT_VENUE = re.compile(r"arxiv|preprint|e-?prints?|biorxiv|medrxiv|chemrxiv|ssrn", re.I)


def _venue_words(text: str) -> list[str]:
    return [t for t in fold(text).split() if t not in _VENUE_SKIP]


def _abbreviates(short: str, word: str) -> bool:
    """ "phys" -> "physical", "natl" -> "national": same first letter, letters in order."""
    if wild_equal(short, word) or (short.isdigit() and short == word):
        return True
    if short[0] != word[0] or len(short) > len(word) or short.isdigit():
        return False
    rest = iter(word[1:])
    return all(c in rest for c in short[1:])


def _venue_covers(mine: list[str], theirs: list[str]) -> bool:
    """Every word of `mine` abbreviates a word of `theirs` in order, or is an acronym of
    consecutive ones ("PNAS", "J. SIAM"); `theirs` may have words `mine` leaves out."""

    def walk(i: int, j: int) -> bool:
        if i == len(mine):
            return True
        for k in range(j, len(theirs)):
            if _abbreviates(mine[i], theirs[k]) and walk(i + 1, k + 1):
                return True
            span = len(mine[i])
            if span >= 2 and "".join(w[0] for w in theirs[k : k + span]) == mine[i]:
                if walk(i + 1, k + span):
                    return True
        return False

    return bool(mine) and walk(0, 0)


def venue_fit(entry_venue: str, record: WorkRecord) -> FieldFit:
    """The journal or proceedings: "match" when the entry's name abbreviates the index's,
    "mismatch" only when no word of it fits any of the index's names ("Science" for
    "Nature"), "unknown" between, across scripts, and for preprint servers."""
    venues = [v for v in (record.container, *record.other_containers) if v]
    if not entry_venue or not venues or _PREPRINT_VENUE.search(entry_venue):
        return "unknown"
    mine = _venue_words(entry_venue)
    if not mine:
        return "unknown"
    if _script_cjk(entry_venue) != any(_script_cjk(v) for v in venues):
        return "unknown"
    partial = False
    for venue in venues:
        theirs = _venue_words(venue)
        if _venue_covers(mine, theirs) or (
            _script_cjk(entry_venue) and ("".join(mine) in "".join(theirs))
        ):
            return "match"
        partial = partial or any(
            _abbreviates(m, t) or t == m for m in mine for t in theirs if len(m) > 1
        )
    return "unknown" if partial or _script_cjk(entry_venue) else "mismatch"


# -- the decision ---------------------------------------------------------------


@dataclass
class Fit:
    """How one record fits one entry, and whether it is the same work."""

    record: WorkRecord
    same: bool
    title: TitleFit
    authors: FieldFit
    year: FieldFit
    doi: FieldFit
    #: Fields compared and found equal, for the evidence.
    matched: list[str] = field(default_factory=list)
    #: (field, the entry's value, the record's value) where they differ.
    differed: list[tuple[str, str, str]] = field(default_factory=list)
    why_not: str = ""

    @property
    def strength(self) -> int:
        points = {"match": 2, "close": 1, "unknown": 0, "mismatch": -3}
        title = {"same": 3, "subtitle": 2, "typo": 2, "different": -5}[self.title]
        return title + points[self.authors] + points[self.year] + 2 * points[self.doi]


def _is_notice_title(text: str) -> bool:
    return bool(
        re.match(
            r"\s*(?:correction|erratum|corrigendum|retraction|retracted|reply|comment)\b",
            fold(text),
        )
    )


def fit(entry: BibEntry, record: WorkRecord, *, identified_by: str = "") -> Fit:
    """Compare an entry with a record. `identified_by` names the identifier that found it
    (doi, arxiv, isbn), which ties the two even when the year moved."""
    title = entry.get("title") or entry.get("booktitle")
    t_fit = title_fit(title, record) if title else "different"
    a_fit = authors_fit(entry.authors, record.authors)
    y_fit = year_fit(entry.get("year") or entry.get("date"), record)
    entry_doi = normalize_doi(entry.get("doi"))
    d_fit: FieldFit = "unknown"
    if entry_doi and record.doi:
        d_fit = "match" if entry_doi == record.doi else "mismatch"
    result = Fit(record, False, t_fit, a_fit, y_fit, d_fit)
    shown = plain(title)
    if t_fit == "same":
        result.matched.append("title")
    elif t_fit == "typo" and title:
        # A subtitle left out is how people cite; a mistyped word is not.
        result.differed.append(("title", shown, record.title))
    for name, value in (("author", a_fit), ("year", y_fit), ("doi", d_fit)):
        if value == "match":
            result.matched.append(name)
    if a_fit == "close" and entry.authors and record.authors:
        result.differed.append(("author", entry.authors[0].family, record.authors[0].family))
    if y_fit in ("close", "mismatch") and record.year:
        result.differed.append(("year", entry.get("year"), str(record.year)))
    if d_fit == "mismatch":
        result.differed.append(("doi", entry_doi, record.doi))
    for name, theirs in (("volume", record.volume), ("pages", record.pages)):
        mine = entry.get(name)
        if mine and theirs:
            same = pages_same(mine, theirs) if name == "pages" else mine.strip() == theirs.strip()
            if same:
                result.matched.append(name)
            else:
                result.differed.append((name, mine, theirs))
    venue_field = "journal" if entry.get("journal") else "booktitle"
    if entry.entry_type.lower() not in ("book", "mvbook"):
        v_fit = venue_fit(entry.get(venue_field), record)
        if v_fit == "match":
            result.matched.append(venue_field)
        elif v_fit == "mismatch":
            result.differed.append((venue_field, plain(entry.get(venue_field)), record.container))
    result.same, result.why_not = _same_work(entry, record, result, identified_by, title)
    if not result.same:
        result.differed = []
    return result


def _same_work(
    entry: BibEntry, record: WorkRecord, f: Fit, identified_by: str, title: str
) -> tuple[bool, str]:
    if record.is_notice or _is_notice_title(record.title):
        if not _is_notice_title(title):
            return False, "the record is a notice about a work, not the work"
    if f.title == "different":
        return False, "the titles are different"
    if f.authors == "mismatch":
        return False, "the first author is someone else"
    tied = identified_by in ("doi", "arxiv", "isbn") or f.doi == "match"
    if f.doi == "mismatch" and not identified_by:
        # The entry names another DOI: the same title under another DOI is
        # another version at best; a typo'd DOI is found by that DOI's lookup.
        pass
    if f.year == "mismatch" and not tied:
        return False, "the years are more than one apart"
    weight = len([t for t in tokens(title) if t not in _SLIGHT])
    if f.authors == "unknown":
        # Only a long title, found by its identifier or with the same year,
        # stands without an author to compare.
        if not (tied or (f.title == "same" and f.year == "match" and weight >= 5)):
            return False, "no author to compare and the title alone is not enough"
    if f.title == "typo" and f.authors != "match" and not tied:
        return False, "a near title without the same first author"
    if f.title == "subtitle" and f.authors != "match" and not tied:
        return False, "a title's main part alone needs the same first author"
    if weight < 3 and not tied and not (f.authors == "match" and f.year == "match"):
        return False, "a short title needs the same first author and year"
    return True, ""
