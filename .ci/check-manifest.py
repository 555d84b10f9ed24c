#!/usr/bin/env python3
"""Checks Package.swift against the code and against ARCHITECTURE.md's module graph.

1. Every dependency a target declares is imported by one of its files, and every module of this package a
   file imports is declared by its target (a product counts as imported when one of its modules is).
2. The "Module graph" block of ARCHITECTURE.md lists, for every target that is not a test, exactly the
   targets of this package it depends on (external products in parentheses are not checked).

Exits 1 with what differs."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Products whose modules have other names.
PRODUCT_MODULES = {"Yams": {"Yams", "CYaml"}}
# Declared on purpose without an import: a test target that needs an executable built beside it.
BUILT_NOT_IMPORTED = {("CLITests", "scenario-run-faults"), ("CLITests", "scenario-run-async")}


def main():
    package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    targets = {t["name"]: t for t in package["targets"]}
    problems = []
    graph = {}
    for name, target in targets.items():
        if target["type"] == "system":
            continue
        declared = set()
        for dependency in target.get("dependencies", []):
            kind = next(iter(dependency))
            declared.add((kind, dependency[kind][0]))
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        imports = set()
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for file in files:
                if file.endswith(".swift"):
                    with open(os.path.join(base, file), encoding="utf-8") as text:
                        imports |= set(re.findall(r"^(?:(?:@testable|@_exported|package|internal|public)\s+)*import (\w+)", text.read(), re.M))
        internal = {dep for kind, dep in declared if kind in ("byName", "target")}
        for kind, dep in sorted(declared):
            modules = PRODUCT_MODULES.get(dep, {dep}) if kind == "product" else {dep}
            if not modules & imports and (name, dep) not in BUILT_NOT_IMPORTED:
                problems.append(f"{name} declares {dep}, which none of its files imports")
        for module in sorted(imports & set(targets) - internal - {name}):
            problems.append(f"{name} imports {module}, which it does not declare")
        if target["type"] != "test":
            graph[name] = internal
    with open(os.path.join(ROOT, "ARCHITECTURE.md"), encoding="utf-8") as text:
        architecture = text.read()
    block = re.search(r"## Module graph.*?```\n(.*?)```", architecture, re.S)
    if not block:
        problems.append("ARCHITECTURE.md has no 'Module graph' block")
    else:
        written = {}
        for line in block.group(1).splitlines():
            match = re.match(r"^(\S+)\s+→\s*(.*)$", line)
            if match:
                names = re.sub(r"\([^)]*\)", "", match.group(2))
                written[match.group(1)] = {n.strip() for n in names.split(",") if n.strip() and n.strip() in targets}
        for name in sorted(set(graph) | set(written)):
            if name not in written:
                problems.append(f"ARCHITECTURE.md's module graph leaves out {name} → {', '.join(sorted(graph[name])) or '(nothing)'}")
            elif name not in graph:
                problems.append(f"ARCHITECTURE.md's module graph has {name}, which Package.swift does not")
            elif written[name] != graph[name]:
                problems.append(f"ARCHITECTURE.md says {name} → {', '.join(sorted(written[name]))}; Package.swift says {', '.join(sorted(graph[name]))}")
    for problem in problems:
        print(f"error: {problem}")
    print(f"{len(targets)} targets checked: {'OK' if not problems else f'{len(problems)} problem(s)'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
