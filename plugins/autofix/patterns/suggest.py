"""Learn noise from green runs: stderr lines that recur in runs whose independent checks passed.

The audit keeps each attempt's non-noise stderr lines (``stderr_sample``: error blocks, the
ones a summary outweighed too, and the tail). A line is proposed as a noise rule when, once
normalised (numbers, paths and hashes become placeholders), it occurs in at least
``min_runs`` green runs (success and validation passed) and in no failed run, and today's rules
don't already call it noise, a failure summary or fatal. Each proposal is a substring rule when
nothing was normalised, else an anchored regex the engine runs in linear time.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from autofix.audit.envelope import Interaction
from autofix.classify.classifier import Classifier
from autofix.errors import PatternFileError
from autofix.patterns.compiled import CompiledRules
from autofix.patterns.loader import Problem, validate_text

# Placeholders, in the order they are found, with the regex each becomes in a proposed rule.
_HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b")
# Starts at a run's first character (or a drive letter): a later start in the run reaches the
# same end, so trying each was quadratic on a long run without a slash.
_PATH = re.compile(r"(?:[A-Za-z]:|(?<![\w.\-~]))(?:[\w.\-~]*/)+[\w.\-]*")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_PLACEHOLDERS = (("<hash>", _HASH, "[0-9a-f]{7,64}"), ("<path>", _PATH, r"[\w.\-~:/]*/[\w.\-]*"),
                 ("<n>", _NUMBER, r"\d[\d.,:]*"))  # fmt: skip
_TOKEN = re.compile("(" + "|".join(re.escape(name) for name, _, _ in _PLACEHOLDERS) + ")")
MIN_CHARS = 8  # shorter normalised lines say too little to be a rule


def normalise(line: str) -> str:
    """The line with hashes, paths and numbers replaced by ``<hash>``, ``<path>``, ``<n>``."""
    text = line.strip()
    for name, pattern, _ in _PLACEHOLDERS:
        text = pattern.sub(name, text)
    return text


def _escape(text: str) -> str:
    return re.escape(text).replace("\\ ", " ")  # spaces stay readable


def to_rule_pattern(normalised: str) -> tuple[str, str]:
    """(type, pattern): a substring when nothing was replaced, else an anchored regex."""
    parts = _TOKEN.split(normalised)
    if len(parts) == 1:
        return "substring", normalised
    regex = {name: expr for name, _, expr in _PLACEHOLDERS}
    body = "".join(regex[p] if p in regex else _escape(p) for p in parts if p)
    return "regex", f"^{body}$"


@dataclass
class Proposal:
    normalised: str
    green_runs: int = 0
    example: str = ""
    operations: set[str] = field(default_factory=set)

    def rule(self) -> dict[str, Any]:
        rule_type, pattern = to_rule_pattern(self.normalised)
        digest = hashlib.sha256(pattern.encode()).hexdigest()[:10]
        return {
            "id": f"learned-{digest}",
            "kind": "noise",
            "type": rule_type,
            "pattern": pattern,
            "reason": f"seen in {self.green_runs} green runs and no failed one (patterns suggest)",
            "case_sensitive": True,
        }


def _green(record: Interaction) -> bool:
    return record.result.success and record.result.validation_passed


def collect(records: Iterable[Interaction], min_runs: int = 2) -> tuple[list[Proposal], int, int]:
    """Proposals (most runs first), and how many green and failed records were read."""
    found: dict[str, Proposal] = {}
    in_failed: set[str] = set()
    greens = reds = 0
    for record in records:
        lines = {normalise(line): line for line in record.result.stderr_sample}
        lines.pop("", None)
        if _green(record):
            greens += 1
            for key, line in lines.items():
                proposal = found.setdefault(key, Proposal(key, example=line.strip()))
                proposal.green_runs += 1
                proposal.operations.add(record.operation)
        elif not record.result.success:
            reds += 1
            in_failed.update(lines)
    ranked = [
        p
        for key, p in found.items()
        if p.green_runs >= min_runs and key not in in_failed and len(key) >= MIN_CHARS
    ]
    ranked.sort(key=lambda p: (-p.green_runs, p.normalised))
    return ranked, greens, reds


def keep_new(proposals: list[Proposal], rules: CompiledRules) -> list[Proposal]:
    """Drop lines today's rules already call noise, and never learn over a failure summary,
    a fatal error or a success summary (their weight is the point)."""
    kept = []
    for proposal in proposals:
        classifier = Classifier(rules, explain=True)
        classifier.feed_line(proposal.example)
        classifier.finish()
        assert classifier.explained is not None
        verdict = classifier.explained[0] if classifier.explained else None
        rule = next((c.rule for c in rules.compiled if verdict and c.id == verdict.rule_id), None)
        if verdict is not None and verdict.verdict in ("noise", "success"):
            continue
        if rule is not None and (rule.kind == "failure_summary" or rule.weight == "fatal"):
            continue
        kept.append(proposal)
    return kept


def render(proposals: list[Proposal]) -> str:
    """YAML list items for a pattern file's ``rules:``, each with its count and example."""
    chunks = []
    for proposal in proposals:
        item = yaml.safe_dump([proposal.rule()], sort_keys=False, allow_unicode=True, width=1000)
        example = proposal.example.replace("\n", " ")[:200]
        chunks.append(
            f"# {proposal.green_runs} green runs ({', '.join(sorted(proposal.operations)) or '-'})"
            f"; e.g.: {example}\n" + item
        )
    return "".join(chunks)


def valid(proposals: list[Proposal]) -> list[Proposal]:
    """Only proposals that load: the same checks as a pattern file."""
    kept = []
    for proposal in proposals:
        parsed, problems = validate_text(yaml.safe_dump({"rules": [proposal.rule()]}))
        if parsed is not None and not problems:
            kept.append(proposal)
    return kept


def append_to_file(path: Path, proposals: list[Proposal]) -> tuple[int, Path | None]:
    """Append the proposals (not already there, by id) to the file's ``rules:``, after a
    backup; the result must validate or nothing is written. (added, backup path)."""
    text = path.read_text(encoding="utf-8") if path.exists() else "rules: []\n"
    parsed, problems = validate_text(text)
    if parsed is None:
        raise PatternFileError(str(path), problems)
    taken = {rule.id for rule in parsed.rules}
    new = [p for p in proposals if p.rule()["id"] not in taken]
    if not new:
        return 0, None
    updated = _insert_rules(text, render(new))
    parsed, problems = validate_text(updated)
    if parsed is None:
        raise PatternFileError(str(path), [Problem("the edit would not load"), *problems])
    backup = None
    if path.exists():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        backup = path.with_name(f"{path.name}.{stamp}.bak")
        shutil.copy2(path, backup)
    path.write_text(updated, encoding="utf-8")
    return len(new), backup


def _indented(items: str, indent: str) -> str:
    return "".join(
        indent + line + "\n" if line else "\n" for line in items.rstrip("\n").split("\n")
    )


def _insert_rules(text: str, items: str) -> str:
    """Put block-list items at the end of the top-level ``rules:`` list, keeping comments and
    the list's own indentation."""
    lines = text.splitlines(keepends=True)
    for k, line in enumerate(lines):
        head = line.rstrip("\n")
        if re.match(r"^rules:\s*\[\s*\]\s*(#.*)?$", head):
            lines[k] = "rules:\n" + _indented(items, "  ")
            return "".join(lines)
        if not re.match(r"^rules:\s*(#.*)?$", head):
            continue
        end, indent = k + 1, None
        for j in range(k + 1, len(lines)):
            body = lines[j].rstrip("\n")
            if not body.strip() or body.lstrip().startswith("#"):
                continue
            if not body.startswith((" ", "-")):
                break  # the next top-level key
            if indent is None:
                indent = body[: len(body) - len(body.lstrip())]
            end = j + 1
        lines[end:end] = [_indented(items, indent or "  ")]
        return "".join(lines)
    suffix = "" if text.endswith("\n") or not text else "\n"
    return text + suffix + "rules:\n" + _indented(items, "  ")
