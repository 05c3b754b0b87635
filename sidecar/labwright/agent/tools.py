"""Tools the model may call: a name, an arguments model and a handler.

The JSON schema the model sees is derived from the arguments model, so the
schema and the code that reads the arguments cannot disagree. Arguments are
validated before the handler runs: a bad call is the model's mistake and
becomes an instructional tool result. An exception raised inside a handler is
ours (the seed dispatched by `getattr` and reported any `TypeError` as "bad
arguments", which hid real bugs), so it is logged with its traceback and the
run is told, while the model gets one neutral sentence.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from labwright.llm.model import JsonObject, JsonValue, ToolSchema

log = logging.getLogger(__name__)

A = TypeVar("A", bound=BaseModel)


class ToolArguments(BaseModel):
    """Base of every tool's arguments: unknown keys are a mistake the model is told about."""

    model_config = ConfigDict(extra="forbid")


class BadArguments(Exception):
    """The model's arguments do not fit the tool's arguments model (message: what is wrong)."""


class ToolRefusal(Exception):
    """A handler's expected refusal (a path outside the folder): its text goes to the model."""


@dataclass(frozen=True)
class Tool(Generic[A]):
    name: str
    description: str
    arguments: type[A]
    handler: Callable[[A], str]

    def schema(self) -> ToolSchema:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": _clean(self.arguments.model_json_schema()),
            },
        }

    def run(self, arguments: JsonObject) -> str:
        """Validate, then handle. Raises BadArguments for the model's mistakes only."""
        try:
            parsed = self.arguments.model_validate(arguments)
        except ValidationError as error:
            raise BadArguments(_argument_problem(error)) from error
        return self.handler(parsed)


class AnyTool(Protocol):
    """A Tool with its arguments type erased, so one box holds tools of different arguments."""

    @property
    def name(self) -> str: ...

    def schema(self) -> ToolSchema: ...

    def run(self, arguments: JsonObject) -> str: ...


@dataclass(frozen=True)
class ToolOutcome:
    output: str
    #: Set when the handler raised: a bug in Labwright, already logged.
    bug: str | None = None


def _clean(schema: JsonObject) -> JsonObject:
    """Drop pydantic's titles: they cost prompt tokens and tell the model nothing."""
    cleaned: JsonObject = {}
    for key, value in schema.items():
        if key == "title":
            continue
        if key == "properties" and isinstance(value, dict):
            cleaned[key] = {
                name: _clean(prop) if isinstance(prop, dict) else prop
                for name, prop in value.items()
            }
        elif key == "additionalProperties":
            continue  # not every provider accepts it; extra keys are refused on our side
        else:
            cleaned[key] = _clean_value(value)
    return cleaned


def _clean_value(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return _clean(value)
    if isinstance(value, list):
        return [_clean_value(v) for v in value]
    return value


def _argument_problem(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


class ToolBox:
    """The tools of one tool loop, dispatched by name."""

    def __init__(self, tools: Sequence[AnyTool]) -> None:
        self._tools = {tool.name: tool for tool in tools}

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[ToolSchema]:
        return [tool.schema() for tool in self._tools.values()]

    def call(self, name: str, arguments: JsonObject) -> ToolOutcome:
        tool = self._tools.get(name)
        if tool is None:
            return ToolOutcome(
                f"There is no tool named {name}; use one of {', '.join(self._tools)}."
            )
        try:
            return ToolOutcome(tool.run(arguments))
        except BadArguments as error:
            return ToolOutcome(
                f"The arguments for {name} were not right ({error}); check the tool's parameters."
            )
        except ToolRefusal as refusal:
            return ToolOutcome(str(refusal))
        except Exception as exc:  # noqa: BLE001 - our bug: logged, reported, the run goes on
            log.exception("tool %s failed: this is a bug in Labwright", name)
            return ToolOutcome(
                f"The tool {name} failed because of an internal error; try another tool.",
                bug=f"The {name} tool failed with an internal error ({type(exc).__name__}); the run went on without it.",
            )
