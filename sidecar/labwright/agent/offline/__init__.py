"""The offline writer: a report from data alone, without any LLM.

Public surface (imported lazily, so the sandbox's trusted worker, which
imports `labwright.agent.offline.plot_worker` for its drawing handlers, does
not pay for pandas at start-up):

- `build_offline(folder, out_dir, *, lang=None, tex_available=None)` -> events
- `plan_offline(*, tex_available)` -> the milestone list
- `check_folder(folder)` -> one sentence, or None when the folder is usable
- `write_offline_report(inventory, read, ...)` -> `OfflineReport` (what was read
  in; LaTeX, figures, provenance and warnings out; no events, no scanning)
- `plan_figures`, `fit_xy`, `summary_table`, `Ledger` for reuse by the agent
"""

from __future__ import annotations

from labwright.lazy import lazy_exports

_EXPORTS = {
    "build_offline": "labwright.agent.offline.build",
    "plan_offline": "labwright.agent.offline.build",
    "check_folder": "labwright.agent.run",
    "OfflineReport": "labwright.agent.offline.report",
    "write_offline_report": "labwright.agent.offline.report",
    "OfflineStage": "labwright.agent.offline.build",
    "plan_figures": "labwright.agent.offline.figures",
    "FigurePlan": "labwright.agent.offline.figures",
    "fit_xy": "labwright.analysis.fits",
    "FitResult": "labwright.analysis.fits",
    "summary_table": "labwright.agent.offline.tables",
    "Ledger": "labwright.agent.offline.provenance",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
