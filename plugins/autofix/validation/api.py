"""``generate_and_validate``: the plain-Python way in, for any LLM callable.

    run = generate_and_validate(prompt, Strategy, llm)
    run.value        # a validated Strategy
    run.attempts     # every AttemptRecord (prompt sent, output, errors, repairs, ...)

``llm(messages)`` gets ``[{"role": "system"|"user", "content": str}, ...]`` and returns a
string or a reply object (see ``reply.coerce_reply``). Every call sends a fixed-size
message list: the original prompt, or the original prompt + the invalid output + the
errors; never the growing conversation.

Session-resume callables: pass ``resumable=True`` when the callable keeps the
conversation itself (a chat session object, a wrapper around ``claude --resume``). Then
retries send only the feedback as one user message, since the session already holds
the original prompt and the previous answer.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar, cast

from pydantic import BaseModel

from autofix.config import ValidationSettings
from autofix.validation.adaptive import AdaptiveAdvisor
from autofix.validation.escalation import Escalation
from autofix.validation.extract import PayloadFormat
from autofix.validation.field_errors import SemanticValidator
from autofix.validation.loop import AttemptLoop, OnAttempt
from autofix.validation.policy import AttemptPolicy, AttemptRequest, ResumeMode
from autofix.validation.records import AttemptMode, ValidationRun, raise_for_run
from autofix.validation.repair import Normaliser
from autofix.validation.strategies import FeedbackStyle
from autofix.validation.validator import OutputValidator

M = TypeVar("M", bound=BaseModel)
Message = dict[str, str]
LLMCallable = Callable[..., object]  # (messages: list[Message], **kwargs) -> str | reply object


def _accepts_model_kwarg(llm: LLMCallable, name: str = "model") -> bool:
    try:
        params = inspect.signature(llm).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def messages_for(request: AttemptRequest, system: str | None = None) -> list[Message]:
    """The message list for one attempt: [system] + one user message (none growing)."""
    messages: list[Message] = []
    if system and request.mode != AttemptMode.RESUMED:
        messages.append({"role": "system", "content": system})
    if request.messages is not None:  # the ``history`` strategy: the whole conversation
        return messages + [dict(message) for message in request.messages]
    messages.append({"role": "user", "content": request.prompt})
    return messages


def generate_and_validate(
    prompt: str,
    schema: type[M] | str,
    llm: LLMCallable,
    max_attempts: int | None = None,
    *,
    settings: ValidationSettings | None = None,
    retry_enabled: bool | None = None,
    retry_delay_seconds: float | None = None,
    abort_on_identical_errors: bool | None = None,
    max_errors_shown: int | None = None,
    escalation: Escalation | None = None,
    report_dir: str | Path | None = None,
    semantic_validators: Sequence[SemanticValidator] = (),
    normaliser: Normaliser | None = None,
    fmt: PayloadFormat | None = None,
    strict_repairs: bool | None = None,
    allow_empty: bool = False,
    system: str | None = None,
    resumable: bool = False,
    on_attempt: OnAttempt | None = None,
    operation: str = "generate_and_validate",
    run_id: str | None = None,
    sleep: Callable[[float], None] = time.sleep,
    strategy: str | None = None,
    constrained: bool | None = None,
    feedback_style: FeedbackStyle | None = None,
    advisor: AdaptiveAdvisor | None = None,
) -> ValidationRun[M]:
    """Ask ``llm`` for output matching ``schema``; retry with error feedback until valid.

    Policy: ``settings`` (e.g. ``load_config().validation`` for config/autofix.yaml plus
    ``AUTOFIX__VALIDATION__*`` env) or built-in defaults (3 attempts), overridden by any
    keyword given here. Returns a ValidationRun whose ``value`` is the validated model.

    ``strategy`` (auto | feedback | resample | feedback+resample | history | constrained |
    adaptive): what a retry sends. An llm that accepts ``seed_offset=`` / ``constrained=``
    keywords gets them (a resampling strategy's fresh draw; send the schema as
    ``response_format``). ``auto`` is ``adaptive`` with the schema when the llm takes both,
    ``feedback`` otherwise.

    Raises ValidationRefusedError (status ``refused``, 1 call) or ValidationExhaustedError
    (attempts ran out, or identical errors twice in a row); both carry every attempt's
    errors, the last output and the failure report path.
    """
    base = settings or ValidationSettings()
    policy = AttemptPolicy.from_settings(
        base,
        max_attempts=max_attempts,
        retry_enabled=retry_enabled,
        retry_delay_seconds=retry_delay_seconds,
        abort_on_identical_errors=abort_on_identical_errors,
        max_errors_shown=max_errors_shown,
        escalation=escalation,
        report_dir=report_dir,
        strategy=strategy,
        constrained=constrained,
        feedback_style=feedback_style,
        advisor=advisor,
    )
    strategy_kwargs = [
        name for name in ("seed_offset", "constrained") if _accepts_model_kwarg(llm, name)
    ]
    # "auto": an llm that takes both keywords can resample and be constrained.
    policy = policy.resolved(samples=len(strategy_kwargs) == 2)
    esc = policy.escalation
    if (
        esc is not None
        and esc.llm is None
        and esc.model is not None
        and not _accepts_model_kwarg(llm)
    ):
        raise ValueError(
            f"escalation.model={esc.model!r} needs an llm that accepts a model= keyword, "
            "or pass Escalation(llm=...) with the other model's callable"
        )
    if esc is not None and esc.agent is not None and esc.llm is None:
        raise ValueError(
            f"escalation.agent={esc.agent!r} is for the Airflow operator; pass Escalation(llm=...) here"
        )
    validator = OutputValidator(
        schema,
        semantic_validators=semantic_validators,
        normaliser=normaliser,
        fmt=fmt,
        strict_repairs=base.strict_repairs if strict_repairs is None else strict_repairs,
        allow_empty=allow_empty,
    )

    def call(request: AttemptRequest) -> object:
        messages = messages_for(request, system)
        escalation_now = request.escalation
        if escalation_now is not None and escalation_now.llm is not None:
            return escalation_now.llm(messages)
        if escalation_now is not None and escalation_now.model is not None:
            return llm(messages, model=escalation_now.model)
        extra = {
            name: getattr(request, name)
            for name in strategy_kwargs
            if getattr(request, name) != (0 if name == "seed_offset" else False)
        }
        return llm(messages, **extra)

    loop = AttemptLoop(
        validator,
        policy,
        operation=operation,
        run_id=run_id,
        resume=ResumeMode.ALWAYS if resumable else ResumeMode.NEVER,
        on_attempt=on_attempt,
        sleep=sleep,
    )
    run = raise_for_run(loop.run(prompt, call), operation)
    return cast(ValidationRun[M], run)
