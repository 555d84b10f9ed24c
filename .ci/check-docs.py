#!/usr/bin/env python3
"""The user documentation is whole and current (and both sample scenario-run.yml files show every key): docs/steps.md, docs/command-line.md and docs/settings.md
are what `scenario-run steps --built-in --format markdown` and `scenario-run reference command-line|settings`
print; every relative link in README.md and docs/ leads to a file that exists (and,
for a `#anchor` into a markdown file, to a heading there); no user document cites SPEC.md; README.md, the
front door, stays under 200 lines; docs/README.md, the index, links every page of docs/."""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else ".").resolve()
binary = sys.argv[1]
problems = []

# Each generated page and the command that makes it from the declarations.
for page, arguments in [("docs/steps.md", ["steps", "--built-in", "--format", "markdown"]),
                        ("docs/command-line.md", ["reference", "command-line"]),
                        ("docs/settings.md", ["reference", "settings"])]:
    generated = subprocess.run([binary] + arguments, cwd=root, capture_output=True, text=True, check=True).stdout
    if generated != (root / page).read_text():
        command = "scenario-run " + " ".join(arguments)
        problems.append(f"{page} differs from `{command}`; regenerate it: swift run {command} > {page}")


# Both sample settings files list every key of `scenario-run.yml`: commented (the default), or set at the
# start of a line.
keys = json.loads(subprocess.run([binary, "schema", "settings"], cwd=root, capture_output=True, text=True,
                                 check=True).stdout)["properties"].keys()
for sample in [root / "scenario-run.yml", root / "Examples/LibraryLoans/scenario-run.yml"]:
    lines = sample.read_text().splitlines()
    for key in keys:
        if not any(line.startswith(f"# {key}:") or line.startswith(f"{key}:") for line in lines):
            problems.append(f"{sample.relative_to(root)} does not show the setting '{key}'")


def anchors(markdown: str) -> set:
    found = set()
    for line in markdown.splitlines():
        match = re.match(r"^#+\s+(.*)$", line)
        if match:
            text = re.sub(r"[`*_]", "", match.group(1)).strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


documents = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
for document in documents:
    text = document.read_text()
    if "SPEC.md" in text or re.search(r"SPEC §", text):
        problems.append(f"{document.relative_to(root)} cites SPEC, which does not ship")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target) or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        destination = (document.parent / path).resolve() if path else document
        if not destination.exists():
            problems.append(f"{document.relative_to(root)}: link '{target}' leads nowhere")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination.read_text()):
            problems.append(f"{document.relative_to(root)}: link '{target}' names no heading of {path or document.name}")

# The README is the front door; references live in docs/.
readme_lines = len((root / "README.md").read_text().splitlines())
if readme_lines >= 200:
    problems.append(f"README.md has {readme_lines} lines; the front door stays under 200 (move the rest to docs/)")

# The index lists every page.
index = (root / "docs/README.md").read_text()
for page in sorted((root / "docs").glob("*.md")):
    if page.name != "README.md" and f"]({page.name})" not in index:
        problems.append(f"docs/README.md does not link docs/{page.name}")

for problem in problems:
    print("error:", problem)
print(f"docs: {len(documents)} documents checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
