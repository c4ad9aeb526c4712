#!/bin/bash
# pmuscope list: every event with whether this machine can count it and why not.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$PMUSCOPE" list > "$tmp/list.txt"
grep -Eq '^  task-clock +software +yes$' "$tmp/list.txt" || fail "task-clock should be countable"
grep -Eq '^  L1-dcache-load-misses +cache ' "$tmp/list.txt" || fail "cache events missing"
"$PMUSCOPE" list --json > "$tmp/list.json"
python3 - "$tmp/list.json" <<'PY'
import json, os, sys
events = {e["name"]: e for e in json.load(open(sys.argv[1]))}
assert events["page-faults"]["available"] is True
c = events["cycles"]
pmu = any(os.path.exists("/sys/bus/event_source/devices/%s/type" % p) for p in ("cpu", "cpu_core", "armv8_pmuv3_0"))
if not pmu:
    assert c["available"] is False and "no hardware PMU is exposed" in c["reason"], c
PY
# a pattern filters; libpfm4 names appear for a forced PMU
LIBPFM_FORCE_PMU=skl "$PMUSCOPE" list INST_RETIRED > "$tmp/skl.txt"
grep -q "skl::INST_RETIRED " "$tmp/skl.txt" || fail "libpfm4 events of skl missing"
! grep -q "task-clock" "$tmp/skl.txt" || fail "the pattern did not filter"
# perf's generic software events, cgroup-switches included, are listed and counted by stat.
grep -q "^  cgroup-switches  *software  *yes" <("$PMUSCOPE" list cgroup-switches) || fail "cgroup-switches not listed"
"$PMUSCOPE" stat -e cgroup-switches -- true 2>"$tmp/cg.txt" || fail "stat -e cgroup-switches: $(cat "$tmp/cg.txt")"
"$PMUSCOPE" list --available > "$tmp/avail.txt"
! grep -q " no: " "$tmp/avail.txt" || fail "--available shows unavailable events"
echo ok
