#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each, from its seed corpus,
# JOBS targets at a time (default 1; FUZZ_JOBS in the environment).
# A crash, leak or any sanitizer report (the fuzz build does not recover from undefined
# behaviour, and the log is checked as well) fails the run and leaves the input in
# BUILD/fuzz-artifacts. Each target's executions per second and total are printed.
set -euo pipefail
build=${1:?usage: run-fuzzers.sh BUILD SECONDS [JOBS]}
seconds=${2:-20}
jobs=${3:-${FUZZ_JOBS:-1}}
src=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=("$build"/fuzz/fuzz_*)
if [ ${#targets[@]} -eq 0 ]; then
  echo "run-fuzzers: no fuzz targets built in $build/fuzz" >&2
  exit 1
fi
mkdir -p "$build/fuzz-artifacts"

# One target; its verdict goes to $log.result: "clean RUNS RATE" or "failed STATUS".
fuzz_one() {
  local t=$1 name corpus log seeds status=0
  name=$(basename "$t")
  corpus="$build/fuzz-corpus/$name"
  log="$build/fuzz-artifacts/$name.log"
  mkdir -p "$corpus"
  seeds="$src/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$t" -max_total_time="$seconds" -artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=1 \
         "$corpus" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ] || grep -qE 'runtime error:|ERROR: [A-Za-z]+Sanitizer|^SUMMARY: [A-Za-z]+Sanitizer' "$log"; then
    echo "failed $status" >"$log.result"
  else
    echo "clean $(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1) \
$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)" >"$log.result"
  fi
}

running=0
for t in "${targets[@]}"; do
  rm -f "$build/fuzz-artifacts/$(basename "$t").log.result"
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

total=0
failed=0
for t in "${targets[@]}"; do
  name=$(basename "$t")
  log="$build/fuzz-artifacts/$name.log"
  read -r verdict a b <"$log.result" || verdict=failed
  if [ "$verdict" = clean ]; then
    echo "fuzz: $name clean: ${a:-?} executions, ${b:-?} per second"
    total=$((total + ${a:-0}))
  else
    tail -40 "$log"
    echo "fuzz: $name failed (exit ${a:-?}); the input is in $build/fuzz-artifacts/" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "fuzz: all ${#targets[@]} targets ran clean: $total executions"
