#!/usr/bin/env bash
# How late the live phase monitor decides, in wall time and in the target's samples: a
# launched command (a buffer per CPU), an attached process (a buffer per thread) and, as
# the peer, a process monitoring its own single thread (one buffer, nothing to wait for);
# medians and 90th percentiles over RUNS runs of `phases --sequence AD --ms 500` each.
# tests/unit/test_phase_latency.c asserts the bound in the target's samples; the wall-time
# numbers here follow the machine's load.
# usage: bench-phase-latency.sh [BUILD]   (env RUNS, default 3)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
"$build/bench/bench_phase_latency" "${RUNS:-3}" "$build/workloads/phases"
