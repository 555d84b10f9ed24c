#!/usr/bin/env python3
"""Peak PSS of a whole process tree (stdlib only, Linux): how issue 28's memory figure is measured
(`scenario-run --ci` is a parent and its worker processes; PSS shares the binary's pages fairly).

    pss.py [--interval 0.005] [--cwd DIR] [--out FILE] [--label L] -- CMD ARGS...

Starts CMD (stdout -> /dev/null, stderr kept), and every INTERVAL s (plus the time the reads take) until it exits sums `Pss:` (and
`Rss:`) from /proc/PID/smaps_rollup over the root and all its descendants (found by walking the ppid
field of /proc/*/stat, every --rescan s, default 0.025). Keeps the maximum of the sum, and each process's own maximum. Prints one JSON
object (and appends it to --out if given):
  peak_tree_pss / peak_tree_rss (bytes), at_peak: each process's Pss_Anon/Pss_File/Pss_Shmem in the
  sample of the tree's peak, procs: [{pid, role, argv, peak_pss, peak_rss}], wall_s,
  exit, samples, stderr_tail (only when exit != 0).
Role: "parent" for the root, "worker" when argv[1] == "worker", else "child".
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def ppid_map():
    m = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                s = f.read()
        except OSError:
            continue
        rest = s[s.rfind(b")") + 2:].split()
        m[int(name)] = int(rest[1])
    return m


def tree(root):
    m = ppid_map()
    kids = {}
    for pid, pp in m.items():
        kids.setdefault(pp, []).append(pid)
    out, stack = [], [root]
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(kids.get(p, ()))
    return out


def rollup(pid):
    """(pss, rss, {Pss_Anon, Pss_File, Pss_Shmem}) in bytes, or None if gone / zombie."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            data = f.read()
    except OSError:
        return None
    v = {}
    for line in data.splitlines():
        if line.startswith((b"Pss", b"Rss:")):
            k, n = line.split()[:2]
            v[k[:-1].decode()] = int(n) * 1024
    if "Pss" not in v:
        return None
    return v["Pss"], v.get("Rss", 0), {k: v.get(k, 0) for k in ("Pss_Anon", "Pss_File", "Pss_Shmem")}


def argv_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--interval", type=float, default=0.005)
    ap.add_argument("--cwd")
    ap.add_argument("--out")
    ap.add_argument("--label", default="")
    ap.add_argument("--timeout", type=float, help="after this many seconds mark the run timed_out and SIGTERM the root")
    ap.add_argument("--trace", help="write one line per sample: t_s tree_pss PID<p|w|c>:pss ...")
    ap.add_argument("--rescan", type=float, default=0.025, help="seconds between walks of /proc for new descendants")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        sys.exit(__doc__)

    err = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=a.cwd, stdout=subprocess.DEVNULL, stderr=err)
    root = proc.pid
    procs = {}  # pid -> dict
    peak_pss = peak_rss = 0
    peak_at = 0.0
    peak_n = 0
    peak_parts = {}
    samples = 0
    members, last_scan = [root], 0.0
    trace = open(a.trace, "w") if a.trace else None
    timed_out = False
    while proc.poll() is None:
        now = time.perf_counter()
        if a.timeout and not timed_out and now - start > a.timeout:
            timed_out = True
            proc.terminate()
        if now - last_scan >= a.rescan:
            members, last_scan = tree(root), now
        total_pss = total_rss = 0
        n = 0
        cur = []
        parts = {}
        for pid in members:
            r = rollup(pid)
            if r is None:
                continue
            n += 1
            p = procs.get(pid)
            if p is None:
                argv = argv_of(pid) or []
                role = "parent" if pid == root else ("worker" if len(argv) > 1 and argv[1] == "worker" else "child")
                p = procs[pid] = {"pid": pid, "role": role, "argv": argv[:4], "peak_pss": 0, "peak_rss": 0}
            elif pid != root and p["role"] == "child":  # argv may change after exec
                argv = argv_of(pid) or []
                if len(argv) > 1 and argv[1] == "worker":
                    p["role"], p["argv"] = "worker", argv[:4]
            p["peak_pss"] = max(p["peak_pss"], r[0])
            p["peak_rss"] = max(p["peak_rss"], r[1])
            total_pss += r[0]
            parts[pid] = r[2]
            cur.append(f"{pid}{p['role'][0]}:{r[0]}")
            total_rss += r[1]
        samples += 1
        if trace:
            trace.write(f"{now - start:.3f} {total_pss} " + " ".join(cur) + "\n")
        if total_pss > peak_pss:
            peak_pss, peak_at, peak_n = total_pss, time.perf_counter() - start, n
            peak_parts = {procs[q]["role"] + ":" + str(q): d for q, d in parts.items()}
        peak_rss = max(peak_rss, total_rss)
        time.sleep(a.interval)
    wall = time.perf_counter() - start
    result = {
        "label": a.label, "cmd": cmd, "cwd": a.cwd or os.getcwd(), "exit": proc.returncode,
        "wall_s": round(wall, 3), "timed_out": timed_out, "samples": samples, "mean_interval_ms": round(wall / max(samples, 1) * 1e3, 1),
        "peak_tree_pss": peak_pss, "peak_tree_rss": peak_rss,
        "peak_at_s": round(peak_at, 3), "procs_at_peak": peak_n, "at_peak": peak_parts,
        "procs": sorted(procs.values(), key=lambda p: (p["role"] != "parent", p["pid"])),
    }
    if proc.returncode != 0:
        err.seek(0)
        result["stderr_tail"] = err.read()[-2000:].decode(errors="replace")
    err.close()
    line = json.dumps(result)
    print(line)
    if a.out:
        with open(a.out, "a") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
