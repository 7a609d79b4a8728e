#!/usr/bin/env bash
# Load and fault runs for `herald serve` with wrk (Debian's `wrk`), loopback only.
#
#   Benchmarks/serve/load.sh peak      STORE   # decisions/s and p50/p99 at full load (64 connections)
#   Benchmarks/serve/load.sh ceiling   [STORE] # GET /healthz with the same server and wrk: the HTTP stack's own ceiling
#   Benchmarks/serve/load.sh floor             # a bare Hummingbird 2 server (Benchmarks/serve/floor, built first:
#                                              # `cd Benchmarks/serve/floor && swift build -c release`) under the same
#                                              # wrk runs: GET /healthz, and the decide requests answered with a fixed
#                                              # 1 KB body; no middleware, no decision, no store: the stack's floor
#   Benchmarks/serve/load.sh rate CONNS STORE  # p50/p99 at a lower rate (wrk2-style pacing is not in
#                                              # Debian's wrk: we use fewer connections and report the rate reached)
#   Benchmarks/serve/load.sh paced RATE STORE  # p50/p99 at about RATE decisions/s: 32 connections, each
#                                              # waiting 0–64/RATE s (uniform) before each request (wrk's delay hook)
#   Benchmarks/serve/load.sh onecap    STORE   # 64 connections deciding for ONE user; then checks from
#                                              # the ledger that the daily hard cap (10) was never exceeded
#   Benchmarks/serve/load.sh kill9     sqlite:PATH  # kill -9 mid-load, restart; every answered decision in the ledger
#   Benchmarks/serve/load.sh reload    STORE   # a broken policy pushed mid-load: no request fails
#   Benchmarks/serve/load.sh pgshare   postgres://…  # TWO servers on one PostgreSQL, 32 connections each
#                                                    # deciding for ONE user; the ledger holds the hard cap
#   Benchmarks/serve/load.sh pgrestart postgres://… PGDIR  # PostgreSQL (scripts/postgres-test-server.sh,
#                                                    # its directory) restarted mid-load: 503 + Retry-After
#                                                    # meanwhile, then answers again without a server restart
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
OTHER=""   # a second server (pgshare)
cleanup() {
    for pid in $SERVER $OTHER; do
        if kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

start() { # start STORE [extra args...]
    local store=$1; shift
    "$BIN" serve "$WORK/policies" --store "$store" --listen "127.0.0.1:$PORT" --log-level warning "$@" 2>>"$WORK/server.log" &
    SERVER=$!
    ready
}
ready() { # waits for $SERVER to answer /healthz
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "error: the server did not start; its log:" >&2; cat "$WORK/server.log" >&2; exit 1
}
stop() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""; }
# The server's CPU time so far (user + system), in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
# Runs wrk (its arguments), then prints its RESULT line with the server's CPU time per request
# (microseconds): steadier than decisions/s on a VM whose speed varies and where wrk shares the cores.
measured() {
    local before after
    before=$(cpu_ticks)
    wrk "$@" | grep RESULT > "$WORK/result"
    after=$(cpu_ticks)
    python3 - "$WORK/result" "$before" "$after" "$(getconf CLK_TCK)" <<'PY'
import re, sys
line = open(sys.argv[1]).read().strip()
requests = int(re.search(r"requests=(\d+)", line).group(1))
ticks = int(sys.argv[3]) - int(sys.argv[2])
print(f"{line} server_cpu_us={ticks / int(sys.argv[4]) * 1e6 / max(requests, 1):.0f}")
PY
}

# A private copy of the handz bundle, so the reload run can break it.
mkdir -p "$WORK/policies" "$WORK/catalog"
cp -r catalog/handz "$WORK/catalog/handz"
cp -r policies/handz "$WORK/policies/handz"
rm -rf "$WORK/policies/handz/tests"

mode=${1:?mode: peak, ceiling, floor, paced, rate, onecap, kill9, reload, pgshare or pgrestart}
case $mode in
peak)
    store=${2:?store URL}
    start "$store"
    wrk -t2 -c64 -d2s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null  # warm-up
    measured -t2 -c64 -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT"
    ;;
ceiling)
    # The same server and wrk settings on `GET /healthz`, which reads no body, decides nothing and
    # touches no store: what the HTTP stack and wrk alone reach on this machine.
    store=${2:-memory:}
    start "$store"
    wrk -t2 -c64 -d2s "http://127.0.0.1:$PORT/healthz" >/dev/null
    HERALD_HEALTHZ=1 measured -t2 -c64 -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT"
    ;;
floor)
    # The same wrk runs against a server that does nothing but HTTP: what `herald serve` could
    # reach on this machine if a decision cost nothing.
    floor=${FLOOR_BIN:-Benchmarks/serve/floor/.build/release/hummingbird-floor}
    [ -x "$floor" ] || { echo "error: no $floor; build it: (cd Benchmarks/serve/floor && swift build -c release)" >&2; exit 1; }
    "$floor" "$PORT" 2>>"$WORK/server.log" &
    SERVER=$!
    ready
    wrk -t2 -c64 -d2s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null
    echo -n "GET /healthz: "
    HERALD_HEALTHZ=1 measured -t2 -c64 -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT"
    echo -n "POST …/decide, a fixed 1 KB answer: "
    measured -t2 -c64 -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT"
    ;;
rate)
    connections=${2:?connections}; store=${3:?store URL}
    start "$store"
    wrk -t2 -c64 -d2s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null
    measured -t1 -c"$connections" -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT"
    ;;
paced)
    rate=${2:?decisions per second}; store=${3:?store URL}
    start "$store"
    wrk -t2 -c64 -d2s -s "$LUA" "http://127.0.0.1:$PORT" >/dev/null
    HERALD_DELAY_MS=$(python3 -c "print(32000 / $rate)") \
        measured -t2 -c32 -d"${DURATION}s" -s "$LUA" --latency "http://127.0.0.1:$PORT"
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
pgshare)
    store=${2:?postgres URL}
    start "$store"
    OTHER=$SERVER
    PORT=$((PORT + 1))
    start "$store"
    curl -fsS -X DELETE "http://127.0.0.1:$PORT/v1/users/u-0" >/dev/null   # a clean ledger for the user
    HERALD_USERS=1 wrk -t1 -c32 -d"${DURATION}s" -s "$LUA" "http://127.0.0.1:$((PORT - 1))" | grep RESULT | sed 's/^/server 1: /' &
    first=$!
    HERALD_USERS=1 wrk -t1 -c32 -d"${DURATION}s" -s "$LUA" "http://127.0.0.1:$PORT" | grep RESULT | sed 's/^/server 2: /'
    wait $first
    curl -fsS "http://127.0.0.1:$PORT/v1/users/u-0/ledger" > "$WORK/ledger.json"
    python3 Benchmarks/serve/check-cap.py "$WORK/ledger.json" 10
    ;;
pgrestart)
    store=${2:?postgres URL}; pgdir=${3:?the test server directory (HERALD_TEST_POSTGRES_DIR)}
    start "$store"
    HERALD_USERS=1000 wrk -t1 -c16 -d"${DURATION}s" --timeout 15s -s "$LUA" "http://127.0.0.1:$PORT" | grep RESULT > "$WORK/wrk" &
    client=$!
    # A probe beside the load: one decide every 100 ms; its time, status, Retry-After and error code.
    template='{"type":"N-INBOX-NEW-IMPORT","at":"2026-03-08T17:45:00Z","now":"2026-03-08T17:45:02Z","user":{"id":"%s","account":true,"tier":"pro","credits":0},"prefs":{"timezone":"Europe/Berlin","quietHours":{"start":"22:00","end":"07:00"},"maxPerDay":2},"permission":"granted","state":{"maintenance":{"dueToday":0,"overdue":0,"queueSize":0,"weeklyCapacity":10},"inbox":{"unread":3,"blockedSenders":[]},"billing":{"issue":false,"trialStatus":"none"},"account":{"emailVerified":true,"createdAt":"2025-11-02T10:00:00Z"}},"params":{"importId":"%s","senderId":"s1","senderName":"Ana","flowName":"Flow","abuseFlagged":false}}'
    (
        n=0
        while [ ! -e "$WORK/probe.stop" ]; do
            n=$((n + 1))
            # shellcheck disable=SC2059
            body=$(printf "$template" "probe-$((n % 50))" "probe-imp-$n-$RANDOM")
            status=$(curl -sS -m 15 -o "$WORK/probe.body" -D "$WORK/probe.head" -w '%{http_code}' -H 'Content-Type: application/json' \
                --data-binary "$body" "http://127.0.0.1:$PORT/v1/policies/handz/decide" 2>/dev/null || true)
            retry=$(tr -d '\r' < "$WORK/probe.head" 2>/dev/null | sed -n 's/^[Rr]etry-[Aa]fter: //p')
            code=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("error",{}).get("code","-"))' "$WORK/probe.body" 2>/dev/null || echo -)
            echo "$(date +%s.%N) ${status:-000} ${retry:--} $code" >> "$WORK/probe"
            rm -f "$WORK/probe.body" "$WORK/probe.head"
            sleep 0.1
        done
    ) &
    probe=$!
    sleep 3
    down=$(date +%s.%N)
    scripts/postgres-test-server.sh restart "$pgdir" 5 2>>"$WORK/pg.log"
    up=$(date +%s.%N)
    wait $client || true
    touch "$WORK/probe.stop"; wait $probe || true
    cat "$WORK/wrk"
    python3 - "$WORK/probe" "$down" "$up" <<'PY'
import sys
from collections import Counter
rows = [line.split() for line in open(sys.argv[1])]
down, up = float(sys.argv[2]), float(sys.argv[3])
bad = [r for r in rows if r[1] not in ("200", "503") or (r[1] == "503" and r[2] == "-")]
during = Counter(f"{r[1]} {r[3]} retry-after={r[2]}" for r in rows if down <= float(r[0]) <= up)
after = [float(r[0]) for r in rows if float(r[0]) > up and r[1] == "200"]
recovered = min(after) - up if after else None
failing_after = [r for r in rows if after and float(r[0]) > min(after) and r[1] != "200"]
print(f"pgrestart: {len(rows)} probes; from the stop to the start again ({up - down:.1f} s): {dict(during)}")
print("pgrestart: first 200 after PostgreSQL was back: " + (f"{recovered:.2f} s" if recovered is not None else "never"))
if failing_after:
    print(f"pgrestart: {len(failing_after)} probes failed after the first 200: {failing_after[:3]}", file=sys.stderr)
if bad:
    print(f"pgrestart: {len(bad)} answers neither 200 nor 503 with Retry-After: {bad[:5]}", file=sys.stderr)
ok = not bad and recovered is not None and not failing_after and any(k.startswith("503") for k in during)
sys.exit(0 if ok else 1)
PY
    ;;
*)
    echo "unknown mode $mode" >&2; exit 64 ;;
esac
