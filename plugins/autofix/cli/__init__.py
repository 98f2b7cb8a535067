"""The ``autofix`` command. Each area registers its own subcommands; this module only dispatches.

Exit codes: 0 success, 1 a failure verdict, 2 a usage or configuration error.
"""

from __future__ import annotations

import argparse
import importlib
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
    with redacted_output():  # the CLI's one exit: nothing it prints carries a secret
        code: int = func(args)
    return code
