"""The rulebook: rule model, built-in defaults, ReDoS guard, loading and hot reload."""

from __future__ import annotations

from autofix.errors import PatternFileError
from autofix.patterns.compiled import CompiledRule, CompiledRules, compile_rules
from autofix.patterns.defaults import DEFAULT_RULES
from autofix.patterns.loader import (
    PATTERNS_ENV,
    PatternStore,
    Problem,
    default_store,
    defaults,
    load_file,
    store_for,
    validate_text,
)
from autofix.patterns.model import PatternFile, PatternSettings, Rule
from autofix.patterns.redos import check_regex

__all__ = [
    "DEFAULT_RULES",
    "PATTERNS_ENV",
    "CompiledRule",
    "CompiledRules",
    "PatternFile",
    "PatternFileError",
    "PatternSettings",
    "PatternStore",
    "Problem",
    "Rule",
    "check_regex",
    "compile_rules",
    "default_store",
    "defaults",
    "load_file",
    "store_for",
    "validate_text",
]
