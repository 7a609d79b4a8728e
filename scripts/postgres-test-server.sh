#!/usr/bin/env bash
# A throwaway PostgreSQL server for Herald's PostgreSQL tests and benchmark (docs/store.md).
#
#   eval "$(scripts/postgres-test-server.sh start [DIR])"   # exports HERALD_TEST_POSTGRES_URL
#   scripts/postgres-test-server.sh stop DIR                 # stops it and deletes DIR
#   scripts/postgres-test-server.sh restart DIR [SECONDS]    # stops it (fast), waits, starts it again
#
# `start` makes a new cluster in DIR (default: a new /tmp/herald-pg.XXXXXX), listening on
# 127.0.0.1 at the first free port from 54320 and on a Unix socket inside DIR only, so it never
# collides with a system cluster (5432) or another engineer's test server. It creates the role
# `herald` (password authentication, SCRAM) and the database `herald_test`, and prints two
# `export` lines: HERALD_TEST_POSTGRES_URL (postgres://herald:…@127.0.0.1:PORT/herald_test)
# and HERALD_TEST_POSTGRES_DIR (what `stop` needs). Everything else goes to stderr.
#
# HERALD_TEST_POSTGRES_OPTIONS adds server settings to `start` (`-c shared_buffers=512MB`, say,
# for the benchmark's million rows); `restart` keeps them.
#
# `restart` keeps DIR, its data, port and password: it is for tests of a store that must notice
# a server going away and recover by itself once it is back (stopped SECONDS, default 0).
#
# As root (CI), the server runs as the `postgres` user that Debian's `postgresql` package
# creates (PostgreSQL refuses to run as root); as any other user, as that user. The server's
# binaries are Debian's (/usr/lib/postgresql/N/bin, the highest N) or else the ones on PATH.
set -euo pipefail

usage() {
    echo "usage: scripts/postgres-test-server.sh start [DIR] | stop DIR | restart DIR [SECONDS]" >&2
    exit 64
}

bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [[ -n $dir && -x $dir/initdb ]]; then
        echo "$dir"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    else
        echo "error: no PostgreSQL server binaries (initdb): install Debian's \`postgresql\`" >&2
        exit 1
    fi
}

# Runs a command as the cluster's owner.
as_owner() {
    if ((EUID == 0)); then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
    local dir=${1:-} bin port password
    bin=$(bindir)
    if [[ -z $dir ]]; then
        dir=$(mktemp -d /tmp/herald-pg.XXXXXX)
    else
        mkdir -p "$dir"
    fi
    dir=$(cd "$dir" && pwd)
    if [[ -e $dir/data ]]; then
        echo "error: \`$dir/data\` exists: stop that server first or choose another directory" >&2
        exit 1
    fi
    if ((EUID == 0)); then
        id postgres >/dev/null 2>&1 || { echo "error: no \`postgres\` user: install Debian's \`postgresql\`" >&2; exit 1; }
        chown postgres: "$dir"
    fi
    password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    printf '%s\n' "$password" >"$dir/pwfile"
    ((EUID == 0)) && chown postgres: "$dir/pwfile"
    as_owner "$bin/initdb" -D "$dir/data" -U herald --pwfile="$dir/pwfile" \
        --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    rm -f "$dir/pwfile"

    for port in $(seq 54320 54420); do
        port_free "$port" || continue
        local options="-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c max_connections=200 ${HERALD_TEST_POSTGRES_OPTIONS:-}"
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" start >&2; then
            printf '%s\n' "$options" >"$dir/server-options"
            local url="postgres://herald:$password@127.0.0.1:$port/herald_test"
            PGPASSWORD=$password "$bin/psql" -q -h 127.0.0.1 -p "$port" -U herald -d postgres \
                -c 'CREATE DATABASE herald_test' >&2
            echo "postgres: test server in $dir on 127.0.0.1:$port" >&2
            printf "export HERALD_TEST_POSTGRES_URL='%s'\n" "$url"
            printf "export HERALD_TEST_POSTGRES_DIR='%s'\n" "$dir"
            return 0
        fi
        # Another server took the port between the check and the start: try the next one.
        tail -5 "$dir/server.log" >&2 || true
    done
    echo "error: no free port in 54320-54420 for the test server" >&2
    exit 1
}

stop() {
    local dir=${1:-}
    [[ -n $dir && -d $dir/data ]] || usage
    as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    rm -rf "$dir"
}

restart() {
    local dir=${1:-} pause=${2:-0} bin
    [[ -n $dir && -f $dir/server-options && $pause =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage
    bin=$(bindir)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2
    sleep "$pause"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/server-options")" start >&2
}

case ${1:-} in
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    restart) restart "${2:-}" "${3:-}" ;;
    *) usage ;;
esac
