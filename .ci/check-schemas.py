#!/usr/bin/env python3
"""The JSON Schemas `scenario-run schema` prints, read by a real consumer (Python's jsonschema): they
accept every scenario file, server.yml and scenario-run.yml of a project, and the hostile corpus shows
how many structurally wrong files they reject (informative: the rest are `check`'s to catch)."""
import json
import pathlib
import subprocess
import re
import sys

import jsonschema
import yaml

binary, project = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
corpus = pathlib.Path(sys.argv[3]).resolve() if len(sys.argv) > 3 else None


def schema(kind: str) -> dict:
    out = subprocess.run([binary, "schema", kind], cwd=project, capture_output=True, text=True, check=True).stdout
    document = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(document)
    return document


class Core12Loader(yaml.SafeLoader):
    """YAML 1.2's core schema, as scenario-run and editors' YAML servers read files: only true/false are
    booleans (PyYAML's YAML 1.1 also reads on/off/yes/no as booleans, so `contract: off` would be false)."""


Core12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for first in "tTfF":
    Core12Loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list(first)
    )


def load(path: pathlib.Path):
    return yaml.load(path.read_text(), Loader=Core12Loader)


schemas = {kind: jsonschema.Draft202012Validator(schema(kind)) for kind in ("scenarios", "server", "settings")}
problems = []
checked = 0
files = [("scenarios", p) for p in sorted((project / "Scenarios").rglob("*.y*ml")) if "examples-broken" not in p.parts]
files.append(("server", project / "Fixtures/server.yml"))
if (project / "scenario-run.yml").exists():
    files.append(("settings", project / "scenario-run.yml"))
for kind, path in files:
    checked += 1
    for error in schemas[kind].iter_errors(load(path)):
        problems.append(f"{path.relative_to(project)}: {error.json_path}: {error.message}")
# The event stream of a run of the project's default scenarios, every line read against its schema.
import tempfile
events_schema = jsonschema.Draft202012Validator(schema("events"))
with tempfile.TemporaryDirectory() as folder:
    stream = pathlib.Path(folder) / "events.jsonl"
    run = subprocess.run([binary, "--ci", "--events", str(stream)], cwd=project, capture_output=True, text=True)
    if run.returncode != 0:
        problems.append(f"--ci --events exited {run.returncode}: {run.stderr[-500:]}")
    lines = stream.read_text().splitlines() if stream.exists() else []
    kinds = set()
    for number, line in enumerate(lines, 1):
        event = json.loads(line)
        kinds.add(event.get("event"))
        for error in events_schema.iter_errors(event):
            problems.append(f"--events line {number}: {error.json_path}: {error.message}")
    for kind in ("run-started", "scenario-started", "step-started", "step-finished", "scenario-finished", "run-finished"):
        if kind not in kinds:
            problems.append(f"--events: no '{kind}' line")
    checked += 1
for problem in problems:
    print("error:", problem)
print(f"schemas: {checked} files of {project.name} valid" if not problems else f"schemas: {len(problems)} problems")

if corpus:
    rejected = total = 0
    for kind, folder in (("scenarios", "scenarios"), ("server", "server")):
        for path in sorted((corpus / folder).glob("*.yml")):
            total += 1
            try:
                document = load(path)
            except Exception:
                rejected += 1  # not YAML at all: no schema gets to see it
                continue
            if not schemas[kind].is_valid(document):
                rejected += 1
    print(f"schemas: the hostile corpus: {rejected} of {total} files rejected by the schema alone")
sys.exit(1 if problems else 0)
