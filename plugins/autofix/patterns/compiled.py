"""Rules compiled for matching: per-rule matchers, the engine plan, and the fallback's keys.

With the ``hyperscan`` wheel every rule set runs on one engine database (engine.py). Without
it (the fallback), each rule gets one or more *keys*: ASCII-lower-cased literals of which every matching line
contains at least one. One Aho–Corasick automaton per rule set (``ahocorasick_rs``) finds all
keys in a whole chunk in a single native pass; only lines holding a key are evaluated, and only against the rules whose
keys they hold, so the cost per neutral line is close to zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import ahocorasick_rs
import regex

from autofix.patterns import engine as hs
from autofix.patterns.model import PatternSettings, Rule
from autofix.patterns.redos import line_prefixes, required_literals

# Characters that Unicode case-insensitive matching folds onto ASCII letters (K, s, i):
# lines holding them are checked against every rule, since ASCII lowering can't see them.
FOLD_TRAPS: tuple[str, ...] = ("\u212a", "\u017f", "\u0130", "\u0131")
_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}
# Verdict cache bounds: entries per rule set, and the longest line worth keeping (memory stays
# under ~10 MB per rule set whatever the input).
VERDICT_CACHE_ENTRIES = 16_384
VERDICT_CACHE_LINE_CHARS = 512


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
    anchored: bool = False  # every matching line starts with one of ``keys``
    plan: hs.EngineRule | None = None  # how the engine runs it (None: no engine installed)
    # The rule's fields the per-line path reads, as plain attributes: a model's cost a hook call.
    id: str = ""
    kind: str = ""
    weight: str = ""

    @property
    def is_error(self) -> bool:
        return self.rule.is_error

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


def engine_plan(rule: Rule, trusted: bool) -> hs.EngineRule | None:
    """The engine mode of one rule, or None without the wheel. Built-ins are vetted (and
    compiled together at first use), so only user regexes get a trial compile here."""
    if not hs.installed():
        return None
    form = rule.engine_form if trusted else None
    confirm = [(c.prefilter, c.exact) for c in rule.engine_confirm or ()] if trusted else []
    if trusted and form is None and not confirm and rule.type == "regex":
        form = rule.pattern if rule.pattern.endswith("$") else f"(?:{rule.pattern})[^\\n]*$"
    return hs.plan_rule(rule.type, rule.pattern, rule.case_sensitive, form, confirm)


def compile_rule(rule: Rule, trusted: bool) -> CompiledRule:
    plan = engine_plan(rule, trusted)
    literals = _literals(rule)
    keys = (
        None
        if literals is None
        else tuple(dict.fromkeys(lit.encode("utf-8", "surrogatepass") for lit in literals))
    )
    if keys is not None and (min(map(len, keys)) < 2 or any(b"\n" in key for key in keys)):
        keys = None  # a one-byte key flags nearly every line; a newline never occurs in a line
    needle: str | None = None
    compiled: Any = None
    found: tuple[str, ...] = ()
    anchored = False
    if rule.type == "substring":
        needle = rule.pattern if rule.case_sensitive else ascii_lower(rule.pattern)
    else:
        found = tuple(literals or ())
        prefixes = line_prefixes(rule.pattern, rule.case_sensitive)
        anchored = prefixes is not None
        if prefixes is not None:  # a hit must also be at line start: far fewer candidate lines
            keys = tuple(dict.fromkeys(p.encode("utf-8", "surrogatepass") for p in prefixes))
        if trusted:
            compiled = re.compile(rule.pattern, 0 if rule.case_sensitive else re.IGNORECASE)
        else:
            compiled = regex.compile(rule.pattern, 0 if rule.case_sensitive else regex.IGNORECASE)
    return CompiledRule(
        rule,
        trusted,
        needle=needle,
        pattern=compiled,
        keys=keys,
        literals=found,
        anchored=anchored,
        plan=plan,
        id=rule.id,
        kind=rule.kind,
        weight=rule.weight,
    )


@dataclass(frozen=True)
class RuleSet:
    """The rules that apply to one (operation, stream), in order, with the scan plan."""

    rules: tuple[CompiledRule, ...]
    # All keys (ASCII-lowered UTF-8) in one automaton; per key index, the bit mask of rule
    # positions a hit anywhere reveals, and of those revealed only by a hit at line start.
    matcher: Any  # ahocorasick_rs.BytesAhoCorasick, or None when no rule has a key
    key_masks: tuple[int, ...]
    start_masks: tuple[int, ...]
    unkeyed: tuple[int, ...]  # rules that must be tried on every line
    all_positions: tuple[int, ...]
    all_mask: int
    # Per position, how the classifier tests it: (CHECK_*, needle or bound ``search`` or None).
    checks: tuple[tuple[int, Any], ...]
    # Shared by every classifier on this rule set; dropped with it on hot reload.
    # Capped line → the classifier's decision for it (see Classifier._decide).
    verdicts: dict[str, Any] = field(default_factory=dict, compare=False)
    # The same for the engine path's flagged lines (Classifier._engine_decision), kept apart.
    engine_verdicts: dict[str, Any] = field(default_factory=dict, compare=False)
    _plans: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False)
    _engine: list[EngineSet] = field(default_factory=list, compare=False)

    def engine(self) -> EngineSet | None:
        """The engine database and per-id tables, compiled at first use; None without it."""
        if not self._engine:
            if not hs.available():
                return None
            self._engine.append(EngineSet.build(self.rules))
        return self._engine[0]

    def plan(self, mask: int) -> tuple[int, ...]:
        """Rule positions in ``mask``, ascending (memoised: few distinct masks occur)."""
        found = self._plans.get(mask)
        if found is None:
            found = tuple(p for p in self.all_positions if mask >> p & 1)
            if len(self._plans) < 4096:
                self._plans[mask] = found
        return found

    def mask_of(self, folded: str) -> int:
        """Rule mask for one ASCII-lowered line (the per-line path)."""
        mask = 0
        if self.matcher is not None:
            view = folded.encode("utf-8", "surrogatepass")
            for key, start, _ in self.matcher.find_matches_as_indexes(view, overlapping=True):
                mask |= self.key_masks[key]
                if start == 0:
                    mask |= self.start_masks[key]
        return mask

    @staticmethod
    def build(rules: tuple[CompiledRule, ...]) -> RuleSet:
        anywhere: dict[bytes, int] = {}
        at_start: dict[bytes, int] = {}
        unkeyed: list[int] = []
        for position, compiled in enumerate(rules):
            if compiled.keys is None:
                unkeyed.append(position)
                continue
            table = at_start if compiled.anchored else anywhere
            for key in compiled.keys:
                table[key] = table.get(key, 0) | 1 << position
                anywhere.setdefault(key, 0)
        all_mask = (1 << len(rules)) - 1
        matcher = None
        if anywhere:
            for trap in FOLD_TRAPS:
                key = trap.encode()
                anywhere[key] = anywhere.get(key, 0) | all_mask
            matcher = ahocorasick_rs.BytesAhoCorasick(
                list(anywhere), matchkind=ahocorasick_rs.MatchKind.Standard
            )
        checks = tuple(_check(compiled) for compiled in rules)
        return RuleSet(
            rules,
            matcher,
            tuple(anywhere.values()),
            tuple(at_start.get(key, 0) for key in anywhere),
            tuple(unkeyed),
            tuple(range(len(rules))),
            all_mask,
            checks,
        )


# How the walk settles a line by its first engine id (EngineSet.settle): the whole per-line
# path, or one of the short ones (a warning head's noise block, a success summary, a retry
# notice).
SETTLE_FULL, SETTLE_PY_WARNING, SETTLE_NODE_WARNING, SETTLE_SUCCESS, SETTLE_RETRY = range(5)


@dataclass(frozen=True)
class EngineSet:
    """A rule set's engine database, and per engine id (flags, then ``N_FLAGS + position``):
    the rule position a hit settles in bulk as plain noise (-1: the line needs Python),
    whether the engine's hit is the verdict (mode ``engine``) or only a candidate, and how the
    walk settles a line that id comes first on (``SETTLE_*``)."""

    engine: hs.Engine
    plain: tuple[int, ...]
    exact: tuple[bool, ...]
    settle: tuple[int, ...]
    plain_ids: tuple[str | None, ...]  # the id of the plain noise rule, by engine id
    special: tuple[bool, ...]  # by engine id: does a line it comes first on need the walk?

    @staticmethod
    def build(rules: tuple[CompiledRule, ...]) -> EngineSet:
        plans = [c.plan for c in rules]
        assert all(p is not None for p in plans)
        engine = hs.Engine([p for p in plans if p is not None])
        exact = [False] * hs.N_FLAGS + [p is not None and p.mode == hs.MODE_ENGINE for p in plans]
        plain = [-1] * hs.N_FLAGS + [
            position if exact[hs.N_FLAGS + position] and c.rule.kind == "noise" else -1
            for position, c in enumerate(rules)
        ]
        settle = [SETTLE_FULL] * len(exact)
        settle[hs.F_PY_WARNING] = SETTLE_PY_WARNING
        settle[hs.F_NODE_WARNING] = SETTLE_NODE_WARNING
        short = {"success_summary": SETTLE_SUCCESS, "retry": SETTLE_RETRY}
        for position, c in enumerate(rules):
            if exact[hs.N_FLAGS + position] and c.rule.kind in short:
                settle[hs.N_FLAGS + position] = short[c.rule.kind]
        plain_ids = tuple(None if position < 0 else rules[position].id for position in plain)
        special = tuple(position < 0 for position in plain)
        return EngineSet(engine, tuple(plain), tuple(exact), tuple(settle), plain_ids, special)


CHECK_SUBSTRING, CHECK_FOLDED_SUBSTRING, CHECK_REGEX, CHECK_USER_REGEX = range(4)


def _check(compiled: CompiledRule) -> tuple[int, Any]:
    if compiled.needle is not None:
        if compiled.rule.case_sensitive:
            return CHECK_SUBSTRING, compiled.needle
        return CHECK_FOLDED_SUBSTRING, compiled.needle
    if compiled.user_regex:
        return CHECK_USER_REGEX, None
    # Reached only through one of its literals, so the literal precheck is already done.
    return CHECK_REGEX, compiled.pattern.search


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
