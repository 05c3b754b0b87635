from labwright.agent.compile_repair import MAX_ERROR_CHARS, error_fingerprint, extract_errors

LOG = """This is XeTeX
(./main.tex
! Undefined control sequence.
l.12 \\foo
          bar
Overfull \\hbox (1.0pt too wide)
Runaway argument?
! Emergency stop.
"""


def test_extract_keeps_error_lines_only() -> None:
    errors = extract_errors(LOG)
    assert "! Undefined control sequence." in errors
    assert "l.12 \\foo" in errors
    assert "Runaway argument?" in errors
    assert "Overfull" not in errors and "This is XeTeX" not in errors


def test_extract_is_capped() -> None:
    assert len(extract_errors("! boom\n" * 2000)) <= MAX_ERROR_CHARS


def test_fingerprint_is_the_first_error_line() -> None:
    assert error_fingerprint(extract_errors(LOG)) == "! Undefined control sequence."
    assert error_fingerprint("no bang here") == "no bang here"
