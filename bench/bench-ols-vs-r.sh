#!/usr/bin/env bash
# OLS fit time, pmuscope (pms_lm_fit) against R's lm() and its bare lm.fit() on the
# same 1,000,000 x 10 table. ROUNDS rounds, each a fresh pmuscope process then a
# fresh R process (interleaved, so that both see the same machine load); each
# process reads the table, fits it FITS times and reports its first fit (the
# per-process time) and the median of the fits after it (the in-one-process time).
# The ratios are of the medians over the rounds, in elapsed time and in CPU time
# (user + system of the process, what the load of a shared machine distorts
# less). The coefficients and standard errors must agree to 1e-9 relative.
# Both sides start from the table in memory as doubles: R's lm() time includes
# its model frame and model matrix, pmuscope's pms_lm_fit the design blocks from
# the row-major array, the QR, coefficients, covariance, fitted values,
# residuals and the statistics of summary.lm but the residual quantiles (computed
# when printed); neither includes reading or parsing the table. usage: bench-ols-vs-r.sh [BUILD] [N] [P] [ROUNDS] [FITS]
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
t_lm <- numeric(fits); t_fit <- numeric(fits); c_lm <- numeric(fits); c_fit <- numeric(fits)
cpu <- function(s) s[["user.self"]] + s[["sys.self"]]
for (r in 1:fits) {
  s <- system.time(fit <- lm(y ~ ., data = d)); t_lm[r] <- s[["elapsed"]]; c_lm[r] <- cpu(s)
  s <- system.time(lm.fit(X, yy)); t_fit[r] <- s[["elapsed"]]; c_fit[r] <- cpu(s)
}
s <- summary(fit)$coefficients
writeLines(sprintf("%s,%.17g,%.17g", c("(Intercept)", paste0("x", 1:p)), s[, 1], s[, 2]), args[5])
warm <- function(t) if (length(t) > 1) median(t[-1]) else t[1]
times <- function(kind, lm, fit)
  cat(sprintf("r_lm_first_%s %.6f\nr_lmfit_first_%s %.6f\nr_lm_warm_%s %.6f\nr_lmfit_warm_%s %.6f\n",
              kind, lm[1], kind, fit[1], kind, warm(lm), kind, warm(fit)))
times("seconds", t_lm, t_fit)
times("cpu", c_lm, c_fit)
EOF
for _ in $(seq "$rounds"); do
    "$build/bench/bench_ols" fit "$tmp/data.bin" "$n" "$p" "$fits" "$tmp/ours.csv" >> "$tmp/ours.txt"
    Rscript "$tmp/lm.R" "$n" "$p" "$fits" "$tmp/data.bin" "$tmp/r.csv" >> "$tmp/r.txt"
done
median() {
    awk -v k="$1" '$1 == k { print $2 }' "$2" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# the six medians of KIND (seconds or cpu): pmuscope, lm, lm.fit; per process then in process
medians() {
    local kind=$1
    echo "$(median "first_fit_$kind" "$tmp/ours.txt") $(median "warm_fit_$kind" "$tmp/ours.txt")" \
        "$(median "r_lm_first_$kind" "$tmp/r.txt") $(median "r_lm_warm_$kind" "$tmp/r.txt")" \
        "$(median "r_lmfit_first_$kind" "$tmp/r.txt") $(median "r_lmfit_warm_$kind" "$tmp/r.txt")"
}

# same numbers: every estimate and standard error to 1e-9 relative
paste -d, "$tmp/ours.csv" "$tmp/r.csv" | awk -F, '
  function rel(a, b) { d = a - b; if (d < 0) d = -d; s = (a < 0 ? -a : a); return s > 0 ? d / s : d }
  { if ($1 != $4 || rel($2, $5) > 1e-9 || rel($3, $6) > 1e-9) { print "MISMATCH " $0; bad = 1 }
    if (rel($2, $5) > worst) worst = rel($2, $5); if (rel($3, $6) > worst) worst = rel($3, $6) }
  END { printf "same numbers as R: largest relative difference %.2g\n", worst; exit bad }'

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
printf "table: %s x %s; %s rounds (a pmuscope process, then an R process), %s fits per process; medians\n" \
    "$n" "$p" "$rounds" "$fits"
table() { # TITLE then the six medians
    local title=$1 o_first=$2 o_warm=$3 lm_first=$4 lm_warm=$5 fit_first=$6 fit_warm=$7
    printf "\n%-22s %12s %12s\n" "$title" "per process" "in process"
    printf "%-22s %10.3f s %10.3f s\n" "pmuscope pms_lm_fit" "$o_first" "$o_warm"
    printf "%-22s %10.3f s %10.3f s\n" "R lm()" "$lm_first" "$lm_warm"
    printf "%-22s %10.3f s %10.3f s\n" "R lm.fit() (bare QR)" "$fit_first" "$fit_warm"
    printf "%-22s %12s %12s   (goal >= 5x)\n" "ratio to R lm()" "$(ratio "$lm_first" "$o_first")" "$(ratio "$lm_warm" "$o_warm")"
    printf "%-22s %12s %12s   (goal >= 1x)\n" "ratio to R lm.fit()" "$(ratio "$fit_first" "$o_first")" "$(ratio "$fit_warm" "$o_warm")"
}
# shellcheck disable=SC2046 # six numbers
table "elapsed time" $(medians seconds)
# shellcheck disable=SC2046
table "CPU time (user+sys)" $(medians cpu)
printf "\nload average: %s\n" "$(cut -d' ' -f1-3 /proc/loadavg)"
