#!/usr/bin/env python3
"""Checks the resolved package graph against deploy/package-versions.txt.

Usage: swift package show-dependencies --format json | deploy/check-package-versions.py FILE

Package.swift pins the direct dependencies exactly; this pins the transitive ones too, so the
image builds the very graph `make test` ran against. Exits 1 naming every difference.
"""
import json
import sys


def main() -> int:
    expected_file = sys.argv[1] if len(sys.argv) > 1 else "deploy/package-versions.txt"
    resolved = {}
    stack = [json.load(sys.stdin)]
    while stack:
        node = stack.pop()
        for dependency in node.get("dependencies", []):
            resolved[dependency["identity"]] = dependency["version"]
            stack.append(dependency)
    with open(expected_file) as lines:
        expected = dict(line.split() for line in lines if line.strip() and not line.startswith("#"))
    problems = [
        f"{name}: resolved {resolved.get(name, 'nothing')}, expected {version}"
        for name, version in sorted(expected.items())
        if resolved.get(name) != version
    ] + [f"{name}: resolved {version}, not listed" for name, version in sorted(resolved.items()) if name not in expected]
    if problems:
        print("package versions differ from " + expected_file + ":\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"package versions match {expected_file} ({len(expected)} packages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
