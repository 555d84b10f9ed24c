#!/usr/bin/env python3
"""The latency `scenario-run record` adds to a request: the same GET sent straight to an upstream
`scenario-run serve` of the demo project and through a recording proxy in front of it, each on one
kept-alive connection, alternating in rounds so that both see the same machine.

    Benchmarks/record-latency.py --binary .build/release/scenario-run [--requests 2000] [--rounds 5]

Prints the median and 90th percentile per request of each path and the difference of the medians.
Standard library only.
"""
import argparse
import http.client
import os
import re
import signal
import statistics
import subprocess
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(arguments, cwd):
    process = subprocess.Popen(arguments, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r" at (http://127\.0\.0\.1:(\d+))", line)
    if not match:
        process.kill()
        raise SystemExit(f"record-latency: no address in {line!r}")
    # The rest of its output (a line per request) is read and dropped, so that a full pipe never blocks it.
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, int(match.group(2))


def timings(port, path, count):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    out = []
    for _ in range(count):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        out.append(time.perf_counter() - started)
        assert response.status == 200, response.status
    connection.close()
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--path", default="/restaurants")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    upstream, upstream_port = start([binary, "serve"], ROOT)
    folder = tempfile.mkdtemp(prefix="record-latency-")
    proxy, proxy_port = start([binary, "record", "--target", f"http://127.0.0.1:{upstream_port}"], folder)
    direct, through = [], []
    try:
        timings(upstream_port, options.path, 200)  # warm-up
        timings(proxy_port, options.path, 200)
        for _ in range(options.rounds):
            direct += timings(upstream_port, options.path, options.requests // options.rounds)
            through += timings(proxy_port, options.path, options.requests // options.rounds)
    finally:
        proxy.send_signal(signal.SIGINT)
        proxy.wait(timeout=60)
        upstream.send_signal(signal.SIGINT)
        upstream.wait(timeout=60)

    def describe(name, values):
        ordered = sorted(values)
        p90 = ordered[int(len(ordered) * 0.9)]
        return f"{name}: median {statistics.median(values) * 1e6:.0f} µs, p90 {p90 * 1e6:.0f} µs"

    print(describe("direct to serve      ", direct))
    print(describe("through record       ", through))
    added = (statistics.median(through) - statistics.median(direct)) * 1e6
    print(f"added by the proxy (medians): {added:.0f} µs per request ({len(direct)} requests each)")


if __name__ == "__main__":
    main()
