#!/usr/bin/env bash
# OLS fit time, pmuscope (pms_lm_fit) against R's lm() on the same 1,000,000 x 10
# table, side by side; the median of RUNS fits each; the coefficients and standard
# errors must agree to 1e-9 relative. R's lm.fit (the bare QR, no model frame) is
# shown too. usage: bench-ols-vs-r.sh [BUILD] [N] [P] [RUNS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
n=${2:-1000000}
p=${3:-10}
runs=${4:-5}
command -v Rscript >/dev/null || { echo "bench-ols-vs-r: Rscript is needed (apt-get install r-base-core)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ours=$("$build/bench/bench_ols" "$n" "$p" "$runs" "$tmp/data.bin" "$tmp/ours.csv")
t_ours=$(awk '/^pmuscope_fit_seconds/ {print $2}' <<<"$ours")

cat >"$tmp/lm.R" <<'EOF'
args <- commandArgs(trailingOnly = TRUE)
n <- as.numeric(args[1]); p <- as.integer(args[2]); runs <- as.integer(args[3])
con <- file(args[4], "rb"); v <- readBin(con, "double", n * (p + 1)); close(con)
m <- matrix(v, ncol = p + 1, byrow = TRUE)
d <- as.data.frame(m); names(d) <- c("y", paste0("x", 1:p))
t_lm <- numeric(runs); t_fit <- numeric(runs)
for (r in 1:runs) t_lm[r] <- system.time(fit <- lm(y ~ ., data = d))[["elapsed"]]
X <- cbind(1, m[, -1]); yy <- m[, 1]
for (r in 1:runs) t_fit[r] <- system.time(lm.fit(X, yy))[["elapsed"]]
s <- summary(fit)$coefficients
writeLines(sprintf("%s,%.17g,%.17g", c("(Intercept)", paste0("x", 1:p)), s[, 1], s[, 2]), args[5])
cat(sprintf("r_lm_seconds %.6f\nr_lmfit_seconds %.6f\n", median(t_lm), median(t_fit)))
EOF
theirs=$(Rscript "$tmp/lm.R" "$n" "$p" "$runs" "$tmp/data.bin" "$tmp/r.csv")
t_lm=$(awk '/^r_lm_seconds/ {print $2}' <<<"$theirs")
t_lmfit=$(awk '/^r_lmfit_seconds/ {print $2}' <<<"$theirs")

# same numbers: every estimate and standard error to 1e-9 relative
paste -d, "$tmp/ours.csv" "$tmp/r.csv" | awk -F, '
  function rel(a, b) { d = a - b; if (d < 0) d = -d; s = (a < 0 ? -a : a); return s > 0 ? d / s : d }
  { if ($1 != $4 || rel($2, $5) > 1e-9 || rel($3, $6) > 1e-9) { print "MISMATCH " $0; bad = 1 }
    if (rel($2, $5) > worst) worst = rel($2, $5); if (rel($3, $6) > worst) worst = rel($3, $6) }
  END { printf "same numbers as R: largest relative difference %.2g\n", worst; exit bad }'

printf "table: %s x %s, median of %s fits each\n" "$n" "$p" "$runs"
printf "pmuscope pms_lm_fit : %8.3f s\n" "$t_ours"
printf "R lm()              : %8.3f s   ratio %.1fx (goal >= 5x)\n" "$t_lm" "$(awk -v a="$t_lm" -v b="$t_ours" 'BEGIN {print a / b}')"
printf "R lm.fit() (bare QR): %8.3f s   ratio %.1fx\n" "$t_lmfit" "$(awk -v a="$t_lmfit" -v b="$t_ours" 'BEGIN {print a / b}')"
