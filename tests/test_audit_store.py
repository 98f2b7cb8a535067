"""Audit stores: the shared query API, concurrency, torn lines, rotation, S3 with faults."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from audit_support import NOW, T0, attempt, known_history
from botocore.exceptions import ClientError, EndpointConnectionError
from moto import mock_aws

from autofix.audit.events import AuditEvent
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores import build_store, store_from_uri
from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.stores.s3 import S3Store
from autofix.audit.telemetry import NullStats
from autofix.config import AuditSettings
from autofix.errors import AuditWriteError, ConfigError

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["memory", "jsonl"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> AuditStore:
    if request.param == "memory":
        return MemoryStore()
    return JsonlStore(tmp_path / "audit.jsonl")


def test_query_api(store: AuditStore) -> None:
    history = known_history()
    for item in history:
        store.append(item)
    store.append_event(AuditEvent(name="agent.started", trace_id="run-a", operation="fix"))
    store.append_event(AuditEvent(name="agent.started", trace_id="run-b", operation="fix"))

    assert [i.envelope_id for i in store.iter_all()] == [i.envelope_id for i in history]
    got = store.get(history[3].envelope_id)
    assert got is not None and got.model_dump() == history[3].model_dump()
    assert store.get("missing") is None
    assert [(i.operation, i.attempt) for i in store.by_trace("run-a")] == [
        ("fix", 1),
        ("fix", 2),
        ("lint", 1),
    ]
    assert [i.envelope_id for i in store.recent(2)] == [
        history[-1].envelope_id,
        history[-2].envelope_id,
    ]
    assert [(i.trace_id, i.attempt) for i in store.recent(10, min_attempt=2)] == [
        ("run-b", 3),
        ("run-b", 2),
        ("run-a", 2),
    ]
    failures = store.failures()
    assert len(failures) == 6 and failures[0].operation == "review"
    assert len(store.failures(limit=2)) == 2
    assert len(store.failures(since=T0 + timedelta(minutes=4))) == 3
    assert len(list(store.iter_all(since=T0))) == 7
    usage = store.usage(trace_id="run-b")
    assert (usage.calls, usage.cost_usd, usage.tokens) == (4, 1.0, 600)
    assert store.usage(since=T0).calls == 7
    assert [e.trace_id for e in store.events("run-b")] == ["run-b"]
    assert len(list(store.iter_events())) == 2


def _append_many(path: str, worker: int, count: int, start: Any) -> None:
    target = JsonlStore(path)
    record = attempt(f"run-{worker}", "fix", 1, at=NOW)
    start.wait()
    for n in range(count):
        record.envelope.envelope_id = f"w{worker}-{n}"
        record.result.raw_output = f"worker {worker} record {n} " + "x" * 512
        target.append(record)


def test_eight_processes_thousand_appends_each(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    context = multiprocessing.get_context("fork")
    start = context.Event()
    workers = [
        context.Process(target=_append_many, args=(str(path), w, 1000, start)) for w in range(8)
    ]
    for process in workers:
        process.start()
    start.set()
    for process in workers:
        process.join(60)
        assert process.exitcode == 0

    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    records = [json.loads(line) for line in lines[:-1]]  # every line is whole JSON
    assert len(records) == 8000
    ids = {r["envelope"]["envelope_id"] for r in records}
    assert len(ids) == 8000
    for worker in range(8):
        mine = [
            r["result"]["raw_output"]
            for r in records
            if r["envelope"]["trace_id"] == f"run-{worker}"
        ]
        # Each writer's records appear in the order it wrote them.
        assert [int(text.split()[3]) for text in mine] == list(range(1000))
    reader = JsonlStore(path)
    assert len(list(reader.iter_all())) == 8000
    assert reader.skipped_lines == 0


_HUGE_WRITER = textwrap.dedent(
    """
    import sys
    from autofix.audit.stores.jsonl import JsonlStore
    sys.path.insert(0, sys.argv[2])
    from audit_support import NOW, attempt

    store = JsonlStore(sys.argv[1], rotate_max_bytes=None)
    record = attempt("run-huge", "fix", 1, at=NOW)
    payload = record.model_dump_json().encode()
    blob = b'{"kind":"interaction","huge":"' + b"y" * (48 << 20) + b'",' + payload[1:]
    print("ready", flush=True)
    while True:
        store._write(blob)
    """
)


def test_writer_killed_mid_record(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    store = JsonlStore(path, rotate_max_bytes=None)
    earlier = [attempt("run-ok", "fix", 1, at=NOW) for _ in range(5)]
    for item in earlier:
        store.append(item)
    base = path.stat().st_size

    child = subprocess.Popen(
        [sys.executable, "-c", _HUGE_WRITER, str(path), str(Path(__file__).parent)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 20
    while path.stat().st_size <= base and time.monotonic() < deadline:
        time.sleep(0.0005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    assert child.returncode == -signal.SIGKILL

    data = path.read_bytes()
    torn = not data.endswith(b"\n")
    reader = JsonlStore(path)
    survivors = list(reader.iter_all())
    assert [i.envelope_id for i in survivors[:5]] == [i.envelope_id for i in earlier]
    assert all(i.trace_id in {"run-ok", "run-huge"} for i in survivors)
    if torn:
        assert reader.skipped_lines >= 1

    later = attempt("run-later", "fix", 1, at=NOW)
    store.append(later)
    after = list(JsonlStore(path).iter_all())
    assert after[-1].envelope_id == later.envelope_id
    assert [i.envelope_id for i in after[:5]] == [i.envelope_id for i in earlier]
    assert len(after) == len(survivors) + 1


def test_torn_last_line_is_skipped_and_not_glued(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    store = JsonlStore(path)
    first = attempt("run-a", "fix", 1, at=NOW)
    store.append(first)
    whole = attempt("run-a", "fix", 2, at=NOW).model_dump_json().encode()
    with path.open("ab") as handle:
        handle.write(whole[: len(whole) // 2])  # a writer died here
    assert [i.envelope_id for i in store.iter_all()] == [first.envelope_id]
    assert store.skipped_lines == 1
    assert [i.envelope_id for i in store.recent(5)] == [first.envelope_id]

    later = attempt("run-a", "fix", 3, at=NOW)
    store.append(later)
    assert [i.envelope_id for i in store.iter_all()] == [first.envelope_id, later.envelope_id]
    assert store.get(later.envelope_id) is not None


def test_size_rotation_keeps_every_segment_queryable(tmp_path: Path) -> None:
    store = JsonlStore(tmp_path / "audit.jsonl", rotate_max_bytes=4096)
    written = [attempt(f"run-{n % 3}", "fix", 1, at=NOW) for n in range(40)]
    for item in written:
        store.append(item)
    segments = store.segments()
    assert len(segments) > 3
    assert all(p.stat().st_size <= 4096 for p in segments)
    assert [i.envelope_id for i in store.iter_all()] == [i.envelope_id for i in written]
    assert [i.envelope_id for i in store.recent(3)] == [
        i.envelope_id for i in reversed(written[-3:])
    ]
    assert len(store.by_trace("run-1")) == 13


def test_daily_rotation(tmp_path: Path) -> None:
    store = JsonlStore(tmp_path / "audit.jsonl", rotate_daily=True)
    store.append(attempt("run-a", "fix", 1, at=NOW))
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert (tmp_path / f"audit.{today}.jsonl").is_file()
    # An older day's segment is still read.
    old = tmp_path / "audit.2020-01-01.jsonl"
    old.write_text(
        attempt("run-old", "fix", 1, at=NOW - timedelta(days=3)).model_dump_json() + "\n"
    )
    os.utime(old, (1_577_880_000, 1_577_880_000))
    assert {i.trace_id for i in store.iter_all()} == {"run-a", "run-old"}


def test_build_store_and_uri(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    jsonl = build_store(AuditSettings(path="logs/a.jsonl"))
    assert isinstance(jsonl, JsonlStore) and jsonl.path == tmp_path / "logs/a.jsonl"
    assert isinstance(build_store(AuditSettings(store="memory")), MemoryStore)
    s3 = build_store(AuditSettings(store="s3", bucket="b", prefix="p/q"))
    assert isinstance(s3, S3Store) and s3.describe() == "s3://b/p/q"
    with pytest.raises(ConfigError, match=r"audit\.bucket"):
        build_store(AuditSettings(store="s3"))
    assert isinstance(store_from_uri("s3://bucket/some/prefix"), S3Store)
    with pytest.raises(ConfigError):
        store_from_uri("s3:///nobucket")


class _BrokenStore(MemoryStore):
    def append(self, interaction: Any) -> None:
        raise OSError(28, "No space left on device")

    def append_event(self, event: AuditEvent) -> None:
        raise OSError(28, "No space left on device")


class _Stats(NullStats):
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, dict[str, str] | None]] = []

    def incr(
        self, stat: str, count: int = 1, rate: float = 1, *, tags: dict[str, str] | None = None
    ) -> None:
        self.calls.append((stat, count, tags))


def test_write_failure_warns_and_counts(caplog: pytest.LogCaptureFixture) -> None:
    stats = _Stats()
    recorder = AuditRecorder(_BrokenStore(), required=False, stats=stats)
    with caplog.at_level("WARNING", logger="autofix.audit"):
        assert recorder.record(attempt("run-a", "fix", 1, at=NOW)) is False
        recorder.event("agent.started", "run-a", operation="fix")
    assert recorder.write_failures == 2
    assert [c for c in stats.calls if c[0] == "autofix.audit_write_failures"] == [
        ("autofix.audit_write_failures", 1, {"store": "_BrokenStore"}),
    ] * 2
    assert "No space left on device" in caplog.text and "audit.required is false" in caplog.text


def test_write_failure_raises_when_required() -> None:
    recorder = AuditRecorder(_BrokenStore(), required=True, stats=NullStats())
    with pytest.raises(AuditWriteError, match="No space left"):
        recorder.record(attempt("run-a", "fix", 1, at=NOW))
    with pytest.raises(AuditWriteError):
        recorder.event("agent.started", "run-a")


def test_jsonl_unwritable_path_raises_audit_write_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(AuditWriteError, match="cannot append"):
        JsonlStore(blocker / "audit.jsonl").append(attempt("run-a", "fix", 1, at=NOW))


# --------------------------------------------------------------------------- S3 via moto


@pytest.fixture
def s3_client(monkeypatch: pytest.MonkeyPatch) -> Any:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="audit")
        yield client


class _Flaky:
    """Fails the first ``failures`` calls of ``method`` with ``error``, then passes through."""

    def __init__(self, client: Any, method: str, error: Exception, failures: int) -> None:
        self.real = getattr(client, method)
        self.error = error
        self.left = failures
        self.calls = 0
        setattr(client, method, self)

    def __call__(self, **kwargs: Any) -> Any:
        self.calls += 1
        if self.left > 0:
            self.left -= 1
            raise self.error
        return self.real(**kwargs)


def _client_error(code: str, status: int) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": code}, "ResponseMetadata": {"HTTPStatusCode": status}},
        "Op",
    )


def test_s3_store_query_api(s3_client: Any) -> None:
    store = S3Store("audit", "team/audit", client=s3_client, sleep=lambda _: None)
    history = known_history()
    for item in history:
        store.append(item)
    store.append_event(AuditEvent(name="agent.started", trace_id="run-a", operation="fix"))
    key = store.key_for(history[1])
    assert key == f"team/audit/run-a/{history[1].envelope_id}-1.json"
    assert s3_client.get_object(Bucket="audit", Key=key)["Body"].read()
    assert [(i.operation, i.attempt) for i in store.by_trace("run-a")] == [
        ("fix", 1),
        ("fix", 2),
        ("lint", 1),
    ]
    got = store.get(history[4].envelope_id)
    assert got is not None and got.envelope_id == history[4].envelope_id
    assert len(list(store.iter_all())) == 8
    assert len(store.recent(3)) == 3
    assert len(store.failures()) == 6
    assert [e.name for e in store.events("run-a")] == ["agent.started"]
    assert store.events("run-b") == []


def test_s3_transient_faults_are_retried_then_recovered(s3_client: Any) -> None:
    sleeps: list[float] = []
    store = S3Store("audit", "p", client=s3_client, sleep=sleeps.append, max_attempts=5)
    put = _Flaky(s3_client, "put_object", _client_error("SlowDown", 503), failures=2)
    item = attempt("run-a", "fix", 1, at=NOW)
    store.append(item)
    assert put.calls == 3 and len(sleeps) == 2
    assert sleeps[1] > sleeps[0] * 0.9 or sleeps[1] >= 0.2  # backs off

    _Flaky(
        s3_client,
        "get_object",
        EndpointConnectionError(endpoint_url="https://s3.invalid"),
        failures=1,
    )
    assert [i.envelope_id for i in store.by_trace("run-a")] == [item.envelope_id]
    assert len(sleeps) == 3


def test_s3_permanent_error_is_not_retried(s3_client: Any) -> None:
    sleeps: list[float] = []
    store = S3Store("no-such-bucket", "p", client=s3_client, sleep=sleeps.append)
    with pytest.raises(AuditWriteError, match="NoSuchBucket"):
        store.append(attempt("run-a", "fix", 1, at=NOW))
    assert sleeps == []


def test_s3_gives_up_after_max_attempts(s3_client: Any) -> None:
    sleeps: list[float] = []
    store = S3Store("audit", "p", client=s3_client, sleep=sleeps.append, max_attempts=3)
    _Flaky(s3_client, "put_object", _client_error("InternalError", 500), failures=10)
    with pytest.raises(AuditWriteError, match="InternalError"):
        store.append(attempt("run-a", "fix", 1, at=NOW))
    assert len(sleeps) == 2


def test_core_imports_no_airflow() -> None:
    code = (
        "import sys, autofix.audit, autofix.cli.audit, autofix.audit.recorder;"
        "bad=[m for m in sys.modules if m == 'airflow' or m.startswith('airflow.')];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO_ROOT)
