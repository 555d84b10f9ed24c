#!/usr/bin/env python3
"""Start-up time and memory of the scenario-run binary on a generated workload (stdlib only).

    measure.py startup BIN WORKDIR [RUNS]   median wall time of: --version, a run that selects no
                                            scenario (load + server up + down), a run of 1 scenario
    measure.py rss BIN WORKDIR...           max RSS (/usr/bin/time -v) of a full run per workload folder

WORKDIR is a folder written by generate.py (scenario-run runs with it as the current folder).
Prints Markdown tables.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def repeated(sample, runs):
    """Median, min and max of `runs` samples; one more is taken first (it warms the page cache) and dropped."""
    samples = [sample() for _ in range(runs + 1)][1:]
    return statistics.median(samples), min(samples), max(samples)


def wall(cmd, cwd, runs):
    def sample():
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            sys.exit(f"measure.py: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
        return time.perf_counter() - start
    return repeated(sample, runs)


def startup(binary, workdir, runs):
    print("| what (whole process, launch to exit) | median ms | min ms | max ms |")
    print("|---|---|---|---|")
    cases = [
        ("`scenario-run --version`-like: `--help` (process start only)", [binary, "--help"]),
        ("load + stub server up/down, no scenario selected (`--filter NOTHING`)",
         [binary, "--ci", "--filter", "^NOTHING$", "--allow-empty"]),
        ("load + server + 1 scenario (`--filter S0000`) + JUnit", [binary, "--ci", "--filter", "^S0000 ",
                                                                  "--junit", os.path.join(tempfile.gettempdir(), "sr-1.xml")]),
    ]
    for label, cmd in cases:
        med, lo, hi = wall(cmd, workdir, runs)
        print(f"| {label} | {med * 1e3:.1f} | {lo * 1e3:.1f} | {hi * 1e3:.1f} |")
    med, lo, hi = first_scenario(binary, workdir, runs)
    print(f"| **time to the first scenario** (launch → the first scenario's start, from `BENCH_TIMING_FILE`) "
          f"| **{med * 1e3:.1f}** | {lo * 1e3:.1f} | {hi * 1e3:.1f} |")


def first_scenario(binary, workdir, runs):
    """Launch to the first scenario's start: process start, load and validate, stub server up."""
    marks = os.path.join(tempfile.gettempdir(), "sr-first.json")
    env = dict(os.environ, BENCH_TIMING_FILE=marks)

    def sample():
        start = time.time()
        subprocess.run([binary, "--ci", "--filter", "^S0000 "], cwd=workdir, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(marks) as f:
            return json.load(f)["first_setup"] - start
    return repeated(sample, runs)


def rss(binary, workdirs):
    print("| workload | scenarios | wall s | max RSS MB | result line |")
    print("|---|---|---|---|---|")
    for workdir in workdirs:
        with open(os.path.join(workdir, "Scenarios", "generated.yml")) as f:
            n = sum(1 for line in f if line.startswith("  - scenario:"))
        junit = os.path.join(tempfile.gettempdir(), f"sr-rss-{n}.xml")
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-v", binary, "--ci", "--junit", junit], cwd=workdir,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "(no output)"
        mb = int(match.group(1)) / 1024 if match else float("nan")
        print(f"| {os.path.basename(workdir.rstrip('/'))} | {n} | {elapsed:.2f} | {mb:.1f} | {last} (exit {proc.returncode}) |")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "startup":
        startup(os.path.abspath(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 20)
    elif len(sys.argv) >= 4 and sys.argv[1] == "rss":
        rss(os.path.abspath(sys.argv[2]), sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
