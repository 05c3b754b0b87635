import pytest

from labwright.agent.plan import PipelineConfig, Progress, plan_pipeline


def test_plan_enumerates_every_stage_in_order() -> None:
    stages = [p.stage for p in plan_pipeline(PipelineConfig(tex_available=True, reflect_rounds=2))]
    assert stages == [
        "scan",
        "explore",
        "figures",
        "gaps",
        "draft",
        "reflect",
        "reflect",
        "bibliography",
        "compile",
    ]


def test_no_tex_engine_means_no_compile_milestone() -> None:
    stages = [p.stage for p in plan_pipeline(PipelineConfig(tex_available=False))]
    assert "compile" not in stages


def test_early_stop_never_mislabels_later_stages() -> None:
    progress = Progress(plan_pipeline(PipelineConfig(tex_available=True, reflect_rounds=3)))
    events = []
    for stage in ("scan", "explore", "figures", "gaps", "draft", "reflect"):
        events += list(progress.start(stage))
    events += list(progress.skip("reflect"))  # converged after one round
    events += list(progress.start("bibliography"))
    events += list(progress.start("compile"))
    events += list(progress.finish())
    assert [e.index for e in events] == list(range(1, progress.total + 1))
    assert events[-1].index == events[-1].total
    assert [e.stage for e in events[-3:]] == ["reflect", "bibliography", "compile"]
    assert events[-2].stage == "bibliography" and "skipped" not in events[-2].label


def test_starting_a_later_stage_marks_skipped_ones() -> None:
    progress = Progress(plan_pipeline(PipelineConfig(tex_available=True, reflect_rounds=1)))
    events = list(progress.start("scan")) + list(progress.start("draft"))
    assert [e.index for e in events] == [1, 2, 3, 4, 5]
    assert all("skipped" in e.label for e in events[1:4])


def test_finish_reaches_total_after_a_hard_stop() -> None:
    progress = Progress(plan_pipeline(PipelineConfig(tex_available=True)))
    events = list(progress.start("scan")) + list(progress.finish())
    assert events[-1].index == progress.total


def test_unknown_or_spent_stage_is_an_error() -> None:
    progress = Progress(plan_pipeline(PipelineConfig(tex_available=False)))
    list(progress.start("bibliography"))
    with pytest.raises(ValueError):
        list(progress.start("scan"))
