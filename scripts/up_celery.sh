#!/usr/bin/env bash
# make up-celery: autofix on a real CeleryExecutor deployment on this machine, everything on
# 127.0.0.1: PostgreSQL (Airflow's metadata DB and the autofix audit DB), Redis (the broker),
# Airflow's api-server, scheduler and dag-processor, and two Celery workers, each with its own
# working directory (AUTOFIX_HOME, cwd) and hostname (TI.hostname, the audit rows).
#
#   scripts/up_celery.sh start   # start everything, wait until ready, print the addresses
#   scripts/up_celery.sh stop    # stop everything (make down-celery)
#   scripts/up_celery.sh status  # which components run
#
#   UP_STATE_DIR=/tmp/x   state, logs and databases there (default .celery/ in the checkout)
#   PORT=8090             the api-server (default 8090); PG_PORT / REDIS_PORT: default free ones
#   DAGS_FOLDER=dir       the DAG folder (default airflow_dags/)
#   WORKER_CONCURRENCY=2  task slots per worker
#
# The deployment settings come from scripts/celery/settings.env, which docker-compose.yaml
# mirrors (tests/test_deploy_files.py). PostgreSQL and Redis are Debian's packages; as root they
# are installed with apt-get when missing. Logs: <state>/logs/<component>.log.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
HERE="$ROOT/scripts/celery"
STATE="$(mkdir -p "${UP_STATE_DIR:-$ROOT/.celery}" && cd "${UP_STATE_DIR:-$ROOT/.celery}" && pwd)"
RUN="$STATE/run"
LOGS="$STATE/logs"
WORKERS=(worker1 worker2)
READY_TIMEOUT="${READY_TIMEOUT:-240}"
STOP_TIMEOUT="${STOP_TIMEOUT:-30}"
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"

die() {
    echo "up_celery: $*" >&2
    exit 1
}

free_port() {
    "$BIN/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# -- processes --------------------------------------------------------------------------------
# Every component is a process group of its own (setsid); its leader's pid is in run/<name>.pid.
# Every process started here carries AUTOFIX_CELERY_STATE=<state> in its environment, so stop
# also finds the ones that left their group (Airflow's task supervisor, the agents).

alive_pid() {  # name -> the pid when its group leader runs
    local pid
    pid="$(cat "$RUN/$1.pid" 2>/dev/null)" || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

spawn() {  # name, command...: a new process group, output in logs/<name>.log
    local name="$1"
    shift
    setsid "$@" >>"$LOGS/$name.log" 2>&1 </dev/null &
    echo $! >"$RUN/$name.pid"
}

marked_pids() {  # live processes whose environment names this state dir (zombies excluded)
    local file pid
    grep -lzxF "AUTOFIX_CELERY_STATE=$STATE" /proc/[0-9]*/environ 2>/dev/null | while read -r file; do
        pid="${file#/proc/}"
        pid="${pid%/environ}"
        [ "$pid" = "$$" ] && continue
        grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null || echo "$pid"
    done
}

tail_log() {
    echo "--- $LOGS/$1.log (last 40 lines)" >&2
    tail -n 40 "$LOGS/$1.log" >&2 2>/dev/null || echo "(no log)" >&2
}

wait_until() {  # what, component, command...: poll for READY_TIMEOUT s; on timeout name it
    local what="$1" component="$2"
    shift 2
    local deadline=$((SECONDS + READY_TIMEOUT))
    until "$@" >/dev/null 2>&1; do
        if ! alive_pid "$component" >/dev/null; then
            tail_log "$component"
            die "$component exited while waiting for $what (log: $LOGS/$component.log)"
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            tail_log "$component"
            die "timed out after ${READY_TIMEOUT}s waiting for $what (log: $LOGS/$component.log)"
        fi
        sleep 1
    done
}

# -- PostgreSQL and Redis from Debian ----------------------------------------------------------

ensure_packages() {
    local missing=()
    [ -x "$PG_BIN/initdb" ] || missing+=(postgresql)
    command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
    [ "${#missing[@]}" = 0 ] && return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        die "missing ${missing[*]}: install the Debian package(s) (apt-get install ${missing[*]}); installing them here needs root and apt-get"
    fi
    echo "==> installing ${missing[*]} (Debian packages)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" \
        || die "apt-get could not install ${missing[*]}"
    # The package starts a cluster and a server of its own on the default ports; this script
    # runs its own, so those are left as the package set them up.
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
    [ -x "$PG_BIN/initdb" ] || die "postgresql installed but no initdb under /usr/lib/postgresql/*/bin"
}

as_db_user() {  # PostgreSQL refuses to run as root: as root, run it as the postgres user
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start_postgres() {
    local data="$STATE/postgres" pwfile="$STATE/postgres.pw"
    if [ ! -s "$data/PG_VERSION" ]; then
        mkdir -p "$data"
        "$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(16))' >"$pwfile"
        if [ "$(id -u)" = 0 ]; then
            id postgres >/dev/null 2>&1 || die "no postgres OS user: reinstall the postgresql package"
            chown postgres: "$data" "$pwfile"
            runuser -u postgres -- test -w "$data" \
                || die "the postgres user cannot write $data: give every parent directory of $STATE o+x (chmod o+x)"
        fi
        chmod 700 "$data"
        chmod 600 "$pwfile"
        echo "==> initdb $data"
        as_db_user "$PG_BIN/initdb" -D "$data" -U postgres --pwfile="$pwfile" \
            --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 >"$LOGS/initdb.log" 2>&1 \
            || { tail_log initdb; die "initdb failed"; }
    fi
    # Loopback only, no Unix socket (the state dir may be deep; the port is the only way in).
    local as_user=()
    [ "$(id -u)" = 0 ] && as_user=(runuser -u postgres --)
    spawn postgres "${as_user[@]}" env AUTOFIX_CELERY_STATE="$STATE" "$PG_BIN/postgres" -D "$data" \
        -c listen_addresses=127.0.0.1 -p "$PG_PORT" -c unix_socket_directories= -c max_connections=200
    export PGPASSWORD
    PGPASSWORD="$(cat "$pwfile")"
    wait_until "PostgreSQL on 127.0.0.1:$PG_PORT" postgres \
        "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres
    psql_admin() { "$PG_BIN/psql" -v ON_ERROR_STOP=1 -q -h 127.0.0.1 -p "$PG_PORT" -U postgres "$@"; }
    if [ "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'airflow'")" != 1 ]; then
        psql_admin -c "CREATE ROLE airflow LOGIN PASSWORD 'airflow'" \
            -c "CREATE DATABASE airflow OWNER airflow"
        psql_admin -f "$HERE/init-audit-db.sql"
    fi
}

start_redis() {
    mkdir -p "$STATE/redis"
    spawn redis env AUTOFIX_CELERY_STATE="$STATE" redis-server --bind 127.0.0.1 \
        --port "$REDIS_PORT" --dir "$STATE/redis" --save '' --appendonly no --protected-mode yes
    wait_until "Redis on 127.0.0.1:$REDIS_PORT" redis redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping
}

# -- Airflow ----------------------------------------------------------------------------------

load_settings() {  # scripts/celery/settings.env, its ${...} expanded here
    local line key value
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in '' | '#'*) continue ;; esac
        key="${line%%=*}"
        value="${line#*=}"
        eval "value=\"$value\""
        export "$key=$value"
    done <"$HERE/settings.env"
}

airflow_env() {
    export AF_PG_HOST=127.0.0.1 AF_PG_PORT="$PG_PORT" AF_REDIS_HOST=127.0.0.1
    export AF_REDIS_PORT="$REDIS_PORT" AF_API_HOST=127.0.0.1 AF_API_PORT="$PORT"
    if [ ! -s "$STATE/jwt_secret" ]; then
        "$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(32))' >"$STATE/jwt_secret"
        chmod 600 "$STATE/jwt_secret"
    fi
    export AIRFLOW__API_AUTH__JWT_SECRET
    AIRFLOW__API_AUTH__JWT_SECRET="$(cat "$STATE/jwt_secret")"
    load_settings
    export AUTOFIX_CELERY_STATE="$STATE"
    export PATH="$BIN:$PATH"
    export AIRFLOW_HOME="$STATE/airflow"
    export AIRFLOW__CORE__DAGS_FOLDER="${DAGS_FOLDER:-$ROOT/airflow_dags}"
    export AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION=False
    # One task log folder for every worker (same machine): the api-server reads the task logs
    # from the files, so no worker runs a log server (it would listen on every interface).
    export AIRFLOW__LOGGING__BASE_LOG_FOLDER="$STATE/airflow/logs"
    export AIRFLOW__API__HOST=127.0.0.1
    export AIRFLOW__API__PORT="$PORT"
    export AIRFLOW__API__BASE_URL="http://127.0.0.1:$PORT"
    export AIRFLOW__API__WORKERS=1
    export AIRFLOW__CORE__HOSTNAME_CALLABLE=autofix_worker_hostname.hostname
    export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
    # Login: docker-compose.yaml uses FAB's auth manager; here the simple one, the password in
    # <state>/airflow/passwords.json.
    export AIRFLOW__CORE__AUTH_MANAGER="airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
    export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS="admin:admin"
    export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE="$AIRFLOW_HOME/passwords.json"
    export AUTOFIX_CONFIG="${AUTOFIX_CONFIG:-$ROOT/config/autofix.yaml}"
    mkdir -p "$AIRFLOW_HOME"
    if [ ! -s "$AIRFLOW_HOME/passwords.json" ]; then
        "$BIN/python" -c 'import json, secrets, sys; json.dump({"admin": secrets.token_urlsafe(12)}, open(sys.argv[1], "w"))' \
            "$AIRFLOW_HOME/passwords.json"
        chmod 600 "$AIRFLOW_HOME/passwords.json"
    fi
}

start_airflow() {
    echo "==> migrating Airflow's metadata database"
    "$BIN/airflow" db migrate >"$LOGS/migrate.log" 2>&1 || { tail_log migrate; die "airflow db migrate failed"; }
    spawn api-server "$BIN/airflow" api-server --host 127.0.0.1 --port "$PORT"
    spawn scheduler "$BIN/airflow" scheduler --skip-serve-logs
    spawn dag-processor "$BIN/airflow" dag-processor
    local worker dir
    for worker in "${WORKERS[@]}"; do
        dir="$STATE/workers/$worker"
        mkdir -p "$dir"
        # Its own working directory: autofix's audit fallback, cache and scratch copies land in
        # <dir>/logs/autofix, as on a machine of its own.
        (cd "$dir" && AUTOFIX_HOME="$dir" AUTOFIX_WORKER_HOSTNAME="$worker" spawn "$worker" \
            "$BIN/airflow" celery worker --celery-hostname "$worker@%h" \
            --concurrency "${WORKER_CONCURRENCY:-2}" --skip-serve-logs)
    done
    wait_until "the api-server on http://127.0.0.1:$PORT" api-server \
        curl -fsS "http://127.0.0.1:$PORT/api/v2/monitor/health"
    healthy() {
        curl -fsS "http://127.0.0.1:$PORT/api/v2/monitor/health" \
            | "$BIN/python" -c 'import json, sys; h = json.load(sys.stdin); sys.exit(h["scheduler"]["status"] != "healthy" or h["dag_processor"]["status"] != "healthy")'
    }
    wait_until "a healthy scheduler and dag-processor" scheduler healthy
    for worker in "${WORKERS[@]}"; do
        wait_until "Celery $worker to be ready" "$worker" grep -q "$worker@.* ready" "$LOGS/$worker.log"
    done
}

# -- commands ---------------------------------------------------------------------------------

stop() {
    local name pid left
    mkdir -p "$RUN"
    for name in "${WORKERS[@]}" dag-processor scheduler api-server redis postgres; do
        pid="$(alive_pid "$name")" || continue
        if [ "$name" = postgres ]; then
            kill -INT -- "-$pid" 2>/dev/null || true  # fast shutdown
        else
            kill -TERM -- "-$pid" 2>/dev/null || true
        fi
    done
    for _ in $(seq 1 "$STOP_TIMEOUT"); do
        [ -z "$(marked_pids)" ] && break
        sleep 1
    done
    left="$(marked_pids)"
    if [ -n "$left" ]; then
        echo "==> still running after ${STOP_TIMEOUT}s, killing: $(echo $left)"
        # shellcheck disable=SC2086
        kill -KILL $left 2>/dev/null || true
        sleep 1
    fi
    rm -f "$RUN"/*.pid
    echo "==> stopped: $(marked_pids | wc -l) processes left"
}

status() {
    local name pid
    for name in postgres redis api-server scheduler dag-processor "${WORKERS[@]}"; do
        if pid="$(alive_pid "$name")"; then
            echo "$name: running (process group $pid)"
        else
            echo "$name: stopped"
        fi
    done
}

start() {
    mkdir -p "$RUN" "$LOGS"
    if [ -n "$(marked_pids)" ]; then
        die "already running from $STATE (scripts/up_celery.sh stop first)"
    fi
    ensure_packages
    PORT="${PORT:-8090}"
    PG_PORT="${PG_PORT:-$(free_port)}"
    REDIS_PORT="${REDIS_PORT:-$(free_port)}"
    trap 'echo "up_celery: start failed; stopping what started" >&2; stop >&2' EXIT
    start_postgres
    start_redis
    airflow_env
    start_airflow
    trap - EXIT
    printf 'PORT=%s\nPG_PORT=%s\nREDIS_PORT=%s\n' "$PORT" "$PG_PORT" "$REDIS_PORT" >"$STATE/ports.env"
    cat <<EOF
==> autofix on CeleryExecutor is up (state: $STATE)
    Airflow UI:   http://127.0.0.1:$PORT   login admin / $(
        "$BIN/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin"])' "$AIRFLOW_HOME/passwords.json")
    PostgreSQL:   127.0.0.1:$PG_PORT (databases airflow and autofix, user airflow / airflow)
    Redis:        127.0.0.1:$REDIS_PORT
    workers:      ${WORKERS[*]} (working directories under $STATE/workers/)
    logs:         $LOGS/<component>.log
    stop:         make down-celery (or scripts/up_celery.sh stop)
EOF
}

case "${1:-start}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) die "unknown command ${1}: start, stop or status" ;;
esac
