#!/usr/bin/env python3
"""Mutation check for the shipped bundles' scenario tests.

For every bundle in policies/*/ this deletes, one at a time, each suppression rule (a type's
`suppress[i]` and the policy's `suppress[i]`), each cap (a type's `caps[i]`, the policy's
`caps[i]` and `cooldowns[i]`), each prompt wait rule (`prompt.wait[i]`), each back-off
(`backoff[i]`, and its count, `within`, `opened`, `for` and cap changed one at a time), each
quiet-hours setting (the policy's `quietHours` section and `defaults.quietHours`), each type's
`delivery: all`, each category's `keepChannels` and each word of the policy's `exemptions`
lists, each `threadId` (of a type, a category, a batch group or a digest; not one equal to
the default, the category's, group's or digest's own name), each digest's
`single: summary` (back to the default `member`), each digest schedule (`at: reminder_time`
fixed at 19:00, `every: week` made daily, `weekday` moved a day, each `members` entry dropped),
each `sent(…, since(…))` window widened to `lifetime`, each presentation key (`sound`, `actions`,
`osChannel`, `relevance`, `payload`, `foreground`, a category's per-channel label, a badge tab, a batch's or
digest's `interruption`; a `sound.when` dropped), each batch group's `by: threadId`, each `{first.<param>}` of group copy (shown as `{first}`) and each `{others}` (as `{count}`), `quietHours.during` and `provisional` deleted, each `dedupe.by: content` (back to the key), each declared preference's `allowed` list and
the default of each one some rule reads as `prefs.<name>` (a bool negated, an int without
`allowed` set to 0), each `plan.horizon` and `plan.maxPending`, each `{x, time|date, style}` in copy
without its style and without its format, each link binding of an optional route param, each
`timing.at: local(state(…) ?? "HH:MM")` reduced to its fallback, shortens each idempotency key of two or more parts (drops its last placeholder), and
reverts each type's `timing.judgedAt` / `past` / `sameDay` to its default and each `delivery.*`
read in a suppression rule to `local.*` / `trigger.at`, in a scratch copy of the catalog and policy, and runs
`herald test` on the copy. A mutation is *killed* when some test fails; a *surviving* mutation
is a rule no test depends on.

    scripts/mutate-bundles.py [--herald .build/debug/herald] [app ...]

Prints one line per mutation and a summary per bundle; exits 1 when any mutation survives.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

# `{name, time[, style]}` / `{name, date[, style]}` in copy (docs/templates.md).
# A `sent()` window measured from an instant: `, since(state.path)` (docs/language.md).
SINCE_WINDOW = re.compile(r",\s*since\(\s*[A-Za-z0-9_.]+\s*\)")
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
FORMAT = re.compile(r"\{\s*([A-Za-z0-9_]+)\s*,\s*(time|date)\s*(?:,\s*([A-Za-z0-9]+)\s*)?\}")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import util as _util  # noqa: E402

_spec = _util.spec_from_file_location("check_schema", os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-schema.py"))
_check = _util.module_from_spec(_spec)
_spec.loader.exec_module(_check)
load_yaml = _check.load_yaml


class NoAliasDumper(yaml.SafeDumper):
    """Herald rejects anchors and aliases; never emit them."""

    def ignore_aliases(self, data):
        return True


def dump(data, path):
    with open(path, "w", encoding="utf-8") as handle:
        yaml.dump(data, handle, Dumper=NoAliasDumper, sort_keys=False, default_flow_style=False,
                  allow_unicode=True, width=10_000)


def yaml_files(directory):
    return sorted(os.path.join(directory, n) for n in os.listdir(directory)
                  if n.endswith((".yaml", ".yml")) and os.path.isfile(os.path.join(directory, n)))


def mutations(catalog_dir, policy_dir):
    """(description, relative file, function that mutates the loaded document) for one bundle."""
    found = []
    # Route params declared optional (`T?`, docs/templates.md), by route name.
    optional_route_params = {}
    for path in yaml_files(catalog_dir) + yaml_files(policy_dir):
        routes = (load_yaml(path) or {}).get("routes") if isinstance(load_yaml(path), dict) else None
        for route, body in (routes.items() if isinstance(routes, dict) else []):
            params = body.get("params") if isinstance(body, dict) else None
            for param, declared in (params.items() if isinstance(params, dict) else []):
                declared = declared.get("type") if isinstance(declared, dict) else declared
                if isinstance(declared, str) and declared.endswith("?"):
                    optional_route_params.setdefault(route, set()).add(param)
    sources = ""
    for path in yaml_files(catalog_dir) + yaml_files(policy_dir):
        with open(path, encoding="utf-8") as f:
            sources += f.read()
    for path in yaml_files(catalog_dir) + yaml_files(policy_dir):
        doc = load_yaml(path) or {}
        if not isinstance(doc, dict):
            continue
        types = doc.get("types")
        if isinstance(types, dict):
            for type_id, body in types.items():
                if not isinstance(body, dict):
                    continue
                for key in ("suppress", "caps"):
                    for index, item in enumerate(body.get(key) or []):
                        label = item.get("id") if isinstance(item, dict) and item.get("id") else f"{type_id}.{key}[{index}]"
                        def mutate(d, t=type_id, k=key, i=index):
                            del d["types"][t][k][i]
                        found.append((f"delete {key[:-1] if key == 'caps' else 'suppression rule'} `{label}`", path, mutate))
                # A key naming an occurrence (`{type}:{activityId}:{reminderAt}`): drop its last
                # placeholder, so that reschedule and reconcile tests show each part is needed.
                key_text = body.get("idempotencyKey")
                if isinstance(key_text, str) and key_text.count("{") - key_text.count("{type}") >= 2:
                    cut = key_text.rfind("{")
                    shorter = key_text[:cut].rstrip(":|/-_")
                    def mutate(d, t=type_id, k=shorter):
                        d["types"][t]["idempotencyKey"] = k
                    found.append((f"drop the last part of `{type_id}`'s idempotencyKey (`{shorter}`)", path, mutate))
                # Issue 17 timing: each `judgedAt`, `past` and `sameDay` reverted to its default,
                # and each `delivery.*` in a suppression rule read at the trigger (`local.*`).
                timing = body.get("timing")
                if isinstance(timing, dict):
                    for key, default in (("judgedAt", "trigger"), ("past", "deliver"), ("sameDay", False)):
                        if key in timing and timing[key] != default:
                            def mutate(d, t=type_id, k=key, v=default):
                                d["types"][t]["timing"][k] = v
                            shown = str(default).lower() if isinstance(default, bool) else default
                            found.append((f"set `{type_id}.timing.{key}` to `{shown}`", path, mutate))
                # A time of day from state (`local(state(path) ?? "HH:MM")`): the fallback alone.
                at = timing.get("at") if isinstance(timing, dict) else None
                if isinstance(at, str) and at.replace(" ", "").startswith("local(state(") and "??" in at:
                    fallback = at.split("??", 1)[1].strip().rstrip(")").strip()
                    def mutate(d, t=type_id, v=f"local({fallback})"):
                        d["types"][t]["timing"]["at"] = v
                    found.append((f"set `{type_id}.timing.at` to its fallback `local({fallback})`", path, mutate))
                for index, item in enumerate(body.get("suppress") or []):
                    if isinstance(item, dict) and "delivery." in str(item.get("when", "")):
                        def mutate(d, t=type_id, i=index):
                            rule = d["types"][t]["suppress"][i]
                            rule["when"] = rule["when"].replace("delivery.at", "trigger.at").replace("delivery.", "local.")
                        found.append((f"read `{item.get('id')}` at the trigger (`delivery.*` → `local.*`)", path, mutate))
                if body.get("delivery") == "all":
                    def mutate(d, t=type_id):
                        del d["types"][t]["delivery"]
                    found.append((f"delete `delivery: all` of type `{type_id}`", path, mutate))
                # Issue 18 local times and dates in copy: each `{x, time, style}` / `{x, date,
                # style}` written without its style, and without its format (`{x}`: RFC 3339 UTC).
                copy = body.get("copy")
                for field, text in (copy.items() if isinstance(copy, dict) else []):
                    for match in FORMAT.finditer(text if isinstance(text, str) else ""):
                        name, kind, style = match.group(1), match.group(2), match.group(3)
                        variants = [("{" + name + "}", "without its format")]
                        if style:
                            variants.append(("{" + name + ", " + kind + "}", "without its style"))
                        for replacement, what in variants:
                            def mutate(d, t=type_id, f=field, old=match.group(0), new=replacement):
                                d["types"][t]["copy"][f] = d["types"][t]["copy"][f].replace(old, new)
                            found.append((f"write `{match.group(0)}` of `{type_id}.copy.{field}` {what}", path, mutate))
                # Optional route params: each link binding of one deleted (the query item is left out).
                link = body.get("link")
                if isinstance(link, dict):
                    for param in link:
                        if param != "route" and param in optional_route_params.get(link.get("route"), ()):
                            def mutate(d, t=type_id, k=param):
                                del d["types"][t]["link"][k]
                            found.append((f"unbind optional route param `{param}` in `{type_id}`'s link", path, mutate))
        categories = doc.get("categories")
        if isinstance(categories, dict):
            for name, body in categories.items():
                if isinstance(body, dict) and body.get("keepChannels"):
                    def mutate(d, c=name):
                        del d["categories"][c]["keepChannels"]
                    found.append((f"delete `keepChannels` of category `{name}`", path, mutate))
        # A thread id declared by a type, a category, a batch group or a digest (Rin §6.3), and a
        # digest that stays a summary with one member (Handz §10.2): each deleted. A category's,
        # group's or digest's thread id equal to its own name is what it defaults to, so deleting
        # it changes nothing (an equivalent mutation) and is not tried.
        for section in ("types", "categories", "batching", "digests"):
            for name, body in (doc.get(section) or {}).items() if isinstance(doc.get(section), dict) else []:
                if isinstance(body, dict) and "threadId" in body and not (section != "types" and body["threadId"] == name):
                    def mutate(d, s=section, n=name):
                        del d[s][n]["threadId"]
                    found.append((f"delete `threadId` of {section} `{name}`", path, mutate))
                if section == "digests" and isinstance(body, dict) and body.get("single") == "summary":
                    def mutate(d, n=name):
                        del d["digests"][n]["single"]
                    found.append((f"delete `single: summary` of digest `{name}`", path, mutate))
                # Issue 18 digest schedules (P8): `at: reminder_time` fixed at 19:00 (the usual
                # default reminder time), a weekly digest made daily, its weekday moved a day, each
                # member dropped.
                if section == "digests" and isinstance(body, dict):
                    if body.get("at") == "reminder_time":
                        def mutate(d, n=name):
                            d["digests"][n]["at"] = "19:00"
                        found.append((f"fix `at: reminder_time` of digest `{name}` at 19:00", path, mutate))
                    if body.get("every") == "week":
                        def mutate(d, n=name):
                            del d["digests"][n]["every"]
                            d["digests"][n].pop("weekday", None)
                        found.append((f"make weekly digest `{name}` daily", path, mutate))
                    if body.get("weekday") in WEEKDAYS:
                        def mutate(d, n=name, w=WEEKDAYS[(WEEKDAYS.index(body["weekday"]) + 1) % 7]):
                            d["digests"][n]["weekday"] = w
                        found.append((f"move weekly digest `{name}` to the next weekday", path, mutate))
                    for member in body.get("members") or []:
                        def mutate(d, n=name, m=member):
                            d["digests"][n]["members"].remove(m)
                            if not d["digests"][n]["members"]:
                                del d["digests"][n]["members"]
                        found.append((f"drop member `{member}` of digest `{name}`", path, mutate))
        # Issue 18 windows measured from an instant (P16): each `since(…)` window of `sent()` in a
        # type's suppression rule widened to `lifetime`.
        for type_id, body in (doc.get("types") or {}).items() if isinstance(doc.get("types"), dict) else []:
            for index, rule in enumerate((body or {}).get("suppress") or []) if isinstance(body, dict) else []:
                if isinstance(rule, dict) and SINCE_WINDOW.search(str(rule.get("when", ""))):
                    def mutate(d, t=type_id, i=index):
                        rule = d["types"][t]["suppress"][i]
                        rule["when"] = SINCE_WINDOW.sub(", lifetime", rule["when"])
                    found.append((f"widen the `since(…)` window of `{type_id}.suppress[{index}]` to `lifetime`", path, mutate))
        # Issue 18 presentation keys (docs/seeds.md P14, P22, P24): each `sound`, `actions`,
        # `osChannel`, `relevance` and `payload` of a type or category, each per-channel category
        # label, each badge tab and each batch group's or digest's `interruption`, deleted; each
        # `dedupe.by: content` back to the default key (P20).
        for section in ("types", "categories"):
            for name, body in (doc.get(section) or {}).items() if isinstance(doc.get(section), dict) else []:
                if not isinstance(body, dict):
                    continue
                for key in ("sound", "actions", "osChannel", "relevance", "payload", "foreground"):
                    if key in body:
                        def mutate(d, s=section, n=name, k=key):
                            del d[s][n][k]
                        found.append((f"delete `{key}` of {section[:-1] if section == 'types' else 'category'} `{name}`", path, mutate))
                # A sound the user's toggle switches (`sound: { file, when }`): the condition
                # dropped, so the sound always plays.
                if isinstance(body.get("sound"), dict) and "when" in body["sound"]:
                    def mutate(d, s=section, n=name):
                        d[s][n]["sound"] = d[s][n]["sound"]["file"]
                    found.append((f"drop `sound.when` of {section[:-1] if section == 'types' else 'category'} `{name}`", path, mutate))
                if section == "categories" and isinstance(body.get("channels"), dict):
                    for channel, entry in body["channels"].items():
                        if isinstance(entry, dict) and "title" in entry:
                            def mutate(d, n=name, c=channel):
                                del d["categories"][n]["channels"][c]["title"]
                            found.append((f"delete the `{channel}` label of category `{name}`", path, mutate))
                dedupe = body.get("dedupe")
                if section == "types" and isinstance(dedupe, dict) and dedupe.get("by") == "content":
                    def mutate(d, n=name):
                        del d["types"][n]["dedupe"]["by"]
                    found.append((f"dedupe `{name}` by its key, not its content", path, mutate))
        badge = doc.get("badge")
        if isinstance(badge, dict) and isinstance(badge.get("tabs"), dict):
            for tab in badge["tabs"]:
                def mutate(d, t=tab):
                    del d["badge"]["tabs"][t]
                found.append((f"delete badge tab `{tab}`", path, mutate))
        # A batch group coalescing by thread (P11, `by: threadId`): the key deleted, so the group
        # spans every thread again.
        for name, body in (doc.get("batching") or {}).items() if isinstance(doc.get("batching"), dict) else []:
            if isinstance(body, dict) and "by" in body:
                def mutate(d, n=name):
                    del d["batching"][n]["by"]
                found.append((f"delete `by` of batching `{name}`", path, mutate))
        # Group copy naming the first member (P11 part 2): each `{first.<param>}` shows the first
        # member's whole body (`{first}`) instead, and each `{others}` counts every member.
        for section in ("batching", "digests"):
            for name, body in (doc.get(section) or {}).items() if isinstance(doc.get(section), dict) else []:
                copy = body.get("copy") if isinstance(body, dict) else None
                for field, text in (copy or {}).items() if isinstance(copy, dict) else []:
                    if not isinstance(text, str):
                        continue
                    if re.search(r"\{first\.\w+\}", text):
                        def mutate(d, s=section, n=name, f=field):
                            d[s][n]["copy"][f] = re.sub(r"\{first\.\w+\}", "{first}", d[s][n]["copy"][f])
                        found.append((f"`{{first.<param>}}` → `{{first}}` in {section} `{name}` copy `{field}`", path, mutate))
                    if "{others" in text:
                        def mutate(d, s=section, n=name, f=field):
                            d[s][n]["copy"][f] = d[s][n]["copy"][f].replace("{others", "{count")
                        found.append((f"`{{others}}` → `{{count}}` in {section} `{name}` copy `{field}`", path, mutate))
        for section in ("batching", "digests"):
            for name, body in (doc.get(section) or {}).items() if isinstance(doc.get(section), dict) else []:
                if isinstance(body, dict) and body.get("interruption", "active") != "active":
                    def mutate(d, s=section, n=name):
                        del d[s][n]["interruption"]
                    found.append((f"delete `interruption` of {section} `{name}`", path, mutate))
        # Declared preferences (docs/language.md § prefs): `allowed` deleted; the default of one a
        # rule reads changed (a preference nothing reads changes no decision, so it is not tried).
        prefs = doc.get("prefs")
        if isinstance(prefs, dict):
            for name, body in prefs.items():
                if not isinstance(body, dict):
                    continue
                if body.get("allowed"):
                    def mutate(d, n=name):
                        del d["prefs"][n]["allowed"]
                    found.append((f"delete `allowed` of preference `{name}`", path, mutate))
                read = f"prefs.{name}" in sources.replace(f"prefs:\n  {name}", "")
                if read and isinstance(body.get("default"), bool):
                    def mutate(d, n=name):
                        d["prefs"][n]["default"] = not d["prefs"][n]["default"]
                    found.append((f"negate the default of preference `{name}`", path, mutate))
                elif read and isinstance(body.get("default"), int) and not body.get("allowed") and body["default"] != 0:
                    def mutate(d, n=name):
                        d["prefs"][n]["default"] = 0
                    found.append((f"set the default of preference `{name}` to 0", path, mutate))
        plan = doc.get("plan")
        if isinstance(plan, dict):
            for key in ("horizon", "maxPending"):
                if key in plan:
                    def mutate(d, k=key):
                        del d["plan"][k]
                    found.append((f"delete `plan.{key}`", path, mutate))
        exemptions = doc.get("exemptions")
        if isinstance(exemptions, dict):
            for hatch, words in exemptions.items():
                for word in words or []:
                    def mutate(d, h=hatch, w=word):
                        d["exemptions"][h].remove(w)
                    found.append((f"remove `{word}` from `exemptions.{hatch}`", path, mutate))
        for key in ("caps", "cooldowns", "suppress"):
            for index, item in enumerate(doc.get(key) or []):
                label = item.get("id") if isinstance(item, dict) and item.get("id") else f"{key}[{index}]"
                def mutate(d, k=key, i=index):
                    del d[k][i]
                what = {"caps": "cap", "cooldowns": "cooldown", "suppress": "suppression rule"}[key]
                found.append((f"delete {what} `{label}`", path, mutate))
        for index, item in enumerate(doc.get("backoff") or []):
            if not isinstance(item, dict):
                continue
            label = item.get("id") or f"backoff[{index}]"
            def mutate(d, i=index):
                del d["backoff"][i]
            found.append((f"delete back-off `{label}`", path, mutate))
            when = item.get("when") if isinstance(item.get("when"), dict) else {}
            for counted in ("dismissed", "ignored"):
                if isinstance(when.get(counted), int):
                    def mutate(d, i=index, c=counted):
                        d["backoff"][i]["when"][c] += 1
                    found.append((f"back-off `{label}`: one more `{counted}` needed", path, mutate))
            def mutate(d, i=index):
                d["backoff"][i]["when"]["within"] = "1s"
            found.append((f"back-off `{label}`: `within` 1s", path, mutate))
            def mutate(d, i=index):
                d["backoff"][i]["when"]["opened"] = int(d["backoff"][i]["when"].get("opened", 0)) + 1
            found.append((f"back-off `{label}`: one more `opened` allowed", path, mutate))
            def mutate(d, i=index):
                d["backoff"][i]["for"] = "1h"
            found.append((f"back-off `{label}`: `for` 1h", path, mutate))
            if isinstance(item.get("then"), dict):
                def mutate(d, i=index):
                    d["backoff"][i]["then"] = "suppress"
                found.append((f"back-off `{label}`: `then` suppress instead of a cap", path, mutate))
        prompt = doc.get("prompt")
        if isinstance(prompt, dict):
            for index, item in enumerate(prompt.get("wait") or []):
                label = item.get("id") if isinstance(item, dict) and item.get("id") else f"prompt.wait[{index}]"
                def mutate(d, i=index):
                    del d["prompt"]["wait"][i]
                found.append((f"delete prompt wait rule `{label}`", path, mutate))
        # Quiet delivery (docs/seeds.md P12, P25): `quietHours.during` back to the default
        # (`defer`), `provisional` deleted (a provisional permission as granted).
        if isinstance(doc.get("quietHours"), dict) and doc["quietHours"].get("during", "defer") != "defer":
            def mutate(d):
                del d["quietHours"]["during"]
            found.append(("delete `quietHours.during`", path, mutate))
        if "provisional" in doc:
            def mutate(d):
                del d["provisional"]
            found.append(("delete `provisional`", path, mutate))
        if "quietHours" in doc:
            def mutate(d):
                del d["quietHours"]
            found.append(("delete the policy's `quietHours` section", path, mutate))
        defaults = doc.get("defaults")
        if isinstance(defaults, dict) and defaults.get("quietHours") is not None:
            def mutate(d):
                d["defaults"]["quietHours"] = None
            found.append(("set `defaults.quietHours` to null", path, mutate))
    return found


def run(herald, policy_dir):
    result = subprocess.run([herald, "test", "--no-color", policy_dir], capture_output=True, text=True)
    return result.returncode, (result.stdout.strip().splitlines() or [""])[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--herald", default=".build/debug/herald")
    parser.add_argument("apps", nargs="*")
    args = parser.parse_args()
    herald = os.path.abspath(args.herald)
    root = os.getcwd()
    apps = args.apps or sorted(n for n in os.listdir("policies") if os.path.isdir(os.path.join("policies", n)))
    survivors_total = 0
    for app in apps:
        policy_src = os.path.join(root, "policies", app)
        catalog_rel = (load_yaml(os.path.join(policy_src, "policy.yaml")) or {}).get("catalog", f"../../catalog/{app}")
        catalog_src = os.path.normpath(os.path.join(policy_src, catalog_rel))
        code, summary = run(herald, policy_src)
        if code != 0:
            print(f"{app}: the unmutated tests do not pass ({summary}); skipped")
            survivors_total += 1
            continue
        with tempfile.TemporaryDirectory(prefix=f"herald-mutate-{app}-") as scratch:
            policy_dir = os.path.join(scratch, "policies", app)
            catalog_dir = os.path.normpath(os.path.join(policy_dir, catalog_rel))
            shutil.copytree(policy_src, policy_dir)
            shutil.copytree(catalog_src, catalog_dir)
            killed, survived = 0, []
            for description, path, mutate in mutations(catalog_dir, policy_dir):
                backup = path + ".orig"
                shutil.copyfile(path, backup)
                try:
                    doc = load_yaml(path)
                    mutate(doc)
                    dump(doc, path)
                    valid = subprocess.run([herald, "validate", "--no-color", policy_dir], capture_output=True).returncode == 0
                    code, summary = run(herald, policy_dir) if valid else (0, "")
                finally:
                    shutil.move(backup, path)
                if not valid:
                    # A deletion that breaks the bundle (a dangling reference) proves nothing about tests.
                    survived.append(description + " (the mutated bundle does not validate)")
                    print(f"{app}: INVALID  {description}: the mutated bundle does not validate")
                elif code != 0:
                    killed += 1
                    print(f"{app}: killed   {description} ({summary})")
                else:
                    survived.append(description)
                    print(f"{app}: SURVIVED {description}")
            total = killed + len(survived)
            print(f"{app}: {killed} of {total} mutations killed" + (f"; surviving: {', '.join(survived)}" if survived else ""))
            survivors_total += len(survived)
    sys.exit(1 if survivors_total else 0)


if __name__ == "__main__":
    main()
