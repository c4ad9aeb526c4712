#!/usr/bin/env bash
# OLS fit time, pmuscope (pms_lm_fit) against R's lm() and its bare lm.fit() on the
# same 1,000,000 x 10 table. ROUNDS rounds, each a fresh pmuscope process then a
# fresh R process (interleaved, so that both see the same machine load); each
# process reads the table, fits it FITS times and reports its first fit (the
# per-process time) and the median of the fits after it (the in-one-process time).
# The ratios are of the medians over the rounds. The coefficients and standard
# errors must agree to 1e-9 relative. usage: bench-ols-vs-r.sh [BUILD] [N] [P] [ROUNDS] [FITS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
n=${2:-1000000}
p=${3:-10}
rounds=${4:-5}
fits=${5:-4}
command -v Rscript >/dev/null || { echo "bench-ols-vs-r: Rscript is needed (apt-get install r-base-core)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$build/bench/bench_ols" gen "$n" "$p" "$tmp/data.bin"
cat >"$tmp/lm.R" <<'EOF'
args <- commandArgs(trailingOnly = TRUE)
n <- as.numeric(args[1]); p <- as.integer(args[2]); fits <- as.integer(args[3])
con <- file(args[4], "rb"); v <- readBin(con, "double", n * (p + 1)); close(con)
m <- matrix(v, ncol = p + 1, byrow = TRUE)
d <- as.data.frame(m); names(d) <- c("y", paste0("x", 1:p))
X <- cbind(1, m[, -1]); yy <- m[, 1]
t_lm <- numeric(fits); t_fit <- numeric(fits)
for (r in 1:fits) {
  t_lm[r] <- system.time(fit <- lm(y ~ ., data = d))[["elapsed"]]
  t_fit[r] <- system.time(lm.fit(X, yy))[["elapsed"]]
}
s <- summary(fit)$coefficients
writeLines(sprintf("%s,%.17g,%.17g", c("(Intercept)", paste0("x", 1:p)), s[, 1], s[, 2]), args[5])
warm <- function(t) if (length(t) > 1) median(t[-1]) else t[1]
cat(sprintf("r_lm_first %.6f\nr_lmfit_first %.6f\nr_lm_warm %.6f\nr_lmfit_warm %.6f\n",
            t_lm[1], t_fit[1], warm(t_lm), warm(t_fit)))
EOF
for r in $(seq "$rounds"); do
    "$build/bench/bench_ols" fit "$tmp/data.bin" "$n" "$p" "$fits" "$tmp/ours.csv" >> "$tmp/ours.txt"
    Rscript "$tmp/lm.R" "$n" "$p" "$fits" "$tmp/data.bin" "$tmp/r.csv" >> "$tmp/r.txt"
done
median() {
    awk -v k="$1" '$1 == k { print $2 }' "$2" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
o_first=$(median first_fit_seconds "$tmp/ours.txt"); o_warm=$(median warm_fit_seconds "$tmp/ours.txt")
lm_first=$(median r_lm_first "$tmp/r.txt"); lm_warm=$(median r_lm_warm "$tmp/r.txt")
fit_first=$(median r_lmfit_first "$tmp/r.txt"); fit_warm=$(median r_lmfit_warm "$tmp/r.txt")

# same numbers: every estimate and standard error to 1e-9 relative
paste -d, "$tmp/ours.csv" "$tmp/r.csv" | awk -F, '
  function rel(a, b) { d = a - b; if (d < 0) d = -d; s = (a < 0 ? -a : a); return s > 0 ? d / s : d }
  { if ($1 != $4 || rel($2, $5) > 1e-9 || rel($3, $6) > 1e-9) { print "MISMATCH " $0; bad = 1 }
    if (rel($2, $5) > worst) worst = rel($2, $5); if (rel($3, $6) > worst) worst = rel($3, $6) }
  END { printf "same numbers as R: largest relative difference %.2g\n", worst; exit bad }'

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
printf "table: %s x %s; %s rounds (a pmuscope process, then an R process), %s fits per process; medians\n" \
    "$n" "$p" "$rounds" "$fits"
printf "%-22s %12s %12s\n" "" "per process" "in process"
printf "%-22s %10.3f s %10.3f s\n" "pmuscope pms_lm_fit" "$o_first" "$o_warm"
printf "%-22s %10.3f s %10.3f s\n" "R lm()" "$lm_first" "$lm_warm"
printf "%-22s %10.3f s %10.3f s\n" "R lm.fit() (bare QR)" "$fit_first" "$fit_warm"
printf "%-22s %12s %12s   (goal >= 5x)\n" "ratio to R lm()" "$(ratio "$lm_first" "$o_first")" "$(ratio "$lm_warm" "$o_warm")"
printf "%-22s %12s %12s   (goal >= 1x)\n" "ratio to R lm.fit()" "$(ratio "$fit_first" "$o_first")" "$(ratio "$fit_warm" "$o_warm")"
