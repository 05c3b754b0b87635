"""Index records for the second labelled set (independent_cases.py), written as the
real services return them, not through ``scholar_corpus.Work``.

Each record is the JSON one service answers for one work: a Crossref ``message``
(``/works/{doi}``) or an OpenAlex work object. They were written from the public
API documentation and from what the real indexes are known to hold for these
works, quirks included, because those quirks are what a matcher meets in the field:

- Crossref titles carry the publisher's markup: ``<i>…</i>`` (PNAS, AIP), MathML
  (APS: ``the2πDecay of the<mml:math …>``, spaces lost around inline math),
  TeX (International Press: ``The large $N$ limit``), a chapter number in the
  title (``[21] Specific synthesis…``, Methods in Enzymology), U+2010 hyphens
  (AIP: ``Density‐functional``), curly quotes, all capitals (JBC back files),
  and back-file mojibake (Springer: ``Schr�dinger``, ``Ba?La?Cu?O``).
- Crossref dates: ``issued`` is the earliest of ``published-online`` and
  ``published-print``; a few records have only a year and month.
- Crossref authors: ``given``/``family`` with ``sequence`` and ``affiliation``;
  a collaboration is not an author of the record (the ATLAS paper starts with
  ``Aad, G.``).
- OpenAlex: ``doi`` as a lower-case ``https://doi.org/…`` URL; arXiv preprints
  as their own works (``10.48550/arxiv.…`` DOIs, ``type: preprint``), or merged
  into the published work as an arXiv location; names as ``display_name``
  (romanised for most Chinese authors of English papers, in Chinese for
  Chinese-language journals) and ``raw_author_name`` as printed; Chinese
  journals under their English names (``Chinese Science Bulletin``).

The OpenAlex ids are made up (``W8…``); DOIs, volumes, pages and years are the
works' own.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

JSON = dict[str, Any]

Person = tuple[str, str] | JSON  # (given, family) or a raw Crossref author object


def _date(parts: tuple[int, ...]) -> JSON:
    return {"date-parts": [list(parts)]}


def crossref(
    doi: str,
    title: str | list[str],
    authors: Sequence[Person],
    issued: tuple[int, ...],
    *,
    container: str | list[str] = "",
    short_container: str = "",
    volume: str = "",
    issue: str = "",
    page: str = "",
    publisher: str = "",
    kind: str = "journal-article",
    subtitle: str = "",
    published_print: tuple[int, ...] = (),
    published_online: tuple[int, ...] = (),
    relation: JSON | None = None,
    isbn: tuple[str, ...] = (),
    language: str = "en",
    extra: JSON | None = None,
) -> JSON:
    """One Crossref work ``message``, with the fields the real one has."""
    people: list[JSON] = []
    for i, person in enumerate(authors):
        if isinstance(person, dict):
            people.append({"sequence": "first" if i == 0 else "additional", **person})
        else:
            given, family = person
            people.append(
                {
                    "given": given,
                    "family": family,
                    "sequence": "first" if i == 0 else "additional",
                    "affiliation": [],
                }
            )
    containers = [container] if isinstance(container, str) and container else container or []
    message: JSON = {
        "indexed": {
            "date-parts": [[2026, 11, 20]],
            "date-time": "2026-11-20T04:12:09Z",
            "timestamp": 1795148729000,
        },
        "reference-count": 24,
        "publisher": publisher,
        "content-domain": {"domain": [], "crossmark-restriction": False},
        "short-container-title": [short_container] if short_container else [],
        "DOI": doi,
        "type": kind,
        "created": {
            "date-parts": [[2002, 7, 27]],
            "date-time": "2002-07-27T10:44:32Z",
            "timestamp": 1027766672000,
        },
        "source": "Crossref",
        "is-referenced-by-count": 1000,
        "title": [title] if isinstance(title, str) else title,
        "prefix": doi.split("/")[0],
        "member": "311",
        "container-title": containers,
        "original-title": [],
        "language": language,
        "link": [],
        "deposited": {
            "date-parts": [[2023, 3, 2]],
            "date-time": "2023-03-02T01:20:44Z",
            "timestamp": 1677720044000,
        },
        "score": 1,
        "resource": {"primary": {"URL": f"https://example.org/resolve/{doi}"}},
        "subtitle": [subtitle] if subtitle else [],
        "short-title": [],
        "issued": _date(issued),
        "references-count": 24,
        "URL": f"https://doi.org/{doi}",
        "relation": relation or {},
        "published": _date(issued),
        "author": people,
    }
    if published_print:
        message["published-print"] = _date(published_print)
    if published_online:
        message["published-online"] = _date(published_online)
    for key, value in (("volume", volume), ("issue", issue), ("page", page)):
        if value:
            message[key] = value
    if issue:
        message["journal-issue"] = {"issue": issue, "published-print": _date(issued[:1])}
    if isbn:
        message["ISBN"] = list(isbn)
    if extra:
        message.update(extra)
    return message


def openalex(
    work_id: str,
    title: str,
    authors: Sequence[tuple[str, str]],
    year: int,
    *,
    doi: str = "",
    source: str = "",
    source_type: str = "journal",
    volume: str = "",
    issue: str = "",
    pages: str = "",
    kind: str = "article",
    type_crossref: str = "journal-article",
    arxiv: str = "",
    language: str = "en",
    date: str = "",
) -> JSON:
    """One OpenAlex work. ``authors``: (display_name, raw_author_name).

    ``arxiv`` on a published work adds the arXiv copy as a second location (a
    merged work); an arXiv preprint on its own is ``doi=10.48550/arxiv.<id>``
    with ``kind="preprint"``.
    """
    first, _, last = pages.partition("-")
    locations: list[JSON] = []
    if source:
        locations.append(
            {
                "is_oa": False,
                "landing_page_url": f"https://doi.org/{doi}" if doi else None,
                "pdf_url": None,
                "source": {
                    "id": f"https://openalex.org/S{zlib.crc32(source.encode()) % 10**10}",
                    "display_name": source,
                    "issn_l": None,
                    "is_oa": False,
                    "type": source_type,
                },
                "license": None,
                "version": "publishedVersion",
                "is_accepted": True,
                "is_published": True,
            }
        )
    if arxiv:
        locations.append(
            {
                "is_oa": True,
                "landing_page_url": f"https://arxiv.org/abs/{arxiv}",
                "pdf_url": f"https://arxiv.org/pdf/{arxiv}",
                "source": {
                    "id": "https://openalex.org/S4306400194",
                    "display_name": "arXiv (Cornell University)",
                    "issn_l": None,
                    "is_oa": True,
                    "type": "repository",
                },
                "license": None,
                "version": "submittedVersion",
                "is_accepted": False,
                "is_published": False,
            }
        )
    doi_url = f"https://doi.org/{doi.lower()}" if doi else None
    return {
        "id": f"https://openalex.org/{work_id}",
        "doi": doi_url,
        "title": title,
        "display_name": title,
        "relevance_score": None,
        "publication_year": year,
        "publication_date": date or f"{year}-01-01",
        "ids": {"openalex": f"https://openalex.org/{work_id}", **({"doi": doi_url} if doi else {})},
        "language": language,
        "primary_location": locations[0] if locations else None,
        "type": kind,
        "type_crossref": type_crossref,
        "indexed_in": ["crossref"] if doi and not doi.startswith("10.48550") else ["arxiv"],
        "open_access": {"is_oa": bool(arxiv), "oa_status": "green" if arxiv else "closed"},
        "authorships": [
            {
                "author_position": "first" if i == 0 else "middle",
                "author": {
                    "id": f"https://openalex.org/A{zlib.crc32(name.encode()) % 10**10}",
                    "display_name": name,
                    "orcid": None,
                },
                "institutions": [],
                "countries": [],
                "is_corresponding": False,
                "raw_author_name": raw,
                "raw_affiliation_strings": [],
            }
            for i, (name, raw) in enumerate(authors)
        ],
        "biblio": {
            "volume": volume or None,
            "issue": issue or None,
            "first_page": first or None,
            "last_page": last or None,
        },
        "is_retracted": False,
        "is_paratext": False,
        "cited_by_count": 1000,
        "locations_count": len(locations),
        "locations": locations,
        "best_oa_location": locations[-1] if arxiv else None,
        "updated_date": "2026-11-18T09:30:12.551371",
        "created_date": "2016-06-24",
    }


def _same(names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """OpenAlex display names for (given, family) pairs, printed as given."""
    return [(f"{g} {f}", f"{g} {f}") for g, f in names]


APS = "American Physical Society (APS)"
AAAS = "American Association for the Advancement of Science (AAAS)"
SPRINGER_NATURE = "Springer Science and Business Media LLC"
ELSEVIER = "Elsevier BV"
WILEY = "Wiley"
AIP = "AIP Publishing"
PNAS = "Proceedings of the National Academy of Sciences"

# -- physics --------------------------------------------------------------------------

_HK = [("P.", "Hohenberg"), ("W.", "Kohn")]
_KS = [("W.", "Kohn"), ("L. J.", "Sham")]
_KRESSE = [("G.", "Kresse"), ("J.", "Furthmüller")]
_EPR = [("A.", "Einstein"), ("B.", "Podolsky"), ("N.", "Rosen")]
_ASPECT = [("Alain", "Aspect"), ("Jean", "Dalibard"), ("Gérard", "Roger")]
_CRONIN = [("J. H.", "Christenson"), ("J. W.", "Cronin"), ("V. L.", "Fitch"), ("R.", "Turlay")]
_NOVO04 = [
    ("K. S.", "Novoselov"),
    ("A. K.", "Geim"),
    ("S. V.", "Morozov"),
    ("D.", "Jiang"),
    ("Y.", "Zhang"),
    ("S. V.", "Dubonos"),
    ("I. V.", "Grigorieva"),
    ("A. A.", "Firsov"),
]
_NOVO05 = [
    ("K. S.", "Novoselov"),
    ("A. K.", "Geim"),
    ("S. V.", "Morozov"),
    ("D.", "Jiang"),
    ("M. I.", "Katsnelson"),
    ("I. V.", "Grigorieva"),
    ("S. V.", "Dubonos"),
    ("A. A.", "Firsov"),
]
_CAO_SC = [
    ("Yuan", "Cao"),
    ("Valla", "Fatemi"),
    ("Shiang", "Fang"),
    ("Kenji", "Watanabe"),
    ("Takashi", "Taniguchi"),
    ("Efthimios", "Kaxiras"),
    ("Pablo", "Jarillo-Herrero"),
]
_CAO_INS = [
    ("Y.", "Cao"),
    ("V.", "Fatemi"),
    ("A.", "Demir"),
    ("S.", "Fang"),
    ("S. L.", "Tomarken"),
    ("J. Y.", "Luo"),
    ("J. D.", "Sanchez-Yamagishi"),
    ("K.", "Watanabe"),
    ("T.", "Taniguchi"),
    ("E.", "Kaxiras"),
    ("R. C.", "Ashoori"),
    ("P.", "Jarillo-Herrero"),
]
_ATLAS = [("G.", "Aad"), ("T.", "Abajyan"), ("B.", "Abbott"), ("J.", "Abdallah")]
_CMS = [("S.", "Chatrchyan"), ("V.", "Khachatryan"), ("A. M.", "Sirunyan"), ("A.", "Tumasyan")]
_LEE_YANG = [("T. D.", "Lee"), ("C. N.", "Yang")]
_WU = [
    ("C. S.", "Wu"),
    ("E.", "Ambler"),
    ("R. W.", "Hayward"),
    ("D. D.", "Hoppes"),
    ("R. P.", "Hudson"),
]
_CHANG = [
    ("Cui-Zu", "Chang"),
    ("Jinsong", "Zhang"),
    ("Xiao", "Feng"),
    ("Jie", "Shen"),
    ("Zuocheng", "Zhang"),
    ("Minghua", "Guo"),
    ("Kang", "Li"),
    ("Yunbo", "Ou"),
    ("Pang", "Wei"),
    ("Li-Li", "Wang"),
    ("Qi-Kun", "Xue"),
]
_YIN = [
    ("Juan", "Yin"),
    ("Yuan", "Cao"),
    ("Yu-Huai", "Li"),
    ("Sheng-Kai", "Liao"),
    ("Liang", "Zhang"),
    ("Ji-Gang", "Ren"),
    ("Wen-Qi", "Cai"),
    ("Jian-Wei", "Pan"),
]

PHYSICS: tuple[JSON, ...] = (
    crossref(
        "10.1103/PhysRev.136.B864",
        "Inhomogeneous Electron Gas",
        _HK,
        (1964, 11, 9),
        container="Physical Review",
        short_container="Phys. Rev.",
        volume="136",
        issue="3B",
        page="B864-B871",
        publisher=APS,
        published_print=(1964, 11, 9),
    ),
    crossref(
        "10.1103/PhysRev.140.A1133",
        "Self-Consistent Equations Including Exchange and Correlation Effects",
        _KS,
        (1965, 11, 15),
        container="Physical Review",
        short_container="Phys. Rev.",
        volume="140",
        issue="4A",
        page="A1133-A1138",
        publisher=APS,
    ),
    crossref(
        "10.1103/PhysRevB.54.11169",
        "Efficient iterative schemes for<i>ab initio</i>total-energy calculations using a plane-wave basis set",
        _KRESSE,
        (1996, 10, 15),
        container="Physical Review B",
        short_container="Phys. Rev. B",
        volume="54",
        issue="16",
        page="11169-11186",
        publisher=APS,
    ),
    crossref(
        "10.1007/BF01491891",
        "Die gegenw\ufffdrtige Situation in der Quantenmechanik",
        [("E.", "Schr\ufffddinger")],
        (1935, 11),
        container="Die Naturwissenschaften",
        short_container="Naturwissenschaften",
        volume="23",
        issue="48",
        page="807-812",
        publisher=SPRINGER_NATURE,
        language="de",
    ),
    crossref(
        "10.1007/BF01303701",
        "Possible highT c superconductivity in the Ba?La?Cu?O system",
        [("J. G.", "Bednorz"), ("K. A.", "M\ufffdller")],
        (1986, 6),
        container="Zeitschrift f\ufffdr Physik B Condensed Matter",
        short_container="Z. Physik B - Condensed Matter",
        volume="64",
        issue="2",
        page="189-193",
        publisher=SPRINGER_NATURE,
    ),
    crossref(
        "10.1103/PhysRev.47.777",
        "Can Quantum-Mechanical Description of Physical Reality Be Considered Complete?",
        _EPR,
        (1935, 5, 15),
        container="Physical Review",
        short_container="Phys. Rev.",
        volume="47",
        issue="10",
        page="777-780",
        publisher=APS,
    ),
    crossref(
        "10.1103/PhysRevLett.49.1804",
        "Experimental Test of Bell\u2019s Inequalities Using Time- Varying Analyzers",
        _ASPECT,
        (1982, 12, 20),
        container="Physical Review Letters",
        short_container="Phys. Rev. Lett.",
        volume="49",
        issue="25",
        page="1804-1807",
        publisher=APS,
    ),
    crossref(
        "10.1103/PhysRevLett.13.138",
        'Evidence for the2\u03c0Decay of the<mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML" '
        'display="inline"><mml:mrow><mml:msubsup><mml:mrow><mml:mi>K</mml:mi></mml:mrow><mml:mrow>'
        "<mml:mn>2</mml:mn></mml:mrow><mml:mrow><mml:mn>0</mml:mn></mml:mrow></mml:msubsup></mml:mrow>"
        "</mml:math>Meson",
        _CRONIN,
        (1964, 7, 27),
        container="Physical Review Letters",
        short_container="Phys. Rev. Lett.",
        volume="13",
        issue="4",
        page="138-140",
        publisher=APS,
    ),
    crossref(
        "10.1126/science.1102896",
        "Electric Field Effect in Atomically Thin Carbon Films",
        _NOVO04,
        (2004, 10, 22),
        container="Science",
        short_container="Science",
        volume="306",
        issue="5696",
        page="666-669",
        publisher=AAAS,
        published_print=(2004, 10, 22),
    ),
    crossref(
        "10.1038/nature04233",
        "Two-dimensional gas of massless Dirac fermions in graphene",
        _NOVO05,
        (2005, 11),
        container="Nature",
        short_container="Nature",
        volume="438",
        issue="7065",
        page="197-200",
        publisher=SPRINGER_NATURE,
        published_print=(2005, 11),
    ),
    crossref(
        "10.1038/nature26160",
        "Unconventional superconductivity in magic-angle graphene superlattices",
        _CAO_SC,
        (2018, 3, 5),
        container="Nature",
        short_container="Nature",
        volume="556",
        issue="7699",
        page="43-50",
        publisher=SPRINGER_NATURE,
        published_online=(2018, 3, 5),
        published_print=(2018, 4, 5),
    ),
    crossref(
        "10.1038/nature26154",
        "Correlated insulator behaviour at half-filling in magic-angle graphene superlattices",
        _CAO_INS,
        (2018, 3, 5),
        container="Nature",
        short_container="Nature",
        volume="556",
        issue="7699",
        page="80-84",
        publisher=SPRINGER_NATURE,
        published_online=(2018, 3, 5),
        published_print=(2018, 4, 5),
    ),
    crossref(
        "10.1016/j.physletb.2012.08.020",
        "Observation of a new particle in the search for the Standard Model Higgs boson with the ATLAS detector at the LHC",
        _ATLAS,
        (2012, 9),
        container="Physics Letters B",
        short_container="Physics Letters B",
        volume="716",
        issue="1",
        page="1-29",
        publisher=ELSEVIER,
        published_print=(2012, 9),
    ),
    crossref(
        "10.1016/j.physletb.2012.08.021",
        "Observation of a new boson at a mass of 125 GeV with the CMS experiment at the LHC",
        _CMS,
        (2012, 9),
        container="Physics Letters B",
        short_container="Physics Letters B",
        volume="716",
        issue="1",
        page="30-61",
        publisher=ELSEVIER,
        published_print=(2012, 9),
    ),
    crossref(
        "10.4310/ATMP.1998.v2.n2.a1",
        "The large $N$ limit of superconformal field theories and supergravity",
        [("Juan", "Maldacena")],
        (1998,),
        container="Advances in Theoretical and Mathematical Physics",
        short_container="Adv. Theor. Math. Phys.",
        volume="2",
        issue="2",
        page="231-252",
        publisher="International Press of Boston",
    ),
    crossref(
        "10.1103/PhysRev.104.254",
        "Question of Parity Conservation in Weak Interactions",
        _LEE_YANG,
        (1956, 10, 1),
        container="Physical Review",
        short_container="Phys. Rev.",
        volume="104",
        issue="1",
        page="254-258",
        publisher=APS,
    ),
    crossref(
        "10.1103/PhysRev.105.1413",
        "Experimental Test of Parity Conservation in Beta Decay",
        _WU,
        (1957, 2, 15),
        container="Physical Review",
        short_container="Phys. Rev.",
        volume="105",
        issue="4",
        page="1413-1415",
        publisher=APS,
    ),
    crossref(
        "10.1126/science.1234414",
        "Experimental Observation of the Quantum Anomalous Hall Effect in a Magnetic Topological Insulator",
        _CHANG,
        (2013, 4, 12),
        container="Science",
        short_container="Science",
        volume="340",
        issue="6129",
        page="167-170",
        publisher=AAAS,
        published_online=(2013, 3, 14),
    ),
    crossref(
        "10.1126/science.aan3211",
        "Satellite-based entanglement distribution over 1200 kilometers",
        _YIN,
        (2017, 6, 16),
        container="Science",
        short_container="Science",
        volume="356",
        issue="6343",
        page="1140-1144",
        publisher=AAAS,
    ),
)

PHYSICS_OPENALEX: tuple[JSON, ...] = (
    openalex(
        "W8000000101",
        "Inhomogeneous Electron Gas",
        _same(_HK),
        1964,
        doi="10.1103/PhysRev.136.B864",
        source="Physical Review",
        volume="136",
        issue="3B",
        pages="B864-B871",
    ),
    openalex(
        "W8000000102",
        "Self-Consistent Equations Including Exchange and Correlation Effects",
        _same(_KS),
        1965,
        doi="10.1103/PhysRev.140.A1133",
        source="Physical Review",
        volume="140",
        issue="4A",
        pages="A1133-A1138",
    ),
    openalex(
        "W8000000103",
        "Efficient iterative schemes for<i>ab initio</i>total-energy calculations using a plane-wave basis set",
        _same(_KRESSE),
        1996,
        doi="10.1103/PhysRevB.54.11169",
        source="Physical review. B, Condensed matter",
        volume="54",
        issue="16",
        pages="11169-11186",
    ),
    openalex(
        "W8000000104",
        "Die gegenwärtige Situation in der Quantenmechanik",
        [("Erwin Schrödinger", "E. Schrödinger")],
        1935,
        doi="10.1007/BF01491891",
        source="Die Naturwissenschaften",
        volume="23",
        issue="48",
        pages="807-812",
        language="de",
    ),
    openalex(
        "W8000000105",
        "Possible highTc superconductivity in the Ba?La?Cu?O system",
        [("J. G. Bednorz", "J. G. Bednorz"), ("K. A. Müller", "K. A. M�ller")],
        1986,
        doi="10.1007/BF01303701",
        source="Zeitschrift für Physik B Condensed Matter",
        volume="64",
        issue="2",
        pages="189-193",
    ),
    openalex(
        "W8000000106",
        "Can Quantum-Mechanical Description of Physical Reality Be Considered Complete?",
        [
            ("Albert Einstein", "A. Einstein"),
            ("Boris Podolsky", "B. Podolsky"),
            ("Nathan Rosen", "N. Rosen"),
        ],
        1935,
        doi="10.1103/PhysRev.47.777",
        source="Physical Review",
        volume="47",
        issue="10",
        pages="777-780",
    ),
    openalex(
        "W8000000107",
        "Experimental Test of Bell's Inequalities Using Time- Varying Analyzers",
        _same(_ASPECT),
        1982,
        doi="10.1103/PhysRevLett.49.1804",
        source="Physical Review Letters",
        volume="49",
        issue="25",
        pages="1804-1807",
    ),
    openalex(
        "W8000000108",
        "Evidence for the2πDecay of theK20Meson",
        _same(_CRONIN),
        1964,
        doi="10.1103/PhysRevLett.13.138",
        source="Physical Review Letters",
        volume="13",
        issue="4",
        pages="138-140",
    ),
    openalex(
        "W8000000109",
        "Electric Field Effect in Atomically Thin Carbon Films",
        _same(_NOVO04),
        2004,
        doi="10.1126/science.1102896",
        source="Science",
        volume="306",
        issue="5696",
        pages="666-669",
    ),
    # Merged: the arXiv copy is only a location of the published work.
    openalex(
        "W8000000110",
        "Two-dimensional gas of massless Dirac fermions in graphene",
        _same(_NOVO05),
        2005,
        doi="10.1038/nature04233",
        source="Nature",
        volume="438",
        issue="7065",
        pages="197-200",
        arxiv="cond-mat/0509330",
    ),
    openalex(
        "W8000000111",
        "Unconventional superconductivity in magic-angle graphene superlattices",
        _same(_CAO_SC),
        2018,
        doi="10.1038/nature26160",
        source="Nature",
        volume="556",
        issue="7699",
        pages="43-50",
        arxiv="1803.02342",
    ),
    openalex(
        "W8000000112",
        "Correlated insulator behaviour at half-filling in magic-angle graphene superlattices",
        _same(_CAO_INS),
        2018,
        doi="10.1038/nature26154",
        source="Nature",
        volume="556",
        issue="7699",
        pages="80-84",
        arxiv="1802.00553",
    ),
    openalex(
        "W8000000113",
        "Observation of a new particle in the search for the Standard Model Higgs boson with the ATLAS detector at the LHC",
        _same(_ATLAS),
        2012,
        doi="10.1016/j.physletb.2012.08.020",
        source="Physics Letters B",
        volume="716",
        issue="1",
        pages="1-29",
    ),
    # The arXiv preprint as its own work (DataCite DOI).
    openalex(
        "W8000000114",
        "Observation of a new particle in the search for the Standard Model Higgs boson with the ATLAS detector at the LHC",
        _same(_ATLAS),
        2012,
        doi="10.48550/arxiv.1207.7214",
        kind="preprint",
        type_crossref="posted-content",
        arxiv="1207.7214",
    ),
    openalex(
        "W8000000115",
        "Observation of a new boson at a mass of 125 GeV with the CMS experiment at the LHC",
        _same(_CMS),
        2012,
        doi="10.1016/j.physletb.2012.08.021",
        source="Physics Letters B",
        volume="716",
        issue="1",
        pages="30-61",
    ),
    openalex(
        "W8000000116",
        "The Large N Limit of Superconformal Field Theories and Supergravity",
        [("Juan Maldacena", "Juan Maldacena")],
        1998,
        doi="10.4310/ATMP.1998.v2.n2.a1",
        source="Advances in Theoretical and Mathematical Physics",
        volume="2",
        issue="2",
        pages="231-252",
    ),
    openalex(
        "W8000000117",
        "The Large N Limit of Superconformal Field Theories and Supergravity",
        [("Juan Maldacena", "Juan Maldacena")],
        1997,
        doi="10.48550/arxiv.hep-th/9711200",
        kind="preprint",
        type_crossref="posted-content",
        arxiv="hep-th/9711200",
    ),
    openalex(
        "W8000000118",
        "Auto-Encoding Variational Bayes",
        [("Diederik P. Kingma", "Diederik P Kingma"), ("Max Welling", "Max Welling")],
        2013,
        doi="10.48550/arxiv.1312.6114",
        kind="preprint",
        type_crossref="posted-content",
        arxiv="1312.6114",
    ),
    openalex(
        "W8000000119",
        "Question of Parity Conservation in Weak Interactions",
        [("Tsung-Dao Lee", "T. D. Lee"), ("Chen-Ning Yang", "C. N. Yang")],
        1956,
        doi="10.1103/PhysRev.104.254",
        source="Physical Review",
        volume="104",
        issue="1",
        pages="254-258",
    ),
    openalex(
        "W8000000120",
        "Experimental Test of Parity Conservation in Beta Decay",
        [("Chien-Shiung Wu", "C. S. Wu")] + _same(_WU[1:]),
        1957,
        doi="10.1103/PhysRev.105.1413",
        source="Physical Review",
        volume="105",
        issue="4",
        pages="1413-1415",
    ),
    openalex(
        "W8000000121",
        "Experimental Observation of the Quantum Anomalous Hall Effect in a Magnetic Topological Insulator",
        _same(_CHANG),
        2013,
        doi="10.1126/science.1234414",
        source="Science",
        volume="340",
        issue="6129",
        pages="167-170",
    ),
    openalex(
        "W8000000122",
        "Satellite-based entanglement distribution over 1200 kilometers",
        _same(_YIN),
        2017,
        doi="10.1126/science.aan3211",
        source="Science",
        volume="356",
        issue="6343",
        pages="1140-1144",
    ),
)

# -- chemistry ------------------------------------------------------------------------

_BECKE = [("Axel D.", "Becke")]
_LYP = [("Chengteh", "Lee"), ("Weitao", "Yang"), ("Robert G.", "Parr")]
_PBE = [("John P.", "Perdew"), ("Kieron", "Burke"), ("Matthias", "Ernzerhof")]
_GRIMME = [("Stefan", "Grimme"), ("Jens", "Antony"), ("Stephan", "Ehrlich"), ("Helge", "Krieg")]
_KOLB = [("Hartmuth C.", "Kolb"), ("M. G.", "Finn"), ("K. Barry", "Sharpless")]
_ROSTOVTSEV = [
    ("Vsevolod V.", "Rostovtsev"),
    ("Luke G.", "Green"),
    ("Valery V.", "Fokin"),
    ("K. Barry", "Sharpless"),
]
KOLB_DOI = "10.1002/1521-3773(20010601)40:11<2004::AID-ANIE2004>3.0.CO;2-5"
ROSTOVTSEV_DOI = "10.1002/1521-3773(20020715)41:14<2596::AID-ANIE2596>3.0.CO;2-4"

CHEMISTRY: tuple[JSON, ...] = (
    crossref(
        "10.1063/1.464913",
        "Density\u2010functional thermochemistry. III. The role of exact exchange",
        _BECKE,
        (1993, 4, 1),
        container="The Journal of Chemical Physics",
        short_container="The Journal of Chemical Physics",
        volume="98",
        issue="7",
        page="5648-5652",
        publisher=AIP,
    ),
    crossref(
        "10.1103/PhysRevB.37.785",
        "Development of the Colle-Salvetti correlation-energy formula into a functional of the electron density",
        _LYP,
        (1988, 1, 15),
        container="Physical Review B",
        short_container="Phys. Rev. B",
        volume="37",
        issue="2",
        page="785-789",
        publisher=APS,
    ),
    crossref(
        "10.1103/PhysRevLett.77.3865",
        "Generalized Gradient Approximation Made Simple",
        _PBE,
        (1996, 10, 28),
        container="Physical Review Letters",
        short_container="Phys. Rev. Lett.",
        volume="77",
        issue="18",
        page="3865-3868",
        publisher=APS,
    ),
    crossref(
        "10.1063/1.3382344",
        "A consistent and accurate <i>ab initio</i> parametrization of density functional dispersion correction (DFT-D) for the 94 elements H-Pu",
        _GRIMME,
        (2010, 4, 21),
        container="The Journal of Chemical Physics",
        short_container="The Journal of Chemical Physics",
        volume="132",
        issue="15",
        page="154104",
        publisher=AIP,
    ),
    crossref(
        KOLB_DOI,
        "Click Chemistry: Diverse Chemical Function from a Few Good Reactions",
        _KOLB,
        (2001, 6, 1),
        container="Angewandte Chemie International Edition",
        short_container="Angew. Chem. Int. Ed.",
        volume="40",
        issue="11",
        page="2004-2021",
        publisher=WILEY,
    ),
    crossref(
        ROSTOVTSEV_DOI,
        "A Stepwise Huisgen Cycloaddition Process: Copper(I)-Catalyzed Regioselective \u201cLigation\u201d of Azides and Terminal Alkynes",
        _ROSTOVTSEV,
        (2002, 7, 15),
        container="Angewandte Chemie International Edition",
        short_container="Angew. Chem. Int. Ed.",
        volume="41",
        issue="14",
        page="2596-2599",
        publisher=WILEY,
    ),
)

CHEMISTRY_OPENALEX: tuple[JSON, ...] = (
    openalex(
        "W8000000201",
        "Density‐functional thermochemistry. III. The role of exact exchange",
        [("Axel D. Becke", "Axel D. Becke")],
        1993,
        doi="10.1063/1.464913",
        source="The Journal of Chemical Physics",
        volume="98",
        issue="7",
        pages="5648-5652",
    ),
    openalex(
        "W8000000202",
        "Development of the Colle-Salvetti correlation-energy formula into a functional of the electron density",
        _same(_LYP),
        1988,
        doi="10.1103/PhysRevB.37.785",
        source="Physical review. B, Condensed matter",
        volume="37",
        issue="2",
        pages="785-789",
    ),
    openalex(
        "W8000000203",
        "Generalized Gradient Approximation Made Simple",
        _same(_PBE),
        1996,
        doi="10.1103/PhysRevLett.77.3865",
        source="Physical Review Letters",
        volume="77",
        issue="18",
        pages="3865-3868",
    ),
    openalex(
        "W8000000204",
        "A consistent and accurate <i>ab initio</i> parametrization of density functional dispersion correction (DFT-D) for the 94 elements H-Pu",
        _same(_GRIMME),
        2010,
        doi="10.1063/1.3382344",
        source="The Journal of Chemical Physics",
        volume="132",
        issue="15",
        pages="154104",
    ),
    openalex(
        "W8000000205",
        "Click Chemistry: Diverse Chemical Function from a Few Good Reactions",
        _same(_KOLB),
        2001,
        doi=KOLB_DOI,
        source="Angewandte Chemie International Edition",
        volume="40",
        issue="11",
        pages="2004-2021",
    ),
    openalex(
        "W8000000206",
        "A Stepwise Huisgen Cycloaddition Process: Copper(I)-Catalyzed Regioselective “Ligation” of Azides and Terminal Alkynes",
        _same(_ROSTOVTSEV),
        2002,
        doi=ROSTOVTSEV_DOI,
        source="Angewandte Chemie International Edition",
        volume="41",
        issue="14",
        pages="2596-2599",
    ),
)

# -- biology --------------------------------------------------------------------------

_BLAST = [
    ("Stephen F.", "Altschul"),
    ("Warren", "Gish"),
    ("Webb", "Miller"),
    ("Eugene W.", "Myers"),
    ("David J.", "Lipman"),
]
_JINEK = [
    ("Martin", "Jinek"),
    ("Krzysztof", "Chylinski"),
    ("Ines", "Fonfara"),
    ("Michael", "Hauer"),
    ("Jennifer A.", "Doudna"),
    ("Emmanuelle", "Charpentier"),
]
_ZHOU = [
    ("Peng", "Zhou"),
    ("Xing-Lou", "Yang"),
    ("Xian-Guang", "Wang"),
    ("Ben", "Hu"),
    ("Lei", "Zhang"),
    ("Wei", "Zhang"),
    ("Hao-Rui", "Si"),
    ("Yan", "Zhu"),
    ("Zheng-Li", "Shi"),
]
ZHOU_PREPRINT_DOI = "10.1101/2020.01.22.914952"
ZHOU_DOI = "10.1038/s41586-020-2012-7"

BIOLOGY: tuple[JSON, ...] = (
    crossref(
        "10.1016/S0022-2836(05)80360-2",
        "Basic local alignment search tool",
        _BLAST,
        (1990, 10),
        container="Journal of Molecular Biology",
        short_container="Journal of Molecular Biology",
        volume="215",
        issue="3",
        page="403-410",
        publisher=ELSEVIER,
    ),
    crossref(
        "10.1016/0022-2836(81)90087-5",
        "Identification of common molecular subsequences",
        [("T.F.", "Smith"), ("M.S.", "Waterman")],
        (1981, 3),
        container="Journal of Molecular Biology",
        short_container="Journal of Molecular Biology",
        volume="147",
        issue="1",
        page="195-197",
        publisher=ELSEVIER,
    ),
    crossref(
        "10.1038/227680a0",
        "Cleavage of Structural Proteins during the Assembly of the Head of Bacteriophage T4",
        [("U. K.", "Laemmli")],
        (1970, 8),
        container="Nature",
        short_container="Nature",
        volume="227",
        issue="5259",
        page="680-685",
        publisher=SPRINGER_NATURE,
    ),
    crossref(
        "10.1016/0003-2697(76)90527-3",
        "A rapid and sensitive method for the quantitation of microgram quantities of protein utilizing the principle of protein-dye binding",
        [("Marion M.", "Bradford")],
        (1976, 5),
        container="Analytical Biochemistry",
        short_container="Analytical Biochemistry",
        volume="72",
        issue="1-2",
        page="248-254",
        publisher=ELSEVIER,
    ),
    crossref(
        "10.1016/S0021-9258(19)52451-6",
        "PROTEIN MEASUREMENT WITH THE FOLIN PHENOL REAGENT",
        [
            ("OliverH.", "Lowry"),
            ("NiraJ.", "Rosebrough"),
            ("A.Lewis", "Farr"),
            ("RoseJ.", "Randall"),
        ],
        (1951, 11),
        container="Journal of Biological Chemistry",
        short_container="Journal of Biological Chemistry",
        volume="193",
        issue="1",
        page="265-275",
        publisher=ELSEVIER,
    ),
    crossref(
        "10.1073/pnas.74.12.5463",
        "DNA sequencing with chain-terminating inhibitors",
        [("F.", "Sanger"), ("S.", "Nicklen"), ("A. R.", "Coulson")],
        (1977, 12),
        container="Proceedings of the National Academy of Sciences",
        short_container="Proc. Natl. Acad. Sci. U.S.A.",
        volume="74",
        issue="12",
        page="5463-5467",
        publisher=PNAS,
    ),
    crossref(
        "10.1006/meth.2001.1262",
        "Analysis of Relative Gene Expression Data Using Real-Time Quantitative PCR and the 2\u2212\u0394\u0394CT Method",
        [("Kenneth J.", "Livak"), ("Thomas D.", "Schmittgen")],
        (2001, 12),
        container="Methods",
        short_container="Methods",
        volume="25",
        issue="4",
        page="402-408",
        publisher=ELSEVIER,
    ),
    crossref(
        "10.1126/science.1225829",
        "A Programmable Dual-RNA\u2013Guided DNA Endonuclease in Adaptive Bacterial Immunity",
        _JINEK,
        (2012, 8, 17),
        container="Science",
        short_container="Science",
        volume="337",
        issue="6096",
        page="816-821",
        publisher=AAAS,
        published_online=(2012, 6, 28),
        published_print=(2012, 8, 17),
    ),
    crossref(
        "10.1016/j.cell.2006.07.024",
        "Induction of Pluripotent Stem Cells from Mouse Embryonic and Adult Fibroblast Cultures by Defined Factors",
        [("Kazutoshi", "Takahashi"), ("Shinya", "Yamanaka")],
        (2006, 8),
        container="Cell",
        short_container="Cell",
        volume="126",
        issue="4",
        page="663-676",
        publisher=ELSEVIER,
    ),
    crossref(
        "10.1073/pnas.120163297",
        "One-step inactivation of chromosomal genes in <i>Escherichia coli</i> K-12 using PCR products",
        [("Kirill A.", "Datsenko"), ("Barry L.", "Wanner")],
        (2000, 6, 6),
        container="Proceedings of the National Academy of Sciences",
        short_container="Proc. Natl. Acad. Sci. U.S.A.",
        volume="97",
        issue="12",
        page="6640-6645",
        publisher=PNAS,
    ),
    crossref(
        "10.1016/0076-6879(87)55023-6",
        "[21] Specific synthesis of DNA in vitro via a polymerase-catalyzed chain reaction",
        [("Kary B.", "Mullis"), ("Fred A.", "Faloona")],
        (1987,),
        container=["Methods in Enzymology", "Recombinant DNA Part F"],
        volume="155",
        page="335-350",
        publisher=ELSEVIER,
        kind="book-chapter",
        isbn=("9780121820565",),
    ),
    crossref(
        ZHOU_DOI,
        "A pneumonia outbreak associated with a new coronavirus of probable bat origin",
        _ZHOU,
        (2020, 2, 3),
        container="Nature",
        short_container="Nature",
        volume="579",
        issue="7798",
        page="270-273",
        publisher=SPRINGER_NATURE,
        published_online=(2020, 2, 3),
        published_print=(2020, 3, 12),
    ),
    # bioRxiv deposits the preprint as posted-content with a link to the article.
    crossref(
        ZHOU_PREPRINT_DOI,
        "Discovery of a novel coronavirus associated with the recent pneumonia outbreak in humans and its potential bat origin",
        _ZHOU,
        (2020, 1, 23),
        publisher="Cold Spring Harbor Laboratory",
        kind="posted-content",
        relation={"is-preprint-of": [{"id-type": "doi", "id": ZHOU_DOI, "asserted-by": "subject"}]},
        extra={
            "subtype": "preprint",
            "institution": [{"name": "bioRxiv"}],
            "posted": _date((2020, 1, 23)),
            "group-title": "Microbiology",
            "accepted": _date((2020, 1, 23)),
        },
    ),
)

BIOLOGY_OPENALEX: tuple[JSON, ...] = (
    openalex(
        "W8000000301",
        "Basic local alignment search tool",
        _same(_BLAST),
        1990,
        doi="10.1016/S0022-2836(05)80360-2",
        source="Journal of Molecular Biology",
        volume="215",
        issue="3",
        pages="403-410",
    ),
    openalex(
        "W8000000302",
        "Identification of common molecular subsequences",
        [("Temple F. Smith", "T.F. Smith"), ("Michael S. Waterman", "M.S. Waterman")],
        1981,
        doi="10.1016/0022-2836(81)90087-5",
        source="Journal of Molecular Biology",
        volume="147",
        issue="1",
        pages="195-197",
    ),
    openalex(
        "W8000000303",
        "Cleavage of Structural Proteins during the Assembly of the Head of Bacteriophage T4",
        [("Ulrich K. Laemmli", "U. K. Laemmli")],
        1970,
        doi="10.1038/227680a0",
        source="Nature",
        volume="227",
        issue="5259",
        pages="680-685",
    ),
    openalex(
        "W8000000304",
        "A rapid and sensitive method for the quantitation of microgram quantities of protein utilizing the principle of protein-dye binding",
        [("Marion M. Bradford", "Marion M. Bradford")],
        1976,
        doi="10.1016/0003-2697(76)90527-3",
        source="Analytical Biochemistry",
        volume="72",
        issue="1-2",
        pages="248-254",
    ),
    openalex(
        "W8000000305",
        "PROTEIN MEASUREMENT WITH THE FOLIN PHENOL REAGENT",
        [
            ("Oliver H. Lowry", "OliverH. Lowry"),
            ("Nira J. Rosebrough", "NiraJ. Rosebrough"),
            ("A. Lewis Farr", "A.Lewis Farr"),
            ("Rose J. Randall", "RoseJ. Randall"),
        ],
        1951,
        doi="10.1016/S0021-9258(19)52451-6",
        source="Journal of Biological Chemistry",
        volume="193",
        issue="1",
        pages="265-275",
    ),
    openalex(
        "W8000000306",
        "DNA sequencing with chain-terminating inhibitors",
        [
            ("Frederick Sanger", "F. Sanger"),
            ("S. Nicklen", "S. Nicklen"),
            ("Alan R. Coulson", "A. R. Coulson"),
        ],
        1977,
        doi="10.1073/pnas.74.12.5463",
        source="Proceedings of the National Academy of Sciences",
        volume="74",
        issue="12",
        pages="5463-5467",
    ),
    openalex(
        "W8000000307",
        "Analysis of Relative Gene Expression Data Using Real-Time Quantitative PCR and the 2−ΔΔCT Method",
        _same([("Kenneth J.", "Livak"), ("Thomas D.", "Schmittgen")]),
        2001,
        doi="10.1006/meth.2001.1262",
        source="Methods",
        volume="25",
        issue="4",
        pages="402-408",
    ),
    openalex(
        "W8000000308",
        "A Programmable Dual-RNA–Guided DNA Endonuclease in Adaptive Bacterial Immunity",
        _same(_JINEK),
        2012,
        doi="10.1126/science.1225829",
        source="Science",
        volume="337",
        issue="6096",
        pages="816-821",
    ),
    openalex(
        "W8000000309",
        "Induction of Pluripotent Stem Cells from Mouse Embryonic and Adult Fibroblast Cultures by Defined Factors",
        _same([("Kazutoshi", "Takahashi"), ("Shinya", "Yamanaka")]),
        2006,
        doi="10.1016/j.cell.2006.07.024",
        source="Cell",
        volume="126",
        issue="4",
        pages="663-676",
    ),
    openalex(
        "W8000000310",
        "One-step inactivation of chromosomal genes in <i>Escherichia coli</i> K-12 using PCR products",
        _same([("Kirill A.", "Datsenko"), ("Barry L.", "Wanner")]),
        2000,
        doi="10.1073/pnas.120163297",
        source="Proceedings of the National Academy of Sciences",
        volume="97",
        issue="12",
        pages="6640-6645",
    ),
    openalex(
        "W8000000311",
        "[21] Specific synthesis of DNA in vitro via a polymerase-catalyzed chain reaction",
        _same([("Kary B.", "Mullis"), ("Fred A.", "Faloona")]),
        1987,
        doi="10.1016/0076-6879(87)55023-6",
        source="Methods in Enzymology",
        source_type="book series",
        volume="155",
        pages="335-350",
        kind="book-chapter",
        type_crossref="book-chapter",
    ),
    openalex(
        "W8000000312",
        "A pneumonia outbreak associated with a new coronavirus of probable bat origin",
        _same(_ZHOU),
        2020,
        doi=ZHOU_DOI,
        source="Nature",
        volume="579",
        issue="7798",
        pages="270-273",
    ),
    openalex(
        "W8000000313",
        "Discovery of a novel coronavirus associated with the recent pneumonia outbreak in humans and its potential bat origin",
        _same(_ZHOU),
        2020,
        doi=ZHOU_PREPRINT_DOI,
        source="bioRxiv (Cold Spring Harbor Laboratory)",
        source_type="repository",
        kind="preprint",
        type_crossref="posted-content",
    ),
)

# -- Chinese-language works (OpenAlex only: neither journal deposits these back
#    issues in Crossref) ------------------------------------------------------------

CHINESE_OPENALEX: tuple[JSON, ...] = (
    openalex(
        "W8000000401",
        "水稻的雄性不孕性",
        [("Longping Yuan", "袁隆平")],
        1966,
        source="Chinese Science Bulletin (Chinese Version)",
        volume="17",
        issue="4",
        pages="185-188",
        language="zh",
    ),
    openalex(
        "W8000000402",
        "一个科学新领域——开放的复杂巨系统及其方法论",
        [("钱学森", "钱学森"), ("于景元", "于景元"), ("戴汝为", "戴汝为")],
        1990,
        source="自然杂志",
        volume="13",
        issue="1",
        pages="3-10",
        language="zh",
    ),
)

CROSSREF_RECORDS: tuple[JSON, ...] = PHYSICS + CHEMISTRY + BIOLOGY
OPENALEX_RECORDS: tuple[JSON, ...] = (
    PHYSICS_OPENALEX + CHEMISTRY_OPENALEX + BIOLOGY_OPENALEX + CHINESE_OPENALEX
)
