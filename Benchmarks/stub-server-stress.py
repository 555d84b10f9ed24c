#!/usr/bin/env python3
"""Stress the stub server of `scenario-run serve` with malformed, oversized, slow and abandoned requests.

Starts `scenario-run serve` as a child process over a throw-away project, measures the p50 latency of
valid requests and the server's RSS (VmRSS of /proc/PID/status) and open sockets (/proc/PID/fd) before,
then sends ROUNDS rounds of REQUESTS bad requests from WORKERS threads while a probe thread times valid
requests, waits until the server has closed every bad connection, and measures again after each round.
Bounded loops on loopback, no sleeps but the probe's pacing. Prints the figures; exits 1 when the server
stopped answering valid requests, kept a connection open, or grew by more than --max-growth-mb between
the end of the first round and the end of the last (default 45 MB: the request journal may fill its
32 MiB budget with the 64 KiB it keeps of each chunked body; run 6 rounds or more to see RSS flat once
it has).

    Benchmarks/stub-server-stress.py [--binary .build/debug/scenario-run] [--requests 10000] [--rounds 2]

Mix per round (weights): garbage request lines 25, 20,000 headers 15, 10 MB bodies declared by
Content-Length 3, 10 MB chunked bodies 1, half-sent heads abandoned 25, half-sent heads held until the
server gives up (408 after its 10 s head timeout) 5, connections opened and closed without a byte 26.
"""

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

MIX = [
    ("garbage request line", 25),
    ("20,000 headers", 15),
    ("10 MB body, Content-Length", 3),
    ("10 MB body, chunked", 1),
    ("half-sent head, abandoned", 25),
    ("half-sent head, held", 5),
    ("connect and close", 26),
]
TEN_MB = 10 * 1024 * 1024
HEADERS = "".join(f"X-Header-{i}: value\r\n" for i in range(20_000)).encode()
BLOCK = b"x" * (1 << 20)


def start_server(binary, project):
    proc = subprocess.Popen(
        [binary, "serve", "--port", "0"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    if " at http://" not in line:
        proc.kill()
        sys.exit(f"serve did not start: {line!r}")
    url = line.strip().split(" at ")[-1]
    port = int(url.rsplit(":", 1)[1])
    return proc, port


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_sockets(pid):
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                count += 1
        except OSError:
            pass
    return count


def read_until_eof(sock, timeout):
    sock.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return data, "eof"
            data += chunk
    except socket.timeout:
        return data, "timeout"
    except ConnectionResetError:
        return data, "reset"


def status_of(data):
    parts = data.split(b" ", 2)
    return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None


def valid_request(port):
    """One GET of the templated fixture route (matched by `when:`) on a fresh connection; its latency in
    seconds, or None when it failed."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /ok.json?probe=7 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data, _ = read_until_eof(sock, 10)
    except OSError:
        return None
    if status_of(data) != 200 or not data.endswith(b'{"ok": true, "probe": 7}'):
        return None
    return time.perf_counter() - start


def bad_request(port, kind, held):
    """Sends one bad request; returns (kind, outcome). A held connection is added to `held`, read later."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    except OSError as error:
        return kind, f"connect failed: {error.__class__.__name__}"
    try:
        if kind == "garbage request line":
            sock.sendall(b"GARBAGE \x01\x02 NONSENSE\r\n\r\n")
        elif kind == "20,000 headers":
            sock.sendall(b"GET /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\n" + HEADERS + b"\r\n")
        elif kind == "10 MB body, Content-Length":
            sock.sendall(b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n" % TEN_MB)
            for _ in range(10):
                sock.sendall(BLOCK)
        elif kind == "10 MB body, chunked":
            sock.sendall(b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in range(10):
                sock.sendall(b"%x\r\n" % len(BLOCK) + BLOCK + b"\r\n")
            sock.sendall(b"0\r\n\r\n")
        elif kind == "half-sent head, abandoned":
            sock.sendall(b"GET /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
            return kind, "abandoned"
        elif kind == "half-sent head, held":
            sock.sendall(b"GET /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(sock)
            sock = None
            return kind, "held"
        elif kind == "connect and close":
            return kind, "closed"
        data, end = read_until_eof(sock, 30)
        return kind, f"{status_of(data)} then {end}"
    except (BrokenPipeError, ConnectionResetError) as error:
        # The server closed before the client finished sending; what it answered is still readable.
        data, _ = read_until_eof(sock, 5)
        return kind, f"{status_of(data)} then {error.__class__.__name__}"
    finally:
        if sock is not None:
            sock.close()


def p50_ms(latencies):
    return statistics.median(latencies) * 1000 if latencies else float("nan")


def baseline(port, count):
    latencies = [valid_request(port) for _ in range(count)]
    return [latency for latency in latencies if latency is not None], latencies.count(None)


def wait_for_sockets(pid, at_most, timeout):
    """Waits until the server holds at most `at_most` sockets (the listener, the journal's nothing else)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if open_sockets(pid) <= at_most:
            return True
        time.sleep(0.05)
    return open_sockets(pid) <= at_most


def run_round(pid, port, requests, workers, seed):
    rng = random.Random(seed)
    kinds = rng.choices([kind for kind, _ in MIX], weights=[weight for _, weight in MIX], k=requests)
    outcomes = {}
    held = []
    during = []
    failures = [0]
    peak = [0]
    stop = threading.Event()

    def probe():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kb(pid))
            latency = valid_request(port)
            if latency is None:
                failures[0] += 1
            else:
                during.append(latency)
            stop.wait(0.02)

    prober = threading.Thread(target=probe)
    prober.start()
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for kind, outcome in pool.map(lambda kind: bad_request(port, kind, held), kinds):
            outcomes.setdefault(kind, {}).setdefault(outcome, 0)
            outcomes[kind][outcome] += 1
    sent = time.perf_counter() - start
    # The held heads: each must end with the server's 408 once its head timeout is up.
    outcomes["half-sent head, held"] = {}
    for sock in held:
        data, end = read_until_eof(sock, 30)
        sock.close()
        outcome = f"{status_of(data)} then {end}"
        outcomes["half-sent head, held"][outcome] = outcomes["half-sent head, held"].get(outcome, 0) + 1
    elapsed = time.perf_counter() - start
    stop.set()
    prober.join()
    return outcomes, sent, elapsed, during, failures[0], peak[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/scenario-run")
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--baseline", type=int, default=200)
    parser.add_argument("--max-growth-mb", type=float, default=45)
    args = parser.parse_args()

    binary = os.path.abspath(args.binary)
    with tempfile.TemporaryDirectory(prefix="stub-stress-") as project:
        os.makedirs(f"{project}/Fixtures")
        with open(f"{project}/Fixtures/server.yml", "w") as routes:
            # Routes that match with `when:` and answer through templates (docs/server.md).
            routes.write(
                "routes:\n"
                "  - path: /ok.json\n"
                "    method: GET\n"
                "    when: { query: { probe: { matches: '^[0-9]+$' } }, headers: { Host: { matches: '^127' } } }\n"
                "    fixture: ok.json\n"
                "    template: true\n"
                "  - { path: /upload, method: POST, when: { json: { a: 1 } }, status: 201, json: { n: '{{sequence}}' } }\n"
                "  - { path: /upload, method: POST, status: 201, body: stored }\n"
            )
        with open(f"{project}/Fixtures/ok.json", "w") as fixture:
            fixture.write('{"ok": true, "probe": {{request.query.probe}}}')
        proc, port = start_server(binary, project)
        ok = True
        try:
            pid = proc.pid
            print(f"scenario-run serve (pid {pid}) on 127.0.0.1:{port}; {args.rounds} round(s) of "
                  f"{args.requests:,} bad requests from {args.workers} threads")
            baseline(port, 50)  # warm-up
            before, failed = baseline(port, args.baseline)
            sockets_idle = open_sockets(pid)
            rss_before = rss_kb(pid)
            print(f"before: RSS {rss_before / 1024:.1f} MB, {sockets_idle} socket(s), "
                  f"valid p50 {p50_ms(before):.2f} ms ({len(before)} requests, {failed} failed)")
            rss_after_rounds = []
            for number in range(1, args.rounds + 1):
                outcomes, sent, elapsed, during, failed_during, peak = run_round(
                    pid, port, args.requests, args.workers, number
                )
                print(f"round {number}: {args.requests:,} bad requests sent in {sent:.1f} s, the held ones "
                      f"answered by {elapsed:.1f} s; "
                      f"valid requests meanwhile: p50 {p50_ms(during):.2f} ms "
                      f"({len(during)} requests, {failed_during} failed); RSS during: at most {peak / 1024:.1f} MB")
                for kind, _ in MIX:
                    seen = ", ".join(f"{count:,}× {outcome}" for outcome, count in sorted(outcomes.get(kind, {}).items()))
                    print(f"    {kind}: {seen}")
                closed = wait_for_sockets(pid, sockets_idle, 30)
                after, failed = baseline(port, args.baseline)
                wait_for_sockets(pid, sockets_idle, 10)
                rss = rss_kb(pid)
                rss_after_rounds.append(rss)
                print(f"  after round {number}: RSS {rss / 1024:.1f} MB, {open_sockets(pid)} socket(s) "
                      f"({'all bad connections closed' if closed else 'CONNECTIONS LEFT OPEN'}), "
                      f"valid p50 {p50_ms(after):.2f} ms ({len(after)} requests, {failed} failed)")
                ok = ok and closed and failed == 0 and failed_during == 0
            growth = (rss_after_rounds[-1] - rss_after_rounds[0]) / 1024
            last = (rss_after_rounds[-1] - rss_after_rounds[-2]) / 1024 if len(rss_after_rounds) > 1 else 0
            print(f"RSS: before {rss_before / 1024:.1f} MB, after round 1 {rss_after_rounds[0] / 1024:.1f} MB, "
                  f"after round {args.rounds} {rss_after_rounds[-1] / 1024:.1f} MB "
                  f"(growth after round 1: {growth:+.1f} MB, over the last round: {last:+.1f} MB)")
            ok = ok and growth <= args.max_growth_mb
        finally:
            proc.send_signal(2)
            try:
                output, _ = proc.communicate(timeout=15)
                last = [line for line in output.splitlines() if line.strip()]
                if last:
                    print(f"serve: {last[-1]}")
            except subprocess.TimeoutExpired:
                proc.kill()
                print("serve did not stop within 15 s of SIGINT")
                ok = False
        print("PASS" if ok else "FAIL")
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
