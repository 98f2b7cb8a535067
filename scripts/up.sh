#!/usr/bin/env bash
# make up: Airflow's api-server, scheduler, dag-processor and triggerer (LocalExecutor, SQLite in
# .airflow/) with this package, airflow_dags/ and config/. Ctrl-C stops every component.
#
#   PORT=8081 make up            # another port (default 8080)
#   PARALLELISM=8 make up        # task slots = LocalExecutor worker processes (default 2 × cores)
#   UP_STATE_DIR=/tmp/x make up  # the Airflow home (.airflow) and autofix's logs/ there instead of
#                                # in the checkout (the browser test runs its own instance)
#
# Why not `exec airflow standalone`: on Ctrl-C the terminal's SIGINT reaches every process of the
# group; LocalExecutor workers ignore SIGINT (airflow/executors/local_executor.py:73) and wait on
# their queue, the scheduler's exit then blocks in multiprocessing's atexit join of those workers,
# and standalone blocks joining the scheduler's output thread: scheduler, workers and standalone
# stay up. Its serve-logs processes also listen on every interface (8793, 8794).
# Here the components run in a process group of their own; Ctrl-C reaches only this script, which
# sends SIGTERM to that whole group at once, waits, escalates to SIGKILL, and checks that nothing
# is left (docs/ui-research.md, point 7).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
PORT="${PORT:-8080}"
HOST="${HOST:-127.0.0.1}"
STOP_TIMEOUT="${STOP_TIMEOUT:-45}"

# The components, one process group (this script re-run with --components by setsid below).
if [ "${1:-}" = "--components" ]; then
    run() {  # name, args...: one component, its output prefixed with its name
        local name="$1"
        shift
        # The prefixing sed ignores SIGTERM and ends at EOF: a component that logs while it shuts
        # down must not get EPIPE (a scheduler that does hangs joining its workers).
        "$BIN/airflow" "$@" 2>&1 | (trap '' TERM INT; exec sed -u "s/^/$(printf '%-13s' "$name")| /") &
    }
    run api-server api-server --host "$HOST" --port "$PORT"
    run scheduler scheduler --skip-serve-logs   # logs are read from local files: no log server
    run dag-processor dag-processor
    run triggerer triggerer --skip-serve-logs
    wait
    exit 0
fi

STATE="${UP_STATE_DIR:-$ROOT}"
CORES="$(nproc 2>/dev/null || echo 2)"
export PATH="$BIN:$PATH"
export AIRFLOW_HOME="$STATE/.airflow"
# SQLite: one writer at a time. A write waits up to 60 s for the lock (Python's default is 5 s,
# after which triggering a run while others run fails with a "Database error"), and the file is
# in WAL mode (set after the migration below), so the UI's reads never block the writers.
export AIRFLOW__DATABASE__SQL_ALCHEMY_CONN="sqlite:///$AIRFLOW_HOME/airflow.db?timeout=60"
export AIRFLOW__CORE__DAGS_FOLDER="$ROOT/airflow_dags"
export AIRFLOW__CORE__LOAD_EXAMPLES=False
export AIRFLOW__CORE__EXECUTOR=LocalExecutor
# LocalExecutor forks `parallelism` worker processes at start (~130 MiB RSS each, mostly shared):
# agent tasks mostly wait on their CLI, so 2 per core; Airflow's default is 32.
export AIRFLOW__CORE__PARALLELISM="${PARALLELISM:-$((CORES * 2))}"
export AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*"
export AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION=False
export AIRFLOW__API__HOST="$HOST"
export AIRFLOW__API__PORT="$PORT"
export AIRFLOW__API__BASE_URL="http://localhost:$PORT"
export AIRFLOW__CORE__EXECUTION_API_SERVER_URL="http://127.0.0.1:$PORT/execution/"
# Login: one admin whose password lives in .airflow/ (git-ignored), printed below.
PASSWORDS="$AIRFLOW_HOME/autofix_passwords.json"
export AIRFLOW__CORE__AUTH_MANAGER="airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS="admin:admin"
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE="$PASSWORDS"
# autofix: audit log, cache, scratch copies and summaries under logs/autofix/ (git-ignored).
export AUTOFIX_HOME="$STATE"
export AUTOFIX_CONFIG="$ROOT/config/autofix.yaml"
# An empty project_path fixes a fresh copy of the sample project, one per run, so every run has
# its 5 problems to fix (FIXES.md, the answer key, left out); the pinned CLIs of `make agent-clis`.
export AUTOFIX__FIXING__SCRATCH_FROM="$ROOT/examples/sample_project"
export AUTOFIX__FIXING__SCRATCH_EXCLUDE='["FIXES.md"]'
export AUTOFIX__FIXING__AGENT_CLIS_DIR="${AUTOFIX__FIXING__AGENT_CLIS_DIR:-$ROOT/.agents}"
export AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS="${AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS:-5}"

mkdir -p "$AIRFLOW_HOME"
if [ ! -s "$PASSWORDS" ]; then
    "$BIN/python" -c 'import json, secrets, sys; json.dump({"admin": secrets.token_urlsafe(12)}, open(sys.argv[1], "w"))' "$PASSWORDS"
    chmod 600 "$PASSWORDS"
fi
PASSWORD=$("$BIN/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin"])' "$PASSWORDS")

echo "==> migrating the metadata database ($AIRFLOW_HOME/airflow.db)"
"$BIN/airflow" db migrate >/dev/null
"$BIN/python" -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode=WAL").fetchone()' \
    "$AIRFLOW_HOME/airflow.db"

alive() {  # processes of the group, zombies excluded
    ps -o stat= -g "$1" 2>/dev/null | grep -vc '^Z' || true
}

GROUP=""
stop() {
    trap - INT TERM EXIT
    # `make up | tee log`: Ctrl-C ends tee too, and a message written to the dead pipe must not
    # end this clean-up (SIGPIPE, or set -e on the failed echo) and leave Airflow running.
    trap '' PIPE
    set +e
    [ -n "$GROUP" ] || exit 0
    local started=$SECONDS
    echo "==> stopping Airflow (process group $GROUP: $(alive "$GROUP") processes)"
    kill -TERM -- "-$GROUP" 2>/dev/null || true
    for _ in $(seq 1 "$STOP_TIMEOUT"); do
        [ "$(alive "$GROUP")" = 0 ] && break
        sleep 1
    done
    if [ "$(alive "$GROUP")" != 0 ]; then
        echo "==> still running after ${STOP_TIMEOUT}s, killing:"
        ps -o pid=,args= -g "$GROUP" | grep -v '<defunct>' || true
        kill -KILL -- "-$GROUP" 2>/dev/null || true
        sleep 1
    fi
    wait "$GROUP" 2>/dev/null || true
    echo "==> stopped in $((SECONDS - started))s: $(alive "$GROUP") Airflow processes left"
    exit 0
}
trap stop INT TERM EXIT

# setsid (not a group leader here, so it does not fork): $! is the new group's id.
setsid bash "$0" --components &
GROUP=$!

cat <<EOF
==> Airflow UI:  http://localhost:$PORT   (starts in ~30 s)
    login:       admin / $PASSWORD        (stored in $PASSWORDS)
    DAG:         autonomous_fixing → Trigger; an empty project_path fixes a fresh copy of
                 examples/sample_project (in $STATE/logs/autofix/cache/scratch/<run>)
    task logs:   Grid → fix_project → a task → Logs; results: Storage → XCom
    parallelism: $AIRFLOW__CORE__PARALLELISM task slots ($CORES cores)
    Ctrl-C stops all components.
EOF
wait "$GROUP"
