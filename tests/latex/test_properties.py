"""Property-based tests over generated LaTeX documents (hypothesis).

The generated documents mix the things that broke the seed system: optional
short titles, starred headings, nested braces and math in titles, non-ASCII
titles, repeated titles, comments and verbatim blocks holding fake headings,
escaped percent signs and line breaks.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from labwright.latex.mask import mask
from labwright.latex.sectionizer import HEADING_LEVELS, Node, sectionize
from labwright.latex.splice import apply_fragment, splice

settings.register_profile(
    "labwright-latex",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("labwright-latex")

_COMMANDS = {level: name for name, level in HEADING_LEVELS.items()}

words = st.sampled_from(
    ["pendulum", "period", "g", "error", "Messung", "误差", "数据", "x", "fit", "the", "of", "and"]
)
titles = st.one_of(
    st.lists(words, min_size=1, max_size=4).map(" ".join),
    st.sampled_from(
        [
            "Results",
            "Results and Discussion",
            "Error Analysis",
            "Fit of $T^{2}$ vs $L$",
            "{Nested {braces}}",
            "Sets \\{a\\}",
            "误差分析",
        ]
    ),
)


@st.composite
def headings(draw: st.DrawFn, levels: tuple[int, ...] = (1, 2, 3)) -> str:
    level = draw(st.sampled_from(levels))
    star = "*" if draw(st.booleans()) else ""
    short = f"[{draw(titles)}]" if draw(st.integers(0, 3)) == 0 else ""
    space = draw(st.sampled_from(["", " ", "\n"]))
    return f"\\{_COMMANDS[level]}{star}{short}{space}{{{draw(titles)}}}\n"


inline_bits = st.sampled_from(
    [
        "50\\% of runs",
        "a line\\\\ break",
        "{grouped text}",
        "$a_{1} + b^{2}$",
        "\\verb|\\section{ghost}|",
        "\\lstinline!\\subsection{ghost}!",
        "\\textbf{bold}",
        "\\cite{key}",
    ]
)


@st.composite
def paragraphs(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(words, inline_bits), min_size=1, max_size=8))
    text = " ".join(parts)
    if draw(st.integers(0, 3)) == 0:
        text += " % note: \\section{ghost} {"
    return text + "\n" + draw(st.sampled_from(["", "\n"]))


blocks = st.sampled_from(
    [
        "\\begin{verbatim}\n\\section{ghost}\n\\end{verbatim}\n",
        "\\begin{lstlisting}[language=TeX]\n\\subsection{ghost} }\n\\end{lstlisting}\n",
        "% \\section{commented out}\n",
        "\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}\n",
        "\\begin{comment}\n\\section{draft}\n\\end{comment}\n",
    ]
)

body_items = st.one_of(headings(), headings(), paragraphs(), paragraphs(), blocks)


@st.composite
def documents(draw: st.DrawFn) -> str:
    items = draw(st.lists(body_items, min_size=0, max_size=14))
    abstract = "\\begin{abstract}\nWe measured g.\n\\end{abstract}\n" if draw(st.booleans()) else ""
    tail = draw(
        st.sampled_from(["", "\\bibliography{refs}\n", "\\appendix\n\\section{Data}\nT.\n"])
    )
    return (
        "\\documentclass{article}\n% \\section{in preamble comment}\n\\begin{document}\n"
        + abstract
        + "".join(items)
        + tail
        + "\\end{document}\n"
    )


latexish = st.lists(
    st.sampled_from(
        [
            *"\\{}[]%*|!$ \nabcdeg",
            "\\section",
            "\\subsection*",
            "\\begin{verbatim}",
            "\\end{verbatim}",
            "\\verb",
            "\\lstinline",
            "\\end{document}",
            "\\documentclass",
            "\\begin{document}",
            "\\begin{abstract}",
            "\\end{abstract}",
            "\\keywords",
            "\\appendix",
        ]
    ),
    max_size=80,
).map("".join)


def _key_map(nodes: tuple[Node, ...]) -> list[tuple[str, str, int | None, str]]:
    return [(n.anchor, n.key, n.level, n.title) for n in nodes]


@given(st.one_of(st.text(max_size=300), latexish, documents()))
def test_masking_preserves_length_and_only_blanks(text: str) -> None:
    masked = mask(text)
    assert len(masked) == len(text)
    for a, b in zip(text, masked, strict=True):
        assert b == a or (b == " " and a != "\n")
    assert mask(masked) == masked  # nothing left to mask


@given(st.one_of(st.text(max_size=300), latexish, documents()))
def test_sectionize_never_raises_and_spans_are_well_formed(text: str) -> None:
    result = sectionize(text)
    assert "could not be parsed" not in result.reason  # the defensive fallback was not needed
    for node in result.all_nodes():
        assert 0 <= node.char_start < node.heading_end <= node.char_end <= len(text)
    for node in result.nodes:
        assert result.body_start <= node.char_start and node.char_end <= result.body_end


@given(documents())
def test_spans_at_one_level_are_ordered_and_disjoint_and_nested_in_parents(doc: str) -> None:
    result = sectionize(doc)
    by_anchor = {n.anchor: n for n in result.nodes}
    for level in {n.level for n in result.nodes}:
        spans = [n.span for n in result.nodes if n.level == level]
        assert spans == sorted(spans)
        for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
            assert end <= start
    for node in result.nodes:
        if node.parent is not None:
            parent = by_anchor[node.parent]
            assert parent.char_start < node.char_start and node.char_end <= parent.char_end
            assert parent.level is not None and node.level is not None and parent.level < node.level
    assert [n.anchor for n in result.nodes] == [f"n{i}" for i in range(len(result.nodes))]
    assert len({n.key for n in result.all_nodes()}) == len(result.all_nodes())


@given(documents(), st.data())
def test_splicing_a_nodes_own_text_back_is_identity(doc: str, data: st.DataObject) -> None:
    result = sectionize(doc)
    assume(result.all_nodes())
    node = data.draw(st.sampled_from(result.all_nodes()))
    assert splice(doc, node.char_start, node.char_end, node.text(doc)) == doc
    gated = apply_fragment(doc, node, node.text(doc))
    assert gated.ok, gated.problems
    assert gated.content == doc


@given(documents(), st.data(), st.text(max_size=200))
def test_bytes_outside_the_range_are_identical(doc: str, data: st.DataObject, new: str) -> None:
    start = data.draw(st.integers(0, len(doc)))
    end = data.draw(st.integers(start, len(doc)))
    out = splice(doc, start, end, new)
    assert out[:start] == doc[:start]
    assert out[start + len(new) :] == doc[end:]
    assert out[start : start + len(new)] == new


@given(documents(), st.data(), paragraphs())
def test_reparse_after_a_conserving_splice_keeps_anchors_and_keys(
    doc: str, data: st.DataObject, new_body: str
) -> None:
    before = sectionize(doc)
    assume(before.nodes)
    node = data.draw(st.sampled_from(before.nodes))
    children = [n for n in before.nodes if n.parent == node.anchor]
    rest = doc[children[0].char_start : node.char_end] if children else ""
    fragment = doc[node.char_start : node.heading_end] + "\n" + new_body + "\n" + rest
    result = apply_fragment(doc, node, fragment)
    assert result.ok, result.problems
    after = sectionize(result.content)
    assert _key_map(after.nodes) == _key_map(before.nodes)
    assert _key_map(after.pseudo_nodes) == _key_map(before.pseudo_nodes)
    delta = len(result.content) - len(doc)
    for old, new in zip(before.nodes, after.nodes, strict=True):
        if old.char_start < node.char_start:
            assert new.char_start == old.char_start
        elif old.char_start >= node.char_end:
            assert new.span == (old.char_start + delta, old.char_end + delta)
            assert new.text(result.content) == old.text(doc)


@given(documents(), st.data(), st.lists(body_items, min_size=1, max_size=5).map("".join))
def test_any_fragment_the_gate_accepts_keeps_every_anchor(
    doc: str, data: st.DataObject, fragment: str
) -> None:
    """Whatever a model returns: if apply_fragment accepts it, no anchor moved."""
    before = sectionize(doc)
    assume(before.nodes)
    node = data.draw(st.sampled_from(before.nodes))
    if data.draw(st.booleans()):  # often start like a real answer: the section's own heading
        fragment = doc[node.char_start : node.heading_end] + "\n" + fragment
    result = apply_fragment(doc, node, fragment)
    event("accepted" if result.ok else "refused")
    if not result.ok:
        assert result.content is doc
        return
    after = sectionize(result.content)
    assert [(n.anchor, n.level) for n in after.nodes] == [(n.anchor, n.level) for n in before.nodes]
    assert result.content[: node.char_start] == doc[: node.char_start]
    assert result.content.endswith(doc[node.char_end :])
    # Every section wholly before or after the target reads exactly as before.
    for old, new in zip(before.all_nodes(), after.all_nodes(), strict=True):
        if old.char_end <= node.char_start or old.char_start >= node.char_end:
            assert new.text(result.content) == old.text(doc), old.anchor
