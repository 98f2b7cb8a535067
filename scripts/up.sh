#!/usr/bin/env bash
# make up: `airflow standalone` (api-server, scheduler, dag-processor, triggerer; LocalExecutor,
# SQLite in .airflow/) with this package, airflow_dags/ and config/. Ctrl-C stops everything.
#
#   PORT=8081 make up        # another port (default 8080)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
PORT="${PORT:-8080}"
PROJECT="$ROOT/.scratch/ui/sample_project"

# standalone starts its components as `airflow ...` from PATH.
export PATH="$BIN:$PATH"
export AIRFLOW_HOME="$ROOT/.airflow"
export AIRFLOW__CORE__DAGS_FOLDER="$ROOT/airflow_dags"
export AIRFLOW__CORE__LOAD_EXAMPLES=False
export AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*"
export AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION=False
export AIRFLOW__API__HOST="${HOST:-127.0.0.1}"
export AIRFLOW__API__PORT="$PORT"
export AIRFLOW__API__BASE_URL="http://localhost:$PORT"
export AIRFLOW__CORE__EXECUTION_API_SERVER_URL="http://127.0.0.1:$PORT/execution/"
# Login: one admin whose password lives in .airflow/ (git-ignored), printed below.
PASSWORDS="$AIRFLOW_HOME/autofix_passwords.json"
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS="admin:admin"
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE="$PASSWORDS"
# autofix: audit log, cache and summaries under logs/autofix/ (git-ignored).
export AUTOFIX_HOME="$ROOT"
export AUTOFIX_CONFIG="$ROOT/config/autofix.yaml"
# An empty trigger form fixes this scratch copy of the sample project.
export AUTOFIX__FIXING__PROJECTS="[\"$PROJECT\"]"
export AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS="${AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS:-5}"

mkdir -p "$AIRFLOW_HOME"
if [ ! -s "$PASSWORDS" ]; then
    "$BIN/python" -c 'import json, secrets, sys; json.dump({"admin": secrets.token_urlsafe(12)}, open(sys.argv[1], "w"))' "$PASSWORDS"
    chmod 600 "$PASSWORDS"
fi
PASSWORD=$("$BIN/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin"])' "$PASSWORDS")

# A fresh scratch project on every start, so the first run has all 5 problems to fix.
rm -rf "$PROJECT"
"$BIN/python" -c 'import sys; from autofix.fixing.gitops import init_scratch_copy; init_scratch_copy(sys.argv[1], sys.argv[2], exclude=["FIXES.md"])' \
    "$ROOT/examples/sample_project" "$PROJECT"

cat <<EOF
==> Airflow UI:  http://localhost:$PORT   (starts in ~30 s)
    login:       admin / $PASSWORD        (stored in $PASSWORDS)
    DAG:         autonomous_fixing → Trigger; an empty project_path fixes
                 $PROJECT
    task logs:   Grid → fix_project → a task → Logs; results: XCom (ParseResult, summary)
    Ctrl-C stops all components.
EOF
exec "$BIN/airflow" standalone
