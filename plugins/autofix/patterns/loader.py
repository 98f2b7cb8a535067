"""Finding, validating and hot-reloading the pattern file, and keeping its last good copy.

Path order: explicit argument > ``AUTOFIX_ERROR_PATTERNS`` > ``config/error_patterns.yaml``
(resolved against ``AUTOFIX_HOME``) > built-in defaults. ``PatternStore.current()`` stats the
file on every call and reloads on a change. One store per path per process
(:func:`store_for`), so parsers built per call share it.

The built-in rules are a pattern file too, ``builtin_rules.yaml`` beside this module, read once
per process (``DEFAULT_RULES``) by the same :func:`validate_text`. Vetted by the tests, it is
trusted: no ReDoS check at load, and its rules may set ``engine_form``.

Last good: each time a pattern file loads, a copy of it is kept in the state folder
(``AUTOFIX_STATE_DIR``, default ``<AUTOFIX_HOME>/logs/autofix/state``, next to the default
audit log). When the file turns invalid, a store keeps the rules it already has; a new process
(every Airflow task is one) uses that copy instead of silently dropping the user's rules. Either
way one warning per broken version names the file, the line and the rules in use.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from autofix import config, yamlfile
from autofix.errors import ConfigFileError, PatternFileError
from autofix.patterns.compiled import CompiledRules, compile_rules
from autofix.patterns.model import TRUSTED, PatternFile, PatternSettings, Rule
from autofix.patterns.redos import check_regex

log = logging.getLogger(__name__)

PATTERNS_ENV = "AUTOFIX_ERROR_PATTERNS"
STATE_DIR_ENV = "AUTOFIX_STATE_DIR"
DEFAULT_PATTERNS_PATH = "config/error_patterns.yaml"
DEFAULT_STATE_DIR = "logs/autofix/state"
DEFAULTS_SOURCE = "defaults"
MAX_PATTERN_FILE_BYTES = yamlfile.MAX_CONFIG_BYTES
EMPTY_FILE = "the file has no `rules:` list (empty or cut short?); write `rules: []` for none"
BUILT_IN_RULES_PATH = Path(__file__).with_name("builtin_rules.yaml")


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


def _rule_id(raw: Any, loc: tuple[int | str, ...]) -> str | None:
    if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int) and isinstance(raw, dict):
        rules = raw.get("rules")
        if isinstance(rules, list) and loc[1] < len(rules) and isinstance(rules[loc[1]], dict):
            rule_id = rules[loc[1]].get("id")
            return str(rule_id) if rule_id is not None else f"#{loc[1] + 1}"
    return None


def validate_text(
    text: str, source: str = "<text>", trusted: bool = False
) -> tuple[PatternFile | None, list[Problem]]:
    """Parse and check a pattern file's text; every problem is reported, with lines.

    ``trusted``: the package's built-in rules, vetted by the tests: no ReDoS check (it costs
    ~160 ms a load), and ``engine_form`` is allowed."""
    try:
        root, raw = yamlfile.parse(text, source)
    except ConfigFileError as exc:
        return None, [Problem(exc.reason, exc.line)]
    if raw is None or (isinstance(raw, dict) and "rules" not in raw):
        # A half-written file on hot reload must not silently drop the user's rules.
        return None, [Problem(EMPTY_FILE, yamlfile.line_of(root, ()) or 1)]
    if not isinstance(raw, dict):
        return None, [Problem("the top level must be a mapping with a `rules:` list", 1)]
    duplicates = _duplicate_problems(root, raw)
    try:
        parsed = PatternFile.model_validate(raw, context={TRUSTED: trusted})
    except ValidationError as exc:
        problems = []
        for item in exc.errors():
            loc = tuple(item["loc"])
            if not loc and duplicates:
                continue  # the model's own duplicate check: reported with lines below
            field = ".".join(str(p) for p in loc) or "<root>"
            problems.append(
                Problem(f"{field}: {item['msg']}", yamlfile.line_of(root, loc), _rule_id(raw, loc))
            )
        return None, problems + duplicates + ([] if trusted else _regex_problems(root, raw))
    problems = [] if trusted else _regex_problems(root, raw)
    return (None if problems else parsed), problems


def _duplicate_problems(root: Any, raw: dict[Any, Any]) -> list[Problem]:
    """Each repeated rule id, at the line of the repeat."""
    rules = raw.get("rules")
    if not isinstance(rules, list):
        return []
    first: dict[str, int] = {}
    problems = []
    for index, rule in enumerate(rules):
        rule_id = rule.get("id") if isinstance(rule, dict) else None
        if not isinstance(rule_id, str):
            continue
        if rule_id in first:
            problems.append(
                Problem(
                    f"duplicate rule id {rule_id!r} (first used on line "
                    f"{yamlfile.line_of(root, ('rules', first[rule_id], 'id'))})",
                    yamlfile.line_of(root, ("rules", index, "id")),
                    rule_id,
                )
            )
        else:
            first[rule_id] = index
    return problems


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
            problems.append(
                Problem(message, yamlfile.line_of(root, ("rules", index, "pattern")), rule_id)
            )
    return problems


def _read_built_in_rules() -> tuple[Rule, ...]:
    """The built-in rules, in order, from the package's data file."""
    name = str(BUILT_IN_RULES_PATH)
    try:
        text = yamlfile.read_text(BUILT_IN_RULES_PATH, "built-in rules", MAX_PATTERN_FILE_BYTES)
    except ConfigFileError as exc:
        raise PatternFileError(
            name, [Problem(f"{exc.reason}; reinstall airflow-autofix", exc.line)]
        ) from None
    parsed, problems = validate_text(text, name, trusted=True)
    if parsed is None:
        raise PatternFileError(name, problems)
    return tuple(parsed.rules)


# Parsed once per process, at import; every rule set compiles from this tuple.
DEFAULT_RULES: tuple[Rule, ...] = _read_built_in_rules()


def defaults() -> CompiledRules:
    return compile_rules([], PatternSettings(), DEFAULTS_SOURCE, DEFAULT_RULES)


def compile_text(text: str, name: str, source: str | None = None) -> CompiledRules:
    """A user pattern file's text, validated (ReDoS check included) and compiled; ``name`` is
    where problems are reported, ``source`` what the rules say they came from (default
    ``name``). PatternFileError listing every problem. Reads and writes nothing."""
    parsed, problems = validate_text(text, name)
    if parsed is None:
        raise PatternFileError(name, problems)
    return compile_rules(parsed.rules, parsed.settings(), source or name, DEFAULT_RULES)


def _load(path: str | Path, source: str | None = None) -> tuple[CompiledRules, str]:
    """Compiled rules and the text they came from; PatternFileError listing every problem."""
    name = str(path)
    try:
        text = yamlfile.read_text(path, "pattern", MAX_PATTERN_FILE_BYTES)
    except ConfigFileError as exc:
        raise PatternFileError(name, [Problem(exc.reason, exc.line)]) from None
    return compile_text(text, name, source), text


def load_file(path: str | Path) -> CompiledRules:
    """Load and compile one pattern file; raises PatternFileError listing every problem."""
    return _load(path)[0]


def state_dir() -> Path:
    """Where autofix keeps state between processes (the pattern files' last good copies)."""
    return config.resolve(os.environ.get(STATE_DIR_ENV) or DEFAULT_STATE_DIR)


def last_good_path(path: str | Path) -> Path:
    """The last good copy of the pattern file at ``path`` (absolute): one per source path."""
    digest = hashlib.sha256(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return state_dir() / "patterns" / f"{digest}-{Path(path).name}"


def _keep_copy(path: str, text: str) -> None:
    copy = last_good_path(path)
    try:
        if copy.is_file() and copy.read_text(encoding="utf-8") == text:
            return
        copy.parent.mkdir(parents=True, exist_ok=True)
        tmp = copy.with_name(f".{copy.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, copy)  # atomic: another process never reads half a copy
    except (OSError, UnicodeError) as exc:
        log.warning(
            "autofix patterns: cannot keep a last good copy of %s in %s: %s (set %s)",
            path,
            copy.parent,
            exc,
            STATE_DIR_ENV,
        )


def _last_good_copy(path: str) -> CompiledRules | None:
    copy = last_good_path(path)
    if not copy.is_file():
        return None
    try:
        saved = datetime.fromtimestamp(copy.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M UTC")
        rules, _ = _load(copy, source=f"{copy} (last good copy of {path}, saved {saved})")
    except (OSError, PatternFileError) as exc:
        log.warning("autofix patterns: the last good copy %s is unusable: %s", copy, exc)
        return None
    return rules


def candidate_path(explicit: str | Path | None = None) -> str | None:
    """The pattern file to use, or None for the built-in defaults."""
    if explicit:
        return str(config.resolve(explicit))
    from_env = os.environ.get(PATTERNS_ENV)
    if from_env:
        return str(config.resolve(from_env))
    return str(config.resolve(DEFAULT_PATTERNS_PATH))


Signature = tuple[str | None, int, int, int]


class PatternStore:
    """A hot-reloading source of rules. ``current()`` costs one ``os.stat`` when nothing changed.

    ``keep_last_good=False``: a reader that only looks (the UI's pattern tester) and so
    keeps no last good copy: it writes nothing."""

    def __init__(self, path: str | Path | None = None, *, keep_last_good: bool = True) -> None:
        self._explicit = path
        self._saves_copy = keep_last_good
        self._lock = threading.Lock()
        self._defaults = defaults()
        self._current = self._defaults
        self._signature: Signature | None = None
        self._warned: Signature | None = None
        self._env_key: tuple[str | None, Path] | None = None
        self._path: str | None = None

    def _resolve(self) -> str | None:
        if self._explicit is not None:
            if self._path is None:
                self._path = candidate_path(self._explicit)
            return self._path
        env_key = (os.environ.get(PATTERNS_ENV), config.autofix_home())
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
            signature: Signature = (None, 0, 0, 0)
        else:
            signature = (path, stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if signature == self._signature:
            return self._current
        with self._lock:
            if signature != self._signature:
                self._reload(path, signature)
        return self._current

    def _reload(self, path: str | None, signature: Signature) -> None:
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
            loaded, text = _load(path)
        except PatternFileError as exc:
            self._keep_last_good(path, signature, exc)
            return
        self._current = loaded
        if self._saves_copy:
            _keep_copy(path, text)
        log.info("autofix patterns: using %s: %s", path, rule_count(loaded))

    def _keep_last_good(self, path: str, signature: Signature, exc: PatternFileError) -> None:
        """An invalid file: keep this process's rules, else the kept copy, else the defaults."""
        if self._current is self._defaults or self._current.source == DEFAULTS_SOURCE:
            self._current = _last_good_copy(path) or self._defaults
            if self._current is self._defaults:
                kept = f"the built-in defaults (no last good copy in {state_dir()})"
            else:
                kept = f"the last good copy {self._current.source}"
        else:
            kept = f"the last good rules loaded by this process ({self._current.source})"
        if self._warned != signature:
            self._warned = signature
            log.warning("autofix patterns: ignoring the invalid %s; using %s", exc, kept)


_STORES: dict[str | None, PatternStore] = {}
_STORES_LOCK = threading.Lock()


def store_for(path: str | Path | None = None) -> PatternStore:
    """The process-wide store for ``path`` (None: the default path order), made on first use,
    so parsers built per call share one hot reload, one last good and one warning."""
    key = None if path is None else candidate_path(path)
    store = _STORES.get(key)
    if store is None:
        with _STORES_LOCK:
            store = _STORES.get(key)
            if store is None:
                store = _STORES[key] = PatternStore(path)
    return store


def default_store() -> PatternStore:
    """The process-wide store for the default path order."""
    return store_for(None)


def rule_count(rules: CompiledRules) -> str:
    """How many rules apply and where they come from, e.g. "3 user + 52 built-in = 55 rules"."""
    user = sum(1 for c in rules.compiled if not c.trusted)
    built_in = len(rules.compiled) - user
    if not user:
        return f"no user rules; the {built_in} built-in rules apply"
    if not built_in:
        return f"{user} user rules apply (they replace the built-in defaults)"
    return f"{user} user + {built_in} built-in = {len(rules.compiled)} rules apply"
