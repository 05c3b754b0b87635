from labwright.verify.citations import bib_keys, citation_closure, cite_keys


def test_cite_keys_in_order_and_deduplicated() -> None:
    tex = r"see \cite{a,b} and \citep[p.~3]{c} and \citet{a} \nocite{*} % \cite{hidden}"
    assert cite_keys(tex) == ["a", "b", "c"]


def test_bib_keys_skip_non_entries() -> None:
    bib = "@string{x = 1}\n@article{k1, title={T}}\n@Book{ k2 ,title={U}}\n@comment{k3,}"
    assert bib_keys(bib) == {"k1", "k2"}


def test_closure_reports_missing_keys() -> None:
    report = citation_closure(r"\cite{k1,k9}", "@article{k1, title={T}}")
    assert report.missing == ["k9"]
    assert not report.closed


def test_supplying_the_bib_closes_the_gap() -> None:
    tex = r"\cite{halliday}"
    assert not citation_closure(tex, "").closed
    assert citation_closure(tex, "@book{halliday, title={F}}").closed


def test_bib_keys_read_parenthesised_and_repeated_entries() -> None:
    bib = "@article(k1, title={T})\n@article{k2, title={A}}\n@article{k2, title={B}}"
    assert bib_keys(bib) == {"k1", "k2"}


def test_removing_a_citation_keeps_the_others_and_the_sentence() -> None:
    from labwright.verify.citations import remove_citations

    tex = r"as shown~\cite{a}. See \citep[p.~3]{a,b} and \cite{c}."
    assert remove_citations(tex, {"a"}) == r"as shown. See \citep[p.~3]{b} and \cite{c}."
    assert cite_keys(remove_citations(tex, {"a", "b"})) == ["c"]
