#!/usr/bin/env python3
"""Proves a suite's isolation: it passes in file order, shuffled with many seeds, with --jobs 2, and
each scenario alone. Usage: order-independence.py BINARY PROJECT_DIR [SEEDS]  (default 20 seeds).

Prints one line per run and exits 1 when any run fails (naming the order that failed)."""
import re
import subprocess
import sys


def run(binary, project, arguments):
    result = subprocess.run([binary, "--ci", *arguments], cwd=project, capture_output=True, text=True, timeout=600)
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr.strip()
    return result.returncode, last, result.stdout + result.stderr


def main():
    binary, project = sys.argv[1], sys.argv[2]
    seeds = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    failures = []
    runs = [("file order", [])] + [(f"--shuffle {s}", ["--shuffle", str(s)]) for s in range(1, seeds + 1)]
    runs.append(("--jobs 2 --shuffle 99", ["--jobs", "2", "--shuffle", "99"]))
    listing = subprocess.run([binary, "--list"], cwd=project, capture_output=True, text=True, check=True).stdout
    names = [line.strip().split("  @")[0] for line in listing.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    runs += [(f"alone: {name}", ["--filter", "^" + re.escape(name) + "$"]) for name in names]
    for label, arguments in runs:
        status, last, output = run(binary, project, arguments)
        print(f"{'ok  ' if status == 0 else 'FAIL'} {label}: {last}")
        if status != 0:
            failures.append((label, output))
    for label, output in failures:
        print(f"\n--- {label}\n{output}")
    print(f"\n{len(runs) - len(failures)} of {len(runs)} runs passed ({seeds} seeds, {len(names)} scenarios alone)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
