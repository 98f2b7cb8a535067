"""``autofix-agent-sim`` / ``python -m autofix.sim``: play a scenario as a real agent CLI would."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from autofix.errors import SimError
from autofix.sim.play import SimArgs, play
from autofix.sim.scenario import SCENARIO_ENV, SCENARIOS_DIR, resolve_scenario
from autofix.sim.state import default_state_dir, reset_attempts


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
