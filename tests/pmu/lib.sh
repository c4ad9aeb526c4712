# Shared by the cases of the hardware suite (tests/pmu/cases/*.sh). They run where there is a
# PMU: in the emulated ARM guest of scripts/pmu-vm (busybox sh, PMS_GUEST=1) or directly on a
# host that has one (make test-pmu-host). pmuscope, perf and the workloads are on PATH; files
# written under out/ come back to the host (pmu-vm-out/) for the host-side checks.
# In the guest, -icount shift=0 makes counts exact: one instruction per cycle, user-space
# counts the same in every run. On real hardware the same checks run within tolerances.
mkdir -p out

fail() { echo "FAIL: $*"; exit 1; }

# Skips (exit 77, "skipped: no PMU") where cycles cannot be counted; the guest always can.
need_pmu() {
    if ! pmuscope stat -x, -e cycles:u -- true 2>&1 | grep -q '^[0-9]'; then
        echo "skipped: no PMU"
        exit 77
    fi
}

# Exact in the guest; on real hardware counts vary by a little from run to run.
if [ "${PMS_GUEST:-0}" = 1 ]; then guest=1; else guest=0; fi

# The value of EVENT in perf's CSV (-x,) in FILE ("<not supported>" and the like as they are).
csv_value() { awk -F, -v ev="$2" '$3 == ev { print $1; exit }' "$1"; }

# Succeeds when A and B differ by at most PCT percent of B (exact in the guest when PCT is 0).
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * (b < 0 ? -b : b)) }'; }

# Runs a command in the environment perf gives the commands it runs (it prepends its exec path
# to PATH and exports PREFIX and PERF_BUILDID_DIR): the loader's start-up work grows with the
# environment, so pmuscope's child then starts exactly as perf's does and counts compare exactly.
like_perf() { env PATH="/usr/lib/perf-core:$PATH" PREFIX=/usr PERF_BUILDID_DIR="${HOME:-/root}/.debug" "$@"; }
