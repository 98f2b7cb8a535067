"""``autofix patterns check | explain | list | suggest | schema``."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from autofix.audit.stores import store_from_uri
from autofix.classify.classifier import Classifier
from autofix.errors import PatternFileError
from autofix.native_modules import compiled_modules
from autofix.patterns import engine
from autofix.patterns.loader import (
    BUILT_IN_RULES_PATH,
    DEFAULT_RULES,
    PatternStore,
    default_store,
    defaults,
    load_file,
    rule_count,
)
from autofix.patterns.model import BUILT_IN_ONLY, PatternFile, Rule

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


def register(subparsers: Any) -> None:
    patterns = subparsers.add_parser("patterns", help="check, explain or describe pattern files")
    sub = patterns.add_subparsers(dest="patterns_command", metavar="SUBCOMMAND")
    check = sub.add_parser(
        "check", help="validate a pattern file; exit 0 if usable, 2 with every problem"
    )
    check.add_argument("file")
    check.set_defaults(func=run_check)
    explain = sub.add_parser(
        "explain", help="show each log line's verdict and the rule that decided it"
    )
    explain.add_argument("file", help="pattern file, or 'defaults' for the built-in rules")
    explain.add_argument("log")
    explain.add_argument("--operation", default="")
    explain.add_argument("--stream", choices=("stderr", "stdout"), default="stderr")
    explain.add_argument(
        "--command",
        default=None,
        metavar="LINE",
        help="the command line that wrote the log: says whether it hides the exit status",
    )
    explain.set_defaults(func=run_explain)
    suggest = sub.add_parser(
        "suggest",
        help="propose noise rules from stderr lines that recur in green runs of an audit store",
    )
    suggest.add_argument("--store", required=True, help="audit store: a JSONL path or s3://...")
    suggest.add_argument(
        "--patterns", default=None, help="pattern file in effect (default: the usual lookup)"
    )
    suggest.add_argument(
        "--min-runs", type=int, default=2, help="green runs a line must recur in (default 2)"
    )
    suggest.add_argument("--top", type=int, default=30, help="at most this many proposals")
    suggest.add_argument(
        "--write", default=None, metavar="FILE", help="append them to FILE after a backup"
    )
    suggest.set_defaults(func=run_suggest)
    lister = sub.add_parser(
        "list",
        help="print rules in the pattern file's format: those in effect, or the built-ins",
    )
    lister.add_argument(
        "file", nargs="?", default=None, help="pattern file (default: the usual lookup)"
    )
    lister.add_argument(
        "--defaults", action="store_true", help="only the built-in rules, in the order checked"
    )
    lister.set_defaults(func=run_list)
    schema = sub.add_parser("schema", help="print the pattern file's JSON Schema")
    schema.set_defaults(func=run_schema)
    patterns.set_defaults(func=lambda _args: (patterns.print_help(sys.stderr), EXIT_USAGE)[1])


def run_check(args: argparse.Namespace) -> int:
    try:
        rules = load_file(args.file)
    except PatternFileError as exc:
        print(f"{exc.path}: {len(exc.problems)} problem(s)")
        for problem in exc.problems:
            print(f"  {problem}")
        return EXIT_USAGE
    user = [c for c in rules.compiled if not c.trusted]
    mode = "extends" if rules.settings.mode == "extend" else "replaces"
    print(
        f"{args.file}: OK, {len(user)} rules; {mode} the {len(rules.compiled) - len(user)} built-in defaults in effect"
    )
    compiled_now = compiled_modules()
    print(
        f"classifier: compiled ({len(compiled_now)} modules, a native build)"
        if compiled_now
        else "classifier: interpreted (pure Python; a native build runs the same code faster)"
    )
    if not engine.installed():
        print(
            "engine: hyperscan is not installed: every rule runs on the fallback path "
            "(literal keys; user regexes on `regex` with the timeout after the static check)"
        )
        return EXIT_OK
    if not engine.available():
        print(f"engine: switched off by {engine.ENGINE_ENV}=fallback; modes below apply with it on")
    for compiled in user:
        plan = compiled.plan
        assert plan is not None
        why = f" ({plan.why})" if plan.why else ""
        print(f"  {compiled.id}: {plan.mode}{why}")
    built_in = [c.plan.mode for c in rules.compiled if c.trusted and c.plan is not None]
    if built_in:
        print(
            f"  built-in rules: {built_in.count(engine.MODE_ENGINE)} of {len(built_in)} on the engine"
        )
    return EXIT_OK


def run_explain(args: argparse.Namespace) -> int:
    # Here, not at the top: every `autofix` command imports all command modules to build its
    # parser; the verdict machinery loads only for the command that needs it.
    from autofix.classify.masked_exit import (
        MASKED_EXIT_ROLE,
        MASKED_EXIT_RULE,
        findings,
        masked_exit,
    )
    from autofix.classify.verdict import weigh

    try:
        rules = defaults() if args.file == "defaults" else load_file(args.file)
    except PatternFileError as exc:
        return _unusable(exc, "invalid pattern file")
    classifier = Classifier(rules, args.operation, stream=args.stream, explain=True)
    try:
        with open(args.log, "rb") as handle:
            while chunk := handle.read(1 << 20):
                classifier.feed(chunk)
                _flush(classifier)
    except BrokenPipeError:
        raise  # our reader left (`| head`), not the log: main() stops quietly
    except OSError as exc:
        print(f"cannot read {args.log}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    report = classifier.finish()
    _flush(classifier)
    print(
        f"-- {report.noise_lines} noise, {report.neutral_lines} neutral, {report.error_lines} error; "
        f"{len(report.blocks)} error block(s); patterns: {report.patterns_source}"
    )
    for warning in report.warnings:
        print(f"-- warning: {warning}")
    weighing = weigh([report])
    masked = masked_exit(args.command)
    found = findings(report.tail) if masked and not weighing.failed else []
    print(f"-- at exit 0 this output says: {'failure' if weighing.failed or found else 'success'}")
    for item in weighing.evidence:
        where = f"line {item.line_no}" if item.line_no else item.stream
        print(f"--   {item.role} [{item.rule_id or '-'}] {where}: {item.text[:160]}")
    if args.command is not None:
        said = masked or "its exit status is its work's"
        print(f"-- the command line: {said}")
    for line in found[:3]:
        print(f"--   {MASKED_EXIT_ROLE} [{MASKED_EXIT_RULE}] {report.stream}: {line}")
    return EXIT_OK


def _flush(classifier: Any) -> None:
    marks = {"noise": "noise  ", "neutral": "       ", "error": "ERROR  ", "success": "success"}
    for verdict in classifier.explained:
        rule = f"[{verdict.rule_id}{'+' if verdict.in_block else ''}]" if verdict.rule_id else ""
        print(f"{verdict.line_no:6d} {marks[verdict.verdict]} {rule:28s} {verdict.text[:200]}")
    classifier.explained.clear()


def run_suggest(args: argparse.Namespace) -> int:
    from autofix.patterns import suggest  # as in run_explain

    try:
        rules = PatternStore(args.patterns).current() if args.patterns else load_default()
    except PatternFileError as exc:
        print(f"{exc.path}: invalid pattern file", file=sys.stderr)
        return EXIT_USAGE
    store = store_from_uri(args.store)
    found, greens, reds = suggest.collect(store.iter_all(), args.min_runs)
    proposals = suggest.valid(suggest.keep_new(found, rules))[: args.top]
    print(
        f"# {len(proposals)} noise rule(s) from {greens} green and {reds} failed run(s) in "
        f"{store.describe()}: lines in >= {args.min_runs} green runs, none failed, not noise yet"
    )
    if not args.write:
        print(suggest.render(proposals), end="")
        return EXIT_OK
    try:
        added, backup = suggest.append_to_file(Path(args.write), proposals)
    except PatternFileError as exc:
        return _unusable(exc, "not written:")
    saved = f" (backup: {backup})" if backup else ""
    print(f"# {added} rule(s) appended to {args.write}{saved}")
    return EXIT_OK


def _unusable(exc: PatternFileError, headline: str) -> int:
    """A pattern file that cannot be used, on stderr: the headline, then each problem."""
    print(f"{exc.path}: {headline}", file=sys.stderr)
    for problem in exc.problems:
        print(f"  {problem}", file=sys.stderr)
    return EXIT_USAGE


def _scalar(value: Any) -> str:
    """One YAML value on one line, quoted only where YAML needs it (lists in flow style)."""
    text = yaml.safe_dump(value, allow_unicode=True, width=math.inf, default_flow_style=True)
    return text.removesuffix("\n...\n").removesuffix("\n")


def render_rules(rules: Iterable[Rule]) -> str:
    """``rules:`` items as a user writes them: the fields that differ from the schema's
    defaults, in the schema's order. ``engine_form`` and ``engine_confirm`` are left out: a
    user's file may not set them."""
    lines = []
    for rule in rules:
        fields = rule.model_dump(exclude_defaults=True, exclude=set(BUILT_IN_ONLY))
        for k, (name, value) in enumerate(fields.items()):
            lines.append(f"{'  - ' if k == 0 else '    '}{name}: {_scalar(value)}")
    return "".join(f"{line}\n" for line in lines)


def run_list(args: argparse.Namespace) -> int:
    if args.defaults:
        if args.file:
            print("give a pattern file or --defaults, not both", file=sys.stderr)
            return EXIT_USAGE
        print(
            f"# The {len(DEFAULT_RULES)} built-in rules, in the order they are checked (after "
            "your rules, under `mode: extend`),\n"
            f"# from the package's patterns/{BUILT_IN_RULES_PATH.name}. Copy any into your "
            "pattern file's `rules:`;\n"
            "# `engine_form` and `engine_confirm`, which only the built-in rules may set, are "
            "left out.\nrules:"
        )
        print(render_rules(DEFAULT_RULES), end="")
        return EXIT_OK
    try:
        rules = load_file(args.file) if args.file else load_default()
    except PatternFileError as exc:
        return _unusable(exc, "invalid pattern file")
    user = [c.rule for c in rules.compiled if not c.trusted]
    built_in = [c.rule for c in rules.compiled if c.trusted]
    print(f"# The rules in effect, in the order they are checked: {rule_count(rules)}.\nrules:")
    if user:
        print(f"  # from {rules.source}")
        print(render_rules(user), end="")
    if built_in:
        print("  # built-in (autofix patterns list --defaults)")
        print(render_rules(built_in), end="")
    if not user and not built_in:
        print("  []")
    return EXIT_OK


def load_default() -> Any:
    return default_store().current()


def run_schema(args: argparse.Namespace) -> int:
    print(json.dumps(PatternFile.model_json_schema(), indent=2))
    return EXIT_OK
