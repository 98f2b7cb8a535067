"""autofix used outside Airflow leaves the host's logging alone and never imports Airflow."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

HOST = textwrap.dedent(
    """
    import json, logging, sys

    class Keep(logging.Handler):
        def emit(self, record):
            pass

    logging.basicConfig(level=logging.WARNING, format="HOST %(message)s")
    logging.getLogger().addHandler(Keep())
    logging.getLogger("host.app").setLevel(logging.DEBUG)

    def snapshot():
        loggers = {
            name: [logger.level, [type(h).__name__ for h in logger.handlers], logger.disabled]
            for name, logger in logging.root.manager.loggerDict.items()
            if isinstance(logger, logging.Logger) and not name.startswith("autofix")
        }
        root = logging.getLogger()
        return [root.level, [type(h).__name__ for h in root.handlers], loggers]

    before = snapshot()

    from autofix.audit.recorder import AuditRecorder
    from autofix.audit.stores.jsonl import JsonlStore
    from autofix.config import AutofixConfig
    from autofix.task.agent_task import AgentTask
    from autofix.task.spec import AgentTaskSpec, TraceContext

    store = JsonlStore(sys.argv[1])
    spec = AgentTaskSpec(
        agent="plain", prompt="hi", operation="host",
        command=[sys.executable, "-c", "import sys; print('ok'); print('warn', file=sys.stderr)"],
    )
    task = AgentTask(spec, config=AutofixConfig(), trace=TraceContext("run-1"),
                     recorder=AuditRecorder(store))
    result = task.run()
    print(json.dumps({
        "success": result.success,
        "records": len(list(store.iter_all())),
        "same": snapshot() == before,
        "before": before,
        "after": snapshot(),
        "airflow": sorted(m for m in sys.modules if m == "airflow" or m.startswith("airflow.")),
    }))
    """
)


def test_agent_task_with_a_recorder_leaves_host_logging_alone(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", HOST, str(tmp_path / "audit.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["success"] and report["records"] == 1
    assert report["airflow"] == []
    assert report["same"], (report["before"], report["after"])
