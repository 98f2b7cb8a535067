"""The classifier's general detectors (counts, severity, skipped work, HTTP status) on real
output lines taken from the tools' own sources and documentation, none from the run corpus.

tests/fixtures/detector_lines.yaml holds each line with its tool, where it comes from, the stream
the tool prints it on, any lines around it, and whether it alone shows a failure at exit 0.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

import autofix

LINES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "fixtures" / "detector_lines.yaml").read_text(encoding="utf-8")
)
DETECTORS = ("counts", "severity", "skipped", "http")
# The rules each detector is made of (docs/patterns.md, "General detectors").
DETECTOR_RULES = {
    "counts": {
        "count-failed-units",
        "count-failed-beside-noun",
        "nothing-built",
        "zero-count",
        "expected-failure-count",
        "zero-error-summary",
    },
    "severity": {"severity-error", "severity-below-error", "warnings-fail-the-run"},
    "skipped": {"skipped-dry-run", "skipped-missing-input"},
    "http": {"http-error-status", "http-error-report"},
}


def judged(item: dict[str, Any]) -> autofix.ParseResult:
    text = "\n".join([*item.get("context", []), item["line"]]) + "\n"
    stdout, stderr = (text, "") if item["stream"] == "stdout" else ("", text)
    return autofix.classify_output(0, stderr, stdout)


def test_each_detector_is_tested_on_three_tools_at_least() -> None:
    tools = {d: {i["tool"] for i in LINES if i["detector"] == d} for d in DETECTORS}
    assert all(len(found) >= 3 for found in tools.values()), tools
    sides = Counter((i["detector"], i["expect"]) for i in LINES)
    assert all(sides[(d, e)] >= 3 for d in DETECTORS for e in ("failure", "harmless")), sides


@pytest.mark.parametrize(
    "item",
    LINES,
    ids=lambda i: f"{i['detector']}-{i['tool']}-{i['expect']}",
)
def test_documented_line(item: dict[str, Any]) -> None:
    result = judged(item)
    deciding = [e.rule_id for e in result.evidence]
    assert result.success == (item["expect"] == "harmless"), (item["line"], deciding)


@pytest.mark.parametrize(
    ("line", "stream", "failed", "rule"),
    [
        # counts: a count of failed units above zero, after its label or beside its noun
        ("Failed requests:        3", "stdout", True, "count-failed-units"),
        ("| Errors | 2 |", "stdout", True, "count-failed-units"),
        ("mypy errors: 2 (baseline 0)", "stdout", True, "count-failed-units"),
        ("     http_req_failed................: 12.50% 2 out of 16", "stdout", True, None),
        ("12 non-2xx responses", "stdout", True, "count-failed-beside-noun"),
        ("Failed requests:        0", "stdout", False, None),
        ("     http_req_failed................: 0.00%  0 out of 16", "stdout", False, None),
        ("OK (skipped=1, expected failures=1)", "stderr", False, None),
        ("Expected Fail:      1", "stdout", False, None),
        ("ERROR upload rejected: 50 MB exceeds the 10 MB limit", "stdout", False, None),
        ("Total: 3 (HIGH: 1, CRITICAL: 2)", "stdout", True, "count-failed-units"),
        ("[11ty] Wrote 0 files in 0.04 seconds (v3.0.0)", "stdout", True, "nothing-built"),
        ("Pages            │  0  ", "stdout", True, "nothing-built"),
        ("[11ty] Wrote 12 files in 0.30 seconds (v3.0.0)", "stdout", False, None),
        # the (s) plurals and every attempt failed (dotnet build's summary; iputils ping(8))
        ("    2 Error(s)", "stdout", True, None),
        ("Finished with 1 error(s) and 0 warning(s)", "stdout", True, "count-failed-beside-noun"),
        ("2 test(s) failed", "stdout", True, "count-failed-beside-noun"),
        ("    0 Error(s)", "stdout", False, None),
        ("2 file(s) processed", "stdout", False, None),
        ("1 issue(s) to fix", "stdout", False, None),  # a fixer's own count
        (
            "3 packets transmitted, 0 received, 100% packet loss, time 2031ms",
            "stdout",
            True,
            "count-failed-beside-noun",
        ),
        ("4 packets transmitted, 3 received, 25% packet loss, time 3004ms", "stdout", False, None),
        ("3 packets transmitted, 3 received, 0% packet loss, time 2003ms", "stdout", False, None),
        # severity: the finding's own tag decides, and a stated mode is honoured
        ("E: mypkg: bad-distribution-in-changes-file", "stdout", True, "severity-error"),
        ("W: mypkg: description-synopsis-starts-with-article", "stdout", False, None),
        ('{"severity": "error", "message": "x is undefined"}', "stdout", True, None),
        (
            "severity: warning  rule: unused-var  message: error handler unused",
            "stdout",
            False,
            None,
        ),
        ("cc1: all warnings being treated as errors", "stderr", True, "warnings-fail-the-run"),
        ("3 warnings, 0 errors", "stdout", False, None),
        # syslog levels above error, as nginx, haproxy and Apache bracket them in their logs
        (
            '2026/11/28 12:00:00 [emerg] 1234#1234: unknown directive "lisen" in /etc/nginx/a.conf:3',
            "stderr",
            True,
            "severity-error",
        ),
        (
            "[ALERT]    (1) : config : parsing [haproxy.cfg:12] : unknown keyword",
            "stderr",
            True,
            None,
        ),
        (
            "[Sat Nov 28 12:00:00.123 2026] [core:crit] [pid 35708] AH00102: no listener",
            "stderr",
            True,
            None,
        ),
        ("2026/11/28 12:00:00 [notice] 1#1: signal process started", "stderr", False, None),
        ("[WARNING]  (1) : config : missing timeouts for proxy 'web'", "stderr", False, None),
        # skipped work
        (
            "sent 1,024 bytes  received 35 bytes  total size is 9,999  speedup is 9.44 (DRY RUN)",
            "stdout",
            True,
            "skipped-dry-run",
        ),
        ("config/local.yaml does not exist, skipping", "stderr", True, "skipped-missing-input"),
        ("ignoring missing input data/extra.csv", "stderr", True, "skipped-missing-input"),
        # HTTP status: a request's status, not a number in data
        ("< HTTP/1.1 503 Service Unavailable", "stderr", True, "http-error-status"),
        ("health probe finished (status 500)", "stdout", True, "http-error-report"),
        ("GET /api/users 502 12ms", "stdout", True, "http-error-report"),
        ("Processed 500 records in 404 ms", "stdout", False, None),
        (
            '127.0.0.1 - - [01/Jan/2026 00:00:00] "GET /missing HTTP/1.1" 404 -',
            "stdout",
            False,
            None,
        ),
        ("listening on port 5000", "stdout", False, None),
    ],
)
def test_detector_scope(line: str, stream: str, failed: bool, rule: str | None) -> None:
    result = judged({"line": line, "stream": stream})
    assert result.success is not failed, [e.rule_id for e in result.evidence]
    if rule is not None:
        assert rule in [e.rule_id for e in result.evidence]


def test_every_detector_rule_exists() -> None:
    from autofix.patterns.loader import DEFAULT_RULES

    ids = {rule.id for rule in DEFAULT_RULES}
    assert set().union(*DETECTOR_RULES.values()) <= ids


# Families outside the four detectors, widened from the tools' own documentation and sources
# after the tenth and eleventh fresh batches' scores: the input cut short or corrupted (gzip, xz, bzip2), the
# cross marks CLIs print before a failed item (log-symbols, jest), a step that failed behind its
# tool's name, runtimes' uncaught exceptions (Poly/ML, R6RS), a checker with nothing to check,
# and a count of units run with none failed as a success summary.
@pytest.mark.parametrize(
    ("line", "failed", "rule"),
    [
        ("xz: backup.tar.xz: Unexpected end of input", True, "integrity-failure"),
        ("bzip2: Compressed file ends unexpectedly;", True, "integrity-failure"),
        ("Some files are corrupted in the archive", True, "integrity-failure"),
        ("✖ Unable to connect to the registry", True, "check-report-error"),
        ("  ✕ adds 1 + 2 to equal 3 (5 ms)", True, "check-report-error"),
        ("  ✓ adds 1 + 2 to equal 3 (2 ms)", False, None),
        ("gpg: Signature verification failed", True, None),
        ("rsync: Transfer failed", True, "step-failed"),
        ("Exception- Div raised", True, "runtime-exception"),
        ("assertion-violation: car: not a pair", True, "runtime-exception"),
        ("Nothing to check!", True, "nothing-ran"),
        ("Nothing to commit, working tree clean", False, None),
        # after the eleventh batch's score: the R6RS condition display (Chez Scheme's User's
        # Guide), a scan of nothing (nmap(1)), a dry run named by its option (util-linux
        # sfdisk's source) or logged by a module (Python logging's default format)
        ("Exception in car: 3 is not a pair", True, "runtime-exception"),
        ("Nmap done: 0 IP addresses (0 hosts up) scanned in 0.03 seconds", True, "nothing-ran"),
        ("Nmap done: 1 IP address (1 host up) scanned in 0.05 seconds", False, None),
        ("The partition table is unchanged (--no-act).", True, "skipped-dry-run"),
        ("INFO:deploy.sync:Dry run: would have uploaded 3 files", True, "skipped-dry-run"),
        ("0 files reformatted, 12 files left unchanged", False, None),
    ],
)
def test_widened_families(line: str, failed: bool, rule: str | None) -> None:
    result = judged({"line": line, "stream": "stdout"})
    assert result.success is not failed, [e.rule_id for e in result.evidence]
    if rule is not None:
        assert rule in [e.rule_id for e in result.evidence]


def test_a_count_with_none_failed_outweighs_a_logged_error() -> None:
    logged = "app.py:6: ERROR: malformed config line, skipped"  # the code under test logs it
    assert not judged({"line": logged, "stream": "stdout"}).success
    result = judged({"line": "12 checks, 0 failed", "context": [logged], "stream": "stdout"})
    assert result.success
    assert "runner-success-summary" in [e.rule_id for e in result.evidence]
