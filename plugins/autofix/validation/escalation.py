"""The escalation attempt: another llm, agent or model, and extra context, on identical errors."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofix.config import EscalationSettings, resolve
from autofix.errors import ConfigError
from autofix.redact import redact
from autofix.validation.records import AttemptRecord

ContextCallable = Callable[[Sequence[AttemptRecord]], str | None]


@dataclass(frozen=True)
class Escalation:
    """One extra attempt, on identical errors, before giving up.

    ``llm``: another callable to use (plain Python). ``agent``/``model``: names an operator
    acts on; ``generate_and_validate`` passes ``model=`` to an llm that accepts it.
    ``context_file``/``context_callable``: extra context added to the feedback; the
    callable (or its ``"pkg.mod:func"`` path) gets the attempt history and returns text.
    """

    llm: Callable[..., object] | None = None
    agent: str | None = None
    model: str | None = None
    context_file: str | Path | None = None
    context_callable: ContextCallable | str | None = None

    @classmethod
    def from_settings(cls, settings: EscalationSettings) -> Escalation:
        """Build from config, failing fast on a bad callable path or a missing file."""
        if settings.context_callable:
            _import_callable(settings.context_callable, "validation.escalation.context_callable")
        if settings.context_file and not resolve(settings.context_file).is_file():
            raise ConfigError(
                f"validation.escalation.context_file: file not found: {resolve(settings.context_file)}"
            )
        return cls(
            agent=settings.agent,
            model=settings.model,
            context_file=settings.context_file,
            context_callable=settings.context_callable,
        )

    @property
    def switches_agent(self) -> bool:
        return self.llm is not None or self.agent is not None or self.model is not None

    def context(self, history: Sequence[AttemptRecord]) -> str | None:
        """The extra context text (file first, then callable), redacted."""
        parts: list[str] = []
        if self.context_file:
            parts.append(resolve(self.context_file).read_text(encoding="utf-8"))
        if self.context_callable is not None:
            func = (
                _import_callable(self.context_callable, "escalation.context_callable")
                if isinstance(self.context_callable, str)
                else self.context_callable
            )
            extra = func(history)
            if extra:
                parts.append(str(extra))
        return redact("\n\n".join(p.strip() for p in parts)) if parts else None


def _import_callable(path: str, key: str) -> ContextCallable:
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"{key}: {path!r} must look like 'package.module:function'")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"{key}: cannot import {path!r}: {exc}") from exc
    if not callable(target):
        raise ConfigError(f"{key}: {path!r} is not callable")
    return target  # type: ignore[no-any-return]
