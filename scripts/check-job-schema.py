#!/usr/bin/env python3
"""Checks job files against the job schema with a standard validator (Python jsonschema,
Draft 2020-12), independently of Kiln's own decoder.

    python3 scripts/check-job-schema.py [--schema docs/kiln-job.schema.json] [--json] JOB...

Prints one line per job ("FILE: ok" or "FILE: invalid" with the first problems), or with --json
one JSON object per line ({"file", "valid", "errors": [{"path", "message"}]}). Exits 0 when every
job is valid, 1 when one is not, 2 when the validator cannot run (no jsonschema, a broken schema).
On Debian: apt-get install python3-jsonschema (scripts/install-deps.sh --test does).
"""
import argparse
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("check-job-schema: python3 has no jsonschema with Draft 2020-12 support", file=sys.stderr)
    sys.exit(2)


def strict_object(pairs):
    """RFC 8259 leaves repeated keys undefined; Kiln refuses them, so this does too."""
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"duplicate key {repeated[0]!r}")
    return dict(pairs)


def no_constant(name):
    raise ValueError(f"{name} is not JSON")


def location(error):
    parts = []
    for part in error.absolute_path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description="Check Kiln job files against the job schema.")
    parser.add_argument("--schema", default="docs/kiln-job.schema.json")
    parser.add_argument("--json", action="store_true", help="one JSON object per job")
    parser.add_argument("jobs", nargs="+")
    options = parser.parse_args()
    try:
        with open(options.schema, encoding="utf-8") as file:
            schema = json.load(file)
        Draft202012Validator.check_schema(schema)
    except Exception as error:  # noqa: BLE001 - any failure here means no verdicts
        print(f"check-job-schema: {options.schema}: {error}", file=sys.stderr)
        sys.exit(2)
    validator = Draft202012Validator(schema)
    # Layers nest (groups in groups); each level is a few dozen frames of the validator's recursion.
    sys.setrecursionlimit(100_000)
    all_valid = True
    for job in options.jobs:
        try:
            with open(job, encoding="utf-8-sig") as file:
                document = json.load(file, object_pairs_hook=strict_object, parse_constant=no_constant)
            errors = [
                {"path": location(error), "message": error.message}
                for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
            ]
        except (OSError, ValueError) as error:
            errors = [{"path": "", "message": f"not a JSON document: {error}"}]
        except RecursionError:
            print(f"check-job-schema: {job}: nested too deeply for the validator", file=sys.stderr)
            sys.exit(2)
        all_valid = all_valid and not errors
        if options.json:
            print(json.dumps({"file": job, "valid": not errors, "errors": errors[:5]}))
        elif errors:
            print(f"{job}: invalid")
            for error in errors[:5]:
                print(f"  {error['path'] or '(top level)'}: {error['message'][:300]}")
        else:
            print(f"{job}: ok")
    sys.exit(0 if all_valid else 1)


if __name__ == "__main__":
    main()
