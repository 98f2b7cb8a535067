"""Retry mechanics: what a feedback retry costs and when stopping early pays.

A scripted model answers a strategy request. Each episode draws a behaviour from a
configurable, seeded mix; the model's answer on attempt k depends only on
(seed, episode, k), so every policy faces exactly the same model. The real
OutputValidator, AttemptPolicy and feedback builder run for "ours".

Compared:
- ours: fixed-size feedback (original prompt + last invalid output + ranked errors),
  identical-error abort, no retry on refusal;
- history: resend the whole conversation with the errors appended on each retry
  (Instructor reask / pydantic-ai RetryPromptPart style), no abort;
- ours-no-abort: ours with abort_on_identical_errors off.

Tokens are estimated as len(text) / 4 over every message sent; no tokenizer is used.
The scripted model's chance to fix an error does not depend on the prompt's wording, so
success differences come only from when each policy stops; token figures are the cost side.

Run: .venv/bin/python benchmarks/retry_mechanics.py [--episodes 2000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from autofix.result import Status
from autofix.validation.loop import AttemptLoop
from autofix.validation.policy import AttemptPolicy, AttemptRequest
from autofix.validation.reply import LLMReply
from autofix.validation.validator import OutputValidator


class Indicator(BaseModel):
    name: str = Field(pattern=r"^[a-z_]+$")
    period: int = Field(ge=1, le=200)
    weight: float = Field(ge=0, le=1)


class Indicators(BaseModel):
    technical_indicators: list[Indicator] = Field(min_length=1)


class Strategy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z_]+$")
    market: str
    indicators: Indicators
    risk: float = Field(ge=0, le=1)
    entry_rule: str
    exit_rule: str
    rationale: str


PROMPT = (
    "You are designing a systematic trading strategy for liquid US equities.\n"
    "Requirements:\n"
    "- name: lower_snake_case identifier\n"
    "- market: the market traded\n"
    "- indicators.technical_indicators: 2-5 indicators, each {name (lower_snake_case), "
    "period (1-200), weight (0-1)}\n"
    "- risk: fraction of capital at risk per trade, 0-1\n"
    "- entry_rule, exit_rule: one sentence each\n"
    "- rationale: at most three sentences\n"
    "Answer with a single JSON object and nothing else.\n"
)

GOOD: dict[str, Any] = {
    "name": "trend_momentum_blend",
    "market": "US large-cap equities",
    "indicators": {
        "technical_indicators": [
            {"name": "ema_cross", "period": 50, "weight": 0.4},
            {"name": "rsi", "period": 14, "weight": 0.3},
            {"name": "atr_filter", "period": 20, "weight": 0.3},
        ]
    },
    "risk": 0.01,
    "entry_rule": "Enter long when the 50-day EMA crosses above the 200-day EMA and RSI is below 70.",
    "exit_rule": "Exit when price closes below the 50-day EMA or the ATR stop is hit.",
    "rationale": (
        "Trend-following captures persistent moves in large caps. RSI avoids entering on "
        "exhaustion. The ATR stop bounds the loss per trade."
    ),
}


def _broken(kind: str) -> str:
    data = json.loads(json.dumps(GOOD))
    if kind == "range":
        data["risk"] = 2.5
    elif kind == "pattern":
        data["indicators"]["technical_indicators"][1]["name"] = "Relative Strength"
    elif kind == "structural":
        data["indicators"] = ["ema_cross", "rsi", "atr_filter"]
    elif kind == "missing":
        del data["exit_rule"]
        del data["indicators"]["technical_indicators"][0]["period"]
    elif kind == "type":
        data["indicators"]["technical_indicators"][2]["period"] = "twenty"
    return json.dumps(data, indent=2)


ERROR_KINDS = ("range", "pattern", "structural", "missing", "type")
VALID_TEXT = "```json\n" + json.dumps(GOOD, indent=2) + "\n```"
REFUSAL = "I'm sorry, but I can't help with designing trading strategies."

DEFAULT_MIX = {
    "valid_first": 0.50,
    "fixable": 0.25,
    "repeat_then_fix": 0.08,
    "stubborn": 0.10,
    "truncation": 0.05,
    "refusal": 0.02,
}


@dataclass(frozen=True)
class Behaviour:
    kind: str
    first_error: str
    p_fix: float


class ScriptedModel:
    """The answer for (episode, attempt) is a pure function of the seed."""

    def __init__(self, seed: int, episode: int, behaviour: Behaviour) -> None:
        self.seed = seed
        self.episode = episode
        self.behaviour = behaviour

    def answer(self, attempt: int) -> LLMReply:
        b = self.behaviour
        rng = random.Random(f"{self.seed}-{self.episode}-{attempt}")
        if b.kind == "valid_first":
            return LLMReply(VALID_TEXT, "stop")
        if b.kind == "refusal":
            return LLMReply(REFUSAL, "refusal")
        if b.kind == "stubborn":
            return LLMReply(_broken(b.first_error), "stop")
        if b.kind == "repeat_then_fix":
            return LLMReply(VALID_TEXT if attempt >= 3 else _broken(b.first_error), "stop")
        if attempt == 1 and b.kind == "truncation":
            return LLMReply(VALID_TEXT[: len(VALID_TEXT) * 3 // 5], "length")
        if attempt == 1:
            return LLMReply(_broken(b.first_error), "stop")
        if rng.random() < b.p_fix:
            return LLMReply(VALID_TEXT, "stop")
        if b.kind == "truncation":
            return LLMReply(VALID_TEXT[: len(VALID_TEXT) * 3 // 5], "length")
        others = [k for k in ERROR_KINDS if k != b.first_error]
        return LLMReply(_broken(rng.choice(others)), "stop")


def tokens(messages: list[dict[str, str]]) -> int:
    return sum(len(m["content"]) for m in messages) // 4


@dataclass
class Tally:
    episodes: int = 0
    successes: int = 0
    exhausted: int = 0
    refused: int = 0
    calls: int = 0
    retry_calls: int = 0
    tokens_sent: int = 0
    retry_tokens_sent: int = 0
    seconds: float = 0.0
    by_kind: dict[str, list[int]] = field(default_factory=dict)

    def add(self, kind: str, ok: bool, status: Status, sent: list[int]) -> None:
        self.episodes += 1
        self.successes += ok
        self.refused += status is Status.REFUSED
        self.exhausted += not ok and status is not Status.REFUSED
        self.calls += len(sent)
        self.retry_calls += max(0, len(sent) - 1)
        self.tokens_sent += sum(sent)
        self.retry_tokens_sent += sum(sent[1:])
        row = self.by_kind.setdefault(kind, [0, 0, 0])
        row[0] += 1
        row[1] += ok
        row[2] += len(sent)


Result = tuple[bool, Status, list[int]]


def run_ours(
    model: ScriptedModel,
    validator: OutputValidator,
    policy: AttemptPolicy,
    prompt: str,
    resumed: bool = False,
) -> Result:
    sent: list[int] = []

    def call(request: AttemptRequest) -> LLMReply:
        sent.append(tokens([{"role": "user", "content": request.prompt}]))
        return model.answer(request.attempt)

    loop = AttemptLoop(
        validator, policy, write_report=False, resume="always" if resumed else "never"
    )
    run = loop.run(prompt, call)
    return run.ok, run.status, sent


def run_history(
    model: ScriptedModel, validator: OutputValidator, max_attempts: int, prompt: str
) -> Result:
    """Instructor/pydantic-ai style: the conversation grows; every retry resends all of it."""
    messages = [{"role": "user", "content": prompt}]
    sent: list[int] = []
    status = Status.INVALID_OUTPUT
    for attempt in range(1, max_attempts + 1):
        sent.append(tokens(messages))
        reply = model.answer(attempt)
        outcome = validator.validate(reply.text, reply.finish_reason)
        if outcome.ok:
            return True, Status.COMPLETED, sent
        status = outcome.status
        errors = [
            {"loc": e.path, "type": e.category.value, "msg": e.message, "input": e.actual}
            for e in outcome.errors
        ]
        messages += [
            {"role": "assistant", "content": reply.text},
            {
                "role": "user",
                "content": json.dumps(errors, indent=2) + "\n\nFix the errors and try again.",
            },
        ]
    return False, status, sent


def draw(rng: random.Random, mix: dict[str, float], p_fix: float) -> Behaviour:
    kinds = list(mix)
    kind = rng.choices(kinds, weights=[mix[k] for k in kinds])[0]
    return Behaviour(kind, rng.choice(ERROR_KINDS), p_fix)


def benchmark(
    episodes: int,
    seed: int,
    mix: dict[str, float],
    p_fix: float,
    max_attempts: int,
    context_chars: int = 0,
) -> dict[str, Tally]:
    validator = OutputValidator(Strategy)
    ours = AttemptPolicy(max_attempts=max_attempts)
    no_abort = AttemptPolicy(max_attempts=max_attempts, abort_on_identical_errors=False)
    # Agent prompts usually carry project context (files, logs); pad to model that.
    context = ("Context excerpt: src/strategy/engine.py handles order routing and fills.\n" * 400)[
        :context_chars
    ]
    prompt = context + PROMPT
    runners: dict[str, Callable[[ScriptedModel], Result]] = {
        "ours (full feedback)": lambda m: run_ours(m, validator, ours, prompt),
        "ours (resumed session)": lambda m: run_ours(m, validator, ours, prompt, resumed=True),
        "history (Instructor/pydantic-ai style)": lambda m: run_history(
            m, validator, max_attempts, prompt
        ),
        "ours without identical-error abort": lambda m: run_ours(m, validator, no_abort, prompt),
    }
    tallies = {name: Tally() for name in runners}
    rng = random.Random(seed)
    behaviours = [draw(rng, mix, p_fix) for _ in range(episodes)]
    for name, runner in runners.items():
        tally = tallies[name]
        started = time.perf_counter()
        for episode, behaviour in enumerate(behaviours):
            ok, status, sent = runner(ScriptedModel(seed, episode, behaviour))
            tally.add(behaviour.kind, ok, status, sent)
        tally.seconds = time.perf_counter() - started
    return tallies


def table(tallies: dict[str, Tally]) -> str:
    header = (
        "| policy | final success | calls per validated answer | exhaustion rate | refused (stopped) "
        "| tokens sent per retry | tokens sent per validated answer |"
    )
    lines = [header, "|---|---:|---:|---:|---:|---:|---:|"]
    for name, t in tallies.items():
        per_answer = t.calls / t.successes if t.successes else float("nan")
        per_retry = t.retry_tokens_sent / t.retry_calls if t.retry_calls else 0.0
        tokens_per_answer = t.tokens_sent / t.successes if t.successes else float("nan")
        lines.append(
            f"| {name} | {t.successes / t.episodes:.1%} | {per_answer:.2f} | {t.exhausted / t.episodes:.1%} "
            f"| {t.refused / t.episodes:.1%} | {per_retry:,.0f} | {tokens_per_answer:,.0f} |"
        )
    return "\n".join(lines)


def kind_table(tallies: dict[str, Tally]) -> str:
    names = list(tallies)
    kinds = list(next(iter(tallies.values())).by_kind)
    lines = [
        "| behaviour | episodes | " + " | ".join(f"{n}: success / calls" for n in names) + " |"
    ]
    lines.append("|---|---:|" + "---:|" * len(names))
    for kind in sorted(kinds):
        count = tallies[names[0]].by_kind[kind][0]
        cells = [
            f"{tallies[n].by_kind[kind][1] / count:.0%} / {tallies[n].by_kind[kind][2] / count:.2f}"
            for n in names
        ]
        lines.append(f"| {kind} | {count} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_mix(text: str | None) -> dict[str, float]:
    mix = dict(DEFAULT_MIX)
    if text:
        for item in text.split(","):
            key, _, value = item.partition("=")
            if key.strip() not in DEFAULT_MIX:
                raise SystemExit(f"unknown behaviour {key!r}; known: {', '.join(DEFAULT_MIX)}")
            mix[key.strip()] = float(value)
    return mix


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--p-fix", type=float, default=0.7, help="chance a retry fixes a fixable error"
    )
    parser.add_argument("--max-attempts", type=int, default=3)
    parser.add_argument("--mix", help="e.g. valid_first=0.5,fixable=0.25,stubborn=0.1 (weights)")
    parser.add_argument(
        "--context-chars", type=int, default=0, help="project context prepended to the prompt"
    )
    args = parser.parse_args(argv)
    logging.getLogger("autofix.validation").setLevel(logging.ERROR)
    mix = parse_mix(args.mix)
    tallies = benchmark(
        args.episodes, args.seed, mix, args.p_fix, args.max_attempts, args.context_chars
    )
    print(
        f"episodes={args.episodes} seed={args.seed} p_fix={args.p_fix} max_attempts={args.max_attempts} "
        f"context_chars={args.context_chars} mix={json.dumps(mix)}  (tokens = characters / 4)"
    )
    print()
    print(table(tallies))
    print()
    print(kind_table(tallies))
    print()
    print("wall time: " + ", ".join(f"{name} {t.seconds:.1f}s" for name, t in tallies.items()))


if __name__ == "__main__":
    main()
