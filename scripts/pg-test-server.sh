#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests.
#   scripts/pg-test-server.sh start DIR   -> prints the connection URL
#   scripts/pg-test-server.sh stop DIR    -> stops it and removes DIR
# Installs PostgreSQL from the system's packages where it is missing. As
# root, the server runs as the `postgres` user (initdb refuses root).
set -euo pipefail
cmd=${1:?usage: pg-test-server.sh start|stop DIR}
dir=${2:?usage: pg-test-server.sh start|stop DIR}

pgbin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$cmd" in
start)
    bin=$(pgbin)
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "PostgreSQL is not installed: run as root or install the postgresql package" >&2
            exit 1
        fi
        # Tests start servers at once: one installs, the others wait for it
        # (the lock is held only by this subshell, never by the server).
        (
            flock -w 900 9
            if [ -z "$(pgbin)" ]; then
                apt-get -o DPkg::Lock::Timeout=600 update -qq &&
                    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql
            fi
        ) 9>"${TMPDIR:-/tmp}/dip-apt.lock" >&2
        bin=$(pgbin)
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$dir"
    fi
    # A free port: ask the kernel for one.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    bin=$(pgbin)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: pg-test-server.sh start|stop DIR" >&2
    exit 2
    ;;
esac
