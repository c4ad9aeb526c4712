#!/bin/bash
# stat -G counts the tasks of a cgroup, as perf stat --for-each-cgroup (-G for every event) does: a workload moved into a fresh
# cgroup is counted there by both (the same columns -x, gives: unit, event, cgroup; page-faults
# within 5% of each other, as two runs of it differ), with --json-lines' "cgroup" and the
# plain table's column; -G CG,/ counts the root cgroup too, which holds at least as much; a
# cgroup that does not exist is named in the error. Where the kernel refuses system-wide events
# (perf_event_paranoid without the privilege) the test says so and is skipped.
set -euo pipefail
tmp=$(mktemp -d)
cg=pmuscope-test-$$
root=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
cleanup() { [ -n "$root" ] && rmdir "$root/$cg" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -n "$root" ] || fail "no cgroup2 hierarchy is mounted"
mkdir "$root/$cg"
# The workload, moved into the cgroup before it execs.
work=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$root/$cg" "$PMS_WORKLOADS/phases" --repeat 2)
ev=task-clock,page-faults

rc=0; "$PMUSCOPE" stat -x, -G "$cg" -e $ev -o "$tmp/ours.csv" -- "${work[@]}" 2> "$tmp/err" || rc=$?
if [ "$rc" != 0 ] && grep -qi 'permission denied\|perf_event_paranoid' "$tmp/err"; then
    echo "SKIP: the kernel refuses system-wide events here: $(cat "$tmp/err")"; exit 77
fi
[ "$rc" = 0 ] || fail "stat -G: $rc $(cat "$tmp/err")"
perf stat -a -x, -e $ev --for-each-cgroup "$cg" -o "$tmp/perf.csv" -- "${work[@]}" || fail "perf stat -G"
cols() { grep -v '^#' "$1" | grep . | cut -d, -f"$2"; }
diff <(cols "$tmp/perf.csv" 2,3,4) <(cols "$tmp/ours.csv" 2,3,4) || fail "-x, columns differ from perf's"
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }
a=$(val "$tmp/ours.csv" page-faults) b=$(val "$tmp/perf.csv" page-faults)
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 1000 && d <= 0.05 * b) }' ||
    fail "page-faults in the cgroup: pmuscope $a, perf $b"
awk -F, '$3 == "task-clock" { exit !($1 > 0) }' "$tmp/ours.csv" || fail "no task-clock in the cgroup"

# The root cgroup beside it: at least the cgroup's counts; JSON lines and the plain table name each.
"$PMUSCOPE" stat -j -G "$cg,/" -e page-faults -o "$tmp/both.json" -- "${work[@]}"
python3 - "$tmp/both.json" <<'PY' || fail "-G CG,/: $(cat "$tmp/both.json")"
import json, sys
rows = {r["cgroup"]: float(r["counter-value"]) for r in map(json.loads, open(sys.argv[1])) if "cgroup" in r}
cg = [k for k in rows if k != "/"][0]
assert rows["/"] >= rows[cg] > 1000, rows
PY
"$PMUSCOPE" stat -G "$cg" -e page-faults -o "$tmp/plain.txt" -- "${work[@]}"
grep -Eq "^ +[0-9]+ +page-faults +$cg( |$)" "$tmp/plain.txt" || fail "plain table: $(cat "$tmp/plain.txt")"

set +e; "$PMUSCOPE" stat -G no-such-cgroup-$$ -e page-faults -- true 2> "$tmp/e"; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "cgroup 'no-such-cgroup-$$': cannot open $root/no-such-cgroup-$$" "$tmp/e" ||
    fail "a missing cgroup: $rc $(cat "$tmp/e")"
echo "page-faults in $cg: pmuscope $a, perf $b"
