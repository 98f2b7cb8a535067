"""Cross-field rules: checked as semantic validators, folded into the decoding schema, and solved
for the fields a targeted retry decodes again."""

from __future__ import annotations

import json
from typing import Any, Literal

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from autofix.agents.openai.grammar import schema_grammar
from autofix.errors import AutofixError
from autofix.result import ErrorCategory, RetryStrategy
from autofix.validation.cross_field import (
    CrossFieldRuleError,
    Exclusive,
    Ordered,
    Total,
    When,
    complement,
    holds,
)
from autofix.validation.decoding import (
    DecodingSchemas,
    constrain,
    rules_schema,
    targeted_schema,
)
from autofix.validation.policy import AttemptPolicy
from autofix.validation.records import AttemptMode, AttemptRecord
from autofix.validation.validator import OutputValidator


class Review(BaseModel):
    type: Literal["recommendation", "no_action"]
    items: list[str]
    confidence: float = Field(ge=0, le=1)

    __autofix_rules__ = [
        When({"type": "recommendation"}, {"items": {"minItems": 1}}),
        When({"type": "no_action"}, {"items": {"maxItems": 0}}),
    ]


class Alert(BaseModel):
    severity: Literal["sev1", "sev2", "sev3"]
    retries: int = Field(ge=0, le=5)
    retry_delay_s: int | None = Field(default=None, ge=1, le=3600)
    ticket_url: str | None = None
    chat_channel: str | None = None

    __autofix_rules__ = [
        When({"retries": {"minimum": 1}}, {"retry_delay_s": {"present": True}}),
        Exclusive(("ticket_url", "chat_channel"), required=True),
    ]


class Window(BaseModel):
    start_hour: int = Field(ge=0, le=23)
    end_hour: int = Field(ge=0, le=23)
    cpu: int = Field(ge=0, le=100)
    memory: int = Field(ge=0, le=100)
    disk: int = Field(ge=0, le=100)

    __autofix_rules__ = [
        Ordered(("start_hour", "end_hour"), strict=True),
        Total(("cpu", "memory", "disk"), equals=100),
    ]


def outcome(model: type[BaseModel], data: dict[str, Any]) -> Any:
    return OutputValidator(model, allow_empty=True).validate(json.dumps(data))


# -- the rules as validators -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "data", "path", "words"),
    [
        (Review, {"type": "recommendation", "items": [], "confidence": 0.5}, "items", "at least 1"),
        (Review, {"type": "no_action", "items": ["x"], "confidence": 0.5}, "items", "at most 0"),
        (Alert, {"severity": "sev1", "retries": 2, "chat_channel": "#a"}, "retry_delay_s", "given"),
        (
            Alert,
            {"severity": "sev1", "retries": 0, "ticket_url": "u", "chat_channel": "#a"},
            "chat_channel",
            "exclude each other",
        ),
        (Alert, {"severity": "sev1", "retries": 0}, "ticket_url", "exactly one"),
        (
            Window,
            {"start_hour": 9, "end_hour": 9, "cpu": 50, "memory": 30, "disk": 20},
            "end_hour",
            "must be >",
        ),
        (
            Window,
            {"start_hour": 9, "end_hour": 17, "cpu": 50, "memory": 30, "disk": 30},
            "disk",
            "is 110; it must be 100",
        ),
    ],
)
def test_a_broken_rule_is_a_semantic_error_on_the_field_to_decode_again(
    model: type[BaseModel], data: dict[str, Any], path: str, words: str
) -> None:
    found = outcome(model, data)
    assert not found.ok
    [error] = found.errors
    assert error.category is ErrorCategory.SEMANTIC_ERROR
    assert error.path == path
    assert words in error.message


@pytest.mark.parametrize(
    ("model", "data"),
    [
        (Review, {"type": "no_action", "items": [], "confidence": 0.9}),
        (Alert, {"severity": "sev2", "retries": 0, "ticket_url": "u"}),
        (Alert, {"severity": "sev2", "retries": 3, "retry_delay_s": 30, "chat_channel": "#a"}),
        (Window, {"start_hour": 8, "end_hour": 18, "cpu": 50, "memory": 25, "disk": 25}),
    ],
)
def test_an_answer_that_keeps_the_rules_is_valid(model: type[BaseModel], data: Any) -> None:
    assert outcome(model, data).ok


def test_a_model_declaring_something_else_as_rules_is_refused_with_what_to_give() -> None:
    class Bad(BaseModel):
        x: int
        __autofix_rules__ = ["x > 0"]

    with pytest.raises(CrossFieldRuleError, match="must be a list of When, Exclusive"):
        OutputValidator(Bad)


def test_malformed_rules_say_what_is_allowed() -> None:
    with pytest.raises(CrossFieldRuleError, match="unknown keyword"):
        When({"a": {"format": "email"}}, {"b": 1})
    with pytest.raises(CrossFieldRuleError, match="is not a regex"):
        When({"a": 1}, {"b": {"pattern": "(unclosed"}})
    with pytest.raises(CrossFieldRuleError, match="at least two"):
        Ordered(("a",))
    with pytest.raises(CrossFieldRuleError, match="equals, at_most or at_least"):
        Total(("a", "b"))


def test_complements_exist_only_where_the_schema_can_say_them() -> None:
    assert complement({"const": "a"}, {"enum": ["a", "b", "c"]}) == {"enum": ["b", "c"]}
    assert complement({"const": True}, {"type": "boolean"}) == {"enum": [False]}
    assert complement({"minimum": 1}, {"type": "integer"}) == {"exclusiveMaximum": 1}
    assert complement({"present": True}, {}) == {"present": False}
    assert complement({"const": "a"}, {"type": "string"}) is None  # any other string
    assert complement({"minimum": 1, "maximum": 3}, {"type": "integer"}) is None


# -- folded into the decoding schema: it accepts exactly what the model and its rules accept --


def _accepts(schema: dict[str, Any], data: Any) -> bool:
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError:
        return False
    return True


def _valid(model: type[BaseModel], data: Any) -> bool:
    return OutputValidator(model, allow_empty=True).validate(json.dumps(data)).ok


alerts = st.fixed_dictionaries(
    {"severity": st.sampled_from(["sev1", "sev2", "sev3"]), "retries": st.integers(0, 5)},
    optional={
        "retry_delay_s": st.one_of(st.none(), st.integers(1, 3600)),
        "ticket_url": st.one_of(st.none(), st.just("https://t/1")),
        "chat_channel": st.one_of(st.none(), st.just("#ops")),
    },
)
reviews = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["recommendation", "no_action"]),
        "items": st.lists(st.just("x"), max_size=2),
        "confidence": st.sampled_from([0, 0.5, 1]),
    }
)


@settings(max_examples=300, deadline=None)
@given(data=alerts)
def test_the_folded_schema_accepts_exactly_the_valid_alerts(data: dict[str, Any]) -> None:
    schema = rules_schema(Alert.model_json_schema(), Alert.__autofix_rules__)
    assert schema is not None
    assert _accepts(schema, data) == _valid(Alert, data)


@settings(max_examples=100, deadline=None)
@given(data=reviews)
def test_the_folded_schema_accepts_exactly_the_valid_reviews(data: dict[str, Any]) -> None:
    schema = rules_schema(Review.model_json_schema(), Review.__autofix_rules__)
    assert schema is not None
    assert _accepts(schema, data) == _valid(Review, data)


def test_rules_the_schema_cannot_say_leave_it_alone_and_the_grammar_builds() -> None:
    assert rules_schema(Window.model_json_schema(), Window.__autofix_rules__) is None
    for model in (Review, Alert):
        folded = rules_schema(model.model_json_schema(), model.__autofix_rules__)
        assert folded is not None and len(folded["anyOf"]) >= 2
        assert "root ::= alternative-0 | alternative-1" in schema_grammar(folded)


# -- the targeted re-decode -------------------------------------------------------------------


def window_retry(data: dict[str, Any]) -> dict[str, Any]:
    """The targeted retry's schema after a Window answer ``data``."""
    found = outcome(Window, data)
    schema = targeted_schema(
        Window.model_json_schema(), found.data, found.errors, Window.__autofix_rules__
    )
    assert schema is not None
    return schema


def test_a_targeted_schema_keeps_the_valid_fields_and_solves_the_broken_one() -> None:
    data = {"start_hour": 14, "end_hour": 9, "cpu": 50, "memory": 30, "disk": 20}
    schema = window_retry(data)
    assert list(schema["properties"]) == ["start_hour", "cpu", "memory", "disk", "end_hour"]
    assert schema["properties"]["cpu"] == {"const": 50}
    assert schema["properties"]["end_hour"]["exclusiveMinimum"] == 14
    end_rule = next(r for r in schema_grammar(schema).splitlines() if r.startswith("end-hour ::="))
    assert '"1" [5-9]' in end_rule and '"2" [0-3]' in end_rule  # 15..23: the bound is exact
    # a broken total is solved for its last field, from the others
    fixed = {**data, "end_hour": 20, "disk": 35}
    assert window_retry(fixed)["properties"]["disk"] == {"const": 20}
    assert _valid(Window, {**fixed, "disk": 20})


def test_a_total_is_solved_for_the_last_field_whose_bounds_admit_the_rest() -> None:
    schema = window_retry({"start_hour": 1, "end_hour": 2, "cpu": 50, "memory": 80, "disk": 0})
    assert schema["properties"]["memory"] == {"const": 50}  # disk would need -30
    assert schema["properties"]["disk"] == {"const": 0}


def test_a_total_no_one_field_can_meet_is_spread_from_the_last_field() -> None:
    # 40 + 90 + 65: disk would need -30 and memory -5; both move, nearest their own values
    schema = window_retry({"start_hour": 1, "end_hour": 2, "cpu": 40, "memory": 90, "disk": 65})
    assert schema["properties"]["cpu"] == {"const": 40}
    assert schema["properties"]["memory"] == {"const": 60}
    assert schema["properties"]["disk"] == {"const": 0}
    assert _valid(Window, {"start_hour": 1, "end_hour": 2, "cpu": 40, "memory": 60, "disk": 0})
    # an upper bound alone: the total is brought down to it
    rule = Total(("a", "b"), at_most=10)
    bounded = {
        "a": {"type": "integer", "minimum": 3, "maximum": 8},
        "b": {"type": "integer", "minimum": 5},
    }
    assert rule.solve({"a": 8, "b": 9}, bounded) == {"a": {"const": 5}, "b": {"const": 5}}
    # an integer field open on one side (the rule's bound is its only one)
    assert rule.solve({"a": 8, "b": 9}, {"b": {"type": "integer"}}) == {"b": {"maximum": 2}}
    # bounds that cannot hold the total: the last field, as before
    tight = {"a": {"type": "integer", "minimum": 6}, "b": {"type": "integer", "minimum": 6}}
    assert rule.solve({"a": 6, "b": 9}, tight) == {"b": {"maximum": 4}}


def test_a_targeted_schema_folds_the_rules_its_kept_fields_decide() -> None:
    found = outcome(
        Alert, {"severity": "sev1", "retries": 2, "retry_delay_s": 0, "ticket_url": "u"}
    )
    assert [e.path for e in found.errors] == ["retry_delay_s"]  # a range error, not the rule's
    schema = targeted_schema(
        Alert.model_json_schema(), found.data, found.errors, Alert.__autofix_rules__
    )
    assert schema is not None
    branches = schema.get("anyOf", [schema])
    for branch in branches:  # retries is kept at 2, so the delay must be given, in range
        assert "retry_delay_s" in branch["required"]
        assert branch["properties"]["retries"] == {"const": 2}
    assert all(_accepts(schema, {**found.data, "retry_delay_s": d}) for d in (1, 3600))
    assert not _accepts(schema, {**found.data, "retry_delay_s": None})


def test_nothing_to_keep_means_no_targeted_schema() -> None:
    schema = Window.model_json_schema()
    assert targeted_schema(schema, None, (), ()) is None
    assert targeted_schema(schema, ["not", "an", "object"], (), ()) is None
    bad = outcome(
        Window, {"start_hour": 99, "end_hour": 99, "cpu": 999, "memory": 999, "disk": 999}
    )
    assert targeted_schema(schema, bad.data, bad.errors, ()) is None


def test_the_policy_sends_the_targeted_schema_and_falls_back_to_a_constrained_resample() -> None:
    policy = AttemptPolicy(strategy=RetryStrategy.TARGETED)
    decoding = DecodingSchemas.of(Window, Window.__autofix_rules__)
    first = policy.first_request("p", decoding)
    assert first.constrained and first.schema is None  # no rule the schema can say

    def record(text: str) -> AttemptRecord:
        validator = OutputValidator(Window)
        return AttemptRecord(1, "p", AttemptMode.INITIAL, validator.validate(text))

    broken = record('{"start_hour": 14, "end_hour": 9, "cpu": 50, "memory": 30, "disk": 20}')
    request = policy.next_request("p", [broken], policy.decide([broken]), decoding=decoding)
    assert request.strategy == RetryStrategy.TARGETED and request.constrained
    assert request.schema is not None
    assert request.schema["properties"]["end_hour"]["exclusiveMinimum"] == 14
    assert request.seed_offset == 1

    unparsed = record("no json here")
    request = policy.next_request("p", [unparsed], policy.decide([unparsed]), decoding=decoding)
    assert request.strategy == RetryStrategy.CONSTRAINED and request.schema is None


def test_holds_treats_absent_and_null_alike() -> None:
    assert holds(None, {"present": False})
    assert not holds(None, {"minItems": 1})
    assert holds(None, {})
    assert not holds(True, {"minimum": 0})  # a boolean is not a number here


def test_an_opaque_rule_without_a_path_is_addressed_to_the_fields_its_message_names() -> None:
    class Config(BaseModel):
        framework: Literal["pytest", "jest"]
        test_command: str
        test_paths: list[str]

    def runs_the_framework(value: Any) -> str | None:
        if value.framework not in value.test_command:
            return f"test_command must run {value.framework}, got {value.test_command!r}"
        return None

    validator = OutputValidator(Config, semantic_validators=[runs_the_framework])
    found = validator.validate(
        '{"framework": "jest", "test_command": "npm t", "test_paths": ["t"]}'
    )
    assert [e.path for e in found.errors] == ["(root)"]
    schema = targeted_schema(Config.model_json_schema(), found.data, found.errors)
    assert schema is not None
    assert schema["properties"]["framework"] == {"const": "jest"}
    assert list(schema["properties"]) == ["framework", "test_paths", "test_command"]
    assert "const" not in schema["properties"]["test_command"]


def test_a_pattern_consequence_is_checked_with_a_timeout_and_folded_anchored() -> None:
    class Run(BaseModel):
        tool: Literal["pytest", "jest"]
        command: str

        __autofix_rules__ = [
            When({"tool": tool}, {"command": {"pattern": tool}}) for tool in ("pytest", "jest")
        ]

    assert _valid(Run, {"tool": "jest", "command": "npx jest --ci"})
    assert not _valid(Run, {"tool": "jest", "command": "pytest -q"})
    folded = rules_schema(Run.model_json_schema(), Run.__autofix_rules__)
    assert folded is not None and len(folded["anyOf"]) == 2  # one branch per tool, not four
    commands = {
        b["properties"]["tool"]["const"]: b["properties"]["command"] for b in folded["anyOf"]
    }
    assert commands["jest"]["pattern"] == "^.{0,16}(jest).*$"
    assert "root ::= alternative-0 | alternative-1" in schema_grammar(folded)
    assert not holds("a" * 30 + "!", {"pattern": "(a|aa)+$"})  # bounded: no hang, no match


def test_an_ordering_the_later_field_cannot_meet_lowers_the_earlier_one() -> None:
    schema = window_retry({"start_hour": 23, "end_hour": 5, "cpu": 50, "memory": 30, "disk": 20})
    assert schema["properties"]["end_hour"] == {"const": 5}  # no hour lies after 23
    assert schema["properties"]["start_hour"]["exclusiveMaximum"] == 5
    start = next(r for r in schema_grammar(schema).splitlines() if r.startswith("start-hour ::="))
    assert "[0-4]" in start


def test_an_empty_range_is_a_contradiction_not_a_grammar_error() -> None:
    hour = {"type": "integer", "minimum": 0, "maximum": 23}
    assert constrain(hour, {"minimum": 23}) == {**hour, "minimum": 23}
    with pytest.raises(AutofixError) as raised:  # the branch or the bound is dropped
        constrain(hour, {"exclusiveMinimum": 23})
    assert type(raised.value).__name__ == "_Contradiction"
    nullable = {"anyOf": [hour, {"type": "null"}]}
    assert constrain(nullable, {"minimum": 5}) == {**hour, "minimum": 5}
