#!/usr/bin/env bash
# olr on recorded sample streams: speed of wm and opt, reduction and max error of both
# (opt at wm's own max error), and the bytes of the segments against zstd -19 and xz -9
# of the same raw stream (peers measured side by side, here).
# Streams: perf record -e '{cpu-clock,page-faults,context-switches}:S' -c 20000 on the
# bundled workloads (about 50 thousand samples per second of run time).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

record() { # name, workload...
  local name=$1; shift
  if perf record -q -e '{cpu-clock,page-faults,context-switches}:S' -c 20000 -o "$tmp/$name.data" \
       -- "$@" > /dev/null 2>&1; then
    "$build/pmuscope" olr --samples "$tmp/$name.csv" "$tmp/$name.data" > /dev/null
    echo "$tmp/$name.csv"
  fi
}

streams=()
s=$(record phases "$build/workloads/phases" --units 250 --repeat 2) && [ -n "$s" ] && streams+=("$s")
s=$(record sizes "$build/workloads/sizes" 24) && [ -n "$s" ] && streams+=("$s")

run_peer() { # tool args..., prints "bytes seconds"
  local t0 t1 bytes
  t0=$(date +%s.%N)
  bytes=$("$@" -c "$raw" | wc -c)
  t1=$(date +%s.%N)
  echo "$bytes $(echo "$t1 - $t0" | bc -l)"
}

if [ ${#streams[@]} -eq 0 ]; then
  echo "perf record failed: falling back to a SYNTHETIC stream (generator)"
  "$build/bench/bench_olr" --raw "$tmp/gen.bin" --generate 1000000 | tee "$tmp/out.txt"
  streams=(generated)
fi

for st in "${streams[@]}"; do
  echo "== $(basename "$st")"
  raw="$tmp/stream.bin"
  if [ "$st" != generated ]; then
    "$build/bench/bench_olr" --raw "$raw" "$st" | tee "$tmp/out.txt"
  else
    raw="$tmp/gen.bin"
  fi
  read -r zbytes zsec < <(run_peer zstd -19 -q)
  read -r xbytes xsec < <(run_peer xz -9)
  rawbytes=$(stat -c %s "$raw")
  read -r wmb optb < <(awk '/^segment bytes:/ { print $4, $6 }' "$tmp/out.txt")
  samples=$(awk '/^stream:/ { for (i = 1; i <= NF; i++) if ($i == "samples,") print $(i-1) }' "$tmp/out.txt")
  printf 'bytes: raw %d, zstd -19 %d, xz -9 %d, wm segments %d, opt segments %d\n' \
    "$rawbytes" "$zbytes" "$xbytes" "$wmb" "$optb"
  printf 'ratio: opt segments are %.1fx smaller than zstd -19, %.1fx smaller than xz -9 (wm: %.2fx, %.2fx)\n' \
    "$(echo "$zbytes / $optb" | bc -l)" "$(echo "$xbytes / $optb" | bc -l)" \
    "$(echo "$zbytes / $wmb" | bc -l)" "$(echo "$xbytes / $wmb" | bc -l)"
  printf 'peer speed: zstd -19 %.2f M samples/s, xz -9 %.2f M samples/s (all counters of a sample)\n' \
    "$(echo "$samples / $zsec / 1000000" | bc -l)" "$(echo "$samples / $xsec / 1000000" | bc -l)"
done
