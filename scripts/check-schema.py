#!/usr/bin/env python3
"""Checks `herald schema`: it is a valid JSON Schema (draft 2020-12), and every shipped
catalog and policy file (catalog/**/*.yaml, policies/*/*.yaml; not tests/) validates against it,
and every shipped simulation scenario (policies/*/scenarios/*.yaml) against its `$defs/scenario`.

It also checks that the schema is not stricter than the language: the files of every
diagnostic fixture for an expression, reference, template or lint code (H03xx-H05xx,
Tests/Fixtures/diagnostics/) are well-formed bundles whose one mistake the schema cannot see
(a type error, an unknown name, a copy too long), so they must validate too.

Usage: python3 scripts/check-schema.py [path/to/herald]   (default .build/debug/herald)
Run from the repository root. Exit 0 when all is well, 1 otherwise.
"""
import glob
import json
import re
import subprocess
import sys

import yaml
from jsonschema import Draft202012Validator


class CoreLoader(yaml.SafeLoader):
    """PyYAML resolves plain scalars as YAML 1.1 (`yes` and `on` are booleans, `09:00` is the
    sexagesimal int 540, `2026-03-08` a date); Herald reads YAML 1.2's core schema. This loader
    resolves like Herald, so a file `herald validate` accepts is checked as Herald reads it."""


CoreLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
                           "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for tag, pattern, first in [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+.0123456789"),
]:
    CoreLoader.add_implicit_resolver(tag, re.compile(pattern), list(first))


def load_yaml(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=CoreLoader)


def main():
    herald = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/herald"
    text = subprocess.run([herald, "schema"], check=True, capture_output=True, text=True).stdout
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        print("check-schema: `$schema` is not draft 2020-12", file=sys.stderr)
        return 1
    validator = Draft202012Validator(schema)

    files = sorted(set(glob.glob("catalog/**/*.yaml", recursive=True) + glob.glob("catalog/**/*.yml", recursive=True)
                       + glob.glob("policies/*/*.yaml") + glob.glob("policies/*/*.yml")))
    files = [path for path in files if "/tests/" not in path]
    if not files:
        print("check-schema: no catalog or policy files found (run from the repository root)", file=sys.stderr)
        return 1
    failures = check(validator, files)
    print(f"check-schema: schema is valid draft 2020-12; {len(files) - failures} of {len(files)} shipped files validate")

    fixtures = sorted(path for pattern in ("H03*/*.yaml", "H04*/*.yaml", "H05*/*.yaml", "H03*/*.yml", "H04*/*.yml", "H05*/*.yml")
                      for path in glob.glob("Tests/Fixtures/diagnostics/" + pattern))
    fixture_failures = check(validator, fixtures,
                             hint="the schema rejects a file whose only mistake it cannot see: it is stricter than the language")
    print(f"check-schema: {len(fixtures) - fixture_failures} of {len(fixtures)} H03xx-H05xx fixture files validate")

    # Simulation scenarios (docs/simulate.md) validate against `$defs/scenario`.
    scenario_schema = {key: value for key, value in schema.items() if key not in ("properties", "additionalProperties", "type")}
    scenario_schema["$ref"] = "#/$defs/scenario"
    scenarios = sorted(glob.glob("policies/*/scenarios/*.yaml") + glob.glob("policies/*/scenarios/*.yml"))
    scenario_failures = check(Draft202012Validator(scenario_schema), scenarios)
    print(f"check-schema: {len(scenarios) - scenario_failures} of {len(scenarios)} shipped scenario files validate")
    if not scenarios:
        print("check-schema: no scenario files found", file=sys.stderr)
        scenario_failures = 1
    return 1 if failures or fixture_failures or scenario_failures else 0


def check(validator, files, hint=None):
    """Validates each file, prints every error, and returns how many files failed."""
    failures = 0
    for path in files:
        document = load_yaml(path)
        if document is None:
            document = {}
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
            print(f"{path}: {where}: {error.message}" + (f" ({hint})" if hint else ""), file=sys.stderr)
        failures += 1 if errors else 0
    return failures

if __name__ == "__main__":
    sys.exit(main())
