#!/usr/bin/env python3
"""Every public symbol of the library products has a doc comment (issue #31: 100 % coverage).

Usage: check-doc-coverage.py [SYMBOLGRAPH_DIR]
(default .build/TRIPLE/symbolgraph, written by `swift package dump-symbol-graph --minimum-access-level
public`). A module of the list below without its graph is a failure.

Reads Module.symbols.json and its extension files Module@Other.symbols.json (counted to Module, the
module that declares them) for the modules below, prints `FILE:LINE: undocumented public NAME` for each
public or open symbol without a doc comment, a count per module, and exits 1 when any is undocumented.

A doc comment in the symbol graph is the symbol's own, or one the compiler copied from the protocol
requirement or superclass member it implements (the graph's inherited docs, which DocC shows). A
comment of blank lines counts as none. Not counted, because no reader documents them:
- symbols with no source location, or whose identifier is `::SYNTHESIZED::`: what the compiler makes
  (`hashValue`, `hash(into:)`, `==`, `!=`, `init(from:)`, `encode(to:)`, `CodingKeys`, `rawValue` and
  `init(rawValue:)` of an enum with raw values, the literal initialisers a protocol extension supplies);
- members that implement a protocol requirement, or come from a protocol extension, when DocC shows that
  protocol's docs in their place: the member's `memberOf` relationship names the requirement in
  `sourceOrigin`; when the requirement is one of this package's symbols it must have a doc comment
  (an undocumented requirement is itself reported), when it belongs to another module (Swift,
  Foundation, Testing) DocC links the member to it ("Inherited from ...");
- default implementations (`defaultImplementationOf`) of a requirement that has a doc comment.
A requirement itself (`requirementOf`) is always counted. A conformance (`conformsTo`) excludes nothing:
it does not say which member implements which requirement; `sourceOrigin` does.
"""
import json
import pathlib
import sys
from collections import Counter, defaultdict

MODULES = ["ObjectManager", "StubServer", "Scenarios", "Steps", "ScenarioTesting", "ScenarioRunCLI",
           "SharedValues", "Diagnostics"]
if len(sys.argv) > 1:
    folder = pathlib.Path(sys.argv[1])
else:
    # Where `dump-symbol-graph` writes, whatever the triple (x86_64, aarch64).
    found = sorted(pathlib.Path(".build").glob("*/symbolgraph"))
    folder = found[0] if found else pathlib.Path(".build/symbolgraph")

graphs = {path.name.split(".")[0]: json.loads(path.read_text()) for path in folder.glob("*.symbols.json")}
# A module without its graph would pass unread: that is a failure, not 0 undocumented.
missing = [module for module in MODULES if module not in graphs]
if missing:
    print(f"{folder}: no symbol graph for {', '.join(missing)} (run `swift package dump-symbol-graph "
          "--minimum-access-level public` first)")
    sys.exit(1)
symbols = {s["identifier"]["precise"]: s for graph in graphs.values() for s in graph["symbols"]}


def documented(symbol) -> bool:
    return any(line["text"].strip() for line in symbol.get("docComment", {}).get("lines", []))


def origins(relationships) -> list:
    """The protocol requirements (or protocol extension members) a member implements or inherits."""
    return [r["sourceOrigin"]["identifier"] if r["kind"] == "memberOf" else r["target"]
            for r in relationships if r["kind"] == "defaultImplementationOf"
            or (r["kind"] == "memberOf" and "sourceOrigin" in r)]


def protocol_docs(symbol, module, relationships) -> bool:
    """DocC shows a protocol's docs for this member: a comment the compiler copied from the requirement,
    a documented requirement of this package, or any requirement of another module."""
    if documented(symbol):
        comment = symbol["docComment"]
        return comment.get("module") != module or any(symbols.get(o, {}).get("docComment") == comment
                                                      for o in origins(relationships))
    return any(o not in symbols or documented(symbols[o]) for o in origins(relationships))


counts = {module: Counter() for module in MODULES}
undocumented = []
for name, graph in sorted(graphs.items()):
    module = name.split("@")[0]
    if module not in MODULES:
        continue
    relationships = defaultdict(list)
    for relationship in graph["relationships"]:
        relationships[relationship["source"]].append(relationship)
    for symbol in graph["symbols"]:
        if symbol["accessLevel"] not in ("public", "open"):
            continue
        precise = symbol["identifier"]["precise"]
        counts[module]["public"] += 1
        if "location" not in symbol or "::SYNTHESIZED::" in precise:
            counts[module]["synthesized"] += 1
        elif protocol_docs(symbol, module, relationships[precise]):
            counts[module]["protocol docs"] += 1
        elif documented(symbol):
            counts[module]["documented"] += 1
        else:
            counts[module]["undocumented"] += 1
            location = symbol["location"]
            file = location["uri"].removeprefix("file://")
            try:
                file = str(pathlib.Path(file).relative_to(pathlib.Path.cwd()))
            except ValueError:
                pass
            undocumented.append((file, location["position"]["line"] + 1, ".".join(symbol["pathComponents"])))

for file, line, name in sorted(undocumented):
    print(f"{file}:{line}: undocumented public {name}")
columns = ["public", "synthesized", "documented", "protocol docs", "undocumented"]
print("\n" + f"{'module':<16}" + "".join(f"{column:>15}" for column in columns))
for module, count in [*counts.items(), ("total", sum(counts.values(), Counter()))]:
    print(f"{module:<16}" + "".join(f"{count[column]:>15}" for column in columns))
sys.exit(1 if undocumented else 0)
