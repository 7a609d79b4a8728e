#!/usr/bin/env python3
"""Checks `herald schema`: it is a valid JSON Schema (draft 2020-12), and every shipped
catalog and policy file (catalog/**/*.yaml, policies/*/*.yaml; not tests/) validates against it.

Usage: python3 scripts/check-schema.py [path/to/herald]   (default .build/debug/herald)
Run from the repository root. Exit 0 when all is well, 1 otherwise.
"""
import glob
import json
import subprocess
import sys

import yaml
from jsonschema import Draft202012Validator


def load_yaml(path):
    # PyYAML resolves scalars as YAML 1.1 (yes/no are booleans), Herald as YAML 1.2; for files
    # `herald validate` accepts the two agree, since Herald rejects the 1.1-only spellings.
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


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
    failures = 0
    for path in files:
        document = load_yaml(path)
        if document is None:
            document = {}
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
            print(f"{path}: {where}: {error.message}", file=sys.stderr)
        failures += 1 if errors else 0
    print(f"check-schema: schema is valid draft 2020-12; {len(files) - failures} of {len(files)} files validate")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
