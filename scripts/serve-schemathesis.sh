#!/usr/bin/env bash
# Runs schemathesis against a `herald serve` on loopback (in-memory store), with a bounded number
# of examples per operation so the step stays under three minutes. Usage: serve-schemathesis.sh HERALD
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
herald=${1:?path to herald}
port=${PORT:-18181}
log=$(mktemp)
"$herald" serve policies --store memory: --listen "127.0.0.1:$port" --log-level warning 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || { cat "$log" >&2; exit 1; }
timeout 170 schemathesis run docs/openapi.yaml \
    --url "http://127.0.0.1:$port" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,unsupported_method,allow_header_conformance \
    --max-examples "${MAX_EXAMPLES:-25}" \
    --request-timeout 5 \
    --no-color
