"""Models and a scripted LLM shared by the validation tests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from autofix.validation.reply import LLMReply


class Indicator(BaseModel):
    name: str = Field(pattern=r"^[a-z_]+$")
    period: int = Field(ge=1, le=200)
    kind: Literal["trend", "momentum"] = "trend"


class Indicators(BaseModel):
    technical_indicators: list[Indicator]


class Strategy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    indicators: Indicators
    risk: float = Field(ge=0, le=1)
    tags: list[str] = []


class TestConfig(BaseModel):
    """A YAML-answered model."""

    __test__: ClassVar[bool] = False  # not a pytest class
    __autofix_format__: ClassVar[str] = "yaml"

    suite: str
    parallel: int = Field(ge=1)
    paths: list[str]


VALID: dict[str, Any] = {
    "name": "trend_follow",
    "indicators": {"technical_indicators": [{"name": "rsi", "period": 14}]},
    "risk": 0.2,
}


def valid_json(**changes: Any) -> str:
    return json.dumps({**VALID, **changes})


def fenced(text: str, lang: str = "json") -> str:
    return f"Here is the strategy:\n```{lang}\n{text}\n```\nLet me know if you need more."


class ScriptedLLM:
    """Returns the scripted answers in order and records every message list it got."""

    def __init__(self, answers: Iterable[str | LLMReply | object]) -> None:
        self.answers = list(answers)
        self.calls: list[list[dict[str, str]]] = []

    def __call__(self, messages: list[dict[str, str]]) -> object:
        self.calls.append(messages)
        if len(self.calls) > len(self.answers):
            raise AssertionError(
                f"unexpected call {len(self.calls)}: only {len(self.answers)} scripted"
            )
        return self.answers[len(self.calls) - 1]

    @property
    def prompts(self) -> list[str]:
        return [call[-1]["content"] for call in self.calls]
