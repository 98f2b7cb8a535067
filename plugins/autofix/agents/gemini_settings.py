"""Gemini CLI's settings for one run: where the typed limits without a flag go.

The turn cap (``model.maxSessionTurns``), tools (``tools.allowed``, ``tools.exclude``) and MCP
servers (``mcpServers``) have no flag in gemini 0.61.0 (limit_flags.gemini_limit_settings
builds them); they live in settings.json. The system scope cannot carry them: the CLI skips a
system settings file unless root owns it and every directory above it. So the run gets a home
of its own (``GEMINI_CLI_HOME``, which the CLI's ``homedir()`` reads) whose ``.gemini`` links
every entry of the user's real one (login, sessions, history, trusted folders, memory) except
settings.json, which is the user's own with the task's values merged over it. Sessions stay in
the user's ``tmp/`` (``--resume`` keeps working); the run's home is removed when it ends.

A project's own ``.gemini/settings.json`` is merged over the user's by the CLI; one that sets
what the task sets is an AgentOptionError, never a silent override.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autofix.errors import AgentOptionError

HOME_ENV = "GEMINI_CLI_HOME"
GEMINI_DIR = ".gemini"
SETTINGS = "settings.json"
# Made in the user's .gemini before linking, as the CLI makes them itself: a session (tmp) and
# its project slug markers (tmp, history) must outlive the run's home.
_KEPT_DIRS = ("tmp", "history")
# Lists the CLI unions across scopes (mergeStrategy "union"): a deny list only ever grows.
_UNION_KEYS = frozenset({"exclude"})


def user_home(env: Mapping[str, str]) -> Path:
    """The home the CLI would use in ``env``: GEMINI_CLI_HOME, else HOME (node's homedir())."""
    return Path(env.get(HOME_ENV) or env.get("HOME") or Path.home())


def run_home(
    settings: Mapping[str, Any], env: Mapping[str, str], cwd: str | None
) -> tuple[dict[str, str], tuple[str, ...]]:
    """A home for one run whose settings.json is the user's with ``settings`` merged over it;
    returns the environment that points the CLI at it, and the directory to remove after."""
    home = user_home(env)
    real = home / GEMINI_DIR
    user_settings = _read(real / SETTINGS)
    _check_project(settings, Path(cwd or os.getcwd()), home)
    for name in _KEPT_DIRS:
        (real / name).mkdir(parents=True, exist_ok=True, mode=0o700)
    directory = Path(tempfile.mkdtemp(prefix="autofix-gemini-home-"))  # mode 0700
    overlay = directory / GEMINI_DIR
    overlay.mkdir(mode=0o700)
    for entry in real.iterdir():
        if entry.name != SETTINGS:
            (overlay / entry.name).symlink_to(entry)
    if (home / ".env").exists():  # the CLI's last .env fallback is <homedir>/.env
        (directory / ".env").symlink_to(home / ".env")
    text = json.dumps(merge(user_settings, settings), indent=2)
    fd = os.open(overlay / SETTINGS, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    return {HOME_ENV: str(directory)}, (str(directory),)


def merge(base: Mapping[str, Any], ours: Mapping[str, Any]) -> dict[str, Any]:
    """``ours`` over ``base``: objects merged key by key, deny lists unioned, the rest ours."""
    merged = dict(base)
    for key, value in ours.items():
        old = merged.get(key)
        if isinstance(value, Mapping) and isinstance(old, Mapping):
            merged[key] = merge(old, value)
        elif key in _UNION_KEYS and isinstance(value, list) and isinstance(old, list):
            merged[key] = list(dict.fromkeys([*old, *value]))
        else:
            merged[key] = value
    return merged


def _check_project(settings: Mapping[str, Any], cwd: Path, home: Path) -> None:
    """The project's settings override the user's: one that sets a key the task sets (but a
    deny list, which the CLI unions) would silently undo the task's option."""
    path = cwd / GEMINI_DIR / SETTINGS
    if cwd.resolve() == home.resolve() or not path.is_file():
        return  # the CLI reads no workspace settings in the home directory
    project = _read(path)
    for keys in _leaves(settings):
        if keys[-1] in _UNION_KEYS:
            continue
        value: Any = project
        for key in keys:
            value = value.get(key) if isinstance(value, Mapping) else None
        if value is not None:
            dotted = ".".join(keys)
            raise AgentOptionError(
                f"the project's {path} sets {dotted}, which gemini merges over the task's "
                f"option; remove it there, or drop the option from the task",
                agent="gemini",
                option=dotted,
            )


def _leaves(settings: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Key paths of the values ``settings`` sets (an MCP server counts as one value)."""
    found: list[tuple[str, ...]] = []
    for key, value in settings.items():
        path = (*prefix, str(key))
        if isinstance(value, Mapping) and prefix != ("mcpServers",):
            found += _leaves(value, path)
        else:
            found.append(path)
    return found


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise _unreadable(path, exc.strerror or str(exc)) from None
    try:
        value = json.loads(strip_comments(text))
    except ValueError as exc:
        raise _unreadable(path, f"not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise _unreadable(path, "not a JSON object")
    return value


def _unreadable(path: Path, reason: str) -> AgentOptionError:
    return AgentOptionError(
        f"gemini's settings {path} cannot be read ({reason}), so the typed options that live "
        "in settings.json cannot be merged with them; fix the file",
        agent="gemini",
        option="settings",
    )


def strip_comments(text: str) -> str:
    """JSON with ``//`` and ``/* */`` comments (the CLI's settings files may have them) as JSON."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)
