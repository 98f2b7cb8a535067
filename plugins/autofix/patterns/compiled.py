"""Rules compiled for matching: per-rule matchers plus the byte keys the scanner looks for.

Each rule gets one or more *keys*: lower-cased byte strings of which every matching line
contains at least one. The classifier finds keys with ``bytes.find`` over whole chunks and only
evaluates rules on the lines where a key occurs, so the cost per neutral line is close to zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import regex

from autofix.patterns.model import PatternSettings, Rule
from autofix.patterns.redos import required_literals

# Shared keys: a rule literal containing one of these is found through it, so dozens of rules
# cost a handful of scans. Order: most selective first.
HUB_KEYS: tuple[str, ...] = (
    "traceback",
    "exception",
    "error",
    "fail",
    "fatal",
    "panic",
    "warn",
    "info",
    "debug",
    "trace",
    "notice",
    "npm ",
    "(node:",
    "compil",
    "download",
    "finish",
    "not found",
    "denied",
    "killed",
    "abort",
    "memory",
    "fault",
    "dump",
)
# Characters that Unicode case-insensitive matching folds onto ASCII letters (K, s, i):
# lines holding them are checked against every rule, since ASCII lowering can't see them.
FOLD_TRAPS: tuple[str, ...] = ("\u212a", "\u017f", "\u0130", "\u0131")
_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


def ascii_lower(text: str) -> str:
    """Lower-case A–Z only: the fold used for case-insensitive substring rules and for keys."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


@dataclass(frozen=True)
class CompiledRule:
    rule: Rule
    trusted: bool  # built-in regexes run on the stdlib `re`; user regexes on `regex` with a timeout
    needle: str | None = None
    pattern: Any = None  # re.Pattern[str] | regex.Pattern[str]
    keys: tuple[bytes, ...] | None = None  # None: the rule must see every line
    literals: tuple[str, ...] = ()  # one of these is in every (ASCII-folded) matching line

    @property
    def id(self) -> str:
        return self.rule.id

    @property
    def is_error(self) -> bool:
        return self.rule.kind == "error"

    @property
    def user_regex(self) -> bool:
        return self.pattern is not None and not self.trusted

    def matches(self, line: str, folded: str) -> bool:
        """Match without a timeout: substring and trusted regex rules only."""
        if self.needle is not None:
            return self.needle in (line if self.rule.case_sensitive else folded)
        if not self.may_match(folded):
            return False
        return self.pattern.search(line) is not None

    def may_match(self, folded: str) -> bool:
        """Cheap literal check before a regex runs (ASCII lines only: no Unicode fold traps)."""
        if not self.literals or not folded.isascii():
            return True
        return any(literal in folded for literal in self.literals)


def _literals(rule: Rule) -> list[str] | None:
    if rule.type == "substring":
        return [ascii_lower(rule.pattern)]
    literals = required_literals(rule.pattern, rule.case_sensitive)
    if not literals:
        return None
    return list(dict.fromkeys(ascii_lower(lit) for lit in literals))


def _key_for(literal: str) -> str:
    for hub in HUB_KEYS:
        if hub in literal:
            return hub
    return literal


def compile_rule(rule: Rule, trusted: bool) -> CompiledRule:
    literals = _literals(rule)
    keys = None if literals is None else tuple(_key_for(lit).encode() for lit in literals)
    if keys is not None and min(map(len, keys)) < 2:
        keys = None  # a one-byte key would flag nearly every line; treat as unkeyed
    if rule.type == "substring":
        needle = rule.pattern if rule.case_sensitive else ascii_lower(rule.pattern)
        return CompiledRule(rule, trusted, needle=needle, keys=keys)
    found = tuple(literals or ())
    if trusted:
        compiled: Any = re.compile(rule.pattern, 0 if rule.case_sensitive else re.IGNORECASE)
    else:
        compiled = regex.compile(rule.pattern, 0 if rule.case_sensitive else regex.IGNORECASE)
    return CompiledRule(rule, trusted, pattern=compiled, keys=keys, literals=found)


@dataclass(frozen=True)
class RuleSet:
    """The rules that apply to one (operation, stream), in order, with the scan plan."""

    rules: tuple[CompiledRule, ...]
    # key → positions (in ``rules``) of the rules it may reveal, ascending
    keys: tuple[tuple[bytes, tuple[int, ...]], ...]
    unkeyed: tuple[int, ...]  # rules that must be tried on every line
    all_positions: tuple[int, ...]

    @staticmethod
    def build(rules: tuple[CompiledRule, ...]) -> RuleSet:
        by_key: dict[bytes, set[int]] = {}
        unkeyed: list[int] = []
        for position, compiled in enumerate(rules):
            if compiled.keys is None:
                unkeyed.append(position)
                continue
            for key in compiled.keys:
                by_key.setdefault(key, set()).add(position)
        # A key containing another key is found through the shorter one.
        merged: dict[bytes, set[int]] = {}
        for key in sorted(by_key, key=len):
            home = next((k for k in merged if k in key), key)
            merged.setdefault(home, set()).update(by_key[key])
        plan = tuple((key, tuple(sorted(pos))) for key, pos in merged.items())
        return RuleSet(rules, plan, tuple(unkeyed), tuple(range(len(rules))))


@dataclass
class CompiledRules:
    """One loaded rulebook: where it came from, its settings, and its compiled rules."""

    source: str
    settings: PatternSettings
    compiled: tuple[CompiledRule, ...]
    warnings: tuple[str, ...] = ()
    _sets: dict[tuple[str, str], RuleSet] = field(default_factory=dict, repr=False)

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(c.rule for c in self.compiled)

    def ruleset(self, operation: str = "", stream: str = "stderr") -> RuleSet:
        cache_key = (operation, stream)
        found = self._sets.get(cache_key)
        if found is None:
            applicable = tuple(c for c in self.compiled if c.rule.applies_to(operation, stream))
            found = self._sets[cache_key] = RuleSet.build(applicable)
        return found


def compile_rules(
    user_rules: list[Rule],
    settings: PatternSettings,
    source: str,
    defaults: tuple[Rule, ...],
    warnings: tuple[str, ...] = (),
) -> CompiledRules:
    """User rules first (in file order), then the defaults unless the file replaces them."""
    compiled = [compile_rule(rule, trusted=False) for rule in user_rules]
    if settings.mode == "extend":
        taken = {rule.id for rule in user_rules}
        compiled += [compile_rule(rule, trusted=True) for rule in defaults if rule.id not in taken]
    return CompiledRules(source, settings, tuple(compiled), warnings)
