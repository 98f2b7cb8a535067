"""Extraction and structural repair: the payload is found, repairs are named, lossy ones flagged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from autofix.errors import PayloadError
from autofix.validation.extract import candidates, fenced_blocks
from autofix.validation.repair import parse_payload


def repairs_of(text: str, **kwargs: Any) -> list[str]:
    return [str(r) for r in parse_payload(text, **kwargs).repairs]


def test_fenced_json_inside_prose() -> None:
    payload = parse_payload(
        'All tests pass. Here is the report:\n```json\n{"passed": 3}\n```\nDone.'
    )
    assert payload.value == {"passed": 3}
    assert [str(r) for r in payload.repairs] == ["removed markdown fence (```json)"]
    assert not payload.changes_meaning


def test_real_claude_fenced_answer_is_extracted() -> None:
    from conftest import CAPTURES_DIR

    lines = (CAPTURES_DIR / "claude" / "success_json_fence" / "stdout").read_text().splitlines()
    result = next(json.loads(line) for line in lines if json.loads(line).get("type") == "result")
    payload = parse_payload(result["result"])
    assert payload.value == {"answer": "pong"}
    assert [str(r) for r in payload.repairs] == ["removed markdown fence (```json)"]


def test_fences_are_tried_last_to_first() -> None:
    text = 'Example:\n```json\n{"example": true}\n```\nAnswer:\n```json\n{"answer": 1}\n```'
    assert parse_payload(text).value == {"answer": 1}
    # A last block that does not parse strictly loses to an earlier one that does.
    text = 'Answer:\n```json\n{"answer": 1}\n```\nNotes:\n```\nnot json at all\n```'
    assert parse_payload(text).value == {"answer": 1}


def test_bare_fence_and_inline_fence_opening() -> None:
    assert parse_payload("```\n[1, 2]\n```").value == [1, 2]
    assert parse_payload('Result: ```json\n{"a": 1}\n```').value == {"a": 1}


def test_first_balanced_span_skips_prose_brackets() -> None:
    payload = parse_payload('I checked [see below] and the result is {"ok": true} as expected.')
    assert payload.value == {"ok": True}
    assert [str(r) for r in payload.repairs] == ["removed text around the JSON"]


@pytest.mark.parametrize(
    ("text", "value", "repair"),
    [
        ('{"a": [1, 2,],}', {"a": [1, 2]}, "removed trailing commas"),
        ("{'a': 'x'}", {"a": "x"}, "replaced single quotes with double quotes"),
        ('{"a": 1, // note\n "b": 2}', {"a": 1, "b": 2}, "removed comments"),
        ('{"a": 1 "b": 2}', {"a": 1, "b": 2}, "inserted missing commas"),
        ('{a: 1, "b": 2}', {"a": 1, "b": 2}, "quoted unquoted keys"),
        ('{"a": None, "b": True}', {"a": None, "b": True}, "converted Python literals to JSON"),
    ],
)
def test_syntax_repairs_are_named(text: str, value: Any, repair: str) -> None:
    payload = parse_payload(text)
    assert payload.value == value
    assert repair in [str(r) for r in payload.repairs]
    assert not payload.changes_meaning


def test_truncated_answer_is_closed_and_flagged() -> None:
    payload = parse_payload('```json\n{"items": [{"id": 1}, {"id": 2, "tags": ["a"')
    assert payload.value == {"items": [{"id": 1}, {"id": 2, "tags": ["a"]}]}
    assert payload.truncated and payload.changes_meaning
    described = [str(r) for r in payload.repairs]
    assert "the markdown fence was never closed (answer cut off?)" in described
    assert any(
        d.startswith("closed truncated array items.1.tags") and d.endswith("(changes meaning)")
        for d in described
    )


def test_duplicate_keys_are_never_silent() -> None:
    # json.loads would keep the last value without a word.
    payload = parse_payload('{"risk": 0.1, "risk": 0.9}')
    assert payload.value == {"risk": 0.9}
    assert repairs_of('{"risk": 0.1, "risk": 0.9}') == [
        "duplicate key 'risk': the last value was kept (changes meaning)"
    ]
    nested = repairs_of('{"a": {"b": 1, "b": 2,}}')
    assert "duplicate key 'a.b': the last value was kept (changes meaning)" in nested


def test_invented_value_is_flagged() -> None:
    payload = parse_payload('{"a": 1, "b": }')
    assert payload.changes_meaning
    assert "filled a missing value with an empty string (changes meaning)" in [
        str(r) for r in payload.repairs
    ]


def test_yaml_fence_in_auto_mode_and_yaml_format() -> None:
    assert parse_payload("Config:\n```yaml\nsuite: unit\nparallel: 2\n```").value == {
        "suite": "unit",
        "parallel": 2,
    }
    payload = parse_payload("suite: unit\nparallel: 4\npaths:\n  - tests/\n", fmt="yaml")
    assert payload.value == {"suite": "unit", "parallel": 4, "paths": ["tests/"]}
    assert payload.fmt == "yaml"


def test_yaml_duplicate_keys_are_flagged() -> None:
    payload = parse_payload("suite: a\nsuite: b\n", fmt="yaml")
    assert payload.value == {"suite": "b"}
    assert payload.changes_meaning


def test_no_payload_errors() -> None:
    with pytest.raises(PayloadError) as empty:
        parse_payload("   \n")
    assert empty.value.reason == "empty"
    with pytest.raises(PayloadError) as missing:
        parse_payload("I looked at the code and it seems fine.")
    assert missing.value.reason == "not_found"


def test_normaliser_runs_last_and_is_recorded() -> None:
    def lower_names(value: Any) -> Any:
        return {k: v.lower() if isinstance(v, str) else v for k, v in value.items()}

    payload = parse_payload('{"name": "RSI"}', normaliser=lower_names)
    assert payload.value == {"name": "rsi"}
    assert "applied the configured normaliser" in [str(r) for r in payload.repairs]
    unchanged = parse_payload('{"name": "rsi"}', normaliser=lower_names)
    assert unchanged.repairs == ()


def test_fence_blocks_report_unclosed() -> None:
    blocks = fenced_blocks("```json\n{}\n```\n~~~yaml\na: 1\n")
    assert [(b.lang, b.closed) for b in blocks] == [("json", True), ("yaml", False)]
    assert [c.source for c in candidates('x {"a": 1} y')] == ["span"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=examples(150), deadline=None)
@given(
    value=st.dictionaries(st.text(max_size=8), json_values, min_size=1, max_size=4),
    indent=st.booleans(),
)
def test_any_valid_fenced_json_round_trips_without_lossy_repairs(value: Any, indent: bool) -> None:
    text = (
        f"Sure, here it is:\n```json\n{json.dumps(value, indent=2 if indent else None)}\n```\nBye."
    )
    payload = parse_payload(text)
    assert payload.value == value
    assert not payload.changes_meaning
