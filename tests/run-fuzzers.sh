#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each, from its seed corpus.
# A crash, leak or any sanitizer report (the fuzz build does not recover from undefined
# behaviour, and the log is checked as well) fails the run and leaves the input in
# BUILD/fuzz-artifacts. Each target's executions per second and total are printed.
set -euo pipefail
build=${1:?usage: run-fuzzers.sh BUILD SECONDS}
seconds=${2:-20}
src=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=("$build"/fuzz/fuzz_*)
if [ ${#targets[@]} -eq 0 ]; then
  echo "run-fuzzers: no fuzz targets built in $build/fuzz" >&2
  exit 1
fi
mkdir -p "$build/fuzz-artifacts"
total=0
for t in "${targets[@]}"; do
  name=$(basename "$t")
  corpus="$build/fuzz-corpus/$name"
  log="$build/fuzz-artifacts/$name.log"
  mkdir -p "$corpus"
  seeds="$src/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  status=0
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$t" -max_total_time="$seconds" -artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=1 \
         "$corpus" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ] || grep -qE 'runtime error:|ERROR: [A-Za-z]+Sanitizer|^SUMMARY: [A-Za-z]+Sanitizer' "$log"; then
    tail -40 "$log"
    echo "fuzz: $name failed (exit $status); the input is in $build/fuzz-artifacts/" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  echo "fuzz: $name clean: ${runs:-?} executions, ${rate:-?} per second"
  total=$((total + ${runs:-0}))
done
echo "fuzz: all ${#targets[@]} targets ran clean: $total executions"
