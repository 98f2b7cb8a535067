"""``autofix classify``: a verdict on one command's exit code and output files (streamed)."""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from autofix.classify.classifier import Classifier, ClassifyReport
from autofix.errors import PatternFileError
from autofix.patterns.loader import PatternStore, load_file

EXIT_SUCCESS, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
_CHUNK = 1 << 20


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
        "--patterns", default=None, metavar="FILE", help="pattern file (default: the usual lookup)"
    )
    cmd.add_argument("--format", choices=("json", "text"), default="json")
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


def run(args: argparse.Namespace) -> int:
    from autofix.parser import ResponseParser

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
    try:
        err = _stream(args.stderr, parser.classifier(args.operation, "stderr"))
        out = _stream(args.stdout, parser.classifier(args.operation, "stdout"))
    except OSError as exc:
        print(f"autofix classify: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    result = parser.parse(
        args.exit_code, err, out, run_status=args.run_status, operation=args.operation
    )
    if args.format == "json":
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
