"""read_image goes to the vision tier with the image inline, only when one is configured."""

from pathlib import Path
from typing import Any

from PIL import Image

from labwright.agent.pipeline import _vision_describer
from labwright.llm.client import LLMClient
from labwright.llm.providers import Endpoint, TierModels
from labwright.testing.fake_openai import FakeOpenAI


def test_image_is_sent_to_the_vision_model(
    tmp_path: Path, client: Any, fake_llm: FakeOpenAI
) -> None:
    Image.new("RGB", (40, 20), "white").save(tmp_path / "scope.png")
    fake_llm.script("The scope shows a decay from 5 V.")
    describe = _vision_describer(client, None)
    assert describe is not None
    assert "decay" in describe(tmp_path / "scope.png")
    request = fake_llm.chat_requests[-1]
    assert request.model == "fake-vision"
    parts = request.messages[0]["content"]
    assert any(
        p.get("type") == "image_url" and p["image_url"]["url"].startswith("data:image/png;base64,")
        for p in parts
    )


def test_no_vision_model_means_no_describer(fake_llm: FakeOpenAI) -> None:
    endpoint = Endpoint("fake", fake_llm.base_url, TierModels(main="m"), api_key="k")
    with LLMClient(endpoint) as text_only:
        assert _vision_describer(text_only, None) is None
