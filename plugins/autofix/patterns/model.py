"""The pattern file schema: ordered rules plus the settings that bound matching cost."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

# noise: harmless. error: evidence of failure. retry: harmless, and the error block just before
# it (or the block it heads) was retried, so it no longer counts. failure_summary: a tool's own
# summary reporting failures, never outweighed. success_summary: a tool's own summary reporting
# success, which outweighs error blocks except fatal ones and those after it on its stream.
RuleKind = Literal["noise", "error", "retry", "failure_summary", "success_summary"]
RuleType = Literal["substring", "regex"]
Stream = Literal["stderr", "stdout"]
# For error rules: fatal evidence (a crash, the OOM killer) is never outweighed by a summary;
# vacuous evidence (the tool ran nothing) is outweighed by any success summary.
Weight = Literal["error", "fatal", "vacuous"]
# Validation context that marks the package's own, vetted rules (patterns/builtin_rules.yaml).
TRUSTED = "trusted"
# Fields only the built-in rules may set: how the engine runs them.
BUILT_IN_ONLY = frozenset({"engine_form", "engine_confirm"})


ERROR_KINDS = ("error", "failure_summary")  # the kinds whose match makes an error line


class EngineConfirm(BaseModel):
    """One confirmed part of a built-in rule: ``exact`` runs only where ``prefilter`` hits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    prefilter: str = Field(min_length=1, max_length=1000)
    exact: str = Field(min_length=1, max_length=1000)


class Rule(BaseModel):
    """One rule. Rules are checked in order; the first that matches a line decides it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$", max_length=80)
    kind: RuleKind
    type: RuleType
    pattern: str = Field(min_length=1, max_length=1000)
    reason: str = Field(min_length=1)
    case_sensitive: bool = False
    # Operation types the rule applies to (e.g. ["fix", "test"]); None = every operation.
    operations: list[str] | None = None
    # Streams the rule applies to; None = both. Plain-command stdout is program output, so
    # built-in generic error rules only look at stderr.
    streams: list[Stream] | None = None
    weight: Weight = "error"
    # Built-in rules only: the rule as the engine runs it, where the derived form cannot be
    # used (a lookbehind, an end anchor inside an alternation); tests/test_engine.py checks it.
    engine_form: str | None = Field(default=None, min_length=1, max_length=1000)
    # Built-in rules only: parts of the rule the engine runs confirmed (engine.py): each exact
    # expression is scanned only on the lines its cheap prefilter, a superset, marks. With it,
    # the engine runs ``engine_form`` (if any) and these, never the derived form.
    engine_confirm: list[EngineConfirm] | None = None

    @field_validator("pattern", "engine_form")
    @classmethod
    def _single_line(cls, value: str | None) -> str | None:
        if value is not None and ("\n" in value or "\r" in value):
            raise ValueError("rules match one line at a time; a pattern cannot contain a newline")
        return value

    @field_validator("engine_form", "engine_confirm")
    @classmethod
    def _built_in_only(cls, value: object, info: ValidationInfo) -> object:
        if value is not None and not (info.context or {}).get(TRUSTED):
            raise ValueError(
                f"{info.field_name} is for the built-in rules only; remove it: autofix works "
                "out how the engine runs your rule (`autofix patterns check FILE` shows it)"
            )
        return value

    @field_validator("operations")
    @classmethod
    def _non_empty(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and not value:
            raise ValueError("operations must list at least one operation, or be omitted for all")
        return value

    @model_validator(mode="after")
    def _weight_for_errors(self) -> Rule:
        if self.weight != "error" and self.kind != "error":
            raise ValueError("weight applies to error rules only")
        return self

    @property
    def is_error(self) -> bool:
        """Does a match make the line an error line (error evidence or a failure summary)?"""
        return self.kind in ERROR_KINDS

    def applies_to(self, operation: str, stream: str) -> bool:
        if self.operations is not None and operation not in self.operations:
            return False
        return self.streams is None or stream in self.streams


class PatternSettings(BaseModel):
    """Limits that keep every parse bounded, whatever the rules and the input."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # extend: this file's rules are checked first, then the built-in defaults. replace: only this file.
    mode: Literal["extend", "replace"] = "extend"
    # Longer lines are cut to this many characters before any rule sees them.
    max_line_length: int = Field(default=4096, ge=80, le=1_000_000)
    # Per-line timeout for user regex rules (run by the `regex` module).
    regex_timeout_ms: float = Field(default=25.0, gt=0, le=10_000)
    # Total time user regex rules may take for one response; past it they are switched off
    # and the response fails safe.
    response_budget_ms: float = Field(default=2_000.0, gt=0, le=600_000)
    # A rule that times out this many times in one response is disabled.
    max_rule_timeouts: int = Field(default=3, ge=1, le=1000)


class PatternFile(PatternSettings):
    """``config/error_patterns.yaml``: settings plus the top-level ``rules:`` list."""

    rules: list[Rule] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_ids(self) -> PatternFile:
        seen: set[str] = set()
        for rule in self.rules:
            if rule.id in seen:
                raise ValueError(f"duplicate rule id {rule.id!r}")
            seen.add(rule.id)
        return self

    def settings(self) -> PatternSettings:
        return PatternSettings.model_validate(self.model_dump(exclude={"rules"}))
