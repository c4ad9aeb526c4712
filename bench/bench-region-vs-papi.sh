#!/usr/bin/env bash
# The cost of a counter read and of a region begin/end pair: pmuscope (pms_counterset_read,
# pms_region_begin + pms_region_end) beside PAPI 7 (PAPI_read, PAPI_hl_region_begin +
# PAPI_hl_region_end) on the same events in one group, as a PAPI event set has them
# ({instructions:u,cycles:u} and PAPI_TOT_INS,PAPI_TOT_CYC, both user mode), in one run: RUNS (default 5) runs of OPS (default 20000) operations each,
# interleaved, medians of the wall time and of the thread's CPU time per operation, and the
# ratio pmuscope / PAPI (goal: at most 1.0). The program is tests/papi/pmu_papi.c.
#
# PAPI counts only where there is a PMU. Where there is none (most virtual machines, this
# project's development machine), the run goes to the emulated ARM machine (scripts/pmu-vm,
# QEMU -icount), twice: with kernel.perf_user_access = 1 (pmuscope reads in user space; PAPI 7
# does not on arm64) and 0 (both through read(2)). There time is instructions: one per ns,
# kernel and user alike, so the ratios compare the instructions each library executes, not a
# real machine's nanoseconds.
# Usage: bench-region-vs-papi.sh [BUILD_DIR] (default build/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-5} ops=${OPS:-20000}
pms_events='{instructions:u,cycles:u}' papi_events=PAPI_TOT_INS,PAPI_TOT_CYC
tmp=$(mktemp -d /tmp/pms-bench-papi-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The runs, as "MODE WALL_NS CPU_NS" lines; $1 prefixes each program (empty: here).
cat > "$tmp/runs.sh" <<EOF
for r in \$(seq $runs); do
  for m in papi-read pms-read papi-region pms-region; do
    pmu_papi bench \$m $ops '$pms_events' $papi_events || exit \$?
  done
done
EOF

# Medians of the runs and the ratios, from the lines on stdin.
report() {
    awk -v label="$1" '
        function median(list,   n, a, i, j, t) {
            n = split(list, a, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        { wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " $3 }
        END {
            printf "%s\n%-14s %12s %12s %12s %12s %10s %10s\n", label, "operation", "pmuscope_ns", "PAPI_ns",
                   "pms_cpu_ns", "PAPI_cpu_ns", "ratio", "ratio_cpu"
            split("read region", ops, " ")
            for (k = 1; k <= 2; k++) {
                o = ops[k]; pw = median(wall["pms-" o]); qw = median(wall["papi-" o])
                pc = median(cpu["pms-" o]); qc = median(cpu["papi-" o])
                printf "%-14s %12.1f %12.1f %12.1f %12.1f %10.3f %10.3f\n", o == "read" ? "counter read" : "region pair",
                       pw, qw, pc, qc, pw / qw, pc / qc
            }
        }'
}

echo "events: $pms_events (pmuscope), $papi_events (PAPI); $runs runs of $ops operations, medians"
status=0
PATH="$build/tests:$PATH" bash "$tmp/runs.sh" > "$tmp/here" 2> "$tmp/here.err" || status=$?
if [ "$status" -eq 0 ]; then
    report "this machine ($(uname -m), $(nproc) CPUs):" < "$tmp/here"
    exit 0
fi
[ "$status" -eq 77 ] || { cat "$tmp/here.err" >&2; exit 1; }
echo "here: $(sort -u "$tmp/here.err" | head -1 | sed 's/^pmu_papi: //')"
echo "so in the emulated ARM machine (QEMU -icount: 1 ns per instruction, kernel and user):"
cat > "$tmp/guest.sh" <<'EOF'
echo 2 > /proc/sys/kernel/perf_event_paranoid   # PAPI refuses to start under Debian's 3
for access in 1 0; do
    echo "$access" > /proc/sys/kernel/perf_user_access
    sh runs.sh > out/access$access || exit $?
done
EOF
"$here/../scripts/pmu-vm" --add "$tmp/runs.sh" --add "$tmp/guest.sh" -- sh guest.sh > "$tmp/guest.log" 2>&1 ||
    { cat "$tmp/guest.log" >&2; exit 1; }
report "perf_user_access=1 (pmuscope reads in user space, PAPI through read(2)):" < pmu-vm-out/access1
report "perf_user_access=0 (both through read(2)):" < pmu-vm-out/access0
rm -rf pmu-vm-out
