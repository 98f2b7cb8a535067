"""The scenario file: its schema, the bundled scenarios, and which step an attempt plays."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any, Literal, get_args

import regex
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from autofix.errors import SimError
from autofix.patterns.redos import check_regex

SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"
# The scenario to play when neither the command line nor the agent options name one.
SCENARIO_ENV = "AUTOFIX_SIM_SCENARIO"
MATCH_TIMEOUT_SECONDS = 1.0  # a step's prompt regex, after the static ReDoS check

OutputFormat = Literal["claude", "claude-json", "codex", "gemini", "gemini-stream", "wrapper"]
OUTPUT_FORMATS: tuple[str, ...] = get_args(OutputFormat)
Failure = Literal[
    "usage_limit",
    "rate_limit",
    "auth",
    "api_error",
    "server_error",
    "invalid_request",
    "max_turns",
    "budget",
    "structured_output",
    "refusal",
    "max_tokens",
]

# Realistic stderr noise, as the real CLIs and their tools print it.
NOISE_PRESETS: dict[str, str] = {
    "node_punycode": (
        "(node:{pid}) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. "
        "Please use a userland alternative instead.\n"
        "(Use `node --trace-deprecation ...` to show where the warning was created)"
    ),
    "node_experimental": (
        "(node:{pid}) ExperimentalWarning: CommonJS module /usr/lib/node_modules/npm/node_modules/debug/src/node.js "
        "is loading ES Module /usr/lib/node_modules/npm/node_modules/supports-color/index.js using require().\n"
        "Support for loading ES Module in require() is an experimental feature and might change at any time\n"
        "(Use `node --trace-warnings ...` to show where the warning was created)"
    ),
    "npm_warn": (
        "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. "
        "Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, "
        "which is much more comprehensive and powerful.\n"
        "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported"
    ),
    "pip_root": (
        "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour "
        "with the system package manager, possibly rendering your system unusable. It is recommended to use "
        "a virtual environment instead: https://pip.pypa.io/warnings/venv. Use the --root-user-action option "
        "if you know what you are doing and want to suppress this warning."
    ),
    "python_deprecation": (
        "/usr/lib/python3/dist-packages/example/compat.py:12: DeprecationWarning: pkg_resources is deprecated "
        "as an API. See https://setuptools.pypa.io/en/latest/pkg_resources.html\n"
        "  import pkg_resources"
    ),
    "git_clone": "Cloning into 'example-project'...",
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Replacement(_Model):
    old: str
    new: str
    count: int = Field(default=1, ge=0)  # 0 = every occurrence


class FileEdit(_Model):
    path: str
    content: str | None = None  # write the whole file
    replace: list[Replacement] = Field(default_factory=list)  # patch old → new
    append: str | None = None
    delete: bool = False


class ToolCall(_Model):
    name: str = "Bash"
    input: dict[str, Any] = Field(default_factory=lambda: {"command": "ls"})
    output: str = ""
    is_error: bool = False


class Usage(_Model):
    input_tokens: int = Field(default=1200, ge=0)
    output_tokens: int = Field(default=80, ge=0)
    cached_input_tokens: int = Field(default=0, ge=0)

    @property
    def uncached_input_tokens(self) -> int:
        return self.input_tokens - self.cached_input_tokens  # negative if cached > input

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class Lines(_Model):
    count: int = Field(ge=0)
    stream: Literal["stdout", "stderr"] = "stdout"
    text: str = "sim output line {n}"


class Crash(_Model):
    after_events: int = Field(default=1, ge=0)  # event lines written before the crash
    signal: str | None = None  # e.g. SIGKILL, SIGSEGV; otherwise exit with exit_code
    exit_code: int = 1

    @field_validator("signal")
    @classmethod
    def _known_signal(cls, value: str | None) -> str | None:
        if value is not None:
            signal_number(value)
        return value


class Hang(_Model):
    after_events: int = Field(default=1, ge=0)
    seconds: float = Field(default=3600, gt=0)
    grandchild: bool = False  # also start a child process that hangs (process-group kill tests)
    ignore_sigterm: bool = False  # only SIGKILL stops it (grace-period tests)


class Step(_Model):
    # When this step plays: all given conditions must hold; the first matching step wins.
    attempt: int | list[int] | None = None
    match: str | None = None  # regex searched in the prompt
    resumed: bool | None = None  # only when (not) resuming a session

    # What the agent reports.
    text: str | None = "Done."
    structured_output: Any = None
    session_id: str | None = None
    cost_usd: float = Field(default=0.0123, ge=0)
    usage: Usage = Field(default_factory=Usage)
    num_turns: int = Field(default=1, ge=0)
    failure: Failure | None = None
    message: str | None = None  # overrides the failure's default wording
    tools: list[ToolCall] = Field(default_factory=list)
    emit: bool = True  # False: no events at all (e.g. a CLI that dies on bad flags)

    # Side effects and process behaviour.
    stderr_noise: list[str] = Field(default_factory=list)
    stderr: str | None = None  # raw text, e.g. a traceback (written after the events)
    stdout: str | None = None  # raw non-JSON text written before the events
    lines: Lines | None = None
    files: list[FileEdit] = Field(default_factory=list)
    git_commit: str | None = None
    sleep: float = Field(default=0.0, ge=0)
    event_delay: float = Field(default=0.0, ge=0)
    crash: Crash | None = None
    hang: Hang | bool = False
    exit_code: int | None = None  # default: what the real CLI exits with for this outcome

    @field_validator("match")
    @classmethod
    def _regex(cls, value: str | None) -> str | None:
        if value is not None:
            problems = check_regex(value, case_sensitive=True)  # the ReDoS check user rules get
            if problems:
                raise ValueError(f"regex {value!r}: {'; '.join(problems)}")
        return value

    @field_validator("stderr_noise")
    @classmethod
    def _presets(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in NOISE_PRESETS]
        if unknown:
            raise ValueError(
                f"unknown stderr_noise preset(s) {unknown}; valid: {sorted(NOISE_PRESETS)}"
            )
        return value

    def hang_spec(self) -> Hang | None:
        if isinstance(self.hang, Hang):
            return self.hang
        return Hang() if self.hang else None


class Scenario(_Model):
    name: str | None = None
    description: str | None = None
    format: OutputFormat = "claude"
    model: str = "sim-model-1"
    session_id: str | None = None
    steps: list[Step] = Field(min_length=1)


def resolve_scenario(value: str | os.PathLike[str]) -> Path:
    """A path, or the bare name of a bundled scenario (``usage_limit``)."""
    text = os.fspath(value)
    path = Path(text).expanduser()
    if path.is_file():
        return path.resolve()
    if "/" not in text and os.sep not in text:
        for candidate in (SCENARIOS_DIR / text, SCENARIOS_DIR / f"{text}.yaml"):
            if candidate.is_file():
                return candidate
    bundled = ", ".join(sorted(p.stem for p in SCENARIOS_DIR.glob("*.yaml")))
    raise SimError(f"scenario not found: {text} (bundled scenarios: {bundled})")


def load_scenario(path: Path) -> Scenario:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SimError(f"cannot read scenario {path}: {exc}") from exc
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise SimError(f"invalid scenario {path}:\n{exc}") from exc


def choose_step(scenario: Scenario, attempt: int, prompt: str, resumed: bool) -> Step:
    """First step whose conditions hold; if none does, the last step without match or resumed."""
    for step in scenario.steps:
        if step.attempt is not None:
            wanted = step.attempt if isinstance(step.attempt, list) else [step.attempt]
            if attempt not in wanted:
                continue
        if step.match is not None and not _prompt_matches(step.match, prompt):
            continue
        if step.resumed is not None and step.resumed != resumed:
            continue
        return step
    fallbacks = [s for s in scenario.steps if s.match is None and s.resumed is None]
    return fallbacks[-1] if fallbacks else scenario.steps[-1]


def _prompt_matches(pattern: str, prompt: str) -> bool:
    try:
        return regex.search(pattern, prompt, timeout=MATCH_TIMEOUT_SECONDS) is not None
    except TimeoutError as exc:
        raise SimError(
            f"step regex {pattern!r} ran over {MATCH_TIMEOUT_SECONDS:g} s on the prompt"
        ) from exc


def signal_number(name: str) -> int:
    """``SIGKILL``, ``kill`` or ``KILL`` → its number; ValueError for an unknown name."""
    upper = name.upper()
    try:
        return int(signal.Signals[upper if upper.startswith("SIG") else "SIG" + upper])
    except KeyError:
        raise ValueError(f"unknown signal {name!r}") from None
