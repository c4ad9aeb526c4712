#!/usr/bin/env bash
# CPI stacks for every program of the full ARM Cortex-A15 cBench set
# (../shared/datasets/armpm-cbench, 10,623 intervals, 30 programs x 3 frequencies
# x 2 runs): pmuscope cpistack against the same analysis in R (read.delim, then
# lm per program), side by side, median of RUNS runs each, ratio printed; the base
# CPI of every program must agree with R's to the 4 decimals printed.
# usage: bench-cpistack-armpm.sh [BUILD] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
data=${PMS_SHARED:-$here/../../shared}/datasets/armpm-cbench/cbench-merged-intervals.tsv
[ -r "$data" ] || { echo "bench-cpistack-armpm: $data not found (set PMS_SHARED)" >&2; exit 1; }
command -v Rscript >/dev/null || { echo "bench-cpistack-armpm: Rscript is needed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
freq='CPU(4) Frequency(MHz)=1000'

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
now() { date +%s.%N; }

# the per-program stacks at 1 GHz, OLS (as the paper) and NNLS (no negative components)
"$build/pmuscope" cpistack --group-by Benchmark --where "$freq" --skip 2 --split 1 --brief "$data" >"$tmp/ols.txt"
"$build/pmuscope" cpistack --group-by Benchmark --where "$freq" --skip 2 --split 1 --method nnls --brief "$data" >"$tmp/nnls.txt"
echo "CPI stacks per program, 1 GHz, OLS:"
cat "$tmp/ols.txt"
echo
echo "CPI stacks per program, 1 GHz, NNLS:"
cat "$tmp/nnls.txt"
echo
neg=$(awk 'NR > 1 {for (i = 5; i <= NF - 2; i++) if ($i < 0) n++} END {print n + 0}' "$tmp/ols.txt")
nneg=$(awk 'NR > 1 {for (i = 5; i <= NF - 2; i++) if ($i < 0) n++} END {print n + 0}' "$tmp/nnls.txt")
echo "negative stack components: OLS $neg, NNLS $nneg"

# the same from the raw perf stat -I files: the two event lists (separate runs)
# labelled by their own program windows and merged program by program
raw=$(dirname "$data")/raw
echo
echo "From the raw perf stat files (run 1, 1 GHz), NNLS:"
"$build/pmuscope" cpistack --skip 2 --split 1 --method nnls --brief \
  --programs "$raw/events_list_1/Run_1/1000000/benchmarks.data" --programs "$raw/events_list_2/Run_1/1000000/benchmarks.data" \
  "$raw/events_list_1/Run_1/1000000/events_raw.data" "$raw/events_list_2/Run_1/1000000/events_raw.data" | head -8
echo "..."

cat >"$tmp/stacks.R" <<'EOF'
args <- commandArgs(trailingOnly = TRUE)
d <- read.delim(args[1], check.names = FALSE)
d <- d[d[["CPU(4) Frequency(MHz)"]] == 1000, ]
ev <- c("L1I_CACHE_REFILL", "L1I_TLB_REFILL", "L1D_CACHE_REFILL", "L1D_TLB_REFILL", "BRANCH_MISPRED")
for (prog in unique(d$Benchmark)) {
  p <- d[d$Benchmark == prog, ][-(1:2), ]
  cpi <- p$CPU_CYCLES / p$INST_RETIRED
  x <- as.matrix(p[ev] / p$INST_RETIRED)
  cat(sprintf("%s %.4f\n", prog, coef(lm(cpi ~ x))[[1]]))
}
EOF
for r in $(seq "$runs"); do
  t0=$(now)
  "$build/pmuscope" cpistack --group-by Benchmark --where "$freq" --skip 2 --split 1 --brief "$data" >/dev/null
  t1=$(now)
  Rscript "$tmp/stacks.R" "$data" >"$tmp/r.txt"
  t2=$(now)
  echo "$t0 $t1" | awk '{print $2 - $1}' >>"$tmp/t_ours"
  echo "$t1 $t2" | awk '{print $2 - $1}' >>"$tmp/t_r"
done
# same base CPI per program as R
awk 'NR > 1 {print $1, $5}' "$tmp/ols.txt" | sed 's/ -0.0000$/ 0.0000/' >"$tmp/ours_base"
sed 's/ -0.0000$/ 0.0000/' "$tmp/r.txt" | diff - "$tmp/ours_base" >/dev/null \
  || { echo "bench-cpistack-armpm: base CPI differs from R's:"; diff "$tmp/r.txt" "$tmp/ours_base"; exit 1; }
echo "base CPI of all $(wc -l <"$tmp/r.txt") programs equals R's (4 decimals)"
t_ours=$(median <"$tmp/t_ours")
t_r=$(median <"$tmp/t_r")
printf "read + 30 fits, median of %s: pmuscope %.3f s, R (Rscript) %.3f s, ratio %.1fx\n" "$runs" "$t_ours" "$t_r" \
  "$(awk -v a="$t_r" -v b="$t_ours" 'BEGIN {print a / b}')"
