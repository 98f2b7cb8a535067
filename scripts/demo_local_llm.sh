#!/usr/bin/env bash
# AGENT=local make demo: the structured-output step (discover_tests) on the real local model.
# Starts the llama.cpp server (make llm-up) when it is not running and stops it again afterwards,
# then runs the local_llm_discover DAG through `airflow dags test` in the demo's SQLite home.
# The task log shows each attempt, the retry strategy chosen and the final verdict.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
DEMO="$ROOT/.scratch/demo-local"
LOG="$DEMO/airflow-dags-test.log"
PORT="${LLM_PORT:-8012}"

export AIRFLOW_HOME="$ROOT/.airflow"
export AIRFLOW__CORE__DAGS_FOLDER="$ROOT/airflow_dags"
export AIRFLOW__CORE__LOAD_EXAMPLES=False
export AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*"
export AUTOFIX_HOME="$DEMO"
export AUTOFIX_CONFIG="$ROOT/config/autofix.yaml"
export AUTOFIX_LLM_PORT="$PORT"
export AUTOFIX_LLM_DIR="$ROOT/.llm"
export AUTOFIX_OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1"

mkdir -p "$DEMO" "$AIRFLOW_HOME"
started_server=0
if ! "$BIN/python" -m autofix.devtools.local_llm status >/dev/null 2>&1; then
    echo "==> starting the local model server (make llm-up)"
    "$BIN/python" -m autofix.devtools.local_llm up
    started_server=1
fi
cleanup() { if [ "$started_server" = 1 ]; then "$BIN/python" -m autofix.devtools.local_llm down; fi; }
trap cleanup EXIT

"$BIN/airflow" db migrate >"$DEMO/airflow-db-migrate.log" 2>&1 || {
    tail -20 "$DEMO/airflow-db-migrate.log"; exit 1; }

CONF=$(printf '{"project_path": "%s"}' "$ROOT/examples/sample_project")
echo "==> airflow dags test local_llm_discover --conf '$CONF'  (strategy: ${AUTOFIX_LOCAL_STRATEGY:-auto})"
echo "    (full log: $LOG)"
HIGHLIGHTS='\[DAG TEST\] (starting|end task)|autofix verdict|\] attempt [0-9]+/[0-9]+|strategy [a-z+]+ for|giving up|tokens in|Marking run'
set +e
"$BIN/airflow" dags test local_llm_discover --conf "$CONF" 2>&1 | tee "$LOG" \
    | grep --line-buffered -E "$HIGHLIGHTS" \
    | sed -u -E 's/ \[(airflow|task|autofix)[^]]*\]//; s/ loc=[^ ]+//; s/^[0-9T:.-]+Z //; s/ ti_id=.*//'
rc=${PIPESTATUS[0]}
set -e
echo "audit: .venv/bin/autofix report --store $DEMO/logs/autofix/audit.jsonl --since all"
exit "$rc"
