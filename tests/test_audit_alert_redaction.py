"""The retry alert (log, webhook to a real local server, notifier) and redaction everywhere."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from audit_support import NOW, SECRETS, TM, attempt, webhook_server
from audit_support import planted_secrets as _planted
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from autofix import redact as redact_module
from autofix.audit.alert import RetryAlert
from autofix.audit.envelope import Envelope
from autofix.audit.events import EventName
from autofix.audit.metrics import compute_metrics
from autofix.audit.prometheus import to_prometheus
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.telemetry import NullStats
from autofix.audit.usage_report import build_report, render
from autofix.config import AlertSettings
from autofix.result import ErrorCategory, FieldError, ParseResult, RetryClass, Status


@pytest.fixture
def webhook() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with webhook_server() as server:
        yield server


def _retries(store: MemoryStore, passed: int, failed: int) -> None:
    m = timedelta(minutes=1)
    for n in range(failed):
        store.append(attempt(f"run-{n}", "fix", 2, errors=(TM,), at=NOW + n * m))
    for n in range(passed):
        store.append(attempt(f"run-ok-{n}", "fix", 2, at=NOW + (failed + n) * m))


def test_alert_fires_below_threshold(
    webhook: tuple[str, list[dict[str, Any]]], caplog: pytest.LogCaptureFixture
) -> None:
    url, received = webhook
    store = MemoryStore()
    _retries(store, passed=1, failed=3)  # 25% of 4 retries recovered
    notified: list[dict[str, Any]] = []
    alert = RetryAlert(
        AlertSettings(window=4, min_retries=2, retry_success_threshold=0.5, webhook_url=url),
        notifier=notified.append,
    )
    with caplog.at_level("WARNING", logger="autofix.audit"):
        payload = alert.check(store)
    assert payload is not None and payload["rate"] == 0.25 and payload["retries"] == 4
    assert "retry success rate 25% over the last 4 retries is below 50%" in caplog.text
    assert [r["path"] for r in received] == ["/hooks/T000/secret-path"]
    assert received[0]["body"]["alert"] == "autofix.retry_success_rate_low"
    assert received[0]["body"]["error_categories"] == {"type_mismatch": 3}
    assert notified == [payload]


def test_alert_quiet_above_threshold_or_too_few_retries() -> None:
    store = MemoryStore()
    _retries(store, passed=3, failed=1)
    notified: list[dict[str, Any]] = []
    settings = AlertSettings(window=4, min_retries=2)
    assert RetryAlert(settings, notifier=notified.append).check(store) is None
    few = MemoryStore()
    _retries(few, passed=0, failed=1)
    assert RetryAlert(settings, notifier=notified.append).check(few) is None
    assert RetryAlert(AlertSettings(enabled=False, min_retries=1)).check(few) is None
    assert notified == []


def test_alert_delivery_failures_are_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    store = MemoryStore()
    _retries(store, passed=0, failed=3)

    def broken(_: dict[str, Any]) -> None:
        raise RuntimeError("notifier down")

    # Port 9 (discard) on localhost refuses connections.
    alert = RetryAlert(
        AlertSettings(
            window=3,
            min_retries=1,
            webhook_url="http://127.0.0.1:9/token-abc",
            webhook_timeout_seconds=1,
        ),
        notifier=broken,
    )
    with caplog.at_level("WARNING", logger="autofix.audit"):
        assert alert.check(store) is not None
    assert "alert webhook to 127.0.0.1 failed" in caplog.text and "token-abc" not in caplog.text
    assert "notifier down" in caplog.text


def test_recorder_raises_alert_after_a_retry(caplog: pytest.LogCaptureFixture) -> None:
    notified: list[dict[str, Any]] = []
    store = MemoryStore()
    recorder = AuditRecorder(
        store,
        alert=RetryAlert(AlertSettings(window=5, min_retries=2), notifier=notified.append),
        stats=NullStats(),
    )
    recorder.record(attempt("run-1", "fix", 2, errors=(TM,), at=NOW))
    assert notified == []  # one retry: no verdict yet
    recorder.record(attempt("run-2", "fix", 1, errors=(TM,), at=NOW))
    assert notified == []  # first attempts do not trigger the check
    recorder.record(attempt("run-2", "fix", 2, errors=(TM,), at=NOW))
    assert len(notified) == 1 and notified[0]["rate"] == 0.0


# --------------------------------------------------------------------------- redaction


def test_no_secret_in_any_record_event_log_or_metric(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    planted = _planted()
    path = tmp_path / "audit.jsonl"
    stats_seen: list[str] = []

    class Stats(NullStats):
        def incr(
            self, stat: str, count: int = 1, rate: float = 1, *, tags: dict[str, str] | None = None
        ) -> None:
            stats_seen.append(stat + json.dumps(tags))

        def gauge(
            self,
            stat: str,
            value: float,
            rate: float = 1,
            delta: bool = False,
            *,
            tags: dict[str, str] | None = None,
        ) -> None:
            stats_seen.append(stat + json.dumps(tags))

    store = JsonlStore(path)
    recorder = AuditRecorder(
        store,
        stats=Stats(),
        alert=RetryAlert(
            AlertSettings(min_retries=1), notifier=lambda p: stats_seen.append(json.dumps(p))
        ),
    )
    envelope = Envelope(
        trace_id="manual__2026-03-01T10:00:00+00:00",
        causation_id=f"task {planted}",
        operation=f"fix {SECRETS['anthropic']}",
        agent_id=SECRETS["github"],
        model=f"sonnet?key={SECRETS['openai']}",
        instructions=f"Fix the build. {planted}",
        context={
            "env": {"API_KEY": SECRETS["openai"], "note": planted},
            "urls": [f"https://u:{SECRETS['url_password']}@x.io"],
        },
        tools_allowed=[f"Bash(curl -H 'Authorization: Bearer {SECRETS['bearer']}')"],
        expected_output_schema={"type": "object", "description": planted},
    )
    result = ParseResult(
        success=False,
        status=Status.INVALID_OUTPUT,
        retry_class=RetryClass.INVALID_OUTPUT,
        final_text=f"here you go {planted}",
        error_message=f"[fix] failed: {planted}",
        data={"token": SECRETS["bearer_plain"], "nested": [planted]},
        field_errors=[
            FieldError(
                path="$.x", category=ErrorCategory.TYPE_MISMATCH, message=planted, actual=planted
            )
        ],
        matched_rules=[f"rule-{SECRETS['github']}"],
        noise_lines=1,
        cost_usd=0.1,
    )
    with caplog.at_level("DEBUG", logger="autofix.audit"):
        recorder.record_attempt(envelope, result, raw_output=f"raw {planted}")
        recorder.record_attempt(
            envelope.child(f"retry {planted}"), result.model_copy(update={"attempt": 2})
        )
        recorder.event(
            EventName.AGENT_STARTED,
            envelope=envelope,
            data={
                "argv": ["claude", "-p", planted],
                "env": {"ANTHROPIC_API_KEY": SECRETS["anthropic"]},
            },
        )
        recorder.event(EventName.VALIDATION_FAILED, envelope=envelope, data={"error": planted})

    interactions = list(store.iter_all())
    outputs = {
        "store file": path.read_text(),
        "prometheus": to_prometheus(compute_metrics(interactions)),
        "report": render(build_report(interactions), "json")
        + render(build_report(interactions), "text"),
        "logs": "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.DEBUG),
        "stats": "\n".join(stats_seen),
        "summary": recorder.run_summary(envelope.trace_id).model_dump_json(),
    }
    assert "[REDACTED]" in outputs["store file"]
    assert len(interactions) == 2 and len(store.events(envelope.trace_id)) == 2
    assert any("rate" in line for line in stats_seen)  # the alert payload was checked too
    for where, text in outputs.items():
        for name, secret in SECRETS.items():
            assert secret not in text, f"{name} secret leaked into {where}"


def _ungated(text: str) -> str:
    for pattern, replacement in redact_module._PATTERNS:
        text = pattern.sub(replacement, text)
    return text


_PIECES = [
    *SECRETS.values(),
    "Token ",
    "PASSWORD=",
    "api_key: ",
    "https://a:b@c/",
    "Bearer ",
    "AWS_SECRET_ACCESS_KEY=",
    " ",
    "\n",
    "x",
    "é",
    "sk-",
    "Auth",
    # Non-ASCII letters that (?i) folds onto ASCII ones: the hint search must fold the same way.
    "\u017fecret=",
    "api_\u212aey: ",
    "\u0130",
    "\u0131",
]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=12), max_size=25))
def test_redaction_hints_never_change_the_result(parts: list[str]) -> None:
    text = "".join(parts)
    assert redact_module.mask_shapes(text) == _ungated(text)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from([*_PIECES, "=", ":", '"', "\t", "  "]), max_size=6).map("".join)
        | st.sampled_from(["", " ", "plain log line without hints", "\t"]),
        min_size=5,
        max_size=60,
    )
)
def test_windowed_redaction_of_long_texts_matches_a_whole_scan(lines: list[str]) -> None:
    # Many lines, most without a hint: mask_shapes scans only windows around the hints, and a
    # key, its separator and its value may sit on different lines with blank lines between.
    text = "\n".join(lines)
    assert redact_module.mask_shapes(text) == _ungated(text)


_AT_HINT_PIECES = [
    *_PIECES,
    "token",
    "TOKEN",
    "api",
    "_key",
    "key",
    "=",
    ": ",
    "'",
    '"',
    "1234abcd",
    "AKIA",
    "ABCDEFGHIJKLMNOP",
    "ghp_",
    "aws_session_token",
    "sk-ant-",
    "-",
    "_",
    "secret",
    "pwd",
    "credentials",
    "authorization",
    "eyJhbGciOiJIUzI1.eyJzdWIiOiIx.c2lnbmF0dXJl",
    ".",
    "abc-",
    "https",
    "://u:p4ss@h/",
]


@settings(max_examples=examples(600), deadline=None)
@given(st.lists(st.sampled_from(_AT_HINT_PIECES), max_size=30), st.data())
def test_a_pattern_tried_only_at_its_hints_replaces_as_sub_does(
    parts: list[str], data: st.DataObject
) -> None:
    # Every pattern marked as starting at a hint, on text dense in its hints (adjacent,
    # overlapping, inside each other's matches, after a word character or not); and all of
    # them in turn, the two marked otherwise included (their matches start before a hint).
    text = "".join(parts)
    assert redact_module.mask_shapes(text) == _ungated(text)
    lowered = redact_module._folded(text)
    gated = [entry for entry in redact_module._GATED if entry[4]]
    assert len(gated) == 11
    pattern, replacement, hints, ignore_case, _ = data.draw(st.sampled_from(gated))
    haystack = lowered if ignore_case else text
    if haystack is None:
        return
    assert redact_module._sub_at_hints(pattern, replacement, text, haystack, hints) == pattern.sub(
        replacement, text
    )


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(
                [*_AT_HINT_PIECES, "\x1b[31m", "\x1b]8;;", "\x07", "\ue000", "\x00", "\r"]
            ),
            max_size=6,
        ).map("".join),
        max_size=8,
    )
)
def test_texts_redacted_together_are_each_redacted_alone(texts: list[str]) -> None:
    # The separator between them, a key at one text's end and its value at the next one's
    # start, escape sequences left open across texts: the same as one at a time.
    assert redact_module.redact_stored_each(texts) == [
        redact_module.redact_stored(text) for text in texts
    ]
    joined = redact_module._TEXTS_SEPARATOR.join(["token:", "abcd1234"])
    assert redact_module.redact_stored_each([joined, "x"]) == [
        redact_module.redact_stored(joined),
        "x",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "\u017fecret=abcd1234",
        "log line\n\u017fecret=abcd1234\nmore",
        "api_\u212aey: abcd1234",
        "\u0130 token: abcd1234",
        "pa\u017f\u017fword=hunter2hunter2",
        # non-ASCII text that lower() folds exactly: the hints still gate every pattern
        "na\u00efve \u2713 PASSWORD=hunter22",
        "\u2717 failed: sk-ant-abcdefghijklmnop",
        "\u2014 https://user:pw1234@example.com/x \u2014",
    ],
)
def test_hints_fold_case_as_the_patterns_do(text: str) -> None:
    assert redact_module.mask_shapes(text) == _ungated(text) != text
