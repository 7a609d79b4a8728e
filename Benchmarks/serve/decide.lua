-- wrk script: POST /v1/policies/handz/decide, one new import per request.
-- HERALD_USERS (env) users are cycled (1 = every request for one user, the correctness run).
-- HERALD_HEALTHZ=1 (env): GET /healthz instead (`load.sh ceiling`: the HTTP stack alone).
local users = tonumber(os.getenv("HERALD_USERS") or "10000")
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread:set("id", thread_id)
  table.insert(threads, thread)
  thread_id = thread_id + 1
end

function init(args)
  math.randomseed(os.time() + id)
end

local template = '{"type":"N-INBOX-NEW-IMPORT","at":"2026-03-08T17:45:00Z","now":"2026-03-08T17:45:02Z",' ..
  '"user":{"id":"%s","account":true,"tier":"pro","credits":0},' ..
  '"prefs":{"timezone":"Europe/Berlin","quietHours":{"start":"22:00","end":"07:00"},"maxPerDay":2},' ..
  '"permission":"granted",' ..
  '"state":{"maintenance":{"dueToday":0,"overdue":0,"queueSize":0,"weeklyCapacity":10},' ..
  '"inbox":{"unread":3,"blockedSenders":[]},"billing":{"issue":false,"trialStatus":"none"},' ..
  '"account":{"emailVerified":true,"createdAt":"2025-11-02T10:00:00Z"}},' ..
  '"params":{"importId":"%s","senderId":"s1","senderName":"Ana","flowName":"Flow","abuseFlagged":false}}'

local healthz = os.getenv("HERALD_HEALTHZ") == "1"

function request()
  if healthz then return wrk.format("GET", "/healthz") end
  counter = counter + 1
  local user = "u-" .. ((counter * 7919 + id) % users)
  local import = "imp-" .. id .. "-" .. counter .. "-" .. math.random(1, 1000000000)
  return wrk.format("POST", "/v1/policies/handz/decide", {["Content-Type"] = "application/json"},
    string.format(template, user, import))
end

-- HERALD_DELAY_MS (env): each connection waits a random time between its requests, uniform
-- between 0 and twice this many milliseconds (paced runs: the connections do not fall into step).
local delay_ms = tonumber(os.getenv("HERALD_DELAY_MS") or "")
if delay_ms then
  function delay()
    return math.floor(math.random() * 2 * delay_ms + 0.5)
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("RESULT requests=%d duration_s=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
