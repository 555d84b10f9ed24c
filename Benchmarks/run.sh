#!/usr/bin/env bash
# Benchmarks/run.sh [N ...]  — the standard workload side by side with the Python peers.
#
# Builds scenario-run and scenario-bench in release, linked statically (--static-swift-stdlib), writes the workload for each N (default: 200 1000)
# with generate.py, runs shared/bench/peer/bench.py N with scenario-run as an extra --cmd variant beside
# behave, pytest, pytest-bdd and the bare loop (serially, and with --jobs 2), then measures start-up, max RSS (N=200/1000/10000) and the
# micro-benchmarks. Everything is printed and written to Benchmarks/results/*.md.
#
# Environment:
#   SHARED_DIR     the shared/ folder (default: ../shared from the repository root)
#   SCRATCH_PATH   SwiftPM scratch path for the release build (default: .build-bench-rel)
#   BENCH_RUNS     timed runs per variant and N (default 3; medians)
#   BENCH_ARGS     extra bench.py arguments, e.g. "--pin 0" or "--max-wait 30 --quiet 0.5"
#   SKIP_BUILD     when non-empty, use the binaries already built
#   SKIP_PEERS     when non-empty, skip bench.py (start-up, RSS and micro-benchmarks only)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SHARED_DIR:-$root/../shared}"
peer="$(cd "$shared/bench/peer" && pwd)"
scratch="${SCRATCH_PATH:-.build-bench-rel}"
runs="${BENCH_RUNS:-3}"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200 1000)
work="$root/Benchmarks/work"
results="$root/Benchmarks/results"
mkdir -p "$work" "$results"
stamp="$(date -u +%Y-%m-%dT%H:%MZ)"

cd "$root"
if [ -z "${SKIP_BUILD:-}" ]; then
  for product in scenario-run scenario-bench; do
    if ! swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product"; then
      echo "run.sh: the release build of $product failed. If swift-frontend crashed in Step+Expectations.swift" >&2
      echo "(CopyPropagation), apply Benchmarks/patches/expect-response-release-crash.patch (git apply) and retry." >&2
      exit 1
    fi
  done
fi
bin="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)"
export SHARED_DIR="$shared"

# The peers' venv, as peer/run.sh builds it.
py="$peer/.venv/bin/python"
if [ -z "${SKIP_PEERS:-}" ] && { [ ! -x "$py" ] || ! "$py" -c "import behave, pytest, pytest_bdd, requests" 2>/dev/null; }; then
  python3 -m venv "$peer/.venv"
  "$py" -m pip install -q -r "$peer/requirements.txt"
fi

for n in $(printf "%s\n" "${sizes[@]}" 1000 10000 | sort -nu); do
  rm -rf "$work/$n"
  python3 "$root/Benchmarks/generate.py" "$n" "$work/$n"
done

header() {
  echo "# $1"
  echo
  echo "Measured $stamp on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(git -C "$root" rev-parse --short HEAD)."
  echo
}

if [ -z "${SKIP_PEERS:-}" ]; then
  for n in "${sizes[@]}"; do
    out="$results/side-by-side-N$n.md"
    {
      header "Standard workload, N=$n: scenario-run beside the Python peers"
      echo "Command: \`$py bench.py $n --runs $runs ${BENCH_ARGS:-} --cmd 'scenario-run=cd $work/$n && $bin/scenario-run --ci --junit {junit_dir}/s.xml' --cmd 'scenario-run-jobs2=cd $work/$n && $bin/scenario-run --ci --jobs 2 --junit {junit_dir}/s.xml'\` (cwd $peer)"
      echo
      (cd "$peer" && "$py" bench.py "$n" --runs "$runs" ${BENCH_ARGS:-} \
        --cmd "scenario-run=cd $work/$n && $bin/scenario-run --ci --junit {junit_dir}/s.xml" \
        --cmd "scenario-run-jobs2=cd $work/$n && $bin/scenario-run --ci --jobs 2 --junit {junit_dir}/s.xml" 2>&1)
    } | tee "$out"
  done
fi

{
  header "Start-up and memory"
  echo "## Time to the first scenario"
  echo
  python3 "$root/Benchmarks/measure.py" startup "$bin/scenario-run" "$work/${sizes[0]}" 20
  echo
  echo "## Max RSS (/usr/bin/time -v), whole run"
  echo
  python3 "$root/Benchmarks/measure.py" rss "$bin/scenario-run" "$work/${sizes[0]}" "$work/1000" "$work/10000"
} | tee "$results/startup-rss.md"

{
  header "Micro-benchmarks (scenario-bench, release)"
  "$bin/scenario-bench"
} | tee "$results/micro.md"
