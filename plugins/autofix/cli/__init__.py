"""The ``autofix`` command. Each area registers its own subcommands; this module only dispatches.

Exit codes: 0 success, 1 a failure verdict, 2 a usage or configuration error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from autofix.redact import redacted_output

# Modules exposing ``register(subparsers)``; each adds its subcommands with ``set_defaults(func=...)``.
COMMAND_MODULES = (
    "autofix.cli.classify",
    "autofix.cli.patterns",
    "autofix.cli.audit",
)

EXIT_USAGE = 2
STDOUT_FD = 1
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader left


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autofix",
        description="Classify agent output, check noise patterns, and read the audit trail.",
        epilog="Exit codes: 0 success, 1 a failure verdict, 2 a usage or configuration error.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        with redacted_output():  # the CLI's one exit: nothing it prints carries a secret
            code: int = func(args)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other Unix tools do, and keep
        # the interpreter's last flush from failing on the closed pipe too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), STDOUT_FD)
        return EXIT_BROKEN_PIPE
    return code
