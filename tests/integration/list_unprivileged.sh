#!/bin/bash
# pmuscope list for a user who is not root, at perf_event_paranoid 2 (Debian's default): an
# event that stat and record count in user space only (task-clock:u, as perf does) is listed
# as countable, "yes, in user space only (task-clock:u)", not "no: permission denied" (which
# left `list --available` with the three tool events only). Checked against what the same
# user's stat counts on Debian's gzip: every software event list calls countable is counted
# there under the name list gives (and perf stat gives the same names), and the clocks are
# listed by `list --available clock`, as the README shows it.
# Run as root, it runs the commands as `nobody` at paranoid 2 (tests/lib/unprivileged.sh).
set -euo pipefail
command -v gzip > /dev/null || { echo "SKIP: gzip is not installed"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/unprivileged.sh"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2 ] || { echo "SKIP: perf_event_paranoid is above 2 (run the test as root)"; exit 77; }
out="$tmp/home"
seq 1 200000 > "$out/in.txt"; chmod 644 "$out/in.txt"

as_user "$pms" list --available clock > "$out/clock.txt" || fail "list --available clock"
for ev in cpu-clock task-clock; do
    grep -Eq "^  $ev +software +yes, in user space only \($ev:u\): perf_event_paranoid is 2\$" "$out/clock.txt" ||
        fail "list --available clock: no line for $ev: $(cat "$out/clock.txt")"
done

# Every software event, as list sees it, against stat's names on gzip (and perf stat's).
as_user "$pms" list --json > "$out/list.json" || fail "list --json"
python3 - "$out/list.json" > "$out/events" <<'PY' || fail "list --json: $(head -c 600 "$out/list.json")"
import json, sys
soft = [e for e in json.load(open(sys.argv[1])) if e["kind"] == "software" and e["name"] != "dummy"]
refused = [e["name"] for e in soft if not e["available"]]
assert not refused, "software events listed as not countable: %s" % refused
assert all(e["user_only"] and e["counted_as"] == e["name"] + ":u" for e in soft), soft
print(",".join(e["name"] for e in soft))
print(",".join(e["counted_as"] for e in soft))
PY
events=$(sed -n 1p "$out/events"); expected=$(sed -n 2p "$out/events")
[ "$(echo "$events" | tr , '\n' | wc -l)" -ge 8 ] || fail "too few software events listed: $events"
as_user "$pms" stat -x, -e "$events" -o "$out/own.csv" -- gzip -c "$out/in.txt" > /dev/null 2> "$out/stat.err" ||
    fail "stat -e $events: $(cat "$out/stat.err")"
as_user perf stat -x, -e "$events" -o "$out/perf.csv" -- gzip -c "$out/in.txt" > /dev/null 2>&1 ||
    fail "perf stat -e $events"
names() { grep -v '^#' "$1" | grep . | cut -d, -f3 | paste -sd,; }
[ "$(names "$out/own.csv")" = "$expected" ] || fail "stat counted $(names "$out/own.csv") where list says $expected"
[ "$(names "$out/perf.csv")" = "$expected" ] || fail "perf stat counted $(names "$out/perf.csv") where list says $expected"
# the clocks really counted gzip's time
awk -F, '$3 == "task-clock:u" && $1 > 0 { ok = 1 } END { exit !ok }' "$out/own.csv" || fail "task-clock:u: $(cat "$out/own.csv")"
echo ok
