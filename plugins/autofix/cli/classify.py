"""``autofix classify``: a verdict on one command's exit code and output files (streamed).

With ``--agent FORMAT`` the files are a saved agent run (its event stream on stdout) and are
judged exactly as AIWrapperOperator judges a live run (autofix.task.judge): verdict, failure
kind, retry class, final text and session id.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, TYPE_CHECKING, Any

from autofix.agents.registry import SAVED_OUTPUT_FORMATS
from autofix.classify.classifier import Classifier
from autofix.classify.stream_report import ClassifyReport
from autofix.errors import PatternFileError
from autofix.patterns.loader import PatternStore, load_file
from autofix.result import RETRY_ACTIONS, ParseResult, truncate

if TYPE_CHECKING:
    from autofix.parser import ResponseParser

EXIT_SUCCESS, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
_CHUNK = 1 << 20
AGENT_FORMATS = SAVED_OUTPUT_FORMATS


def register(subparsers: Any) -> None:
    cmd = subparsers.add_parser(
        "classify", help="classify a command's exit code and output; exit 0 success, 1 failure"
    )
    cmd.add_argument("--exit-code", type=int, required=True, help="the command's exit code")
    cmd.add_argument(
        "--run-status", default=None, help="run status, e.g. completed, failed, cancelled"
    )
    cmd.add_argument(
        "--stderr", default=None, metavar="FILE", help="stderr file, or - for standard input"
    )
    cmd.add_argument(
        "--stdout",
        default=None,
        metavar="FILE",
        help="stdout file (a failure summary there counts)",
    )
    cmd.add_argument("--operation", default="", help="operation name, e.g. fix or test")
    cmd.add_argument(
        "--command",
        default=None,
        metavar="LINE",
        help="the command line that ran: where it hides the exit status (`|| true`, `| tail`,"
        " --exit-zero), a finding in the output decides failure",
    )
    cmd.add_argument(
        "--patterns", default=None, metavar="FILE", help="pattern file (default: the usual lookup)"
    )
    cmd.add_argument("--format", choices=("json", "text"), default=None)
    cmd.add_argument("--json", action="store_true", help="JSON output (same as --format json)")
    agent = cmd.add_argument_group("saved agent runs")
    agent.add_argument(
        "--agent",
        choices=AGENT_FORMATS,
        default=None,
        help="judge a saved run of this agent as the operator would (stdout: its event stream)",
    )
    agent.add_argument(
        "--signal", default=None, metavar="NAME", help="the signal that ended it, e.g. SIGKILL"
    )
    agent.add_argument(
        "--timed-out",
        type=float,
        default=None,
        metavar="SECONDS",
        help="autofix's timeout stopped it after this long",
    )
    cmd.set_defaults(func=run)


def _stream(path: str | None, classifier: Classifier) -> ClassifyReport:
    if path is None:
        return classifier.finish()
    handle: IO[bytes]
    if path == "-":
        handle = sys.stdin.buffer
        _pump(handle, classifier)
    else:
        with open(path, "rb") as handle:
            _pump(handle, classifier)
    return classifier.finish()


def _pump(handle: IO[bytes], classifier: Classifier) -> None:
    while chunk := handle.read(_CHUNK):
        classifier.feed(chunk)


def _output_format(args: argparse.Namespace) -> str:
    if args.json:
        return "json"
    # Agent verdicts read as text by default; the classic mode keeps its JSON default.
    return str(args.format or ("text" if args.agent else "json"))


def _read(path: str | None) -> bytes:
    if path is None:
        return b""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def run_agent(args: argparse.Namespace, parser: ResponseParser) -> int:
    # Here, not at the top: every `autofix` command imports all command modules to build its
    # parser; the verdict machinery loads only for the command that needs it.
    from autofix.agents.registry import get_format
    from autofix.task.judge import judge_saved_output

    if args.stdout is None:
        print("autofix classify: --agent needs --stdout (the saved event stream)", file=sys.stderr)
        return EXIT_USAGE
    try:
        stdout, stderr = _read(args.stdout), _read(args.stderr)
    except OSError as exc:
        print(f"autofix classify: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    result = judge_saved_output(
        get_format(args.agent),
        stdout,
        stderr,
        args.exit_code,
        parser=parser,
        operation=args.operation,
        signal_name=args.signal,
        timed_out_after=args.timed_out,
    )
    if _output_format(args) == "json":
        print(result.model_dump_json(indent=2))
    else:
        print_agent_verdict(result)
    return EXIT_SUCCESS if result.success else EXIT_FAILURE


def print_agent_verdict(result: ParseResult) -> None:
    kind = result.failure_kind.value if result.failure_kind is not None else "-"
    print(f"verdict: {'success' if result.success else 'failure'}")
    print(f"kind: {kind}")
    print(f"retry class: {result.retry_class.value} ({RETRY_ACTIONS[result.retry_class]})")
    if result.retry_after_s is not None:
        print(f"retry after: {result.retry_after_s:g}s")
    print(f"session id: {result.session_id or '-'}")
    if result.final_text is not None:
        print("final text:\n  " + truncate(result.final_text, 2000).replace("\n", "\n  "))
    if result.error_message:
        print("message:\n  " + result.error_message.replace("\n", "\n  "))
    for warning in result.warnings:
        print(f"warning: {warning}")


def run(args: argparse.Namespace) -> int:
    from autofix.parser import ResponseParser  # as in run_agent

    if args.stderr == "-" and args.stdout == "-":
        print(
            "autofix classify: only one of --stderr/--stdout can read standard input",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.patterns:
        try:
            load_file(args.patterns)  # an explicit file must be valid: say why, don't fall back
        except PatternFileError as exc:
            print(f"autofix classify: invalid pattern file {exc.path}:", file=sys.stderr)
            for problem in exc.problems:
                print(f"  {problem}", file=sys.stderr)
            return EXIT_USAGE
    parser = ResponseParser(PatternStore(args.patterns) if args.patterns else None)
    if args.agent:
        return run_agent(args, parser)
    try:
        err = _stream(args.stderr, parser.classifier(args.operation, "stderr"))
        out = _stream(args.stdout, parser.classifier(args.operation, "stdout"))
    except OSError as exc:
        print(f"autofix classify: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    result = parser.parse(
        args.exit_code,
        err,
        out,
        run_status=args.run_status,
        operation=args.operation,
        command=args.command,
    )
    if _output_format(args) == "json":
        print(result.model_dump_json(indent=2))
    else:
        verdict = "success" if result.success else f"failure ({result.status.value})"
        print(f"verdict: {verdict}")
        print(
            f"lines: {result.noise_lines} noise, {result.neutral_lines} neutral, {result.error_lines} error"
        )
        print(f"patterns: {result.patterns_source}")
        if result.matched_rules:
            print(f"rules matched: {', '.join(result.matched_rules)}")
        if result.error_message:
            print("message:\n  " + result.error_message.replace("\n", "\n  "))
        for warning in result.warnings:
            print(f"warning: {warning}")
    return EXIT_SUCCESS if result.success else EXIT_FAILURE
