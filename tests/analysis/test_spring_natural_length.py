"""A spring's pointer read on a scale gives its length, not its extension:
the law's intercept is then the natural length (the reading at no load),
asked as "原长 L₀" or "natural length" (hooke_spring_masses' derived L0)."""

from __future__ import annotations

import numpy as np

from labwright.analysis.catalogue.load import catalogue
from labwright.analysis.plan import analyse_folder
from labwright.analysis.request_rules import read_request
from tests.analysis.request.tables import folder, table

K, L0 = 24.6, 12.4  # N/m, cm


def _answers(notes: str) -> dict[str, tuple[float, float | None]]:
    rng = np.random.default_rng(2)
    m = np.arange(0.0, 501.0, 50.0)
    length = L0 + m / 1000 * 9.8 / K * 100 + rng.normal(0, 0.04, m.size)
    read = folder(notes, table("spring.csv", {"m (g)": m, "L (cm)": length}))
    request = read_request(read, catalogue())
    # "mg = k(L − L₀)" is Hooke's law as written: no second law, nothing
    # said unanswered (a spring's period law was once brought in by "k").
    assert [m.key for m in request.models] == ["hooke_spring_masses"]
    assert request.unanswered == ()
    fa = analyse_folder(read, request)
    return {a.quantity: (a.value, a.se) for a in fa.sheet.answers}


def test_the_natural_length_is_the_reading_at_no_load() -> None:
    for notes in (
        "弹簧劲度系数的测定：依次加挂砝码，记录指针读数。mg = k(L − L₀)，取 g = 9.80 m/s²。"
        "求劲度系数 k 以及弹簧原长 L₀。",
        "Hooke's law with hung masses; the pointer gives the spring's length L. "
        "Find the spring constant k and the natural length of the spring. g = 9.80 m/s^2",
    ):
        got = _answers(notes)
        k, k_se = got["k"]
        length, length_se = got["L0"]
        assert k_se is not None and abs(k - K) <= 3 * k_se
        assert length_se is not None and abs(length - L0) <= 3 * length_se
