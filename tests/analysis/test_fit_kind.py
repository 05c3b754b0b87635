"""The fit kind: a catalogue law the request names, fitted to the columns the
request binds, answers the asked quantities (within 3 SE of the truth the
data were drawn from), applies the file roles (background, replicates), and
says what it could not answer; its writer prints every number through the
ledger and its compendium block recomputes them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labwright.agent.offline.kind_writers import WRITERS
from labwright.agent.offline.provenance import Ledger
from labwright.analysis.analyses.fit import FitOutcome
from labwright.analysis.plan import FolderAnalysis, analyse_folder
from labwright.analysis.request import (
    AnalysisRequest,
    AskedQuantity,
    Binding,
    Evidence,
    FileRole,
    GivenConstant,
    NamedModel,
)
from labwright.ingest.read import read_folder
from labwright.ingest.types import ReadResult
from tests.agent.test_kind_scripts import _run

WHY = Evidence(source="notes.md", phrase="test", reason="written so in the test")


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _csv(columns: dict[str, np.ndarray]) -> str:
    head = ",".join(columns)
    rows = zip(*columns.values(), strict=True)
    return head + "\n" + "\n".join(",".join(f"{v:.6g}" for v in r) for r in rows) + "\n"


def _mm_request(
    y_column: str = "v1", replicates: str | None = None, **extra: object
) -> AnalysisRequest:
    return AnalysisRequest(
        asked=(
            AskedQuantity(quantity="Km", model="michaelis_menten", evidence=WHY),
            AskedQuantity(quantity="Vmax", model="michaelis_menten", evidence=WHY),
            *extra.pop("asked", ()),  # type: ignore[misc]
        ),
        models=(NamedModel(key="michaelis_menten", evidence=WHY),),
        bindings=(
            Binding(
                model="michaelis_menten",
                variable="S",
                file="rates.csv",
                column="S",
                unit="mM",
                evidence=WHY,
            ),
            Binding(
                model="michaelis_menten",
                variable="v",
                file="rates.csv",
                column=y_column,
                unit="uM/s",
                evidence=WHY,
            ),
        ),  # fmt: skip
        replicates=replicates,  # type: ignore[arg-type]
        **extra,  # type: ignore[arg-type]
    )


KM, VMAX = 2.5, 1.8
S = np.array([0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0])


def _mm_folder(tmp_path: Path, replicates: int = 1, seed: int = 3) -> Path:
    rng = np.random.default_rng(seed)
    cols: dict[str, np.ndarray] = {"S": S}
    for i in range(replicates):
        cols[f"v{i + 1}"] = VMAX * S / (KM + S) + rng.normal(0, 0.02, S.size)
    return _write(tmp_path, {"notes.md": "Michaelis-Menten kinetics.\n", "rates.csv": _csv(cols)})


def _analyse(root: Path, request: AnalysisRequest) -> FolderAnalysis:
    return analyse_folder(read_folder(root), request)


def _answer(fa: FolderAnalysis, quantity: str) -> tuple[float, float, bool]:
    a = next(a for a in fa.sheet.answers if a.quantity == quantity)
    assert a.se is not None
    return a.value, a.se, a.asked


def test_named_law_bound_to_columns_answers_the_asked_quantities(tmp_path: Path) -> None:
    fa = _analyse(_mm_folder(tmp_path), _mm_request())
    assert fa.analyses[0].kind == "fit"
    km, km_se, asked = _answer(fa, "Km")
    vmax, vmax_se, _ = _answer(fa, "Vmax")
    assert asked
    assert abs(km - KM) < 3 * km_se and abs(vmax - VMAX) < 3 * vmax_se
    record = fa.record()
    assert record["request"]["bindings"][0]["evidence"]["reason"] == WHY.reason
    used = record["analyses"][0]["columns"]
    assert used["x"] == ["rates.csv: S"] and used["y"] == ["rates.csv: v1"]
    # The shape-based kinds do not refit the table the law was fitted to.
    assert [a.kind for a in fa.analyses] == ["fit"]


def test_a_derived_quantity_without_its_input_is_unanswered_with_the_reason(tmp_path: Path) -> None:
    kcat = AskedQuantity(quantity="kcat", model="michaelis_menten", evidence=WHY)
    fa = _analyse(_mm_folder(tmp_path), _mm_request(asked=(kcat,)))
    assert all(a.quantity != "kcat" for a in fa.sheet.answers)
    missing = [u for u in fa.sheet.unanswered if "kcat" in u.what]
    assert missing and missing[0].why
    # With the enzyme concentration given, it is answered.
    e0 = GivenConstant(symbol="E0", value=0.05, unit="uM", evidence=WHY)
    fa = _analyse(tmp_path, _mm_request(asked=(kcat,), constants=(e0,)))
    value, se, asked = _answer(fa, "kcat")
    assert asked and abs(value - VMAX / 0.05) < 3 * se


@pytest.mark.parametrize("how", ["together", "average"])
def test_replicate_columns_are_fitted_together_or_averaged(tmp_path: Path, how: str) -> None:
    read = read_folder(_mm_folder(tmp_path, replicates=3))
    fa = analyse_folder(read, _mm_request(replicates=how))
    _recomputes(read, fa)
    out = fa.analyses[0].result
    assert isinstance(out, FitOutcome)
    assert out.result.n == (3 * S.size if how == "together" else S.size)
    assert out.result.weighted == (how == "average")
    km, km_se, _ = _answer(fa, "Km")
    assert abs(km - KM) < 3 * km_se
    assert fa.record()["analyses"][0]["columns"]["y"] == [f"rates.csv: v{i}" for i in (1, 2, 3)]


def test_a_background_file_is_subtracted(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    t = np.linspace(0, 30, 16)
    k, c0, level = 0.12, 5.0, 1.5
    c = c0 * np.exp(-k * t) + level + rng.normal(0, 0.01, t.size)
    bg = level + rng.normal(0, 0.01, 10)
    _write(tmp_path, {"notes.md": "decay\n", "decay.csv": _csv({"t": t, "c": c}),
                      "background.csv": _csv({"c": bg})})  # fmt: skip
    request = AnalysisRequest(
        asked=(AskedQuantity(quantity="k", model="rate_first_order", evidence=WHY),),
        models=(NamedModel(key="rate_first_order", evidence=WHY),),
        bindings=(
            Binding(model="rate_first_order", variable="t", file="decay.csv", column="t",
                    unit="min", evidence=WHY),
            Binding(model="rate_first_order", variable="c", file="decay.csv", column="c",
                    unit="mmol/L", evidence=WHY),
        ),
        files=(FileRole(file="background.csv", role="background", evidence=WHY),),
    )  # fmt: skip
    read = read_folder(tmp_path)
    fa = analyse_folder(read, request)
    _recomputes(read, fa)
    value, se, _ = _answer(fa, "k")
    assert abs(value - k) < 3 * se
    out = fa.analyses[0].result
    assert isinstance(out, FitOutcome) and any(
        "background" in n.en for n in out.binding.prepared.notes
    )


def _recomputes(read: ReadResult, fa: FolderAnalysis) -> None:
    """The fit's compendium block states the numbers its text printed."""
    a = fa.analyses[0]
    ledger = Ledger()
    WRITERS["fit"].write(a, ledger, "en")
    printed: dict[str, list[float]] = {}
    for e in ledger.entries:
        printed.setdefault(e.computation, []).append(e.value)
    said = _run(read, WRITERS["fit"].recompute(a).source())
    assert said
    for computation, value in said:
        assert computation in printed, computation
        assert any(np.isclose(value, v, rtol=1e-4) for v in printed[computation]), computation


def test_entries_of_a_procedure_are_left_to_it(tmp_path: Path) -> None:
    x = np.arange(1.0, 7.0)
    _write(tmp_path, {"notes.md": "calibration\n", "cal.csv": _csv({"c": x, "A": 0.1 * x})})
    request = AnalysisRequest(
        models=(NamedModel(key="calibration_line", evidence=WHY),),
        bindings=(
            Binding(model="calibration_line", variable="x", file="cal.csv", column="c", evidence=WHY),
            Binding(model="calibration_line", variable="y", file="cal.csv", column="A", evidence=WHY),
        ),
    )  # fmt: skip
    assert "fit" not in _analyse(tmp_path, request).kinds()


def test_writer_prints_through_the_ledger_and_the_block_recomputes(tmp_path: Path) -> None:
    root = _mm_folder(tmp_path)
    read = read_folder(root)
    fa = analyse_folder(read, _mm_request())
    a = fa.analyses[0]
    w = WRITERS["fit"]
    ledger = Ledger()
    text = w.write(a, ledger, "en")
    assert "\\lwnum" in text and "Michaelis" in text
    printed: dict[str, list[float]] = {}
    for e in ledger.entries:
        printed.setdefault(e.computation, []).append(e.value)
    source = w.recompute(a).source()
    assert "labwright" not in source
    said = _run(read, source)
    assert {c for c, _ in said} >= {c for c in printed if c.startswith(("Km", "Vmax"))}
    for computation, value in said:
        assert computation in printed, computation
        assert any(np.isclose(value, v, rtol=1e-4) for v in printed[computation]), computation
    keys = iter(f"f{i}" for i in range(10))
    plans = w.draw(a, lambda: next(keys), "en")
    # The data with the curve and residuals, and the Lineweaver-Burk companion.
    assert len(plans) == 2 and len(plans[0].panels["panels"]) == 2
    assert all(np.all(np.isfinite(v)) for v in plans[0].arrays.values())
    zh = w.write(a, Ledger(), "zh")
    assert a.result.entry.name.zh in zh and "拟合得到" in zh


def test_an_asked_quantity_no_table_binds_is_said_to_be_not_computed(tmp_path: Path) -> None:
    """Asked for the activation energy with one temperature only: no table
    binds the Arrhenius law, so the sheet says Ea was not computed."""
    ea = AskedQuantity(quantity="Ea", model="arrhenius", evidence=WHY)
    fa = _analyse(_mm_folder(tmp_path), _mm_request(asked=(ea,)))
    (u,) = [u for u in fa.sheet.unanswered if "(Ea)" in u.what]
    assert u.what.startswith("activation energy") and "Arrhenius" in u.why
    assert all(a.quantity != "Ea" for a in fa.sheet.answers)
    # Quantities that were answered are not listed.
    assert not [u for u in fa.sheet.unanswered if "(Km)" in u.what]


def _gauss(x: np.ndarray, c: float, fwhm: float, h: float) -> np.ndarray:
    return h * np.exp(-4 * np.log(2) * (x - c) ** 2 / fwhm**2)


def _scan_request(pattern: str, files: tuple[FileRole, ...]) -> AnalysisRequest:
    return AnalysisRequest(
        asked=tuple(AskedQuantity(quantity=q, model="gaussian_peaks", evidence=WHY)
                    for q in ("center", "fwhm", "area")),
        models=(NamedModel(key="gaussian_peaks", evidence=WHY),),
        procedure="peaks",
        bindings=(
            Binding(model="gaussian_peaks", variable="x", file=pattern, column="wavelength",
                    unit="nm", evidence=WHY),
            Binding(model="gaussian_peaks", variable="y", file=pattern, column="intensity",
                    unit="counts", evidence=WHY),
        ),
        files=files,
        replicates="average",
    )  # fmt: skip


def test_peaks_on_a_sloping_baseline_in_repeat_scans_are_one_fit(tmp_path: Path) -> None:
    """Three repeat scans (a file pattern) of two Gaussian lines on a sloping
    background: one fit of their mean, the baseline not flat, each line's
    centre, width and area answered under its own key."""
    rng = np.random.default_rng(4)
    x = np.arange(600.0, 660.01, 0.5)
    lines = ((622.0, 6.0, 400.0), (637.0, 8.0, 250.0))
    clean = 40.0 + 1.5 * (x - 600) + sum(_gauss(x, *p) for p in lines)
    files = {f"scan{i}.csv": _csv({"wavelength": x, "intensity": clean + rng.normal(0, 6, x.size)})
             for i in (1, 2, 3)}  # fmt: skip
    _write(tmp_path, {"notes.md": "Three repeat scans.\n", **files})
    roles = tuple(FileRole(file=f, role="repeat", evidence=WHY) for f in files)
    read = read_folder(tmp_path)
    fa = analyse_folder(read, _scan_request("scan*.csv", roles))
    assert [a.kind for a in fa.analyses] == ["fit"], fa.kinds()
    out = fa.analyses[0].result
    assert isinstance(out, FitOutcome)
    assert {ds.source for ds in out.binding.extra} == {"scan2.csv", "scan3.csv"}
    assert out.result.peaks == 2 and out.result.baseline != "constant"
    assert out.result.n == x.size  # the mean of the scans, not every reading
    for i, (c, w, h) in enumerate(lines, start=1):
        for key, truth in ((f"center_{i}", c), (f"fwhm_{i}", w),
                           (f"area_{i}", h * w * np.sqrt(np.pi / (4 * np.log(2))))):  # fmt: skip
            value, se, asked = _answer(fa, key)
            assert asked and abs(value - truth) < 3 * se, (key, value, se, truth)
    # Each line's centre answers the notes' "centres": nothing is listed as not computed.
    assert not fa.sheet.unanswered, fa.sheet.unanswered
    _recomputes(read, fa)
    text = WRITERS["fit"].write(fa.analyses[0], Ledger(), "en")
    assert "peaks on a" in text and "repeat scans averaged" in text


def test_a_file_pattern_of_runs_at_set_points_is_not_fitted_file_by_file(tmp_path: Path) -> None:
    """Files named by a set-point with a unit are a run series (a law
    across the files), never repeats a pattern binds one fit to."""
    rng = np.random.default_rng(2)
    t = np.linspace(0, 20, 21)
    files = {f"decay_T{T}K.csv": _csv({"t": t, "c": 5 * np.exp(-0.01 * T * t / 30)
                                       + rng.normal(0, 0.01, t.size)})
             for T in (290, 300, 310)}  # fmt: skip
    _write(tmp_path, {"notes.md": "decay at three temperatures\n", **files})
    runs = tuple(FileRole(file=f, role="run", parameter="T", value=float(f[7:10]), unit="K",
                          evidence=WHY) for f in files)  # fmt: skip
    request = AnalysisRequest(
        asked=(AskedQuantity(quantity="k", model="rate_first_order", evidence=WHY),),
        models=(NamedModel(key="rate_first_order", evidence=WHY),),
        bindings=(
            Binding(model="rate_first_order", variable="t", file="decay_T*K.csv", column="t",
                    unit="min", evidence=WHY),
            Binding(model="rate_first_order", variable="c", file="decay_T*K.csv", column="c",
                    unit="mmol/L", evidence=WHY),
        ),
        files=runs,
    )  # fmt: skip
    fa = _analyse(tmp_path, request)
    assert "fit" not in fa.kinds(), fa.kinds()
