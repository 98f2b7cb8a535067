#!/usr/bin/env bash
# make demo: the autonomous_fixing DAG fixes a scratch copy of examples/sample_project, offline
# (the scripted agent autofix-agent-sim), through `airflow dags test` in a SQLite Airflow home
# under .airflow/. Exits 0 only when the DAG run succeeded.
#
#   DEMO_VERBOSE=1 make demo    # the full Airflow log on the terminal instead of the highlights
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"

# --- AGENT=local (issue 7): the structured-output step on the local llama.cpp model instead. ---
if [ "${AGENT:-sim}" = "local" ]; then exec bash "$ROOT/scripts/demo_local_llm.sh"; fi
# ---
BIN="$ROOT/.venv/bin"
DEMO="$ROOT/.scratch/demo"
PROJECT="$DEMO/sample_project"
LOG="$DEMO/airflow-dags-test.log"

export AIRFLOW_HOME="$ROOT/.airflow"
export AIRFLOW__CORE__DAGS_FOLDER="$ROOT/airflow_dags"
export AIRFLOW__CORE__LOAD_EXAMPLES=False
export AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*"
export AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION=False
# Audit log, discover_tests cache, sim counters and summaries of this demo: all under .scratch/demo.
export AUTOFIX_HOME="$DEMO"
export AUTOFIX_CONFIG="$ROOT/config/autofix.yaml"
# The scenario's usage-limit event is retried by Airflow; wait 2 s instead of a minute.
export AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS=2

started=$(date +%s)
rm -rf "$DEMO"
mkdir -p "$DEMO" "$AIRFLOW_HOME"

echo "==> scratch git repository: $PROJECT (FIXES.md left out: the agent must not see it)"
"$BIN/python" - "$ROOT/examples/sample_project" "$PROJECT" <<'PY'
import sys
from autofix.gitops import init_scratch_copy
print("    initial commit", init_scratch_copy(sys.argv[1], sys.argv[2], exclude=["FIXES.md"])[:12])
PY

echo "==> SQLite Airflow home: $AIRFLOW_HOME"
if ! "$BIN/airflow" db migrate >"$DEMO/airflow-db-migrate.log" 2>&1; then
    tail -20 "$DEMO/airflow-db-migrate.log"
    echo "airflow db migrate failed; full log: $DEMO/airflow-db-migrate.log" >&2
    exit 1
fi

CONF=$(printf '{"project_path": "%s", "agent": "sim", "scenario": "sample_project", "max_iterations": 5}' "$PROJECT")
echo "==> airflow dags test autonomous_fixing --conf '$CONF'"
echo "    (full log: $LOG)"
# The highlights: tasks, agent verdicts, marked noise, retries, the fix's checks and commits.
HIGHLIGHTS='\[DAG TEST\] (starting|end task)|autofix verdict|noise line|\[noise: |^assistant: |\] attempt [0-9]+/[0-9]+ \(|transient \(|permanent \(|new_state=up_for_retry|loop: |verification after attempt|sent back to the agent|new commit [0-9a-f]{12}|no new commit|test config|checks \(from|verified:|Marking run|Skipping task|has uncommitted'
set +e
if [ "${DEMO_VERBOSE:-0}" = "1" ]; then
    "$BIN/airflow" dags test autonomous_fixing --conf "$CONF" 2>&1 | tee "$LOG"
    rc=${PIPESTATUS[0]}
else
    "$BIN/airflow" dags test autonomous_fixing --conf "$CONF" 2>&1 | tee "$LOG" \
        | grep --line-buffered -E "$HIGHLIGHTS" \
        | sed -u -E 's/.*new_state=up_for_retry.*/    → up_for_retry: Airflow retries the task after its retry_delay/;
                    s/ \[(airflow|task|autofix)[^]]*\]//; s/ loc=[^ ]+//; s/^[0-9T:.-]+Z //; s/ ti_id=.*//'
    rc=${PIPESTATUS[0]}
fi
set -e

echo
"$BIN/python" - "$DEMO/logs/autofix/runs" <<'PY'
import sys
from autofix.fixing.summary import load_summaries, render_summary
summaries = load_summaries(sys.argv[1])
if not summaries:
    print("no summary was written (the run stopped before its summary task)")
    sys.exit(0)
last = summaries[-1]
print(render_summary(last))
print()
print(f"audit report:  .venv/bin/autofix report --store {last.audit} --since all")
PY
echo "commits:       git -C $PROJECT log --oneline main..autofix/fixes"
echo "Airflow log:   $LOG"
echo "demo took $(( $(date +%s) - started )) s"
if [ "$rc" -ne 0 ]; then
    echo "DAG run FAILED (exit $rc); see $LOG" >&2
    exit "$rc"
fi
echo "DAG run succeeded."
