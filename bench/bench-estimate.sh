#!/usr/bin/env bash
# LP and MRA of `pmuscope estimate` against their peers on the same data:
# glpsol solving the LP model file pmuscope writes (--write-lp), and R's lm() on
# the same runs table. Prints the median wall time of 5 runs of each and the ratio
# (peer / pmuscope: above 1 means pmuscope is faster; both times include starting
# the program and reading the CSV). Runs table: 2000 runs x 12
# counters, made with a fixed seed.
set -euo pipefail
build=${1:-build}
pms=$build/pmuscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { srand(7); printf "run,cycles"; for (i = 1; i <= 12; i++) printf ",e%d", i; print ""
    for (j = 1; j <= 2000; j++) { c = 1000; line = ""
        for (i = 1; i <= 12; i++) { v = int(rand() * 1e6 * (1 + j / 100)); c += v * i / 10; line = line "," v }
        printf "TEST%d,%d%s\n", j, c + int(rand() * 1e5), line } }' > "$tmp/runs.csv"
"$pms" estimate "$tmp/runs.csv" --method lp --write-lp "$tmp/m.lp" > /dev/null

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
timeit() { # prints the median seconds of 5 runs of the command
    for _ in 1 2 3 4 5; do
        s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
        awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
    done | median
}
ours_lp=$(timeit "$pms" estimate "$tmp/runs.csv" --method lp)
peer_lp=$(timeit glpsol --lp "$tmp/m.lp" -o /dev/null)
report() { awk -v w="$1" -v o="$2" -v p="$3" -v peer="$4" \
    'BEGIN { printf "%s (2000 runs x 12 counters): pmuscope %.3fs, %s %.3fs, ratio %.2f\n", w, o, peer, p, p / o }'; }
report LP "$ours_lp" "$peer_lp" glpsol
if command -v Rscript > /dev/null; then
    ours_mra=$(timeit "$pms" estimate "$tmp/runs.csv" --method mra)
    peer_mra=$(timeit Rscript -e "d <- read.csv('$tmp/runs.csv'); print(summary(lm(cycles ~ ., d[, -1])))")
    report MRA "$ours_mra" "$peer_mra" "R lm"
fi
