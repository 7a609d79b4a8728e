#!/usr/bin/env python3
"""Checks a user's ledger (GET /v1/users/{id}/ledger) against a daily hard cap: no Europe/Berlin
day holds more than CAP entries that were delivered on their own (scheduled, not batched), and
no key appears twice."""
import json, sys
from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo

ledger, cap = json.load(open(sys.argv[1])), int(sys.argv[2])
entries = ledger["entries"]
keys = Counter(e["key"] for e in entries)
dupes = [k for k, n in keys.items() if n > 1]
zone = ZoneInfo("Europe/Berlin")
days = Counter(datetime.fromisoformat(e["deliverAt"].replace("Z", "+00:00")).astimezone(zone).date()
               for e in entries if e["status"] == "scheduled" and "batch" not in e)
print(f"onecap: {len(entries)} entries, per day (own delivery): {dict((str(d), n) for d, n in sorted(days.items()))}")
worst = max(days.values(), default=0)
if dupes or worst > cap:
    print(f"error: cap {cap} exceeded (max {worst}) or duplicate keys {dupes[:5]}", file=sys.stderr)
    sys.exit(1)
print(f"onecap: hard cap {cap}/day held (max {worst}), no key recorded twice")
