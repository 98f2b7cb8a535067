"""Finding, validating and hot-reloading the pattern file.

Path order: explicit argument > ``AUTOFIX_ERROR_PATTERNS`` > ``config/error_patterns.yaml``
(resolved against ``AUTOFIX_HOME``) > built-in defaults. ``PatternStore.current()`` stats the
file on every call and reloads on an mtime or size change; an invalid edit keeps the last good
rules and logs one warning naming the file, the line and the problem.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from autofix import config
from autofix.errors import PatternFileError
from autofix.patterns.compiled import CompiledRules, compile_rules
from autofix.patterns.defaults import DEFAULT_RULES
from autofix.patterns.model import PatternFile, PatternSettings
from autofix.patterns.redos import check_regex

log = logging.getLogger(__name__)

PATTERNS_ENV = "AUTOFIX_ERROR_PATTERNS"
DEFAULT_PATTERNS_PATH = "config/error_patterns.yaml"
DEFAULTS_SOURCE = "defaults"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a pattern file."""

    message: str
    line: int | None = None
    rule_id: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        rule = f"rule {self.rule_id!r}: " if self.rule_id else ""
        return f"{where}{rule}{self.message}"


def defaults() -> CompiledRules:
    return compile_rules([], PatternSettings(), DEFAULTS_SOURCE, DEFAULT_RULES)


def _node_at(root: Any, loc: tuple[int | str, ...]) -> Any:
    node = root
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == part), None)
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value)
        ):
            node = node.value[part]
        else:
            return node
        if node is None:
            return None
    return node


def _line_of(root: Any, loc: tuple[int | str, ...]) -> int | None:
    for depth in range(len(loc), -1, -1):
        node = _node_at(root, loc[:depth])
        if node is not None:
            return int(node.start_mark.line) + 1
    return None


def _rule_id(raw: Any, loc: tuple[int | str, ...]) -> str | None:
    if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int) and isinstance(raw, dict):
        rules = raw.get("rules")
        if isinstance(rules, list) and loc[1] < len(rules) and isinstance(rules[loc[1]], dict):
            rule_id = rules[loc[1]].get("id")
            return str(rule_id) if rule_id is not None else f"#{loc[1] + 1}"
    return None


def validate_text(text: str) -> tuple[PatternFile | None, list[Problem]]:
    """Parse and check a pattern file's text; every problem is reported, with lines."""
    try:
        root = yaml.compose(text)
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        return None, [Problem(f"invalid YAML: {getattr(exc, 'problem', None) or exc}", line)]
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return None, [Problem("the top level must be a mapping with a `rules:` list", 1)]
    try:
        parsed = PatternFile.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for item in exc.errors():
            loc = tuple(item["loc"])
            field = ".".join(str(p) for p in loc) or "<root>"
            problems.append(
                Problem(f"{field}: {item['msg']}", _line_of(root, loc), _rule_id(raw, loc))
            )
        return None, problems + _regex_problems(root, raw)
    problems = _regex_problems(root, raw)
    return (None if problems else parsed), problems


def _regex_problems(root: Any, raw: dict[Any, Any]) -> list[Problem]:
    """ReDoS and syntax problems of every regex rule, even when other fields are invalid."""
    problems: list[Problem] = []
    rules = raw.get("rules")
    if not isinstance(rules, list):
        return problems
    for index, rule in enumerate(rules):
        if not isinstance(rule, dict) or rule.get("type") != "regex":
            continue
        if not isinstance(rule.get("pattern"), str):
            continue
        rule_id = str(rule.get("id", f"#{index + 1}"))
        for message in check_regex(rule["pattern"], bool(rule.get("case_sensitive", False))):
            problems.append(Problem(message, _line_of(root, ("rules", index, "pattern")), rule_id))
    return problems


def load_file(path: str | Path) -> CompiledRules:
    """Load and compile one pattern file; raises PatternFileError listing every problem."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PatternFileError(source, [Problem(f"cannot read: {exc.strerror or exc}")]) from exc
    except UnicodeDecodeError as exc:
        raise PatternFileError(source, [Problem(f"not UTF-8: {exc}")]) from exc
    parsed, problems = validate_text(text)
    if parsed is None:
        raise PatternFileError(source, problems)
    return compile_rules(parsed.rules, parsed.settings(), source, DEFAULT_RULES)


def candidate_path(explicit: str | Path | None = None) -> str | None:
    """The pattern file to use, or None for the built-in defaults."""
    if explicit:
        return str(config.resolve(explicit))
    from_env = os.environ.get(PATTERNS_ENV)
    if from_env:
        return str(config.resolve(from_env))
    return str(config.resolve(DEFAULT_PATTERNS_PATH))


class PatternStore:
    """A hot-reloading source of rules. ``current()`` costs one ``os.stat`` when nothing changed."""

    def __init__(self, path: str | Path | None = None) -> None:
        self._explicit = path
        self._lock = threading.Lock()
        self._defaults = defaults()
        self._current = self._defaults
        self._signature: tuple[str | None, int, int] | None = None
        self._warned: tuple[str | None, int, int] | None = None
        self._env_key: tuple[str | None, str | None, str] | None = None
        self._path: str | None = None

    def _resolve(self) -> str | None:
        if self._explicit is not None:
            if self._path is None:
                self._path = candidate_path(self._explicit)
            return self._path
        env_key = (os.environ.get(PATTERNS_ENV), os.environ.get(config.HOME_ENV), os.getcwd())
        if env_key != self._env_key:
            self._env_key = env_key
            self._path = candidate_path(None)
        return self._path

    def current(self) -> CompiledRules:
        path = self._resolve()
        try:
            stat = os.stat(path) if path else None
        except OSError:
            stat = None
        if stat is None:
            signature: tuple[str | None, int, int] = (None, 0, 0)
        else:
            signature = (path, stat.st_mtime_ns, stat.st_size)
        if signature == self._signature:
            return self._current
        with self._lock:
            if signature != self._signature:
                self._reload(path, signature)
        return self._current

    def _reload(self, path: str | None, signature: tuple[str | None, int, int]) -> None:
        self._signature = signature
        if signature[0] is None:
            if self._explicit is not None or os.environ.get(PATTERNS_ENV):
                log.warning("autofix patterns: %s not found; using the built-in defaults", path)
            else:
                log.info("autofix patterns: no pattern file; %s", rule_count(self._defaults))
            self._current = self._defaults
            return
        assert path is not None
        try:
            loaded = load_file(path)
        except PatternFileError as exc:
            if self._warned != signature:
                self._warned = signature
                kept = (
                    "the last good rules"
                    if self._current is not self._defaults
                    else "the built-in defaults"
                )
                log.warning("autofix patterns: ignoring invalid edit, keeping %s: %s", kept, exc)
            return
        self._current = loaded
        log.info("autofix patterns: using %s: %s", path, rule_count(loaded))


def rule_count(rules: CompiledRules) -> str:
    """How many rules apply and where they come from, e.g. "3 user + 52 built-in = 55 rules"."""
    user = sum(1 for c in rules.compiled if not c.trusted)
    built_in = len(rules.compiled) - user
    if not user:
        return f"no user rules; the {built_in} built-in rules apply"
    if not built_in:
        return f"{user} user rules apply (they replace the built-in defaults)"
    return f"{user} user + {built_in} built-in = {len(rules.compiled)} rules apply"


_DEFAULT_STORE: PatternStore | None = None
_DEFAULT_STORE_LOCK = threading.Lock()


def default_store() -> PatternStore:
    """The process-wide store for the default path order."""
    global _DEFAULT_STORE
    if _DEFAULT_STORE is None:
        with _DEFAULT_STORE_LOCK:
            if _DEFAULT_STORE is None:
                _DEFAULT_STORE = PatternStore()
    return _DEFAULT_STORE
