"""Formulas as notes write them (analysis/catalogue/written.py) and the
catalogue entry each one is (analysis/catalogue/match.py)."""

from __future__ import annotations

import pytest

from labwright.analysis.catalogue.expr import FormulaError
from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.catalogue.match import match_formula
from labwright.analysis.catalogue.written import read_formula


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("v = Vmax·[S]/(Km + [S])", "v = Vmax * S / (Km + S)"),
        ("T = 2π√(L/g)", "T = 2 * pi * sqrt(L / g)"),
        ("N(t) = N0 e^{-λt} + B", "N = N0 * exp(-lam * t) + B"),
        ("N(t) = N₀e^{-λt} + B", "N = N_0 * exp(-lam * t) + B"),
        ("I = I₀cos²θ", "I = I_0 * cos(theta) ** 2"),
        ("I = I0 cos^2(θ - θ0)", "I = I0 * cos(theta - theta0) ** 2"),
        (r"v = \frac{V_{\max}[S]}{K_m + [S]}", "v = V_max * S / (K_m + S)"),
        ("T² = 4π²L/g", "T ** 2 = 4 * pi ** 2 * L / g"),
        ("x(t) = A e^{-γt} cos(ωt + φ)", "x = A * exp(-gamma * t) * cos(omega * t + phi)"),
        ("pH = pKa + lg([A-]/[HA])", "pH = pKa + log10(A_minus / HA)"),
        ("ΔL = α L0 ΔT", "dL = alpha * L0 * dT"),
        ("I = I_0 (sin β / β)^2", "I = I_0 * (sin(beta) / beta) ** 2"),
        ("c = c0/(1 + k c0 t)", "c = c0 / (1 + k * c0 * t)"),
        ("a = g sin θ", "a = g * sin(theta)"),
        ("F = k|x|", "F = k * abs(x)"),
        ("U = h f/e − W/e", "U = h * f / q_e - W / q_e"),
        # Inside a logarithm e is a parameter (the log-logistic ED50), not a charge.
        (
            "y = c + (d − c)/(1 + exp(b(ln x − ln e)))",
            "y = c + (d - c) / (1 + exp(b * (log(x) - log(e))))",
        ),
        (
            "y = c + (d-c)/(1+exp(b*(log(x)-log(e))))",
            "y = c + (d - c) / (1 + exp(b * (log(x) - log(e))))",
        ),
        ("V = (k T/e) ln(c1/c2)", "V = k * T / q_e * log(c1 / c2)"),
        ("y＝a×x＋b", "y = a * x + b"),
    ],
)
def test_notes_formulas_read_as_plain_math(written: str, plain: str) -> None:
    assert read_formula(written).text == plain


def test_juxtaposition_binds_tighter_than_division_and_known_names_split() -> None:
    known = ("k", "A", "Ea", "R", "T")
    assert read_formula("ln k = ln A − Ea/RT", known).text == "log(k) = log(A) - Ea / (R * T)"
    # Without the symbols known, RT is one name (nothing is guessed).
    assert read_formula("k = A e^{-Ea/RT}").equation.rhs.names == {"A", "Ea", "RT"}


def test_renamed_tokens_are_reported() -> None:
    w = read_formula("v = Vmax [S]/(Km + [S])")
    assert dict(w.renamed) == {"[S]": "S"}
    assert dict(read_formula("N = N0 e^{-λt}").renamed) == {"λ": "lam"}


@pytest.mark.parametrize(
    "text",
    [
        "y = os.system('x')",
        "y = x.__class__",
        "y = ",
        "y = (x",
        "a = b = c",
        "y ∝ x",
        "y = \\input{x}",
    ],
)
def test_what_is_not_a_formula_is_refused(text: str) -> None:
    with pytest.raises(FormulaError):
        read_formula(text)


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("v = Vmax·[S]/(Km + [S])", "michaelis_menten"),
        ("1/v = Km/(Vmax [S]) + 1/Vmax", "michaelis_menten"),
        ("T = 2π√(L/g)", "pendulum_small_angle"),
        ("T² = 4π²L/g", "pendulum_small_angle"),
        ("N(t) = N0 e^{-λt} + B", "radioactive_decay"),
        ("R = R0 exp(-mu t) + b", "radioactive_decay"),
        ("ln k = ln A − Ea/RT", "arrhenius"),
        ("k = A exp(-Ea/(R T))", "arrhenius"),
        ("c = c₀e^{-kt}", "rate_first_order"),
        ("[A] = [A]0 exp(-k t)", "rate_first_order"),
        ("1/[A] = 1/[A]0 + k t", "rate_second_order"),
        ("k = (k_B T/h) e^{ΔS/R} e^{-ΔH/RT}", "eyring"),
        ("y = mx + c", "calibration_line"),
        ("F = kx", "hooke_spring"),
    ],
)
def test_a_written_formula_maps_to_its_catalogue_entry(written: str, key: str) -> None:
    matches = match_formula(written, catalogue())
    assert matches, written
    assert matches[0].entry.key == key or key in [
        m.entry.key for m in matches if m.by_name == matches[0].by_name
    ]


def test_the_mapping_names_the_entry_symbols_even_with_other_names() -> None:
    (best, *_) = match_formula("R = R0 exp(-mu t) + b", catalogue())
    assert best.entry.key == "radioactive_decay"
    assert dict(best.mapping) == {"R": "N", "R0": "N0", "mu": "lam", "t": "t", "b": "B"}
    assert best.exact
    # A law with its offset left out is the entry with that parameter zero.
    (hooke, *_) = match_formula("F = k x", catalogue())
    assert hooke.entry.key == "hooke_spring" and hooke.zeroed == ("F0",)


def test_a_formula_of_no_entry_matches_nothing() -> None:
    assert match_formula("y = a*sin(x)**3 + b*cosh(x)", catalogue()) == []


def test_a_law_with_a_difference_in_a_denominator_holds_in_its_units() -> None:
    """The Stormer viscometer's T = β v/(w − θ): the dimension check must not
    divide by w − θ = 0 (every symbol once evaluated at magnitude 1)."""
    from labwright.analysis.catalogue.custom import custom_entry
    from labwright.analysis.catalogue.load import holds_in

    found = custom_entry("T = beta * v / (w - theta)", ["T", "v", "w"], {})
    assert found is not None
    assert holds_in(found.entry, {"T": "s", "v": "poise", "w": "g"})
