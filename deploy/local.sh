#!/usr/bin/env bash
# The cluster on one machine, from Debian's packages: PostgreSQL, Redis, three `batak serve`
# processes (n1, n2, n3) and HAProxy in front of them. Everything lives in $DIR (default
# ./batak-cluster): data, logs, pid files.
#
#   apt-get install -y postgresql redis-server haproxy
#   pip install 'batak[cluster]'            # or, from a checkout: pip install -e '.[cluster]'
#   deploy/local.sh start                    # then open http://127.0.0.1:8080
#   deploy/local.sh restart-node n2          # a rolling restart, one node at a time
#   deploy/local.sh stop
#
# Ports: FRONT_PORT (8080) for the clients, NODE_PORT_BASE+1..3 (8001-8003) for the nodes,
# PG_PORT (5433) for PostgreSQL, REDIS_PORT (6380) for Redis. BATAK: the batak command (default:
# `batak` on the PATH, else the checkout's .venv/bin/batak); LEASE: the nodes' lease in seconds.
# PGBIN: the folder of PostgreSQL's programs (default: Debian's newest /usr/lib/postgresql/*/bin).
# BATAK and LEASE given to restart-node win over the ones kept by start, for that node.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-$PWD/batak-cluster}
# what `start` was given (ports, command, lease) is kept in $DIR, so that status, stop and
# restart-node find the same processes, and start a node as the others, without being given
# it again. The ports always come from there (they name the running processes); BATAK and
# LEASE given to restart-node win over the kept ones, for a rolling restart onto a new install
if [ "${1:-}" != start ] && [ -f "$DIR/ports.env" ]; then
    given_batak=${BATAK:-}
    given_lease=${LEASE:-}
    # shellcheck disable=SC1091
    . "$DIR/ports.env"
    BATAK=${given_batak:-${BATAK:-}}
    LEASE=${given_lease:-${LEASE:-}}
fi
if [ -z "${BATAK:-}" ]; then
    BATAK=batak
    if ! command -v batak >/dev/null 2>&1 && [ -x "$here/../.venv/bin/batak" ]; then
        BATAK=$(cd "$here/.." && pwd)/.venv/bin/batak
    fi
fi
FRONT_PORT=${FRONT_PORT:-8080}
PG_PORT=${PG_PORT:-5433}
REDIS_PORT=${REDIS_PORT:-6380}
LEASE=${LEASE:-6}
NODES=(n1 n2 n3)
BASE=${NODE_PORT_BASE:-8000}
declare -A PORT=([n1]=$((BASE + 1)) [n2]=$((BASE + 2)) [n3]=$((BASE + 3)))
DB="postgresql://postgres@127.0.0.1:$PG_PORT/batak"
REDIS="redis://127.0.0.1:$REDIS_PORT/0"
as_pg=()
[ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
pgbin=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
pg() {  # one of PostgreSQL's programs, as its user when this runs as root
    local program=$1
    shift
    [ -n "$pgbin" ] && program="$pgbin/$program"
    "${as_pg[@]}" "$program" "$@"
}

find_batak() {  # BATAK as a path that holds from any folder (start keeps it), or refuse
    if ! command -v "$BATAK" >/dev/null 2>&1; then
        echo "no batak command '$BATAK': install the package (pip install -e '.[cluster]') or" \
            "give its path, e.g. BATAK=.venv/bin/batak $0 $1" >&2
        exit 2
    fi
    BATAK=$(command -v "$BATAK")
    case $BATAK in
    /*) ;;
    *) BATAK=$(cd "$(dirname "$BATAK")" && pwd)/$(basename "$BATAK") ;;
    esac
}

start_node() {
    local n=$1
    nohup "$BATAK" serve --host 127.0.0.1 --port "${PORT[$n]}" --data "$DIR/$n" \
        --database "$DB" --node "$n" --redis "$REDIS" --lease-seconds "$LEASE" \
        --public-url "http://127.0.0.1:$FRONT_PORT" --log-level info >>"$DIR/$n.log" 2>&1 &
    echo $! >"$DIR/$n.pid"
    for _ in $(seq 100); do
        curl -fs "http://127.0.0.1:${PORT[$n]}/healthz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "node $n did not start: see $DIR/$n.log" >&2
    return 1
}

stop_node() {  # SIGTERM: the node hands its tables over to the others, then exits
    local n=$1
    if [ -f "$DIR/$n.pid" ]; then
        local pid waited=0
        pid=$(cat "$DIR/$n.pid")
        kill -TERM "$pid" 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null; do  # 30 s at most, then it is killed
            if [ "$waited" -ge 300 ]; then
                echo "node $n did not stop within 30 s: killed (see $DIR/$n.log)" >&2
                kill -KILL "$pid" 2>/dev/null || true
                break
            fi
            sleep 0.1
            waited=$((waited + 1))
        done
        rm -f "$DIR/$n.pid"
    fi
}

case "${1:-}" in
start)
    find_batak start
    mkdir -p "$DIR"
    printf 'FRONT_PORT=%q\nPG_PORT=%q\nREDIS_PORT=%q\nNODE_PORT_BASE=%q\nBATAK=%q\nLEASE=%q\n' \
        "$FRONT_PORT" "$PG_PORT" "$REDIS_PORT" "$BASE" "$BATAK" "$LEASE" >"$DIR/ports.env"
    if [ ! -d "$DIR/pg" ]; then
        mkdir -p "$DIR/pg"
        [ "$(id -u)" = 0 ] && chown postgres "$DIR/pg"
        pg initdb -D "$DIR/pg/data" -U postgres --auth=trust -E UTF8 >/dev/null
    fi
    pg pg_ctl -D "$DIR/pg/data" -l "$DIR/pg/log" -w \
        -o "-p $PG_PORT -k '$DIR/pg' -c listen_addresses=127.0.0.1" start >/dev/null
    pg psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE batak" \
        2>/dev/null || true
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
        --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --dir "$DIR"
    for n in "${NODES[@]}"; do start_node "$n"; done
    BATAK_FRONT="127.0.0.1:$FRONT_PORT" BATAK_N1="127.0.0.1:${PORT[n1]}" \
        BATAK_N2="127.0.0.1:${PORT[n2]}" BATAK_N3="127.0.0.1:${PORT[n3]}" \
        haproxy -D -p "$DIR/haproxy.pid" -f "$here/haproxy.cfg"
    echo "batak: http://127.0.0.1:$FRONT_PORT (nodes ${NODES[*]}, data and logs in $DIR)"
    ;;
restart-node)
    if [ -z "${2:-}" ] || [ -z "${PORT[$2]:-}" ]; then
        echo "usage: $0 restart-node NAME, NAME one of: ${NODES[*]}" >&2
        exit 2
    fi
    find_batak restart-node
    stop_node "$2"
    start_node "$2"
    ;;
stop)
    [ -f "$DIR/haproxy.pid" ] && kill "$(cat "$DIR/haproxy.pid")" 2>/dev/null || true
    for n in "${NODES[@]}"; do stop_node "$n"; done
    [ -f "$DIR/redis.pid" ] && kill "$(cat "$DIR/redis.pid")" 2>/dev/null || true
    pg pg_ctl -D "$DIR/pg/data" -m fast stop >/dev/null 2>&1 || true
    ;;
status)
    for n in "${NODES[@]}"; do
        printf '%s: ' "$n"
        curl -fs "http://127.0.0.1:${PORT[$n]}/healthz" || printf 'down'
        echo
    done
    ;;
*)
    echo "usage: $0 start | stop | status | restart-node NAME" >&2
    exit 2
    ;;
esac
