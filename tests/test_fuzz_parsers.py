"""No input crashes a parser: every agent format, the classifier and validation, fuzzed.

Fixed seeds (``derandomize``) and fixed example counts keep CI reproducible: 31,000 examples in
all, a few tens of seconds on one core. Besides "no exception", each fuzz checks the fail-safe
promise: an unknown or garbage stream is never a success.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from autofix.agents.registry import get_format, parse_output
from autofix.classify.classifier import Classifier
from autofix.parser import ResponseParser
from autofix.patterns.loader import defaults
from autofix.result import ParseResult, Status
from autofix.validation.validator import OutputValidator

EVENT_FORMATS = ("claude", "codex", "gemini", "wrapper", "openai")
FORMATS = (*EVENT_FORMATS, "plain")

# Examples per fuzz; the total is asserted below so a cut cannot go unnoticed.
PARSER_EXAMPLES = 3_000  # per format: structured events of every shape and type
GARBAGE_EXAMPLES = 1_000  # per event format: streams that cannot hold a terminal event
CLASSIFIER_EXAMPLES = 4_000
VALIDATION_EXAMPLES = 3_000
TOTAL_EXAMPLES = (
    PARSER_EXAMPLES * len(FORMATS)
    + GARBAGE_EXAMPLES * len(EVENT_FORMATS)
    + CLASSIFIER_EXAMPLES
    + VALIDATION_EXAMPLES
)
assert TOTAL_EXAMPLES >= 30_000


def fuzz(count: int) -> Any:
    return settings(
        max_examples=examples(count),
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


# The vocabulary of every format, so generated events reach deep into each parser.
KEYS = [
    "type",
    "subtype",
    "is_error",
    "result",
    "errors",
    "message",
    "content",
    "role",
    "delta",
    "stop_reason",
    "session_id",
    "usage",
    "total_cost_usd",
    "cost_usd",
    "num_turns",
    "structured_output",
    "item",
    "text",
    "thread_id",
    "error",
    "status",
    "stats",
    "response",
    "event",
    "kind",
    "tries",
    "reason",
    "model",
    "models",
    "tokens",
    "api_error_status",
    "rate_limit_info",
    "rateLimitType",
    "severity",
    "finish_reason",
    "finishReason",
    "refusal",
    "input",
    "name",
    "code",
    "payload",
    "message_type",
    "data",
    "details",
    "last_session_id",
    "id",
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "prompt",
    "candidates",
    "total",
]
WORDS = [
    "system",
    "init",
    "assistant",
    "user",
    "result",
    "success",
    "error",
    "error_max_turns",
    "error_during_execution",
    "rate_limit_event",
    "rejected",
    "five_hour",
    "thread.started",
    "item.completed",
    "agent_message",
    "turn.completed",
    "turn.failed",
    "message",
    "tool_use",
    "tool_result",
    "StructuredOutput",
    "response",
    "retry",
    "run_started",
    "run_completed",
    "run_failed",
    "run_cancelled",
    "run_terminated",
    "stream",
    "limit_notice",
    "fatal",
    "state",
    "ResultMessage",
    "AssistantMessage",
    "SystemMessage",
    "ok",
    "limit_reached",
    "max_tokens",
    "refusal",
    "SAFETY",
    "FatalAuthenticationError",
    "429",
    "rate_limit",
    "auth",
    "text",
]

HOSTILE_SCALARS = [None, True, False, 0, -1, 2**63, -(2**63), 10**300, 1e308, -1e308]
HOSTILE_SCALARS += [math.inf, -math.inf, math.nan, 0.5, "", "\x00", "\ud800", "\x1b[31m"]


def event_pool(size: int, seed: int, keys: list[str] = KEYS) -> list[str]:
    """Event lines of every shape: known keys holding values of any type, nested a little.

    Built once from a seeded generator: hypothesis then combines them into streams, far faster
    than drawing nested JSON for every example (~1.5 ms an example instead of ~15).
    """
    rnd = random.Random(seed)
    alphabet = 'ab{}[]":,\\\x00é'

    def value(depth: int) -> Any:
        roll = rnd.random()
        if depth > 3 or roll < 0.55:
            if rnd.random() < 0.8:
                return rnd.choice([*HOSTILE_SCALARS, *WORDS])
            return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 8)))
        if roll < 0.75:
            return [value(depth + 1) for _ in range(rnd.randint(0, 3))]
        return {rnd.choice(keys): value(depth + 1) for _ in range(rnd.randint(0, 5))}

    return [
        dumps({rnd.choice(keys): value(1) for _ in range(rnd.randint(1, 6))}) for _ in range(size)
    ]


def deep(n: int, opening: str = "[") -> str:
    closing = "]" if opening == "[" else "}"
    inner = "[" * n if opening == "[" else '{"a":' * n
    return inner + "1" + closing * n if opening == "{" else inner + closing * n


def dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=True, default=str)


RAW_LINES = st.one_of(
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.sampled_from(
        [
            deep(2_500),
            deep(2_500, "{"),
            "[" * 3_000,
            '{"type": "result", "num_turns": ' + "9" * 5_000 + "}",
            '{"type": "result", "total_cost_usd": 1e999}',
            "{\x00}",
            '{"type": "\\u0000"}',
            "\ud800\udfff",
        ]
    ),
)


EVENTS = st.sampled_from(event_pool(5_000, seed=13))
# Keys no format reads: such a stream holds no terminal event, so it can never be a success.
UNKNOWN_EVENTS = st.sampled_from(event_pool(2_000, seed=17, keys=[f"x-{key}" for key in KEYS]))
STREAMS = st.lists(st.one_of(EVENTS, RAW_LINES), max_size=6)
GARBAGE_STREAMS = st.lists(st.one_of(UNKNOWN_EVENTS, RAW_LINES), max_size=6)
EXIT_CODES = st.one_of(st.none(), st.integers(-20, 300))
STDERR_TAILS = st.one_of(st.just(""), RAW_LINES, EVENTS)


# A NUL as JSON writes it: \u0000 after an even number of backslashes (not the text "\\u0000").
NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def verdict(fmt: str, lines: list[str], exit_code: int | None, stderr: str) -> ParseResult:
    """Feed ``lines`` line by line as the runner does, then decide as the task does."""
    agent_format = get_format(fmt)
    parser = agent_format.parser()
    parser.text_output = False  # as a task that asked for the format's events (the default)
    for line in lines:
        for part in line.splitlines() or [""]:
            parser.feed(part)
    outcome = parser.finish(exit_code, stderr)
    if not agent_format.has_event_stream:
        return ResponseParser().parse(exit_code, stderr, "\n".join(lines))
    result = ResponseParser().parse(exit_code, stderr, agent_outcome=outcome)
    stored = json.dumps(
        result.model_dump(mode="json"), allow_nan=False
    )  # strict JSON, as PostgreSQL wants
    assert not NUL_ESCAPE.search(stored)
    return result


@pytest.mark.parametrize("fmt", FORMATS)
def test_fuzz_every_format_survives_any_events(fmt: str) -> None:
    @fuzz(PARSER_EXAMPLES)
    @given(STREAMS, EXIT_CODES, STDERR_TAILS)
    def run(lines: list[str], exit_code: int | None, stderr: str) -> None:
        result = verdict(fmt, lines, exit_code, stderr)
        if exit_code != 0:
            assert not result.success

    run()


@pytest.mark.parametrize("fmt", EVENT_FORMATS)
def test_fuzz_garbage_is_never_a_success(fmt: str) -> None:
    @fuzz(GARBAGE_EXAMPLES)
    @given(GARBAGE_STREAMS, EXIT_CODES, STDERR_TAILS)
    def run(lines: list[str], exit_code: int | None, stderr: str) -> None:
        result = verdict(fmt, lines, exit_code, stderr)
        assert not result.success, (lines, result.status)

    run()


RULES = defaults()


@fuzz(CLASSIFIER_EXAMPLES)
@given(
    st.lists(st.one_of(st.binary(max_size=200), st.text(max_size=200)), max_size=6),
    st.sampled_from(["stderr", "stdout"]),
)
def test_fuzz_classifier_survives_any_bytes(chunks: list[bytes | str], stream: str) -> None:
    classifier = Classifier(RULES, "fuzz", stream=stream)
    for chunk in chunks:
        classifier.feed(chunk)
    report = classifier.finish()
    assert report.total_lines >= 0
    for block in report.blocks:
        assert "\x00" not in block.text


class Answer(BaseModel):
    answer_code: int
    answer_text: str = Field(min_length=1)


ANSWER_TEXTS = st.one_of(
    st.text(max_size=120),
    st.sampled_from(KEYS).map(lambda key: f'{{"{key}": 1}}'),
    RAW_LINES,
    EVENTS,
    st.sampled_from(["```json\n" + deep(3_000), "```yaml\n" + "- " * 3_000 + "x\n```"]),
)


@fuzz(VALIDATION_EXAMPLES)
@given(ANSWER_TEXTS, st.sampled_from([None, "stop", "length", "refusal", [], {}]))
def test_fuzz_validation_survives_any_answer(text: str, finish: object) -> None:
    outcome = OutputValidator(Answer).validate(text, finish)
    if outcome.status is Status.COMPLETED:
        assert "answer_code" in text  # garbage never validates


HOSTILE = {
    "deep arrays": [deep(2_500)],
    "deep objects": [deep(2_500, "{")],
    "type is a list": ['{"type": []}', '{"event": []}', '{"type": {}}'],
    "content is a number": [
        '{"type": "assistant", "message": {"content": 5}}',
        '{"type": "message", "role": "assistant", "content": 5}',
        '{"type": "item.completed", "item": []}',
    ],
    "wrong result types": [
        '{"type": "result", "subtype": [], "errors": 5, "usage": "x", "num_turns": "3"}',
        '{"type": "result", "status": "error", "error": {"message": [1], "code": 1e999}}',
        '{"event": "run_failed", "error": {}, "reason": []}',
        '{"event": "error", "kind": [], "message": {}}',
    ],
    "huge numbers": [
        '{"type": "result", "subtype": "error_x", "total_cost_usd": 1e999, "num_turns": 1e308}',
        '{"type": "turn.failed", "usage": {"input_tokens": 1e308, "output_tokens": -1e308}}',
    ],
    "invalid utf-8": [b"\xff\xfe{\x80}".decode("utf-8", "surrogateescape")],
    "NUL bytes": ['{"type": "result", "subtype": "error\\u0000", "result": "a\\u0000b"}', "\x00"],
}


def hostile_lines() -> Iterator[tuple[str, str, list[str]]]:
    for fmt in FORMATS:
        for name, lines in HOSTILE.items():
            yield fmt, name, lines


@pytest.mark.parametrize(("fmt", "name", "lines"), list(hostile_lines()))
def test_hostile_streams_fail_safe_and_are_reported(fmt: str, name: str, lines: list[str]) -> None:
    result = verdict(fmt, lines, 0, "")
    if fmt == "plain":
        return  # stdout is ordinary program output: the exit code decides
    assert not result.success
    assert "\x00" not in result.error_message
    outcome = parse_output(fmt, lines, 0)
    if name in ("deep arrays", "deep objects"):
        assert outcome.unreadable_events == 1
        assert any("nested deeper than 100" in w for w in result.warnings)


def test_fuzz_budget() -> None:
    """One pass over every format and hostile input stays fast: the fuzz fits in make test."""
    started = time.monotonic()
    for fmt, _, lines in hostile_lines():
        verdict(fmt, lines * 20, 1, "")
    assert time.monotonic() - started < 10


@pytest.mark.airflow
def test_an_answer_with_serde_reserved_keys_round_trips_through_xcom_serde() -> None:
    from airflow.sdk.serde import deserialize, serialize

    data = {"__classname__": "builtins.dict", "__id__": 1, "x": [{"__classname__": "y"}]}
    result = ParseResult(success=True, status=Status.COMPLETED, data=data)
    stored = json.loads(json.dumps(serialize(result)))  # what the xcom table holds
    assert deserialize(stored).data == data
