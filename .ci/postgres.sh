#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the tests (installs it with apt if missing) and print
# "URL DIR": the URL to reach it and the folder it runs in:
#   pg=$(bash .ci/postgres.sh); export BATAK_TEST_POSTGRES=${pg%% *}
# Stop it with `bash .ci/postgres.sh stop DIR` (${pg##* }). Runs the server as the 'postgres'
# user when started as root.
set -euo pipefail
if [ "${1:-}" = "stop" ]; then
    dir="$2"
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- pg_ctl -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    else pg_ctl -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    exit 0
fi
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] && ! command -v initdb >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
        bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    else
        echo "PostgreSQL is not installed and cannot be installed here" >&2
        exit 1
    fi
fi
[ -n "$bindir" ] && export PATH="$bindir:$PATH"
dir=$(mktemp -d /tmp/batak-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg=()
if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$dir"
    as_pg=(runuser -u postgres --)
fi
"${as_pg[@]}" initdb -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_pg[@]}" pg_ctl -D "$dir/data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null
echo "postgresql://postgres@127.0.0.1:$port/postgres $dir"
