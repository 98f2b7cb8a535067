"""``generate_and_validate``: the plain-Python way in, for any LLM callable."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import TypeVar, cast

from pydantic import BaseModel

from autofix.config import ValidationSettings
from autofix.validation.loop import AttemptLoop, OnAttempt
from autofix.validation.policy import AttemptPolicy, AttemptRequest, ResumeMode
from autofix.validation.records import AttemptMode, ValidationRun, raise_for_run
from autofix.validation.schema import resolve_schema
from autofix.validation.validator import OutputValidator

M = TypeVar("M", bound=BaseModel)
Message = dict[str, str]
LLMCallable = Callable[..., object]  # (messages: list[Message], **kwargs) -> str | reply object


def _accepts_kwarg(llm: LLMCallable, name: str) -> bool:
    try:
        params = inspect.signature(llm).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def messages_for(request: AttemptRequest, system: str | None = None) -> list[Message]:
    """The message list for one attempt: [system] + one user message.

    A fixed size: the original prompt, or the original prompt + the invalid output + the errors;
    never the growing conversation (unless the ``history`` strategy asks for it). A resumed
    attempt sends only the feedback: the session already holds the prompt and the last answer.
    """
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
    *,
    policy: AttemptPolicy | None = None,
    validator: OutputValidator | None = None,
    system: str | None = None,
    resumable: bool = False,
    on_attempt: OnAttempt | None = None,
    operation: str = "generate_and_validate",
    run_id: str | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> ValidationRun[M]:
    """Ask ``llm`` for output matching ``schema``; retry with error feedback until valid.

        run = generate_and_validate(prompt, Strategy, llm, policy=AttemptPolicy(max_attempts=3))
        run.value        # a validated Strategy
        run.attempts     # every AttemptRecord (prompt sent, output, errors, repairs, ...)

    ``llm(messages)`` gets ``[{"role": "system"|"user", "content": str}, ...]`` (see
    ``messages_for``) and returns a string or a reply object (see ``reply.coerce_reply``).

    ``policy``: attempts, delay, identical-error abort, escalation, report directory and retry
    strategy; None = the ``validation:`` config section's defaults, without reading the file
    (``AttemptPolicy.from_config()`` reads config/autofix.yaml and ``AUTOFIX__VALIDATION__*``).
    ``validator``: an OutputValidator for ``schema`` carrying semantic validators, a normaliser,
    a format, strict repairs or allow_empty; None = ``OutputValidator(schema)``.
    ``resumable``: the callable keeps the conversation itself (a chat session object, a wrapper
    around ``claude --resume``), so retries send only the feedback as one user message.

    The retry strategy (``policy.strategy``): an llm that accepts ``seed_offset=`` /
    ``constrained=`` keywords gets them (a resampling strategy's fresh draw; send the schema as
    ``response_format``). ``auto`` is ``adaptive`` with the schema when the llm takes both,
    ``feedback`` otherwise.

    Raises ValidationRefusedError (status ``refused``, 1 call) or ValidationExhaustedError
    (attempts ran out, or identical errors twice in a row); both carry every attempt's
    errors, the last output and the failure report path.
    """
    policy = policy or AttemptPolicy.from_settings(ValidationSettings())
    strategy_kwargs = [name for name in ("seed_offset", "constrained") if _accepts_kwarg(llm, name)]
    # "auto": an llm that takes both keywords can resample and be constrained.
    policy = policy.resolved(samples=len(strategy_kwargs) == 2)
    esc = policy.escalation
    if (
        esc is not None
        and esc.llm is None
        and esc.model is not None
        and not _accepts_kwarg(llm, "model")
    ):
        raise ValueError(
            f"escalation.model={esc.model!r} needs an llm that accepts a model= keyword, "
            "or pass Escalation(llm=...) with the other model's callable"
        )
    if esc is not None and esc.agent is not None and esc.llm is None:
        raise ValueError(
            f"escalation.agent={esc.agent!r} is for the Airflow operator; pass Escalation(llm=...) here"
        )
    if validator is None:
        validator = OutputValidator(schema)
    elif validator.model is not (model := resolve_schema(schema)):
        raise ValueError(f"the validator checks {validator.model.__name__}, not {model.__name__}")

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
