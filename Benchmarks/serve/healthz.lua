-- wrk script for `load.sh ceiling`: GET /healthz (the path comes from the URL), reported in the
-- same RESULT line as decide.lua.
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("RESULT requests=%d duration_s=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
