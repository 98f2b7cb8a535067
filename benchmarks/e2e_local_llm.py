"""End to end on a real model: which retry strategy turns invalid answers into valid ones.

    make llm-up
    .venv/bin/python benchmarks/e2e_local_llm.py --iterations 100 --out logs/e2e_local_llm.json

Gemma 3 270M (a base model, completion-style few-shot prompts) behind the llama.cpp server, the
task schemas of benchmarks/llm_tasks.py (two of them held out), every strategy on the same budget
(3 attempts), the same seeds and the same model.
Attempt 1 is the same request for every strategy (same prompt, same seed), so strategies differ
only in what their retries send. The loop is autofix's own (AttemptLoop + AttemptPolicy); the
client is the one ``agent="openai"`` runs, called in process here so 2 cores spend their time on
the model rather than on starting interpreters.

``adaptive`` and ``auto`` learn online from their own audit records of earlier items (strategy,
schema and retried error category per retry), as they would in production; with no history they
use the built-in table.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from llm_tasks import HELD_OUT, TASKS, Task

from autofix.agents.base import AttemptOptions
from autofix.agents.openai.client import ClientRequest, call
from autofix.audit.envelope import Envelope, interaction_from_parse_result
from autofix.audit.stores.memory import MemoryStore
from autofix.devtools.local_llm import MODEL_NAME, LocalServer
from autofix.result import ParseResult, RetryStrategy, TokenUsage
from autofix.validation.adaptive import AdaptiveAdvisor, observations_from_interactions
from autofix.validation.loop import AttemptLoop
from autofix.validation.policy import AttemptPolicy, AttemptRequest
from autofix.validation.records import AttemptRecord
from autofix.validation.reply import LLMReply
from autofix.validation.strategies import STRATEGIES, arm

MAX_ATTEMPTS = 3
BASE_SEED = 1000
TEMPERATURE = 1.0

# ---------------------------------------------------------------------------- one run


@dataclass
class RunResult:
    task: str
    strategy: str
    index: int
    ok: bool
    first_ok: bool
    attempts: int
    reason: str
    tokens: int
    seconds: float
    strategies_used: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)


class Client:
    """The agent="openai" client, in process, counting what it spends.

    The server is deterministic for a fixed seed (checked), so an identical request (attempt 1 of
    every unconstrained strategy, a resample that adaptive also picks) is answered from a cache and
    charged the first call's time: the same numbers for a fraction of the machine time.
    """

    def __init__(self, base_url: str, task: Task) -> None:
        self.base_url = base_url
        self.task = task
        self.http = httpx.Client(timeout=httpx.Timeout(120.0, connect=5.0))
        self.schema = task.schema.model_json_schema()  # unless the attempt says another
        self.cache: dict[str, tuple[LLMReply, float]] = {}
        self.seconds = 0.0  # charged, cached calls included

    def ask(self, request: AttemptRequest, seed: int) -> LLMReply:
        key = json.dumps(
            [
                request.prompt,
                request.messages,
                AttemptOptions(seed_offset=request.seed_offset).seed_for(seed),
                request.constrained,
                request.schema,
            ]
        )
        if key not in self.cache:
            started = time.monotonic()
            reply = self._ask(request, seed)
            self.cache[key] = (reply, time.monotonic() - started)
        reply, seconds = self.cache[key]
        self.seconds += seconds
        return reply

    def _ask(self, request: AttemptRequest, seed: int) -> LLMReply:
        client_request = ClientRequest(
            base_url=self.base_url,
            prompt=request.prompt,
            messages=[dict(m) for m in request.messages] if request.messages else None,
            model=MODEL_NAME,
            mode="completions",
            temperature=TEMPERATURE,
            seed=AttemptOptions(seed_offset=request.seed_offset).seed_for(seed),
            max_tokens=self.task.max_tokens,
            stop=["\n"],
            json_schema=dict(request.schema) if request.schema is not None else self.schema,
            constrained=request.constrained,
            constrained_as="grammar",  # llama.cpp GBNF from the schema: completions have no response_format
            max_retries=2,
        )
        event = call(client_request, lambda e: None, client=self.http)
        if event.get("event") != "response":
            raise RuntimeError(f"the server failed: {event.get('message')}")
        usage = event.get("usage") or {}
        return LLMReply(
            text=event["text"],
            finish_reason=event.get("finish_reason"),
            usage=TokenUsage(
                input_tokens=usage.get("prompt_tokens", 0),
                output_tokens=usage.get("completion_tokens", 0),
            ),
        )


def run_one(
    client: Client,
    task: Task,
    strategy: str,
    index: int,
    store: MemoryStore,
    advisor: AdaptiveAdvisor | None,
) -> RunResult:
    validator = task.validator()
    # "auto" resolves as it does for agent="openai": adaptive, the schema on attempt 1.
    policy = AttemptPolicy(
        max_attempts=MAX_ATTEMPTS,
        strategy=strategy,
        feedback_style="completion",
        advisor=advisor,
    ).resolved(samples=True)
    seed = BASE_SEED + index
    trace = f"{task.name}-{strategy}-{index}"
    prompt = task.prompt(index)
    requests: dict[int, AttemptRequest] = {}
    replies: dict[int, LLMReply] = {}

    def ask(request: AttemptRequest) -> LLMReply:
        requests[request.attempt] = request
        reply = client.ask(request, seed)
        replies[request.attempt] = reply
        return reply

    def record(attempt: AttemptRecord) -> None:
        request = requests[attempt.attempt]
        context: dict[str, Any] = {
            "attempt": attempt.attempt,
            "strategy": request.strategy,
            "constrained": request.constrained,
        }
        if request.retry_for:
            context["retry_for"] = request.retry_for
        envelope = Envelope(
            trace_id=trace,
            operation=task.name,
            agent_type="openai",
            model=MODEL_NAME,
            instructions=request.prompt,
            context=context,
        )
        base = ParseResult(
            success=attempt.ok,
            status=attempt.status,
            final_text=attempt.raw_output,
            finish_reason=attempt.finish_reason,
            usage=replies[attempt.attempt].usage or TokenUsage(),
        )
        result = attempt.outcome.to_parse_result(base, operation=task.name, attempt=attempt.attempt)
        store.append(
            interaction_from_parse_result(
                envelope,
                result,
                latency_ms=attempt.duration_s * 1000,
                attempt_number=attempt.attempt,
            )
        )

    loop = AttemptLoop(
        validator, policy, operation=task.name, run_id=trace, on_attempt=record, write_report=False
    )
    charged = client.seconds
    run = loop.run(prompt, ask)
    seconds = client.seconds - charged
    tokens = sum((r.usage.total if r.usage else 0) for r in run.attempts)
    categories = [
        ",".join(sorted({e.category.value for e in r.errors})) or r.status.value
        for r in run.attempts
        if not r.ok
    ]
    return RunResult(
        task=task.name,
        strategy=strategy,
        index=index,
        ok=run.ok,
        first_ok=run.attempts[0].ok,
        attempts=len(run.attempts),
        reason=run.reason,
        tokens=tokens,
        seconds=seconds,
        strategies_used=[
            arm(requests[r.attempt].strategy, requests[r.attempt].constrained)
            for r in run.attempts[1:]
        ],
        categories=categories,
    )


# ---------------------------------------------------------------------------- stats


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(results: Sequence[RunResult]) -> dict[str, Any]:
    n = len(results)
    ok = sum(r.ok for r in results)
    first = sum(r.first_ok for r in results)
    retried = [r for r in results if not r.first_ok]
    low, high = wilson(ok, n)
    calls = sum(r.attempts for r in results)
    return {
        "n": n,
        "first_attempt": first / n if n else 0.0,
        "final": ok / n if n else 0.0,
        "final_ci": [low, high],
        "retry_utilisation": len(retried) / n if n else 0.0,
        "retry_success": (sum(r.ok for r in retried) / len(retried)) if retried else None,
        "exhaustion": sum(r.reason == "exhausted" for r in results) / n if n else 0.0,
        "stopped_identical": sum(r.reason == "identical_errors" for r in results) / n if n else 0.0,
        "calls_per_valid": calls / ok if ok else None,
        "tokens_per_valid": sum(r.tokens for r in results) / ok if ok else None,
        "seconds_per_valid": sum(r.seconds for r in results) / ok if ok else None,
    }


def table(summary: dict[str, dict[str, dict[str, Any]]]) -> str:
    lines = [
        "| task | strategy | n | 1st attempt | valid ≤3 attempts (95% CI) | retry util. | retry success | exhausted | calls/valid | tokens/valid | s/valid |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def pct(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.0f}%"

    def num(value: float | None, digits: int = 2) -> str:
        return "–" if value is None else f"{value:.{digits}f}"

    for task, rows in summary.items():
        label = f"{task} (held out)" if task in HELD_OUT else task
        for strategy, s in rows.items():
            low, high = s["final_ci"]
            lines.append(
                f"| {label} | {strategy} | {s['n']} | {pct(s['first_attempt'])} | "
                f"**{pct(s['final'])}** ({pct(low)}–{pct(high)}) | {pct(s['retry_utilisation'])} | "
                f"{pct(s['retry_success'])} | {pct(s['exhaustion'])} | {num(s['calls_per_valid'])} | "
                f"{num(s['tokens_per_valid'], 0)} | {num(s['seconds_per_valid'])} |"
            )
    return "\n".join(lines)


def mcnemar_p(wins: int, losses: int) -> float:
    """Exact two-sided McNemar test on the discordant pairs (binomial, p = 1/2)."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(wins, losses) + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_table(runs: Sequence[RunResult], policy: str = RetryStrategy.AUTO) -> str:
    """``policy`` against every other strategy on the same items (same seeds): items only it got
    valid, items only the other got valid, and the exact McNemar p-value of the difference."""
    lines = [
        f"| task | {policy} vs | only {policy} valid | only the other valid | McNemar p |",
        "|---|---|---|---|---|",
    ]
    outcome = {(r.task, r.strategy, r.index): r.ok for r in runs}
    tasks = list(dict.fromkeys(r.task for r in runs))
    for task in tasks:
        others = list(dict.fromkeys(r.strategy for r in runs if r.task == task))
        items = sorted({r.index for r in runs if r.task == task and r.strategy == policy})
        for other in others:
            if other == policy:
                continue
            pairs = [
                (outcome[(task, policy, i)], outcome[(task, other, i)])
                for i in items
                if (task, other, i) in outcome
            ]
            wins = sum(mine and not theirs for mine, theirs in pairs)
            losses = sum(theirs and not mine for mine, theirs in pairs)
            lines.append(
                f"| {task} | {other} | {wins} | {losses} | {mcnemar_p(wins, losses):.2g} |"
            )
    return "\n".join(lines)


def report(*paths: Path) -> str:
    """Both tables from results files of earlier runs; a later file's (task, strategy) rows
    replace an earlier one's (e.g. one policy rerun after a change)."""
    rows: dict[tuple[str, str], list[RunResult]] = {}
    for path in paths:
        fresh: dict[tuple[str, str], list[RunResult]] = {}
        for raw in json.loads(path.read_text())["runs"]:
            run = RunResult(**raw)
            fresh.setdefault((run.task, run.strategy), []).append(run)
        rows.update(fresh)
    summary: dict[str, dict[str, dict[str, Any]]] = {}
    for (task, strategy), runs in rows.items():
        summary.setdefault(task, {})[strategy] = summarise(runs)
    every = [run for runs in rows.values() for run in runs]
    return table(summary) + "\n\n" + paired_table(every)


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", "-n", type=int, default=20, help="items per task")
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--base-url", default=None, help="default: the make llm-up server")
    parser.add_argument("--start-server", action="store_true", help="start (and stop) the server")
    parser.add_argument("--out", default="logs/e2e_local_llm.json")
    parser.add_argument(
        "--report", metavar="JSON", nargs="+", help="print the tables of earlier runs and stop"
    )
    args = parser.parse_args(argv)
    if args.report:
        print(report(*map(Path, args.report)))
        return 0

    server = LocalServer.from_env()
    started_server = False
    if args.base_url is None and not server.healthy():
        if not args.start_server:
            print(f"no server at {server.base_url}: run `make llm-up` or pass --start-server")
            return 2
        server.start()
        started_server = True
    base_url = args.base_url or server.base_url
    strategies = [s for s in args.strategies.split(",") if s]
    # They read their own earlier audit records.
    learners = (RetryStrategy.ADAPTIVE, RetryStrategy.AUTO)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    all_results: list[RunResult] = []
    summary: dict[str, dict[str, dict[str, Any]]] = {}
    learned: dict[str, Any] = {}
    try:
        for task_name in [t for t in args.tasks.split(",") if t]:
            task = TASKS[task_name]
            client = Client(base_url, task)
            store = MemoryStore()
            summary[task.name] = {}
            results: dict[str, list[RunResult]] = {name: [] for name in strategies}
            t0 = time.monotonic()
            for index in range(args.iterations):
                for strategy in strategies:
                    advisor = None
                    if strategy in learners:
                        # Online, as in production: its own earlier items' audit records only.
                        own = f"{task.name}-{strategy}-"
                        past = [i for i in store.iter_all() if i.trace_id.startswith(own)]
                        advisor = AdaptiveAdvisor(
                            stats=observations_from_interactions(past, task.name)
                        )
                    result = run_one(client, task, strategy, index, store, advisor)
                    results[strategy].append(result)
                    all_results.append(result)
                if (index + 1) % 10 and index + 1 != args.iterations:
                    continue
                for strategy in strategies:
                    summary[task.name][strategy] = summarise(results[strategy])
                line = " ".join(
                    f"{name} {summary[task.name][name]['final']:.0%}" for name in strategies
                )
                print(
                    f"{task.name} {index + 1}/{args.iterations} ({time.monotonic() - t0:.0f}s, "
                    f"{len(client.cache)} server calls): {line}",
                    flush=True,
                )
                learned[task.name] = observations_from_interactions(
                    store.iter_all(), task.name
                ).table()
                out.write_text(
                    json.dumps(
                        {
                            "model": MODEL_NAME,
                            "temperature": TEMPERATURE,
                            "max_attempts": MAX_ATTEMPTS,
                            "iterations": args.iterations,
                            "summary": summary,
                            "learned_rates": learned,
                            "runs": [asdict(r) for r in all_results],
                        },
                        indent=1,
                    )
                )
    finally:
        if started_server:
            server.stop()
    print()
    print(report(out))
    out.with_suffix(".md").write_text(report(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
