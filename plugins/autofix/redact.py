"""The one exit: every text and value that leaves the process is redacted here.

Task-log lines (live agent output included), XCom values (ParseResult), audit records, failure
reports, metric labels, alerts and CLI output all pass through :func:`redact` (text) or
:func:`redact_value` (JSON-like values). Both mask:

- every exact value autofix knows to be secret (:func:`register_secret`): the secret-named keys
  of a task's ``env``, the worker's own secret-named environment (read on first use and again
  by each task), Airflow connections a task uses, and, inside Airflow, every value registered
  with ``mask_secret`` (the operators install that bridge with :func:`add_masker`);
- key shapes: provider key prefixes, AWS ids and keys, bearer tokens, JWTs, URL passwords and
  ``key=value`` pairs with a secret-looking name.

They also escape NUL and the other control characters (PostgreSQL refuses ``\\u0000`` in JSON)
and lone surrogates (invalid UTF-8 read with ``surrogateescape``).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO
from urllib.parse import quote

import ahocorasick_rs

from autofix import safejson

REDACTED = "[REDACTED]"

# Ordered: specific token shapes first, generic key=value last.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Provider API keys with recognisable prefixes.
    (re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{10,}"), REDACTED),
    (re.compile(r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{16,}"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), REDACTED),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"), REDACTED),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}"), REDACTED),
    (re.compile(r"\bglpat-[A-Za-z0-9_\-]{16,}"), REDACTED),
    # AWS access key ids and secret keys given as assignments.
    # Not \b: an id glued on with "_" (e.g. a run id "manual__AKIA...") must still match.
    (re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![A-Z0-9])"), REDACTED),
    (
        re.compile(
            r"(?i)(aws_secret_access_key|aws_session_token)(\s*[=:]\s*)[\"']?[A-Za-z0-9/+=]{16,}[\"']?"
        ),
        r"\1\2" + REDACTED,
    ),
    # Authorization headers.
    # Credentials carry digits; "basic authentication" in an error message is not one.
    (
        re.compile(r"(?i)\b(bearer|basic|token)(\s+)(?=[^\s]*[0-9])[A-Za-z0-9._~+/\-]{8,}=*"),
        r"\1\2" + REDACTED,
    ),
    # JWTs. Tried once per run of token characters, at its first `eyJ` after a word boundary
    # (group 1 keeps what comes before it): every later one in the run would end where the
    # run ends too, so retrying each was quadratic on a long run without the dots.
    (
        re.compile(
            r"(?<![A-Za-z0-9_\-])((?>[A-Za-z0-9_\-]*?\b(?=eyJ)))"
            r"eyJ[A-Za-z0-9_\-]{8,}+\.[A-Za-z0-9_\-]{8,}+\.[A-Za-z0-9_\-]{8,}"
        ),
        r"\1" + REDACTED,
    ),
    # Passwords in URLs: scheme://user:password@host. The scheme's run of characters is read
    # once from its start, without backtracking: a long run without "://" stays linear.
    (
        re.compile(
            r"((?<![a-zA-Z0-9+.\-])[0-9+.\-]*+[a-zA-Z][a-zA-Z0-9+.\-]*+://[^\s:/@]*:)[^\s@/]+@"
        ),
        r"\1" + REDACTED + "@",
    ),
    # key=value / "key": "value" for secret-looking names. The match starts at the name's
    # secret word, not at the name's start: the rest of the name is kept as it is either way,
    # and a prefix read back over dotted names was quadratic in the line's length.
    (
        re.compile(
            r"(?i)((?:api[_\-]?key|access[_\-]?key|secret(?:[_\-]?key)?|token|passw(?:or)?d|pwd"
            r"|credentials?|auth(?:orization)?)[\"']?"
            r"\s*[=:]\s*)([\"']?)([^\s\"',;}{]{4,})(\2)"
        ),
        r"\1\2" + REDACTED + r"\4",
    ),
)

# One entry per _PATTERNS entry: literals a match must contain (lower case for (?i) patterns).
# A pattern whose hints are all absent cannot match, so its scan is skipped: ~20x faster on
# ordinary prompts, same result. Used where lower() folds as the (?i) patterns do (_folded).
_HINTS: tuple[tuple[str, ...], ...] = (
    ("sk-ant-",),
    ("sk-",),
    ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ("github_pat_",),
    ("xox",),
    ("AIza",),
    ("glpat-",),
    ("AKIA", "ASIA", "AGPA", "AIDA", "AROA"),
    ("aws_se",),
    ("bearer", "basic", "token"),
    ("eyJ",),
    ("://",),
    ("api", "access", "secret", "token", "passw", "pwd", "credential", "auth"),
)
assert len(_HINTS) == len(_PATTERNS)
# Does every match of the pattern start where one of its hints does? Then it is tried only at
# its hints (``_sub_at_hints``) instead of at every position of the text. Not the JWT (its
# match starts at the run of token characters before ``eyJ``) nor the URL (at the scheme).
_STARTS_AT_HINT = (True,) * 10 + (False, False, True)
assert len(_STARTS_AT_HINT) == len(_PATTERNS)
_GATED = tuple(
    (pattern, replacement, hints, bool(pattern.flags & re.IGNORECASE), at_hint)
    for (pattern, replacement), hints, at_hint in zip(
        _PATTERNS, _HINTS, _STARTS_AT_HINT, strict=True
    )
)
# Every hint in one regex, folded as its pattern is: text holding none (most short values)
# is returned after a single scan.
_ANY_HINT = re.compile(
    "|".join(
        f"(?i:{re.escape(hint)})" if ignore_case else re.escape(hint)
        for _, _, hints, ignore_case, _ in _GATED
        for hint in hints
    )
)

# A variable or field name that holds a secret: its value is masked whatever it looks like.
# Not token counts ("max_tokens", "token_usage").
_SECRET_NAME = re.compile(
    r"(?i)(api[_-]?key|access[_-]?key|secret|token(?!s|_count|_usage)|passw(or)?d|pwd"
    r"|credential|authorization|auth[_-]?header|cookie|session[_-]?key|private[_-]?key"
    r"|(^|[_-])(key|auth)$)"
)
# Secret-looking names in every shell's environment that hold no secret.
_NOT_SECRET_ENV = frozenset({"PWD", "OLDPWD"})
# A worker-environment value shorter than this is too likely to be an ordinary word ("true").
MIN_ENV_SECRET_CHARS = 8
MIN_SECRET_CHARS = 4

# Control characters: NUL and C0 except tab, newline and carriage return, DEL, C1, and lone
# surrogates. Log lines keep ESC (Airflow renders ANSI colours); stored values lose it.
_LOG_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f\ud800-\udfff]")
_STORED_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# Values nested deeper than the JSON reader accepts are replaced: nothing downstream recurses
# without bound.
MAX_DEPTH = safejson.MAX_DEPTH
TOO_DEEP = "[nested too deep]"


def _escape_control(match: re.Match[str]) -> str:
    char = match.group()
    return "\ufffd" if "\ud800" <= char <= "\udfff" else f"\\x{ord(char):02x}"


class _Registry:
    """Exact secret values, matched in one native pass (Aho-Corasick, longest first)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.values: dict[str, None] = {}  # insertion-ordered set
        self.matcher: ahocorasick_rs.AhoCorasick | None = None
        self.patterns: list[str] = []
        self.maskers: list[Callable[[str], str]] = []
        self.listeners: list[Callable[[str], None]] = []
        self.env_read = False

    def add(self, values: Iterable[str]) -> None:
        with self.lock:
            new = [v for v in values if v not in self.values]
            if not new:
                return
            for value in new:
                self.values[value] = None
            variants: dict[str, None] = {}
            for value in self.values:
                # As it may appear in JSON output or in a URL.
                for variant in (value, json.dumps(value)[1:-1], quote(value, safe="")):
                    if len(variant) >= MIN_SECRET_CHARS:
                        variants[variant] = None
            self.patterns = list(variants)
            self.matcher = ahocorasick_rs.AhoCorasick(
                self.patterns, matchkind=ahocorasick_rs.MATCHKIND_LEFTMOST_LONGEST
            )
            listeners = list(self.listeners)
        for listener in listeners:
            for value in new:
                listener(value)

    def mask(self, text: str) -> str:
        matcher = self.matcher
        if matcher is None:
            return text
        found = matcher.find_matches_as_indexes(text)
        if not found:
            return text
        parts: list[str] = []
        end = 0
        for _, start, stop in found:
            parts.append(text[end:start])
            parts.append(REDACTED)
            end = stop
        parts.append(text[end:])
        return "".join(parts)


_REGISTRY = _Registry()


def is_secret_name(name: str) -> bool:
    return _SECRET_NAME.search(name) is not None


def register_secret(value: str | None) -> None:
    """Redact this exact value everywhere from now on (e.g. a key read from a Connection)."""
    if isinstance(value, str) and len(value) >= MIN_SECRET_CHARS:
        _REGISTRY.add([value])


def register_secrets(values: Iterable[str]) -> None:
    _REGISTRY.add(v for v in values if isinstance(v, str) and len(v) >= MIN_SECRET_CHARS)


def secret_env_values(env: Mapping[str, str], min_chars: int = MIN_SECRET_CHARS) -> list[str]:
    """Values of env vars whose names look secret (``PWD`` is a path, not a password)."""
    return [
        value
        for name, value in env.items()
        if isinstance(value, str)
        and len(value) >= min_chars
        and name.upper() not in _NOT_SECRET_ENV
        and is_secret_name(name)
    ]


def register_environment(env: Mapping[str, str] | None = None) -> None:
    """Register the secret-named values of ``env`` (default: this process's environment)."""
    source = os.environ if env is None else env
    register_secrets(secret_env_values(source, MIN_ENV_SECRET_CHARS))
    if env is None:
        _REGISTRY.env_read = True


def add_masker(masker: Callable[[str], str]) -> None:
    """Also run ``masker`` on every text (e.g. Airflow's secrets masker, which knows the values
    registered with ``mask_secret``). Added once, however often it is called."""
    with _REGISTRY.lock:
        if masker not in _REGISTRY.maskers:
            _REGISTRY.maskers.append(masker)


def add_listener(listener: Callable[[str], None]) -> None:
    """Tell ``listener`` every secret value autofix knows, now and from now on (e.g. Airflow's
    ``mask_secret``, so its own log lines are masked too)."""
    with _REGISTRY.lock:
        if listener in _REGISTRY.listeners:
            return
        _REGISTRY.listeners.append(listener)
        known = list(_REGISTRY.values)
    for value in known:
        listener(value)


# The same hints, lower-cased: an automaton finds them all in one pass over the lower-cased
# text (a superset of _ANY_HINT's finds: case-sensitive hints are looked for in any case).
_HINT_FINDER = ahocorasick_rs.AhoCorasick(
    sorted({hint.lower() for _, _, hints, _, _ in _GATED for hint in hints})
)

# A match starts on the line of its hint (no pattern has whitespace before its literal) and can
# run on over whitespace (``token\n=\nvalue``): at most two more non-blank lines; one spare.
_LINES_A_MATCH_REACHES = 3


def mask_shapes(text: str) -> str:
    """Replace what looks like a secret (key prefixes, URL passwords, ``token=...``).

    In a multi-line text only the lines a match can touch are scanned: those from each hint's
    line to the third non-blank line after it. Same result as scanning the whole text
    (tests/test_audit_alert_redaction.py), at a cost that follows the hints, not the size.
    """
    hints = _hint_positions(text)
    if not hints:
        return text
    if "\n" not in text:
        return _mask_shapes_in(text)
    pieces: list[str] = []
    done = 0
    for start, end in _hint_windows(text, hints):
        pieces += (text[done:start], _mask_shapes_in(text[start:end]))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _folded(text: str) -> str | None:
    """``text.lower()`` where it keeps every offset and folds as the (?i) patterns do, else
    None: of the non-ASCII letters that match an ASCII one under re.IGNORECASE, lower() maps
    the Kelvin sign to "k", changes the length for U+0130 and leaves the dotless i and long s."""
    lowered = text.lower()
    if len(lowered) == len(text) and "\u0131" not in text and "\u017f" not in text:
        return lowered
    return None


def _hint_positions(text: str) -> list[int]:
    """Where hints start: at least one on every line that holds one."""
    lowered = _folded(text)
    if lowered is not None:  # one automaton pass
        return [start for _, start, _ in _HINT_FINDER.find_matches_as_indexes(lowered)]
    return [found.start() for found in _ANY_HINT.finditer(text)]


def _hint_windows(text: str, hints: list[int]) -> list[tuple[int, int]]:
    """Merged spans of whole lines around every hint, in order."""
    windows: list[tuple[int, int]] = []
    size = len(text)
    line_end = -1
    for position in hints:
        if position <= line_end:
            continue  # this hint's line is done
        start = text.rfind("\n", 0, position) + 1
        line_end = text.find("\n", position)
        line_end = size if line_end == -1 else line_end
        end, counted = line_end, 0
        while counted < _LINES_A_MATCH_REACHES and end < size:
            following = text.find("\n", end + 1)
            following = size if following == -1 else following
            if following > end + 1 and not text[end + 1 : following].isspace():
                counted += 1
            end = following
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


def _mask_shapes_in(text: str) -> str:
    # A pattern runs only where one of its hints is: a case-sensitive one's always decides
    # (non-ASCII text too), a (?i) one's where lower() folds as the pattern does.
    lowered = _folded(text)
    for pattern, replacement, hints, ignore_case, at_hint in _GATED:
        haystack = lowered if ignore_case else text
        if haystack is not None and not any(hint in haystack for hint in hints):
            continue
        if at_hint and haystack is not None:
            masked = _sub_at_hints(pattern, replacement, text, haystack, hints)
        else:
            masked = pattern.sub(replacement, text)
        if masked != text:
            text = masked
            lowered = _folded(text)  # the next pattern's hints are found in this text
    return text


def _sub_at_hints(
    pattern: re.Pattern[str], replacement: str, text: str, haystack: str, hints: tuple[str, ...]
) -> str:
    """``pattern.sub(replacement, text)`` for a pattern whose matches start at a hint, tried
    only there (``haystack``: ``text`` as the hints are found in it, offsets kept). A match
    sees the text before it (``\\b``, lookbehind) as ``sub`` does."""
    starts: set[int] = set()
    for hint in hints:
        at = haystack.find(hint)
        while at >= 0:
            starts.add(at)
            at = haystack.find(hint, at + 1)
    pieces: list[str] = []
    done = 0
    for start in sorted(starts):
        if start < done:
            continue  # inside the last match, as sub goes on after it
        found = pattern.match(text, start)
        if found is not None:
            pieces += (text[done:start], found.expand(replacement))
            done = found.end()
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _mask(text: str) -> str:
    if not _REGISTRY.env_read:
        register_environment()
    text = mask_shapes(_REGISTRY.mask(text))
    for masker in _REGISTRY.maskers:
        text = masker(text)
    return text


def redact(text: str) -> str:
    """``text`` as it may leave the process in a log line or on a terminal: known secrets and
    secret shapes replaced, control characters escaped (ANSI colours kept)."""
    if not text:
        return text
    if _LOG_CONTROLS.search(text):
        text = _LOG_CONTROLS.sub(_escape_control, text)
    return _mask(text)


def redact_stored(text: str) -> str:
    """``text`` as it may be stored (XCom, audit, reports): like :func:`redact`, and ANSI
    escape sequences removed."""
    if not text:
        return text
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if _STORED_CONTROLS.search(text):
        text = _STORED_CONTROLS.sub(_escape_control, text)
    return _mask(text)


# Joins texts redacted together: private-use characters between newlines. Redaction leaves them
# as they are, and no secret shape reaches across them (a value needs 4 characters on its line).
_TEXTS_SEPARATOR = "\n\ue000\ue000\n"


def redact_stored_each(texts: list[str]) -> list[str]:
    """``[redact_stored(text) for text in texts]``, in one pass over them all: a short text's
    redaction costs a few microseconds, most of it fixed. One at a time where a text holds the
    separator, or an escape sequence reaches across it."""
    if len(texts) < 2:
        return [redact_stored(text) for text in texts]
    redacted = redact_stored(_TEXTS_SEPARATOR.join(texts)).split(_TEXTS_SEPARATOR)
    if len(redacted) != len(texts):
        return [redact_stored(text) for text in texts]
    return redacted


def redact_value(value: Any, *, by_name: bool = True, _depth: int = 0) -> Any:
    """A JSON-like value as it may be stored: every string redacted (dict keys too), tuples
    and sets as lists, NaN and infinities as None, nesting bounded.

    ``by_name``: a non-empty string under a secret-looking key (``{"token": ...}``) is masked
    whatever it looks like. Off for an agent's structured answer, whose field names are the
    user's schema (``sort_key``), not a statement that the value is secret.
    """
    if isinstance(value, str):
        return redact_stored(value)
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if _depth >= MAX_DEPTH:
        return TOO_DEEP
    if isinstance(value, Mapping):
        cleaned: dict[Any, Any] = {}
        primes: dict[Any, int] = {}  # per redacted key, the primes its twins already took
        for key, item in value.items():
            new_key = redact_stored(key) if isinstance(key, str) else key
            if new_key in cleaned:  # two keys redacted alike must not overwrite each other
                base, count = new_key, primes.get(new_key, 0)
                while new_key in cleaned:
                    count += 1
                    new_key = str(base) + "'" * count
                primes[base] = count
            secret = by_name and isinstance(key, str) and isinstance(item, str) and item
            if secret and is_secret_name(key):
                cleaned[new_key] = REDACTED
            else:
                cleaned[new_key] = redact_value(item, by_name=by_name, _depth=_depth + 1)
        return cleaned
    if isinstance(value, list | tuple | set | frozenset):
        return [redact_value(item, by_name=by_name, _depth=_depth + 1) for item in value]
    return value


class RedactedLog:
    """Wraps a logger (stdlib or Airflow's): every message is formatted, then redacted.

    An exception passed as ``exc_info`` is rendered into the message, redacted too, since a
    handler would otherwise print its traceback unredacted.
    """

    def __init__(self, log: Any) -> None:
        self._log = log

    def _emit(self, method: str, msg: object, args: tuple[Any, ...], exc_info: Any) -> None:
        text = str(msg)
        if args:
            try:
                text = text % args
            except (TypeError, ValueError):
                text = " ".join([text, *map(str, args)])
        if exc_info:
            error = exc_info if isinstance(exc_info, BaseException) else None
            if error is None and isinstance(exc_info, tuple):
                error = exc_info[1]
            if error is None:
                error = sys.exc_info()[1]
            if error is not None:
                text += "\n" + "".join(traceback.format_exception(error)).rstrip()
        getattr(self._log, method)("%s", redact(text))

    def debug(self, msg: object, *args: Any, exc_info: Any = None) -> None:
        self._emit("debug", msg, args, exc_info)

    def info(self, msg: object, *args: Any, exc_info: Any = None) -> None:
        self._emit("info", msg, args, exc_info)

    def warning(self, msg: object, *args: Any, exc_info: Any = None) -> None:
        self._emit("warning", msg, args, exc_info)

    def error(self, msg: object, *args: Any, exc_info: Any = None) -> None:
        self._emit("error", msg, args, exc_info)

    def exception(self, msg: object, *args: Any) -> None:
        self._emit("error", msg, args, True)


class RedactingWriter(io.TextIOBase):
    """A text stream that writes whole lines to ``target``, redacted (the CLI's output)."""

    def __init__(self, target: TextIO) -> None:
        self._target = target
        self._pending: list[str] = []  # pieces of the unfinished line, joined once it ends

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if "\n" not in text:
            if text:
                self._pending.append(text)
            return len(text)
        done, _, rest = text.rpartition("\n")
        self._target.write(redact("".join(self._pending) + done + "\n"))
        self._pending = [rest] if rest else []
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._target.write(redact("".join(self._pending)))
            self._pending = []
        self._target.flush()


@contextmanager
def redacted_output() -> Iterator[None]:
    """Route this process's stdout and stderr through :func:`redact` (the CLI's exit)."""
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = RedactingWriter(stdout), RedactingWriter(stderr)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = stdout, stderr
