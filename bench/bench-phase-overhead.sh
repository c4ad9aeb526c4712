#!/usr/bin/env bash
# The phase monitor's overhead with both sides counted: the phases workload alone and under
# the live monitor at its defaults, in turn, RUNS times (bench_phase_overhead: the command's
# CPU time by getrusage(RUSAGE_CHILDREN), the monitor's own by getrusage(RUSAGE_SELF)); the
# medians and the ratio (command + monitor) / command alone. The thesis's goal: below 1%.
# usage: bench-phase-overhead.sh [BUILD]   (env RUNS, default 9; WORKLOAD, default
#        "--units 1000 --repeat 2")
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
read -r -a wargs <<<"${WORKLOAD:---units 1000 --repeat 2}"
"$build/bench/bench_phase_overhead" "${RUNS:-9}" "$build/workloads/phases" "${wargs[@]}"
