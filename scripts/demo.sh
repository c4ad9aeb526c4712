#!/usr/bin/env bash
# `make demo`: records the bundled phases workload and prints its hotspot report.
set -euo pipefail
build=${1:-build}
out=${PMS_DEMO_DIR:-pmuscope-demo}
mkdir -p "$out"
"$build/pmuscope" record --fallback -F 5000 -o "$out/phases.data" -- "$build/workloads/phases"
"$build/pmuscope" report -i "$out/phases.data"
