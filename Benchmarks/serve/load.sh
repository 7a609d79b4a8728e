#!/usr/bin/env bash
# Load and fault runs for `herald serve` with wrk (Debian's `wrk`), loopback only.
#
#   Benchmarks/serve/load.sh peak      STORE   # decisions/s and p50/p99 at full load (64 connections)
#   Benchmarks/serve/load.sh rate RPS  STORE   # p50/p99 at a fixed rate (wrk2-style pacing is not in
#                                              # Debian's wrk: we use fewer connections and report the rate reached)
#   Benchmarks/serve/load.sh onecap    STORE   # 64 connections deciding for ONE user; then checks from
#                                              # the ledger that the daily hard cap (10) was never exceeded
#   Benchmarks/serve/load.sh kill9     sqlite:PATH  # kill -9 mid-load, restart; every answered decision in the ledger
#   Benchmarks/serve/load.sh reload    STORE   # a broken policy pushed mid-load: no request fails
#
# STORE is `memory:`, `sqlite:/tmp/x.db` or `postgres://…`. HERALD_BIN overrides the binary
# (default .build/release/herald), DURATION the seconds of each run (default 10).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

BIN=${HERALD_BIN:-.build/release/herald}
DURATION=${DURATION:-10}
PORT=${PORT:-18080}
LUA=Benchmarks/serve/decide.lua
WORK=$(mktemp -d)
SERVER=""
cleanup() {
    if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

start() { # start STORE [extra args...]
    local store=$1; shift
    "$BIN" serve "$WORK/policies" --store "$store" --listen "127.0.0.1:$PORT" --log-level warning "$@" 2>>"$WORK/server.log" &
    SERVER=$!
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "error: the server did not start; its log:" >&2; cat "$WORK/server.log" >&2; exit 1
}
stop() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""; }

# A private copy of the handz bundle, so the reload run can break it.
mkdir -p "$WORK/policies" "$WORK/catalog"
cp -r catalog/handz "$WORK/catalog/handz"
cp -r policies/handz "$WORK/policies/handz"
rm -rf "$WORK/policies/handz/tests"

mode=${1:?mode: peak, rate, onecap, kill9 or reload}
case $mode in
peak)
    store=${2:?store URL}
    start "$store"
    wrk -t2 -c64 -d2s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null  # warm-up
    wrk -t2 -c64 -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT" | grep RESULT
    ;;
rate)
    connections=${2:?connections}; store=${3:?store URL}
    start "$store"
    wrk -t2 -c64 -d2s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null
    wrk -t1 -c"$connections" -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT" | grep RESULT
    ;;
onecap)
    store=${2:?store URL}
    start "$store"
    HERALD_USERS=1 wrk -t2 -c64 -d"${DURATION}s" -s "$LUA" "http://127.0.0.1:$PORT" | grep RESULT
    curl -fsS "http://127.0.0.1:$PORT/v1/users/u-0/ledger" > "$WORK/ledger.json"
    python3 Benchmarks/serve/check-cap.py "$WORK/ledger.json" 10
    ;;
kill9)
    store=${2:?sqlite:PATH}
    start "$store" --decision-log "$WORK/decisions.jsonl"
    HERALD_USERS=50 timeout -s KILL 4 wrk -t2 -c32 -d30s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null 2>&1 &
    client=$!
    sleep 2
    kill -9 "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""
    wait $client 2>/dev/null || true
    start "$store"
    python3 Benchmarks/serve/check-answered.py "$WORK/decisions.jsonl" "http://127.0.0.1:$PORT"
    ;;
reload)
    store=${2:?store URL}
    start "$store" --reload-interval 0.2
    ( sleep 2; printf '\ncaps: [broken\n' >> "$WORK/policies/handz/policy.yaml" ) &
    wrk -t2 -c32 -d"${DURATION}s" -s "$LUA" "http://127.0.0.1:$PORT" | grep RESULT | tee "$WORK/result"
    curl -fsS "http://127.0.0.1:$PORT/v1/policies" | python3 -c '
import json, sys
p = json.load(sys.stdin)["policies"][0]
assert p["serving"] and not p["lastLoad"]["ok"], p
print("reload: broken policy refused, last good digest", p["digest"], "still serving;", len(p["lastLoad"]["errors"]), "errors")'
    grep -q "non2xx=0 socket_errors=0" "$WORK/result" || { echo "error: requests failed during the reload" >&2; exit 1; }
    ;;
*)
    echo "unknown mode $mode" >&2; exit 64 ;;
esac
