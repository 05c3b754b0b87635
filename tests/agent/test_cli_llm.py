"""`labwright build --llm` and `--base-url/--model` from the command line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from labwright.cli import EXIT_OK, main
from labwright.latex.engine import resolve_engine
from labwright.testing.fake_openai import FakeOpenAI

from .conftest import ScriptedLab

needs_tex = pytest.mark.skipif(not resolve_engine().available, reason="XeLaTeX is not installed")


@needs_tex
def test_base_url_and_model_point_one_build_at_an_endpoint(
    tmp_path: Path,
    examples_dir: Path,
    lab: ScriptedLab,
    fake_llm: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "pendulum"
    shutil.copytree(examples_dir / "pendulum", folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LABWRIGHT_API_KEY", "sk-local-test")
    code = main(
        [
            "build",
            str(folder),
            "--base-url",
            fake_llm.base_url,
            "--model",
            "local-model",
            "--reflect",
            "1",
            "--zip",
            "out.zip",
        ]
    )
    assert code == EXIT_OK, capsys.readouterr().err
    assert (tmp_path / "pendulum-report.pdf").stat().st_size > 0
    assert (tmp_path / "out.zip").is_file()
    requests = fake_llm.chat_requests
    assert requests and {r.model for r in requests} == {"local-model"}
    assert all(r.headers.get("authorization") == "Bearer sk-local-test" for r in requests)
    assert lab.calls["draft"] == 1


def test_llm_without_a_configured_provider_says_so_and_builds_offline(
    tmp_path: Path,
    examples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from labwright.agent.llm_build import choose_model
    from labwright.cli import build_parser

    args = build_parser().parse_args(["build", str(examples_dir / "pendulum"), "--llm"])
    monkeypatch.setattr("labwright.llm.settings.resolve_endpoint", lambda *a, **k: None)
    choice = choose_model(args)
    assert choice.client is None and "offline writer" in choice.note


def test_base_url_without_model_is_explained(examples_dir: Path) -> None:
    from labwright.agent.llm_build import choose_model
    from labwright.cli import build_parser

    args = build_parser().parse_args(
        ["build", str(examples_dir / "pendulum"), "--base-url", "http://127.0.0.1:9/v1"]
    )
    choice = choose_model(args)
    assert choice.client is None and "--model" in choice.note
