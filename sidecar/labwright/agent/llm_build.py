"""Choosing the model for `labwright build --llm` (and `--base-url/--model`).

`--llm` uses the configured provider (settings + keychain). `--base-url URL
--model NAME` point one run at any OpenAI-compatible endpoint without touching
the settings (a local Ollama or LM Studio, or a test double); its key comes
from LABWRIGHT_API_KEY and is optional, because local servers need none. With
no usable provider the build runs the offline writer and says so.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from labwright.llm.model import ChatModel
from labwright.llm.providers import Endpoint, TierModels

API_KEY_ENV = "LABWRIGHT_API_KEY"


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("language model (optional)")
    group.add_argument(
        "--llm", action="store_true", help="write the prose with the configured model"
    )
    group.add_argument(
        "--base-url", default=None, help="an OpenAI-compatible endpoint for this run"
    )
    group.add_argument("--model", default=None, help="the model name at --base-url")
    group.add_argument(
        "--reflect",
        type=int,
        default=2,
        metavar="N",
        help="revision rounds with a model (default 2)",
    )


@dataclass(frozen=True)
class EndpointChoice:
    endpoint: Endpoint | None
    note: str = ""


def endpoint_for_args(args: argparse.Namespace) -> EndpointChoice:
    """The endpoint this build asks for, or None with a sentence saying why not."""
    wants_model = bool(getattr(args, "llm", False) or getattr(args, "base_url", None))
    if not wants_model:
        return EndpointChoice(None)
    if args.base_url:
        if not args.model:
            return EndpointChoice(None, "--base-url needs --model NAME; building without a model.")
        custom = Endpoint(
            "custom",
            args.base_url,
            TierModels(main=args.model),
            api_key=os.environ.get(API_KEY_ENV, "") or "not-needed",
        )
        return EndpointChoice(custom)
    from labwright.llm.settings import resolve_endpoint

    endpoint = resolve_endpoint()
    if endpoint is None:
        return EndpointChoice(
            None,
            "No usable language model is configured, so the offline writer builds the report; "
            "add a provider and key in Settings, or use --base-url and --model.",
        )
    return EndpointChoice(endpoint)


@dataclass
class ModelChoice:
    client: ChatModel | None
    note: str = ""


def choose_model(args: argparse.Namespace) -> ModelChoice:
    """A client for the endpoint the arguments ask for (see endpoint_for_args)."""
    choice = endpoint_for_args(args)
    if choice.endpoint is None:
        return ModelChoice(None, choice.note)
    from labwright.llm.client import LLMClient

    return ModelChoice(LLMClient(choice.endpoint), choice.note)
