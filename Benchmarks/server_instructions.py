#!/usr/bin/env python3
"""Instructions per request of the stub server alone (callgrind), and where they go.

Runs `scenario-run serve` on the standard workload's fixtures under callgrind, sends it N requests pairs
— `GET /restaurants` (20 restaurants) and `POST /review` — on one kept-alive connection from this
process (not counted), at two sizes, and takes the difference: what one more pair costs the server,
without start-up. Prints the total and the parts of instructions.py.

    python3 Benchmarks/server_instructions.py BIN [--pairs 1000,3000] [--shared DIR] [--keep DIR]

Needs what instructions.py needs; about two minutes.
"""
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import instructions

REVIEW = b'{"review":{"restaurantID":1,"title":"Whatever"}}'


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(binary, shim, workdir, pairs, out):
    port = free_port()
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "serve", "--port", str(port)],
        cwd=workdir, env=dict(os.environ, LD_PRELOAD=shim), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request("GET", "/restaurants")
                connection.getresponse().read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    sys.exit("server_instructions.py: the server did not start")
                time.sleep(0.2)
        for _ in range(pairs):
            connection.request("GET", "/restaurants")
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                sys.exit(f"server_instructions.py: GET /restaurants answered {response.status}")
            connection.request("POST", "/review", body=REVIEW, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            if response.status != 201:
                sys.exit(f"server_instructions.py: POST /review answered {response.status}")
        connection.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=120)


def main():
    parser = instructions.arguments(__doc__)
    parser.add_argument("--pairs", default="1000,3000")
    args = parser.parse_args()
    small, large = (int(count) for count in args.pairs.split(","))
    scratch, binary, shim = instructions.prepare(args, "server_instructions")
    workdir = os.path.join(scratch, "workload")
    if not os.path.isdir(workdir):
        instructions.generate(1, workdir, args)
    results = {}
    for pairs in (small, large):
        out = os.path.join(scratch, f"callgrind-{pairs}.out")
        serve(binary, shim, workdir, pairs, out)
        results[pairs] = instructions.parts(out)
    (total_small, parts_small), (total_large, parts_large) = results[small], results[large]
    per = (total_large - total_small) / (large - small) / 2
    print(f"The stub server, `serve`, GET /restaurants and POST /review on one connection: "
          f"**{per / 1e3:,.0f} k instructions a request**.\n")
    print("| part (each function's own instructions) | k per request |")
    print("|---|---:|")
    for name in sorted(parts_large, key=lambda name: parts_small[name] - parts_large[name]):
        print(f"| {name} | {(parts_large[name] - parts_small[name]) / (large - small) / 2 / 1e3:,.1f} |")
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
