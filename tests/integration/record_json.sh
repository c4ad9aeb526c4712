#!/usr/bin/env bash
# record --json[=FILE]: the summary as JSON, checked against the perf.data by perf itself
# (perf script counts the samples and shows the periods, perf evlist names the event)
# and against the file (its path and size) and the command's status.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
hot=$PMS_WORKLOADS/hotspots

# --json=FILE, a command that exits 3 after the workload, randomised periods. (The shell
# counts first: PERF_EVENT_IOC_PERIOD reaches the event of the process launched, not the
# copies its children inherit, so the periods change while the shell itself runs.)
set +e
"$PMUSCOPE" record -e cpu-clock -c 200000 --randomize=mask:12 --seed 5 --json="$tmp/r.json" -o "$tmp/r.data" \
    -- sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done; \"$hot\" >/dev/null; exit 3" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 3 ] || fail "exit $rc, wanted the command's 3"
j=$tmp/r.json
cat "$j"
samples=$(perf script -i "$tmp/r.data" -F period 2>/dev/null | wc -l)
[ "$samples" -gt 100 ] || fail "only $samples samples in the file"
[ "$(jq .samples "$j")" -eq "$samples" ] || fail "samples $(jq .samples "$j"), perf script $samples"
grep -q "($samples samples)" "$tmp/err" || fail "the text summary says otherwise: $(cat "$tmp/err")"
[ "$(jq -r .output "$j")" = "$tmp/r.data" ] || fail "output $(jq -r .output "$j")"
[ "$(jq .bytes "$j")" -eq "$(stat -c %s "$tmp/r.data")" ] || fail "bytes $(jq .bytes "$j")"
jq -e '.exited and (.stopped | not) and .exit_code == 3 and .status == "exited with status 3"' "$j" >/dev/null ||
    fail "command status"
jq -e '.command[0] == "sh" and (.command | length) == 3' "$j" >/dev/null || fail "command"
jq -e '.lost == 0 and .throttles >= 0 and .unthrottles >= 0 and .period_changes > 0' "$j" >/dev/null || fail "counts"
jq -e '.events | length == 1' "$j" >/dev/null || fail "one event"
jq -e '.events[0] | .period == 200000 and .randomize == "mask:12" and .seed == 5 and .read == []' "$j" >/dev/null ||
    fail "event: $(jq -c '.events[0]' "$j")"
name=$(perf evlist -i "$tmp/r.data" 2>/dev/null | head -n 1)
[ "$(jq -r '.events[0].name' "$j")" = "$name" ] || fail "event $(jq -r '.events[0].name' "$j"), perf evlist $name"
# every period perf script shows lies in [period, period + 2^12)
perf script -i "$tmp/r.data" -F period 2>/dev/null |
    awk '$1 < 200000 || $1 >= 200000 + 4096 { bad++ } END { exit bad > 0 }' || fail "a period outside the randomisation"

# --json alone: the JSON on stdout (the command writes nothing there), read counters named.
"$PMUSCOPE" record -e cpu-clock -F 1000 --read task-clock,page-faults --json -o "$tmp/f.data" -- "$hot" \
    >"$tmp/f.json" 2>/dev/null
jq -e '.exit_code == 0 and .events[0].frequency == 1000 and .events[0].randomize == null' "$tmp/f.json" >/dev/null ||
    fail "--json on stdout: $(cat "$tmp/f.json")"
jq -e '.events[0].read == ["task-clock", "page-faults"]' "$tmp/f.json" >/dev/null || fail "read counters"
# perf script shows a group member per line: the samples are the lines of the sampling event
[ "$(jq .samples "$tmp/f.json")" -eq "$(perf script -i "$tmp/f.data" -F event 2>/dev/null | grep -c ' cpu-clock:')" ] ||
    fail "samples $(jq .samples "$tmp/f.json") against perf script"

# A failed recording says why once, and its JSON summary says it too (never an empty file:
# a script that reads it learns what happened).
set +e
"$PMUSCOPE" record -e cpu-clock --json="$tmp/none.json" -o "$tmp/n.data" -- /nonexistent 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && [ "$(grep -c '^pmuscope:' "$tmp/err")" -eq 1 ] || fail "failed recording: exit $rc: $(cat "$tmp/err")"
jq -e '.error == "cannot run '"'"'/nonexistent'"'"': No such file or directory" and .samples == 0' "$tmp/none.json" >/dev/null ||
    fail "failed recording: JSON $(cat "$tmp/none.json" 2>&1)"
[ ! -e "$tmp/n.data" ] || fail "a failed recording left n.data"
echo "record_json: ok"
