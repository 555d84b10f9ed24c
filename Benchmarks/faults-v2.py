#!/usr/bin/env python3
"""Faults v2 (issue 20), measured: each defect class run on a scenario-run binary, printing one line per
case — exit status, wall time, peak resident set of the process tree and what happened.

    python3 Benchmarks/faults-v2.py .build/debug/scenario-run [scenario-run-faults]

Run it on the binary before and after a change to get both figures. Every case is bounded: an address
space limit (prlimit --as) and a time limit, so a binary that still has a defect dies at the limit instead
of taking the machine with it. Devices are private nodes (mknod) in a scratch folder, never /dev/null.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BINARY = os.path.abspath(sys.argv[1])
FAULTS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(os.path.dirname(BINARY), "scenario-run-faults")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AS_LIMIT = 3 << 30
TWO = "scenarios:\n  - scenario: A\n    steps: [succeed]\n  - scenario: B\n    steps: [succeed]\n"


def project(files):
    folder = tempfile.mkdtemp(prefix="faults-v2-")
    shutil.copytree(os.path.join(ROOT, "Fixtures"), os.path.join(folder, "Fixtures"))
    os.makedirs(os.path.join(folder, "Scenarios"), exist_ok=True)
    for name, text in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return folder


def run(args, cwd, timeout=120, binary=None, prefix=(), env=None, address_space=AS_LIMIT):
    """Runs the binary under prlimit --as; returns (status, seconds, peak RSS MB, stdout, stderr)."""
    usage = tempfile.mktemp(prefix="faults-v2-rss-")
    command = (["/usr/bin/time", "-f", "%M", "-o", usage] + list(prefix)
               + ["prlimit", f"--as={address_space}", "--", binary or BINARY] + args)
    start = time.monotonic()
    environment = dict(os.environ, NO_COLOR="1")
    environment.pop("KIF_SKIP_TEAR_DOWN", None)
    if env:
        environment.update(env)
    # A session of its own, so that a timeout ends the whole tree (workers included), not just its root.
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = "timeout"
    seconds = time.monotonic() - start
    try:
        # The largest resident set of the process and of the descendants it waited for (workers).
        with open(usage) as f:
            peak_mb = int(f.read().split()[-1]) / 1024
        os.remove(usage)
    except (OSError, ValueError, IndexError):
        peak_mb = float("nan")
    return status, seconds, peak_mb, out.decode(errors="replace"), err.decode(errors="replace")


def show(name, result, note=""):
    status, seconds, peak, out, err = result
    first = (err.strip().splitlines() or [""])[0][:110]
    print(f"| {name} | {status} | {seconds:.2f} s | {peak:.0f} MB | {note or first} |", flush=True)


def reports():
    folder = project({"Scenarios/a.yml": TWO})
    os.mknod(os.path.join(folder, "null"), 0o666 | 0o020000, os.makedev(1, 3))
    os.mknod(os.path.join(folder, "full"), 0o666 | 0o020000, os.makedev(1, 7))
    for target in ["null", "full"]:
        result = run(["--ci", "--junit", target], folder)
        kind = "char device" if os.path.exists(os.path.join(folder, target)) and \
            (os.stat(os.path.join(folder, target)).st_mode & 0o170000) == 0o020000 else "REPLACED by a file"
        show(f"--junit {target} (a private mknod of /dev/{target})", result, f"afterwards: {kind}; " + (result[4].strip().splitlines() or [""])[-1][:80])
    os.mkfifo(os.path.join(folder, "fifo"))
    reader = os.open(os.path.join(folder, "fifo"), os.O_RDONLY | os.O_NONBLOCK)
    result = run(["--ci", "--junit", "fifo"], folder)
    try:
        got = os.read(reader, 1 << 20)
    except BlockingIOError:
        got = b""
    os.close(reader)
    still = (os.lstat(os.path.join(folder, "fifo")).st_mode & 0o170000) == 0o010000
    show("--junit FIFO with a reader", result, f"reader got {len(got)} bytes; still a FIFO: {still}")
    os.makedirs(os.path.join(folder, "reports"))
    with open(os.path.join(folder, "reports/real.xml"), "w") as f:
        f.write("old")
    os.symlink("reports/real.xml", os.path.join(folder, "link.xml"))
    result = run(["--ci", "--junit", "link.xml"], folder)
    with open(os.path.join(folder, "reports/real.xml")) as f:
        target = f.read()
    show("--junit a symbolic link", result,
         f"still a link: {os.path.islink(os.path.join(folder, 'link.xml'))}; target updated: {target != 'old'}")


def unreadable():
    folder = project({"Scenarios/a.yml": TWO, "Scenarios/locked/b.yml": TWO.replace("A", "C").replace("B", "D")})
    os.chmod(os.path.join(folder, "Scenarios/locked"), 0)
    drop = ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--"]
    for args in (["check"], ["--ci"], ["--ci", "Scenarios/locked"]):
        result = run(args, folder, prefix=drop)
        last = (result[3].strip().splitlines() or result[4].strip().splitlines() or [""])[-1]
        show(f"{' '.join(args)} with Scenarios/locked mode 000 (no CAP_DAC_*)", result, last[:100])
    os.chmod(os.path.join(folder, "Scenarios/locked"), 0o755)


def diagnostics():
    for count in (5_000, 10_000):
        text = "scenarios: [" + ", ".join(f"{{scenario: S{i}, steps: [nope]}}" for i in range(count)) + "]\n"
        folder = project({"Scenarios/long.yml": text})
        result = run(["check"], folder)
        show(f"check: one line, {count:,} scenarios with an unknown step ({len(text) // 1000} KB)", result)
    routes = "routes: [" + ", ".join(f"{{path: /r{i}, stauts: 200}}" for i in range(5_000)) + "]\n"
    folder = project({"Scenarios/a.yml": TWO})
    with open(os.path.join(folder, "Fixtures/server.yml"), "w") as f:
        f.write(routes)
    show(f"check: one-line server.yml, 5,000 routes with an unknown key ({len(routes) // 1000} KB)", run(["check"], folder))


def diagnostics_bound():
    """The largest files under 64 MB of the worst shapes: every scenario an error, on one line or many."""
    size = int(os.environ.get("FAULTS_V2_MB", "60")) * 1000 * 1000
    one = "{scenario: S, steps: [nope]}, "
    count = size // len(one)
    text = "scenarios: [" + "".join(f"{{scenario: S{i}, steps: [nope]}}, " for i in range(count))[:-2] + "]\n"
    folder = project({"Scenarios/long.yml": text})
    show(f"check: one line of {len(text) / 1e6:.0f} MB, {count:,} errors", run(["check"], folder, timeout=600, address_space=8 << 30))
    lines = "scenarios:\n" + "".join(f"  - scenario: S{i}\n    steps: [nope]\n" for i in range(size // 36))
    folder = project({"Scenarios/many.yml": lines})
    show(f"check: {len(lines) / 1e6:.0f} MB of lines, {size // 36:,} errors", run(["check"], folder, timeout=600, address_space=8 << 30))
    valid = "scenarios:\n" + "".join(f"  - scenario: S{i}\n    steps: [succeed]\n" for i in range(size // 40))
    folder = project({"Scenarios/valid.yml": valid})
    show(f"check: {len(valid) / 1e6:.0f} MB valid, {size // 40:,} scenarios", run(["check"], folder, timeout=600, address_space=8 << 30))


def merge():
    def report(attributes, body=""):
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shard">\n'
                f'  <testsuite name="A" {attributes}>\n    <testcase classname="A" name="one" time="0.5"/>{body}\n'
                '  </testsuite>\n</testsuites>\n')
    folder = project({})
    cases = {
        'tests="1e300"': [report('tests="1e300"')],
        'time="1e16"': [report('tests="1" time="1e16"')],
        'two shards of tests="9e18"': [report('tests="9e18"'), report('tests="9e18"')],
        "5,000 nested elements": [report('tests="1"', "<x>" * 5000 + "</x>" * 5000)],
        "4 MB system-out (entities split it)": [report('tests="1"', "<system-out>" + "line &amp; more\n" * ((4 << 20) // 16) + "</system-out>")],
        "a text file that is not XML": ["just text\n"],
    }
    for name, texts in cases.items():
        paths = []
        for index, text in enumerate(texts):
            path = os.path.join(folder, f"in{index}.xml")
            with open(path, "w") as f:
                f.write(text)
            paths.append(path)
        show(f"merge-junit: {name}", run(["merge-junit", "out.xml"] + paths, folder, timeout=300))
        if name.startswith("4 MB"):
            show(f"--shard 1/2 --shard-timings: {name}",
                 run(["--ci", "--list", "--shard", "1/2", "--shard-timings", paths[0]], folder, timeout=300))


def descriptors():
    folder = project({"Scenarios/a.yml": TWO})
    for limit in (12, 20, 24, 32, 64):
        result = run(["--ci", "--jobs", "4", "--junit", "r.xml"], folder, prefix=["prlimit", f"--nofile={limit}"])
        whole = os.path.exists(os.path.join(folder, "r.xml"))
        if whole:
            os.remove(os.path.join(folder, "r.xml"))
        show(f"ulimit -n {limit}, --jobs 4", result, f"JUnit written: {whole}; " + (result[4].strip().splitlines() or [""])[0][:90])


def numbers():
    folder = project({"Scenarios/a.yml": TWO})
    # With --list, which starts no worker: a binary without the bound started 2,212 of them (as root,
    # prlimit --nproc does not hold).
    show("--jobs 1000001 --list (accepted or refused)", run(["--ci", "--list", "--jobs", "1000001"], folder, timeout=60))
    show("--jobs 16 with 2 scenarios (workers started: see the note)", run(["--ci", "--jobs", "16"], folder, timeout=60))
    with open(os.path.join(folder, "t.xml"), "w") as f:
        f.write('<testsuites><testsuite name="a" file="Scenarios/a.yml"><testcase name="A" time="1"/></testsuite></testsuites>')
    show("--shard 1/999999999 --shard-timings (2 GB address space)",
         run(["--ci", "--list", "--shard", "1/999999999", "--shard-timings", "t.xml"], folder, timeout=120, address_space=2 << 30))


def quadratic():
    reason = "r" * (4 << 20)
    folder = project({"Scenarios/a.yml": f"scenarios:\n  - scenario: Long reason\n    steps:\n      - fail: {reason}\n"})
    show("4 MB failure reason, --in-process", run(["--ci", "--in-process"], folder, timeout=300))
    show("4 MB failure reason, a worker", run(["--ci"], folder, timeout=300))
    name = "n" * (1 << 20)
    folder = project({"Scenarios/a.yml": f"scenarios:\n  - scenario: {name}\n    steps: [succeed]\n"})
    show("1 MB scenario name, a worker", run(["--ci"], folder, timeout=300))
    big = "x" * 1_000_000
    aliases = ", ".join(["*big"] * 2000)
    folder = project({"Scenarios/a.yml": f"scenarios:\n  - scenario: A\n    steps:\n      - succeed: &big {big}\n      - succeed: [{aliases}]\n"})
    show("check: a 1 MB scalar aliased 2,000 times", run(["check"], folder, timeout=300))


def signals():
    folder = project({"Scenarios/a.yml": "scenarios:\n  - scenario: Stuck\n    steps:\n      - touch: started\n"
                      "      - ignore cancellation\n  - scenario: Next\n    steps: [succeed]\n"})
    process = subprocess.Popen([FAULTS, "--ci", "--timeout", "25", "--junit", "r.xml"], cwd=folder,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while not os.path.exists(os.path.join(folder, "started")):
        time.sleep(0.05)
    start = time.monotonic()
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=120)
    took = time.monotonic() - start
    print(f"| SIGTERM during a step ignoring cancellation (--timeout 25) | {process.returncode} | {took:.2f} s after the signal | | "
          f"JUnit written: {os.path.exists(os.path.join(folder, 'r.xml'))} |", flush=True)


def results():
    folder = project({"Scenarios/a.yml": "scenarios:\n  - scenario: Slow\n    steps:\n      - sleep: 30\n"})
    result = run(["--ci", "--scenario-timeout", "2", "--junit", "r.xml"], folder, binary=FAULTS)
    line = next((l for l in result[3].splitlines() if l.startswith("✗ Slow")), "")
    show("--scenario-timeout 2: the scenario's reported time", result, line)
    folder = project({"Scenarios/a.yml": "scenarios:\n  - scenario: Slow failure\n    steps:\n      - touch: started\n"
                      "      - sleep: 2\n      - fail: slow\n  - scenario: Quick failure\n    steps:\n      - fail: quick\n"})
    slow = subprocess.Popen([FAULTS, "--ci", "--filter", "Slow"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while not os.path.exists(os.path.join(folder, "started")):
        time.sleep(0.05)
    subprocess.run([FAULTS, "--ci", "--filter", "Quick"], cwd=folder, capture_output=True)
    slow.communicate()
    with open(os.path.join(folder, ".scenario-run/last-failed.json")) as f:
        kept = f.read().replace("\n", " ")
    print(f"| two overlapping runs: last-failed.json | | | | {kept} |", flush=True)
    stale = f"/dev/shm/scenario-run-board-999999-{os.getpid()}"
    open(stale, "wb").write(b"\0" * 64)
    folder = project({"Scenarios/a.yml": TWO})
    run(["--ci"], folder)
    print(f"| a stale board of a dead pid | | | | still there after a run: {os.path.exists(stale)} |", flush=True)
    if os.path.exists(stale):
        os.remove(stale)
    odd = os.path.join(project({}), "a;echo x")
    shutil.copytree(os.path.join(ROOT, "Fixtures"), os.path.join(odd, "Fixtures"))
    os.makedirs(os.path.join(odd, "Scenarios"))
    with open(os.path.join(odd, "Scenarios/a.yml"), "w") as f:
        f.write(TWO)
    result = run(["--ci"], odd, env={"KIF_SKIP_TEAR_DOWN": "1"})
    line = next((l.strip() for l in result[3].splitlines() if "sqlite3" in l), "")
    print(f"| the kept store's command in 'a;echo x' | | | | `{line[:90]}` |", flush=True)


def terminal():
    name = "Title\\e]0;pwned\\aend \\e[2J \\b"
    folder = project({"Scenarios/a.yml": f'scenarios:\n  - scenario: "{name}"\n    steps:\n      - fail: "clear\\e[2J"\n'})
    result = run(["--ci"], folder)
    raw = sum(result[3].count(c) for c in ("\x1b", "\x07", "\x08"))
    print(f"| --ci: control characters in a name and a reason | {result[0]} | | | raw ESC/BEL/BS bytes printed: {raw} |",
          flush=True)
    folder = project({"Scenarios/a.yml": TWO})
    for term in ("unset", "no-such-terminal"):
        prefix = "env -u TERM" if term == "unset" else f"env TERM={term}"
        done = subprocess.run(["script", "-qec", f"{prefix} {BINARY} --exit", "/dev/null"], cwd=folder,
                              capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        text = done.stdout.decode(errors="replace").replace("\r", "")
        said = next((l for l in text.splitlines() if "terminal" in l.lower() or "headless" in l), "")
        print(f"| on a terminal with TERM {term} | {done.returncode} | | | {said[:100]} |", flush=True)


def server_headers():
    folder = project({"Scenarios/a.yml": TWO})
    with open(os.path.join(folder, "Fixtures/server.yml"), "w") as f:
        f.write('routes:\n  - { path: /x, headers: { X-Note: "one\\r\\nSet-Cookie: a=b" } }\n')
    show("check: a CR LF in a server.yml header value", run(["check"], folder))


if __name__ == "__main__":
    wanted = sys.argv[3:] or ["reports", "unreadable", "diagnostics", "merge", "descriptors", "numbers",
                              "quadratic", "signals", "results", "terminal", "server_headers"]
    print(f"binary: {BINARY}\n\n| case | exit | time | peak RSS | what happened |\n| --- | --- | --- | --- | --- |")
    for name in wanted:
        globals()[name]()
