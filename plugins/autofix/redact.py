"""Secret redaction for every text that leaves the process: logs, XCom, errors, audit."""

from __future__ import annotations

import re

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
    # JWTs.
    (re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"), REDACTED),
    # Passwords in URLs: scheme://user:password@host
    (re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*:)[^\s@/]+@"), r"\1" + REDACTED + "@"),
    # key=value / "key": "value" for secret-looking names.
    (
        re.compile(
            r"(?i)([\"']?\b[\w.\-]*(?:api[_\-]?key|access[_\-]?key|secret(?:[_\-]?key)?|token|passw(?:or)?d|pwd"
            r"|credentials?|auth(?:orization)?)[\"']?"
            r"\s*[=:]\s*)([\"']?)([^\s\"',;}{]{4,})(\2)"
        ),
        r"\1\2" + REDACTED + r"\4",
    ),
)

# One entry per _PATTERNS entry: literals a match must contain (lower case for (?i) patterns).
# A pattern whose hints are all absent cannot match, so its scan is skipped: ~20x faster on
# ordinary prompts, same result. Only used for ASCII text, where lower() is exact.
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
_GATED = tuple(
    (pattern, replacement, hints, bool(pattern.flags & re.IGNORECASE))
    for (pattern, replacement), hints in zip(_PATTERNS, _HINTS, strict=True)
)

_EXTRA: list[str] = []

# A variable or field name that holds a secret: its value is masked whatever it looks like.
# Not token counts ("max_tokens", "token_usage").
_SECRET_NAME = re.compile(
    r"(?i)(api[_-]?key|access[_-]?key|secret|token(?!s|_count|_usage)|passw(or)?d|pwd"
    r"|credential|authorization|auth[_-]?header|cookie|session[_-]?key|private[_-]?key"
    r"|(^|[_-])(key|auth)$)"
)


def is_secret_name(name: str) -> bool:
    return _SECRET_NAME.search(name) is not None


def register_secret(value: str | None) -> None:
    """Redact this exact value everywhere from now on (e.g. a key read from a Connection)."""
    if value and len(value) >= 4 and value not in _EXTRA:
        _EXTRA.append(value)


def redact(text: str) -> str:
    """Return ``text`` with API keys, tokens, AWS keys and URL passwords replaced."""
    if not text:
        return text
    for secret in _EXTRA:
        if secret in text:
            text = text.replace(secret, REDACTED)
    lowered = text.lower() if text.isascii() else None
    for pattern, replacement, hints, ignore_case in _GATED:
        if lowered is not None:
            haystack = lowered if ignore_case else text
            if not any(hint in haystack for hint in hints):
                continue
        text = pattern.sub(replacement, text)
    return text


def redact_obj(value: object) -> object:
    """Redact every string inside a JSON-like structure (dict keys are kept)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redact_obj(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_obj(v) for v in value]
    return value
