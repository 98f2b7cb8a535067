"""The ``sim`` agent format and the ``autofix-agent-sim`` console script.

``SimFormat`` runs the scripted agent (``python -m autofix.agents.sim``) and parses its output
with the parser of the scenario's declared format, so a simulated run goes through exactly the
same parsing as the real CLI it imitates. Scenario runtime: :mod:`autofix.agents.simulator`.

``request.options``: ``scenario`` (path or bundled name; else ``$AUTOFIX_SIM_SCENARIO``),
``operation`` (attempt counters are per scenario and operation), ``format`` (overrides the
scenario's), ``state_dir``, ``attempt`` (force a step, counter untouched).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from autofix.agents.base import (
    MAX_PROMPT_ARG_CHARS,
    AgentFormat,
    AgentRequest,
    EventParser,
    Invocation,
)

SCENARIO_ENV = "AUTOFIX_SIM_SCENARIO"

# Output format of the scenario → the real format whose parser reads it.
PARSER_FOR_OUTPUT: dict[str, str] = {
    "claude": "claude",
    "claude-json": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "gemini-stream": "gemini",
    "wrapper": "wrapper",
}


class SimFormat(AgentFormat):
    """The offline scripted agent, speaking any of the other formats."""

    name: ClassVar[str] = "sim"
    supports_resume: ClassVar[bool] = True

    def __init__(self) -> None:
        self.output_format: str | None = None  # set by command(); parser() follows it

    def command(self, request: AgentRequest, base_command: list[str] | None = None) -> Invocation:
        from autofix.agents.simulator import load_scenario, resolve_scenario
        from autofix.agents.wrapper import prompt_command

        options = request.options
        scenario_ref = options.get("scenario") or os.environ.get(SCENARIO_ENV)
        if not scenario_ref:
            raise ValueError(
                f"the sim agent needs a scenario: options['scenario'] or ${SCENARIO_ENV}"
            )
        path = resolve_scenario(str(scenario_ref))
        fmt = str(options.get("format") or load_scenario(path).format)
        if fmt not in PARSER_FOR_OUTPUT:
            raise ValueError(
                f"unknown sim output format {fmt!r}; valid: {', '.join(PARSER_FOR_OUTPUT)}"
            )
        self.output_format = fmt
        argv = list(base_command or [sys.executable, "-m", "autofix.agents.sim"])
        argv += [
            "--scenario",
            str(path),
            "--format",
            fmt,
            "--operation",
            str(options.get("operation") or "default"),
        ]
        if options.get("state_dir"):
            argv += ["--state-dir", str(options["state_dir"])]
        if options.get("attempt") is not None:
            argv += ["--attempt", str(int(options["attempt"]))]
        if fmt == "wrapper":
            # Like the real wrapper: the prompt and the resume id travel in the stdin command.
            return Invocation(argv=argv, stdin=prompt_command(request))
        if request.resume_session_id:
            argv.append(f"--resume={request.resume_session_id}")
        if len(request.prompt) > MAX_PROMPT_ARG_CHARS:
            return Invocation(argv=argv, stdin=request.prompt)
        argv.append(f"--prompt={request.prompt}")
        return Invocation(argv=argv)

    def parser(self) -> EventParser:
        from autofix.agents.registry import get_format

        fmt = self.output_format
        if fmt is None:
            scenario_ref = os.environ.get(SCENARIO_ENV)
            fmt = "claude"
            if scenario_ref:
                from autofix.agents.simulator import load_scenario, resolve_scenario

                fmt = load_scenario(resolve_scenario(scenario_ref)).format
        return get_format(PARSER_FOR_OUTPUT[fmt]).parser()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autofix-agent-sim",
        description="Offline scripted coding agent: plays a scenario YAML (see docs/simulator.md).",
    )
    parser.add_argument(
        "--scenario", default=os.environ.get(SCENARIO_ENV), help="scenario file or bundled name"
    )
    parser.add_argument("--format", dest="fmt", help="output format (default: the scenario's)")
    parser.add_argument(
        "--operation", default="default", help="attempt counters are kept per operation"
    )
    parser.add_argument(
        "-p", "--prompt", help="the prompt (default: read stdin; wrapper: the stdin command)"
    )
    parser.add_argument("-r", "--resume", help="session id to resume")
    parser.add_argument("--state-dir", type=Path, help="where the attempt counter file lives")
    parser.add_argument(
        "--attempt", type=int, help="play this attempt number; the counter is not touched"
    )
    parser.add_argument(
        "--reset", action="store_true", help="forget the attempt counters of this scenario"
    )
    parser.add_argument("--list", action="store_true", help="list the bundled scenarios")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from autofix.agents.simulator import (
        SCENARIOS_DIR,
        SimArgs,
        SimError,
        default_state_dir,
        play,
        reset_attempts,
        resolve_scenario,
    )

    args = build_parser().parse_args(argv)
    if args.list:
        for path in sorted(SCENARIOS_DIR.glob("*.yaml")):
            print(path.stem)
        return 0
    try:
        if not args.scenario:
            raise SimError(f"no scenario: pass --scenario or set ${SCENARIO_ENV}")
        path = resolve_scenario(args.scenario)
        if args.reset:
            reset_attempts(path, args.state_dir or default_state_dir(path), None)
            return 0
        return play(
            SimArgs(
                scenario_path=path,
                fmt=args.fmt,
                operation=args.operation,
                prompt=args.prompt,
                resume=args.resume,
                state_dir=args.state_dir,
                attempt=args.attempt,
                cwd=Path.cwd(),
            )
        )
    except SimError as exc:
        print(f"autofix-agent-sim: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away; do not add a second traceback on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
