"""Schema validation: pydantic errors become FieldErrors with full paths and categories."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel
from validation_support import VALID, Strategy, TestConfig, fenced, valid_json

from autofix.errors import SchemaImportError
from autofix.result import ErrorCategory, FieldError, FinishReason, ParseResult, RetryClass, Status
from autofix.validation.field_errors import validate_value
from autofix.validation.schema import resolve_schema, structural_hint
from autofix.validation.validator import OutputValidator

C = ErrorCategory


def errors_for(data: Any, model: type[BaseModel] = Strategy) -> dict[str, FieldError]:
    instance, errors = validate_value(data, model)
    assert instance is None
    return {e.path: e for e in errors}


def test_nested_paths_categories_expected_and_actual() -> None:
    data = {
        "name": "s",
        "indicators": {
            "technical_indicators": [
                {"name": "Bad Name", "period": 0, "kind": "sideways"},
                {"period": "fourteen"},
            ]
        },
        "risk": 0.5,
    }
    errors = errors_for(data)
    pattern = errors["indicators.technical_indicators.0.name"]
    assert pattern.category is C.PATTERN_VIOLATION
    assert pattern.expected == "matches regex ^[a-z_]+$"
    assert pattern.actual == '"Bad Name"'
    period = errors["indicators.technical_indicators.0.period"]
    assert (period.category, period.expected, period.actual) == (C.RANGE_VIOLATION, ">= 1", "0")
    kind = errors["indicators.technical_indicators.0.kind"]
    assert kind.category is C.RANGE_VIOLATION and "'trend'" in (kind.expected or "")
    missing = errors["indicators.technical_indicators.1.name"]
    assert (missing.category, missing.expected, missing.actual) == (
        C.REQUIRED_MISSING,
        "string",
        None,
    )
    wrong_type = errors["indicators.technical_indicators.1.period"]
    assert (wrong_type.category, wrong_type.expected) == (C.TYPE_MISMATCH, "integer")


def test_flat_list_where_object_required_is_structural_with_hint() -> None:
    data = {**VALID, "indicators": ["rsi", "macd"]}
    error = errors_for(data)["indicators"]
    assert error.category is C.STRUCTURAL_ERROR
    assert error.expected == "an object with `technical_indicators` (array of objects, required)"
    assert structural_hint(Strategy, error, data["indicators"]) == (
        "`indicators` must be an object with a `technical_indicators` array of objects, not a flat array."
    )


def test_unexpected_field_is_structural_and_hint_lists_allowed_fields() -> None:
    error = errors_for({**VALID, "confidence": 0.9})["confidence"]
    assert error.category is C.STRUCTURAL_ERROR
    hint = structural_hint(Strategy, error)
    assert hint is not None and hint.startswith(
        "`confidence` is not a field here; allowed fields: `name`"
    )


def test_root_of_wrong_shape() -> None:
    errors = errors_for([1, 2])
    assert errors["(root)"].category is C.STRUCTURAL_ERROR


class Unions(BaseModel):
    value: int | str
    items: list[int | None]


def test_union_branch_tags_do_not_leak_into_paths() -> None:
    errors = errors_for({"value": [1], "items": [1, "x"]}, Unions)
    assert set(errors) == {"value", "items.1"}
    assert errors["value"].expected == "integer or string"


def test_long_actual_is_truncated_and_secrets_redacted() -> None:
    secret = "sk-ant-api03-" + "x" * 40
    errors = errors_for({**VALID, "risk": "high " * 100 + secret})
    actual = errors["risk"].actual or ""
    assert len(actual) <= 200
    errors = errors_for({**VALID, "name": 3, "risk": secret})
    assert secret not in str(errors["risk"].model_dump())


class Recommendation(BaseModel):
    summary: str
    items: list[str]
    notes: list[str] = []


def test_semantically_empty_answers_are_invalid() -> None:
    assert errors_for({}, Recommendation)  # required fields missing
    instance, errors = validate_value({"summary": "none", "items": []}, Recommendation)
    assert instance is None
    assert [(e.path, e.category) for e in errors] == [("items", C.SEMANTIC_ERROR)]
    nested = {**VALID, "indicators": {"technical_indicators": []}}
    _, errors = validate_value(nested, Strategy)
    assert [e.path for e in errors] == ["indicators.technical_indicators"]
    instance, _ = validate_value({"summary": "none", "items": []}, Recommendation, allow_empty=True)
    assert instance is not None


class Everything(BaseModel):
    notes: list[str] = []


def test_empty_top_level_object_is_invalid_even_when_the_schema_allows_it() -> None:
    instance, errors = validate_value({}, Everything)
    assert instance is None and errors[0].message == "the answer is empty: it contains no items"


def test_semantic_validators_in_every_return_shape() -> None:
    def periods_unique(s: Strategy) -> str | None:
        periods = [i.period for i in s.indicators.technical_indicators]
        return "indicator periods must be unique" if len(periods) != len(set(periods)) else None

    def risk_for_name(s: Strategy) -> list[FieldError]:
        if s.name.startswith("safe") and s.risk > 0.1:
            return [
                FieldError(
                    path="risk",
                    category=C.SEMANTIC_ERROR,
                    message="safe strategies need risk <= 0.1",
                )
            ]
        return []

    def raises(s: Strategy) -> None:
        raise ValueError("tags must include the market")

    data = {
        **VALID,
        "name": "safe_one",
        "indicators": {
            "technical_indicators": [{"name": "a", "period": 5}, {"name": "b", "period": 5}]
        },
    }
    instance, errors = validate_value(data, Strategy, [periods_unique, risk_for_name, raises])
    assert instance is None
    assert [(e.path, e.message) for e in errors] == [
        ("(root)", "indicator periods must be unique"),
        ("risk", "safe strategies need risk <= 0.1"),
        ("(root)", "tags must include the market"),
    ]
    assert all(e.category is C.SEMANTIC_ERROR for e in errors)


def test_schema_given_as_import_path() -> None:
    assert resolve_schema(f"{Strategy.__module__}:Strategy") is Strategy
    assert resolve_schema(f"{Strategy.__module__}.Strategy") is Strategy
    with pytest.raises(SchemaImportError, match="has no attribute"):
        resolve_schema(f"{Strategy.__module__}:Nope")
    with pytest.raises(SchemaImportError, match="cannot import module"):
        resolve_schema("no_such_module_xyz:Model")
    with pytest.raises(SchemaImportError, match="not a pydantic BaseModel"):
        resolve_schema("json:dumps")


# ---------------------------------------------------------------------------- OutputValidator


def test_validator_accepts_fenced_json_and_records_repairs() -> None:
    outcome = OutputValidator(Strategy).validate(fenced(valid_json()[:-1] + ",}"))
    assert outcome.ok and isinstance(outcome.value, Strategy)
    assert outcome.repairs == ("removed markdown fence (```json)", "removed trailing commas")


def test_validator_yaml_model() -> None:
    outcome = OutputValidator(TestConfig).validate("suite: unit\nparallel: 2\npaths: [tests/]\n")
    assert outcome.ok and outcome.fmt == "yaml"
    bad = OutputValidator(TestConfig).validate("```yaml\nsuite: unit\nparallel: 0\npaths: []\n```")
    assert bad.status is Status.INVALID_OUTPUT
    assert [(e.path, e.category) for e in bad.errors] == [("parallel", C.RANGE_VIOLATION)]


def test_truncation_by_finish_reason_and_by_shape() -> None:
    validator = OutputValidator(Strategy)
    cut = valid_json()[:40]
    assert validator.validate(cut, "length").status is Status.TRUNCATED
    assert validator.validate(cut, "max_tokens").status is Status.TRUNCATED
    assert validator.validate(cut).status is Status.TRUNCATED  # closed by repair, still invalid
    complete = validator.validate(valid_json(), FinishReason.LENGTH)
    assert complete.ok
    assert complete.warnings == (
        "the agent hit its output limit, but the payload was complete and valid",
    )


def test_accepted_lossy_repair_warns_and_strict_mode_refuses_it() -> None:
    text = valid_json().replace('"risk": 0.2', '"risk": 0.9, "risk": 0.2')
    lenient = OutputValidator(Strategy).validate(text)
    assert lenient.ok
    assert lenient.warnings == (
        "accepted after a repair that may change meaning: duplicate key 'risk': the last value was kept (changes meaning)",
    )
    strict = OutputValidator(Strategy, strict_repairs=True).validate(text)
    assert strict.status is Status.INVALID_OUTPUT
    assert "duplicate key 'risk'" in strict.errors[0].message


def test_refusal_by_finish_reason_and_by_text() -> None:
    validator = OutputValidator(Strategy)
    assert validator.validate("", "refusal").status is Status.REFUSED
    assert (
        validator.validate("I'm sorry, but I can't help with that request.").status
        is Status.REFUSED
    )
    prose = validator.validate("The strategy should follow the trend.")
    assert prose.status is Status.INVALID_OUTPUT
    assert prose.errors[0].path == "(root)" and prose.errors[0].category is C.STRUCTURAL_ERROR
    assert validator.validate("").errors[0].message == "the answer was empty"


def test_native_structured_output_skips_extraction() -> None:
    outcome = OutputValidator(Strategy).validate("", data=VALID)
    assert outcome.ok and outcome.repairs == ()


def test_parse_result_round_trip_through_xcom_json() -> None:
    secret = "ghp_" + "a" * 36
    outcome = OutputValidator(Strategy).validate('{"name": 1, "token": "' + secret + '"}')
    base = ParseResult(
        success=True, status=Status.COMPLETED, operation="plan", exit_code=0, agent="claude"
    )
    result = outcome.to_parse_result(base, attempt=1, attempts=3)
    assert (result.success, result.status, result.retry_class) == (
        False,
        Status.INVALID_OUTPUT,
        RetryClass.INVALID_OUTPUT,
    )
    assert result.agent == "claude" and result.exit_code == 0
    assert secret not in (result.final_text or "") and secret not in result.error_message
    assert result.error_message.startswith("[plan] call 1/3: invalid_output")
    restored = ParseResult.model_validate(result.model_dump(mode="json"))
    again = type(outcome).from_parse_result(restored)
    assert again.error_keys == outcome.error_keys and again.status is Status.INVALID_OUTPUT
    ok = OutputValidator(Strategy).validate(valid_json()).to_parse_result(operation="plan")
    assert ok.success and ok.data == Strategy.model_validate(VALID).model_dump(mode="json")
