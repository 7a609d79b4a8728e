#!/usr/bin/env python3
"""After kill -9 and restart: every decision the server answered (its --decision-log, written
after the store committed and before the answer) that recorded an entry is in the ledger."""
import json, sys, urllib.request

log, base = sys.argv[1], sys.argv[2]
answered = []
for line in open(log):
    if not line.endswith("\n"):
        break  # the line being written when the process died was never answered
    d = json.loads(line)
    if d["decision"].get("action") in ("schedule", "batch") and d["decision"].get("key"):
        answered.append((d["user"], d["decision"]["key"]))
users = {u for u, _ in answered}
stored = set()
for u in users:
    with urllib.request.urlopen(f"{base}/v1/users/{u}/ledger") as r:
        stored |= {(u, e["key"]) for e in json.load(r)["entries"]}
missing = [a for a in answered if a not in stored]
print(f"kill9: {len(answered)} answered decisions that record an entry, {len(missing)} missing from the ledger")
sys.exit(1 if missing or not answered else 0)
