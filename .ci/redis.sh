#!/usr/bin/env bash
# Start a throwaway Redis server for the cluster tests (installs Debian's redis-server with apt if
# missing) and print the URL to reach it and its folder: r=$(bash .ci/redis.sh);
# BATAK_TEST_REDIS="${r%% *}". Stop it with `bash .ci/redis.sh stop DIR`. Nothing is saved to disk.
set -euo pipefail
if [ "${1:-}" = "stop" ]; then
    dir="$2"
    if [ -f "$dir/redis.pid" ]; then
        pid="$(cat "$dir/redis.pid")"
        kill "$pid" 2>/dev/null || true
        # wait for it to exit: it writes in its folder while it shuts down, and an rm that
        # races it fails ("Directory not empty"), which failed a green CI run at its exit
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$dir" 2>/dev/null || { sleep 0.5; rm -rf "$dir"; } || true
    exit 0
fi
if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >&2
    else
        echo "redis-server is not installed and cannot be installed here" >&2
        exit 1
    fi
fi
dir=$(mktemp -d /tmp/batak-redis.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --pidfile "$dir/redis.pid" --logfile "$dir/log" --dir "$dir" >/dev/null
for _ in $(seq 50); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
done
echo "redis://127.0.0.1:$port/0 $dir"
