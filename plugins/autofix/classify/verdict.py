"""Weighing the evidence of one run's streams: which error blocks decide a failure, and why.

At exit 0 (the only case where the output has to decide):
1. A tool's own failure summary ("1 failed", "BUILD FAILURE") decides: failure, whatever else.
2. A block followed by a retry notice, or a stack trace headed by one, was recovered and does
   not count.
3. A tool's own success summary ("3 passed", "All checks passed!", "2 fixed, 0 remaining")
   outweighs the error blocks logged before it on its stream and those on the other stream
   (code under test logging, a fixer listing what it fixed). It never outweighs a fatal block
   (a crash, the OOM killer) nor an error printed after it on its own stream: the summary
   was not the last word.
4. A report that the tool ran nothing ("No tests found, exiting with code 0", "[no tests to
   run]") decides unless any success summary shows that something else did run.
5. Any other error block decides: failure. An uncaught block (one that ends its stream)
   is quoted first.
The caller fails on any non-zero exit whatever this says; the blocks then explain it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autofix.classify.blocks import headline
from autofix.classify.stream_report import ClassifyReport
from autofix.result import BlockSource, BlockWeight, ErrorBlock, Evidence


@dataclass
class Weighing:
    """Blocks that count (most decisive first), the deciding ones, and the deciding lines."""

    blocks: list[ErrorBlock] = field(default_factory=list)  # every block that counts
    deciding: list[ErrorBlock] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    failed: bool = False  # does the output alone say the run failed?


def _rank(block: ErrorBlock) -> int:
    if block.uncaught:
        return 0
    return {BlockWeight.SUMMARY: 1, BlockWeight.FATAL: 2}.get(block.weight, 3)


def _evidence(block: ErrorBlock, role: str) -> Evidence:
    return Evidence(
        role=role,
        rule_id=block.rule_id,
        stream=block.source.value,
        line_no=block.line_no,
        text=headline(block.text),
    )


def _role(block: ErrorBlock) -> str:
    if block.weight is BlockWeight.SUMMARY:
        return "failure summary"
    if block.weight is BlockWeight.FATAL:
        return "fatal error"
    if block.weight is BlockWeight.VACUOUS:
        return "nothing ran"
    return "uncaught error" if block.uncaught else "error"


def _dropped_decide(report: ClassifyReport, outweighed: bool) -> bool:
    """Do the blocks past ``max_blocks`` (counted, not kept) decide a failure?"""
    weights = report.dropped_weights
    if weights.get(BlockWeight.FATAL.value) or weights.get(BlockWeight.SUMMARY.value):
        return True
    if not weights.get(BlockWeight.ERROR.value) and not weights.get(BlockWeight.VACUOUS.value):
        return False
    return not outweighed or report.dropped_last_line > report.last_success_line


def weigh(reports: list[ClassifyReport]) -> Weighing:
    stream_of = {report.stream: report for report in reports}
    all_blocks = [b for r in reports for b in r.blocks]
    counted = sorted((b for b in all_blocks if b.weight is not BlockWeight.RECOVERED), key=_rank)
    recovered = [
        _evidence(b, "recovered error (retried)")
        for b in all_blocks
        if b.weight is BlockWeight.RECOVERED
    ][:2]
    successes = [e for r in reports for e in r.summaries if e.role == "success summary"][-2:]
    outweighing = bool(successes) and not any(r.failure_summary_lines for r in reports)

    def stands(block: ErrorBlock) -> bool:
        if block.weight is BlockWeight.VACUOUS:
            return not successes
        if not outweighing or block.weight is BlockWeight.FATAL:
            return True
        report = stream_of.get(block.source.value)
        return report is not None and 0 < report.last_success_line < (block.line_no or 0)

    deciding = [b for b in counted if stands(b)]
    dropped = any(_dropped_decide(r, outweighing) for r in reports)
    if dropped and not deciding:
        deciding = [
            ErrorBlock(text="more error blocks were counted, not kept", source=BlockSource.RUNNER)
        ]
    if deciding:
        evidence = [_evidence(b, _role(b)) for b in deciding[:3]]
        return Weighing(counted, deciding, evidence, failed=True)
    outweighed = [_evidence(b, "outweighed error") for b in counted[:3]]
    return Weighing(counted, [], [*successes, *outweighed, *recovered], failed=False)
