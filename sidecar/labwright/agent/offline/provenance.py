"""One formatter for every number the offline writer prints.

A number reaches the report only through `Ledger.num` (or its siblings), which
formats a computed value and records, in the same call, where it came from:
the file, sheet/variable and column, and the computation. The ledger is saved
as provenance.json next to the report, so a reader (or a test) can trace each
printed number back to data. Formatting and recording in one place is the
point: a number cannot be printed without leaving a trace.

What the ledger hands back is the number wrapped in its tag,
`\\lwnum{ID}{printed}` (verify/tags.py): the id is the entry's, a hash of
what it records, so the same number from the same computation has the same
id in every build. The class turns the tag into a link named `lwnum.ID`;
the check below and the window read the tags, not the digits.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from labwright.ingest.types import Provenance
from labwright.verify import tags
from labwright.verify.trace import Trace, trace_numbers

# Plain decimal notation inside this magnitude range, scientific outside it.
_SCI_LOW = 1e-3
_SCI_HIGH = 1e5
#: A value with an uncertainty of a tenth or more prints plain up to here.
_MEASURED_PLAIN_HIGH = 1e6
#: Sigma shares the value's power of ten when at most this many decades below it.
_SHARED_EXPONENT_SPAN = 3


@dataclass(frozen=True)
class Entry:
    """One printed number: exactly as it appears in the .tex, and its origin."""

    printed: str
    value: float
    computation: str
    file: str | None = None
    sheet: str | None = None
    variable: str | None = None
    column: str | None = None
    #: Stable id: a hash of the fields above (`lwnum.ID` in the PDF).
    id: str = ""
    #: The data rows of the column ("1–40"), when the source knows them. Not
    #: in the id: the file and column already decide it.
    rows: str | None = None


def _entry_id(e: Entry) -> str:
    key = "\x1f".join(
        [e.file or "", e.sheet or "", e.variable or "", e.column or "", e.computation]
        + [repr(e.value), e.printed]
    )
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True)
class Quote:
    """A passage quoted verbatim from a document in the folder (the aim)."""

    file: str
    text: str


@dataclass
class Ledger:
    entries: list[Entry] = field(default_factory=list)
    quotes: list[Quote] = field(default_factory=list)
    # What the analyst decided (column roles with reasons, the question, the
    # analyses chosen), recorded beside the numbers it produced.
    analysis: dict[str, Any] = field(default_factory=dict)
    _by_id: dict[str, Entry] = field(default_factory=dict, repr=False, compare=False)

    # -- formatting + recording -------------------------------------------------
    def num(
        self, value: float, source: Provenance | None, computation: str, *, sig: int = 4
    ) -> str:
        """`value` rounded to `sig` significant figures, as LaTeX math source."""
        return self._record(format_sig(float(value), sig), value, source, computation)

    def fixed(
        self, value: float, decimals: int, source: Provenance | None, computation: str
    ) -> str:
        """`value` with exactly `decimals` places (one precision for a whole
        column of a table: the resolution the data were recorded with)."""
        text = f"{float(value):.{max(decimals, 0)}f}" if math.isfinite(value) else "\\text{n/a}"
        if math.isfinite(value) and float(text) == 0:
            text = text.lstrip("-")
        return self._record(text, value, source, computation)

    def count(self, value: int, source: Provenance | None, computation: str) -> str:
        """An integer count (rows, files), printed without a decimal point."""
        return self._record(str(int(value)), float(value), source, computation)

    def measured(
        self, value: float, sigma: float, source: Provenance | None, computation: str
    ) -> str:
        """`value \\pm sigma`, sigma to two significant figures and the value to
        the same decimal place (the usual convention for a fitted parameter)."""
        value_text, sigma_text = format_with_uncertainty(float(value), float(sigma))
        v = self._record(value_text, value, source, computation)
        s = self._record(sigma_text, sigma, source, f"standard uncertainty of {computation}")
        return f"{v} \\pm {s}"

    def to_place_of(
        self, value: float, sigma: float, source: Provenance | None, computation: str
    ) -> str:
        """`value` alone, to the decimal place `sigma` supports: a reference
        value beside a measured one reads to the same place (299792.5 beside
        299852.4 ± 7.9, not 2.998×10^5, which hides the difference)."""
        text, _ = format_with_uncertainty(float(value), float(sigma))
        if value != 0 and text.split("\\")[0].strip("-0.") == "":
            text = format_sig(value, 2)  # smaller than sigma's place: still not 0
        return self._record(text, value, source, computation)

    def mean_and_spread(
        self, mean: float, std: float, source: Provenance | None
    ) -> tuple[str, str]:
        """A mean and its sample standard deviation, the mean to the decimal
        place the spread supports (14.193 and 0.080, not 14.19 and 0.07957)."""
        if not (math.isfinite(std) and std > 0):
            return self.num(mean, source, "mean"), self.num(
                std, source, "sample standard deviation (ddof=1)"
            )
        mean_text, std_text = format_with_uncertainty(float(mean), float(std))
        return (
            self._record(mean_text, mean, source, "mean"),
            self._record(std_text, std, source, "sample standard deviation (ddof=1)"),
        )

    def quote(self, file: str, text: str) -> None:
        self.quotes.append(Quote(file=file, text=text))

    def _record(
        self, printed: str, value: float, source: Provenance | None, computation: str
    ) -> str:
        src = source or Provenance(file="")
        entry = Entry(
            printed=printed,
            value=float(value),
            computation=computation,
            file=src.file or None,
            sheet=src.sheet,
            variable=src.variable,
            column=src.column,
            rows=src.rows,
        )
        base = _entry_id(entry)
        entry_id, n = base, 1
        while entry_id in self._by_id:
            if _same(self._by_id[entry_id], entry):  # printed again: one entry, two places
                return tags.tag(entry_id, printed)
            n += 1
            entry_id = f"{base}-{n}"
        entry = replace(entry, id=entry_id)
        self._by_id[entry_id] = entry
        self.entries.append(entry)
        return tags.tag(entry_id, printed)

    def by_id(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    # -- output -------------------------------------------------------------------
    def printed_set(self) -> set[str]:
        return {e.printed for e in self.entries}

    def to_dict(self) -> dict[str, Any]:
        def clean(e: Entry) -> dict[str, Any]:
            d = asdict(e)
            if not math.isfinite(d["value"]):
                d["value"] = str(d["value"])
            return {k: v for k, v in d.items() if v is not None}

        out: dict[str, Any] = {
            "numbers": [clean(e) for e in self.entries],
            "quotes": [asdict(q) for q in self.quotes],
        }
        if self.analysis:
            out["analysis"] = self.analysis
        return out

    def save(self, path: Path) -> None:
        path.write_text(
            json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )


def _same(a: Entry, b: Entry) -> bool:
    same_value = a.value == b.value or (math.isnan(a.value) and math.isnan(b.value))
    return same_value and replace(a, id="", value=0.0) == replace(b, id="", value=0.0)


def _sci(mantissa: str, exponent: int) -> str:
    return f"{mantissa}\\times10^{{{exponent}}}"


def format_sig(value: float, sig: int = 4) -> str:
    """Round to `sig` significant figures; plain notation for moderate
    magnitudes, `m\\times10^{e}` otherwise. Trailing zeros are kept only as far
    as `sig` asks (2.50 stays 2.50 with sig=3), which is what a reader expects."""
    if not math.isfinite(value):
        return "\\text{n/a}"
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    if _SCI_LOW <= abs(value) < _SCI_HIGH:
        decimals = max(sig - 1 - exponent, 0)
        rounded = round(value, decimals)
        if rounded != 0 and math.floor(math.log10(abs(rounded))) > exponent:
            decimals = max(decimals - 1, 0)  # 0.99996 -> 1.000, not 1.0000 (sig 4)
        text = f"{round(value, decimals):.{decimals}f}"
        return "0" if float(text) == 0 else text
    mantissa = value / 10.0**exponent
    text = f"{mantissa:.{sig - 1}f}"
    if abs(float(text)) >= 10:  # rounding carried into the next decade
        exponent += 1
        text = f"{value / 10.0**exponent:.{sig - 1}f}"
    return _sci(text, exponent)


def format_with_uncertainty(value: float, sigma: float) -> tuple[str, str]:
    """Both texts with matching precision, decided by sigma's two leading digits."""
    if not (math.isfinite(value) and math.isfinite(sigma)) or sigma <= 0:
        return format_sig(value, 4), format_sig(sigma, 2) if math.isfinite(sigma) else "\\text{n/a}"
    # sigma's decade after rounding it to two digits (0.0996 is 0.10, not 0.100).
    exp_sigma = math.floor(math.log10(float(f"{sigma:.1e}")))
    big = max(abs(value), sigma)
    # A measured value reads in plain digits up to a million when its
    # uncertainty is not far below the units (Michelson's 299852.4 ± 7.9
    # km/s, not 2.998524×10^5 ± 7.9×10^0).
    plain_high = _MEASURED_PLAIN_HIGH if exp_sigma >= -1 else _SCI_HIGH
    if _SCI_LOW <= big < plain_high and exp_sigma >= -6:
        # Two significant digits of sigma, also left of the decimal point:
        # 4702 +- 2870 is 4700 +- 2900 (round to a negative number of places).
        places = 1 - exp_sigma
        decimals = max(places, 0)
        v = f"{round(value, places):.{decimals}f}"
        s = f"{round(sigma, places):.{decimals}f}"
        if float(s) == 0:
            s = format_sig(sigma, 2)
        if float(v) == 0:
            v = "0"
        return v, s
    # Scientific: sigma to 2 significant figures, the value to the same
    # place. Both in the value's power of ten when sigma is within a few
    # decades of it, so the two read side by side (2.50×10^6 ± 0.10×10^6);
    # in its own decade otherwise (1.2×10^-9 beside 6.674×10^-11 would be
    # long zeros).
    exp_value = math.floor(math.log10(abs(value))) if value != 0 else exp_sigma
    digits = max(exp_value - exp_sigma + 1, 1)
    mantissa = f"{value / 10.0**exp_value:.{digits}f}"
    if float(mantissa) != 0 and abs(float(mantissa)) >= 10:  # rounding carried a decade
        exp_value += 1
        digits = max(exp_value - exp_sigma + 1, 1)
        mantissa = f"{value / 10.0**exp_value:.{digits}f}"
    if 0 <= exp_value - exp_sigma <= _SHARED_EXPONENT_SPAN:
        sigma_mantissa = f"{sigma / 10.0**exp_value:.{digits}f}"
        return _sci(mantissa, exp_value), _sci(sigma_mantissa, exp_value)
    sigma_mantissa = f"{sigma / 10.0**exp_sigma:.1f}"
    return _sci(mantissa, exp_value), _sci(sigma_mantissa, exp_sigma)


# --- checking a document against its ledger ------------------------------------------

_QUOTED_MACROS = ("\\lwfile{", "\\lwtext{")
_QUOTE_ENV = re.compile(r"\\begin\{quote\}\n(.*?)\n\\end\{quote\}", re.S)
_STRUCTURAL = re.compile(
    r"\\includegraphics\s*\[[^\]]*\]\s*\{[^{}]*\}"  # file names and sizes
    r"|\\begin\{tabular\}\{[^{}]*\}"  # column specs
    r"|[\d.]+\\(?:linewidth|textheight|textwidth|hsize)"  # lengths
    r"|R\^2|\\chi\^2"  # the names of the statistics, not numbers
)


def _drop_braced(text: str, opener: str) -> str:
    """Remove `opener...}` groups, honouring nested braces and escaped \\{ \\}."""
    out: list[str] = []
    i = 0
    while True:
        j = text.find(opener, i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = j + len(opener)
        depth = 1
        while k < len(text) and depth:
            ch = text[k]
            if ch == "\\":
                k += 2
                continue
            depth += {"{": 1, "}": -1}.get(ch, 0)
            k += 1
        i = k


def quantity_text(
    tex: str, record: dict[str, Any], fixed_text: tuple[str, ...] = ()
) -> tuple[str, list[str]]:
    """The document body with everything that is not a quantity set aside,
    and a "quote:..." for each quote the record does not hold verbatim.

    Set aside: comments, \\lwfile/\\lwtext arguments (names from the
    folder), quote environments, `fixed_text` (code constants such as the
    model formulas, whose exponents are not measurements) and structure
    (figure sizes, column specs)."""
    from labwright.agent.offline.escape import escape_text
    from labwright.verify.texts import strip_comments

    start = tex.find("\\begin{document}")
    body = tex[start:] if start >= 0 else tex
    body = strip_comments(body)
    quotes = {escape_text(q["text"]) for q in record.get("quotes", [])}
    bad: list[str] = []

    def take_quote(m: re.Match[str]) -> str:
        if m.group(1) not in quotes:
            bad.append("quote:" + m.group(1)[:60])
        return " "

    body = _QUOTE_ENV.sub(take_quote, body)
    for opener in _QUOTED_MACROS:
        body = _drop_braced(body, opener)
    for text in fixed_text:
        body = body.replace(text, " ")
    return _STRUCTURAL.sub(" ", body), bad


def trace_document(
    tex: str, record: dict[str, Any], fixed_text: tuple[str, ...] = ()
) -> tuple[Trace, list[str]]:
    """Each number of the document with its state (verify/trace.py), and the
    quotes the record lacks."""
    body, bad_quotes = quantity_text(tex, record, fixed_text)
    return trace_numbers(body, record), bad_quotes


def unsourced_numbers(
    tex: str, record: dict[str, Any], fixed_text: tuple[str, ...] = ()
) -> list[str]:
    """Numbers in the document body that the provenance record does not account for.

    In a tagged document a number is accounted for only by its tag (a bare
    number is not, whatever its digits); an untagged, older document is
    compared by printed strings. Returns the offending printed texts, plus
    "quote:..." for a quote the record lacks.
    """
    trace, bad = trace_document(tex, record, fixed_text)
    return bad + trace.unsourced
