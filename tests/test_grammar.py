"""Numeric bounds in the llama.cpp grammar: the generated rules accept exactly the values in range.

The rules use only literals, character classes, groups, alternation, ``?``, ``+`` and ``{m,n}``,
so they translate one to one into Python regexes; membership is checked against the bounds.
"""

from __future__ import annotations

import re

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from autofix.agents.openai.grammar import (
    check_escapes,
    gbnf_pattern,
    integer_rule,
    number_rule,
    numeric_bounds_rule,
    schema_grammar,
)


def accepts(rule: str, text: str) -> bool:
    pattern = re.sub(r'"([^"]*)"', lambda m: re.escape(m.group(1)), rule).replace(" ", "")
    return re.fullmatch(pattern, text) is not None


def inside(value: float, lo: int | None, hi: int | None) -> bool:
    return (lo is None or value >= lo) and (hi is None or value <= hi)


bound = st.one_of(st.none(), st.integers(-3000, 3000))


@settings(max_examples=examples(150), deadline=None)
@given(lo=bound, hi=bound, values=st.lists(st.integers(-5000, 5000), min_size=20, max_size=60))
def test_integer_rule_accepts_exactly_the_range(
    lo: int | None, hi: int | None, values: list[int]
) -> None:
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    rule = integer_rule(lo, hi)
    edges = [v for v in (lo, hi) if v is not None]
    for value in [*values, *edges, *(e - 1 for e in edges), *(e + 1 for e in edges), 0]:
        assert accepts(rule, str(value)) == inside(value, lo, hi), (lo, hi, value)
    assert not accepts(rule, "007") and not accepts(rule, "1e3")


@settings(max_examples=examples(100), deadline=None)
@given(lo=bound, hi=bound, quarters=st.lists(st.integers(-20000, 20000), min_size=20, max_size=60))
def test_number_rule_accepts_exactly_the_range(
    lo: int | None, hi: int | None, quarters: list[int]
) -> None:
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    rule = number_rule(lo, hi)
    edges = [float(v) for v in (lo, hi) if v is not None]
    for value in [q / 4 for q in quarters] + edges + [e + 0.25 for e in edges]:
        for text in {repr(value), f"{value:.2f}", str(int(value)) if value.is_integer() else ""}:
            if text:
                assert accepts(rule, text) == inside(value, lo, hi), (lo, hi, text)


def test_fractional_or_exclusive_bounds_decode_between_the_whole_numbers_inside_them() -> None:
    rule = numeric_bounds_rule({"type": "number", "exclusiveMinimum": 0.5, "exclusiveMaximum": 2})
    assert rule is not None and accepts(rule, "1") and accepts(rule, "1.0")
    assert not any(accepts(rule, t) for t in ("0.25", "0.5", "2", "1.5", "-1"))  # 1.5: a subset
    above = numeric_bounds_rule({"type": "number", "exclusiveMinimum": 14})
    assert above is not None and accepts(above, "15.5") and not accepts(above, "14.5")
    low = numeric_bounds_rule({"type": "number", "minimum": -40.5})
    assert low is not None and accepts(low, "-40") and not accepts(low, "-41")


def test_bounds_with_no_whole_number_inside_keep_only_the_sign() -> None:
    rule = numeric_bounds_rule({"type": "number", "minimum": 0.1, "maximum": 0.9})
    assert rule is not None and accepts(rule, "0.25") and not accepts(rule, "-1")
    assert numeric_bounds_rule({"type": "number", "minimum": -0.5, "maximum": -0.25}) is None
    assert numeric_bounds_rule({"type": "string"}) is None
    with pytest.raises(ValueError, match="no integer lies in"):
        integer_rule(5, 4)


class Strategy(BaseModel):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    indicators: list[str] = Field(min_length=2)
    period: int = Field(ge=1, le=250)
    threshold: float = Field(ge=0, le=100)


def test_schema_grammar_keeps_the_converter_and_adds_the_bounds() -> None:
    pytest.importorskip("llama_cpp")
    grammar = schema_grammar(Strategy.model_json_schema())
    rules = dict(line.split(" ::= ", 1) for line in grammar.strip().splitlines())
    assert "indicators-kv" in rules and "name" in rules  # the converter's own rules
    period = rules["period"].removesuffix(" space")
    threshold = rules["threshold"].removesuffix(" space")
    assert accepts(period, "250") and not accepts(period, "251") and not accepts(period, "0")
    assert accepts(threshold, "99.5") and accepts(threshold, "100.0")
    assert not accepts(threshold, "-100") and not accepts(threshold, "100.5")


PATTERNS = [
    r"^\d+\.\d+\.\d+$",
    r"^https://tickets\.example\.com/[A-Z]+-\d+$",
    r"^[\w.\-]+$",
    r"^[a-z.]+@example\.com$",
    r"^\S+ \S+$",
    r"^[^\d\s]*\W?$",
    r"^[]a]+[^]b]$",
]
TEXT = st.text(alphabet="aZ09_.-/:@ \t!x]b", max_size=12)


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_rewritten_pattern_matches_what_the_original_matches(
    pattern: str, data: st.DataObject
) -> None:
    rewritten = gbnf_pattern(pattern)
    assert not re.search(r"\\[dwsDWS.]", rewritten)  # nothing the converter would copy as is
    text = data.draw(st.one_of(st.from_regex(re.compile(pattern, re.ASCII), fullmatch=True), TEXT))
    if any(c in text for c in '\f\v\n\r"\\'):
        return  # left out on purpose: see the test below
    assert bool(re.fullmatch(rewritten, text)) == bool(re.fullmatch(pattern, text, re.ASCII))


def test_a_rewritten_pattern_never_lets_a_quote_or_a_backslash_end_the_json_string() -> None:
    for pattern in (r"^.*x.*$", r"^[^a]+$", r"^\S+\W\D$"):
        rewritten = gbnf_pattern(pattern)
        for text in ('a"x', "x\\", 'b"', "ab\\c!"):
            assert not re.fullmatch(rewritten, text), (pattern, text)
    assert re.fullmatch(gbnf_pattern(r"^.*x.*$"), "a x b")


def test_every_task_pattern_becomes_a_grammar_llama_cpp_reads() -> None:
    class Release(BaseModel):
        version: str = Field(pattern=r"^\d+\.\d+\.\d+$")
        hook: str = Field(pattern=r"^https://hooks\.example\.com/\S+$")

    grammar = schema_grammar(Release.model_json_schema())
    assert "[0-9]" in grammar and "\\x2E" in grammar
    check_escapes(grammar)


def test_an_escape_llama_cpp_does_not_read_is_refused_naming_the_rule() -> None:
    class Word(BaseModel):
        word: str = Field(pattern=r"^\bcat\b$")

    with pytest.raises(ValueError, match=r"rule 'word' holds the escape \\b"):
        schema_grammar(Word.model_json_schema())
