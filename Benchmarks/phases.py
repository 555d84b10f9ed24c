#!/usr/bin/env python3
"""Instructions per scenario of the standard workload by phase: the workload with steps left out.

Each variant is the workload of `generate.py` with some of its steps removed or replaced, counted like
`instructions.py` (callgrind, `--ci --in-process`, N=100 and 300, the difference): what one more such
scenario costs. Each phase is a variant minus the one before it.

    python3 Benchmarks/phases.py BIN [--sizes 100,300] [--shared DIR] [--keep DIR]

| variant | its steps |
| --- | --- |
| base | `succeed` only: loading, the default set-up and tear-down, the leak check, reporting |
| stub | `stub route` |
| post | and `post object`, `expect response` |
| get | and `get objects`, `wait for requests` (the GET is waited for, as the counts would) |
| whole | the workload as generated (the two `expect entities` instead of the wait) |

Needs what instructions.py needs (valgrind, callgrind_annotate, objcopy, gcc); about five minutes.
"""
import os
import re
import shutil
import sys

import instructions

LATER = r"      - (post object|expect response|get objects|expect entities):.*\n"

# (name, [(pattern, replacement)]) applied in order to Scenarios/generated.yml
VARIANTS = [
    ("base", [(r"(      - )stub route:.*\n", r"\1succeed\n"), (LATER, "")]),
    ("stub", [(LATER, "")]),
    ("post", [(r"      - (get objects|expect entities):.*\n", "")]),
    (
        "get",
        [
            (r"(      - )expect entities: \{ entity: Review.*\n", r"\1wait for requests\n"),
            (r"      - expect entities: \{ entity: Restaurant.*\n", ""),
        ],
    ),
    ("whole", []),
]


def main():
    parser = instructions.arguments(__doc__)
    parser.add_argument("--sizes", default="100,300")
    args = parser.parse_args()
    small, large = (int(size) for size in args.sizes.split(","))
    scratch, binary, shim = instructions.prepare(args, "phases")
    rows = []
    for name, edits in VARIANTS:
        totals = {}
        for size in (small, large):
            workdir = os.path.join(scratch, f"{name}-{size}")
            shutil.rmtree(workdir, ignore_errors=True)
            instructions.generate(size, workdir, args)
            path = os.path.join(workdir, "Scenarios", "generated.yml")
            with open(path) as file:
                text = file.read()
            for pattern, replacement in edits:
                text, count = re.subn(pattern, replacement, text)
                if count == 0:
                    sys.exit(f"phases.py: {name}: no step matched {pattern!r} (has generate.py changed?)")
            with open(path, "w") as file:
                file.write(text)
            out = os.path.join(scratch, f"callgrind-{name}-{size}.out")
            totals[size], _ = instructions.count(binary, shim, workdir, [], out)
        rows.append((name, (totals[large] - totals[small]) / (large - small)))
    print("| variant | k per scenario | this phase |")
    print("|---|---:|---:|")
    previous = 0
    for name, per in rows:
        print(f"| {name} | {per / 1e3:,.0f} | {(per - previous) / 1e3:+,.0f} |")
        previous = per
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
