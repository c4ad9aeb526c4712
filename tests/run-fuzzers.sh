#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each, from its seed corpus.
# A crash, leak or sanitizer report fails the run and leaves the input in BUILD/fuzz-artifacts.
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
for t in "${targets[@]}"; do
  name=$(basename "$t")
  corpus="$build/fuzz-corpus/$name"
  mkdir -p "$corpus"
  seeds="$src/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  "$t" -max_total_time="$seconds" -artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=0 \
       "$corpus" >"$build/fuzz-artifacts/$name.log" 2>&1 || { tail -40 "$build/fuzz-artifacts/$name.log"; exit 1; }
  grep -E '^#[0-9]+.*DONE' "$build/fuzz-artifacts/$name.log" | tail -1 || true
done
echo "fuzz: all targets ran clean"
