#!/bin/bash
# Build-ids that come in the data, where perf inject -b puts them (a HEADER_BUILD_ID record
# before the first sample of each binary, in a pipe-mode stream): pmuscope report takes
# them. The hotspots binary recorded by perf record -o - | perf inject -b, then replaced by
# another build: pmuscope warns that the file's build-id differs from the one recorded
# (naming the recorded one, which perf buildid-list lists) and leaves it without symbols, as
# perf report does (by binary and symbol the two tables agree); with the recorded build in
# place there is no warning and the hot functions are named.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
fail() { echo "FAIL: $*" >&2; exit 1; }
cp "$PMS_WORKLOADS/hotspots" "$tmp/hs"
perf record -q -e cpu-clock -c 100000 -o - "$tmp/hs" 2>/dev/null | perf inject -b -o "$tmp/inj.data" || fail "perf record | perf inject -b"
recorded=$(perf buildid-list -i "$tmp/inj.data" 2>/dev/null | awk -v f="$tmp/hs" '$2 == f {print $1}')
[ -n "$recorded" ] || fail "perf buildid-list shows no build-id for $tmp/hs"
"$PMUSCOPE" report -i "$tmp/inj.data" --limit 3 > "$tmp/same.txt" 2> "$tmp/same.err"
! grep -q "build-id" "$tmp/same.err" || fail "a build-id warning with the recorded build in place: $(cat "$tmp/same.err")"
grep -q " hot_a$" "$tmp/same.txt" || fail "hot_a not named with the recorded build: $(cat "$tmp/same.txt")"
cp "$PMS_WORKLOADS/loop" "$tmp/hs" # another build under the recorded name
"$PMUSCOPE" report -i "$tmp/inj.data" --limit 3 > "$tmp/other.txt" 2> "$tmp/other.err"
grep -q "$recorded" "$tmp/other.err" && grep -q "$tmp/hs" "$tmp/other.err" ||
    fail "no warning naming $tmp/hs and its recorded build-id $recorded: $(cat "$tmp/other.err")"
! grep -q " hot_a$" "$tmp/other.txt" || fail "another build's symbols were used"
python3 - "$PMUSCOPE" "$tmp/inj.data" "$(dirname "$0")" <<'PY'
import sys
pmuscope, path, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import perf_table, our_table
theirs, mine = perf_table(path, "dso,sym"), our_table(pmuscope, path, "dso,sym")
bad = ["%s: pmuscope %.2f%% perf %.2f%%" % (k, mine.get(k, 0), theirs.get(k, 0)) for k in sorted(set(theirs) | set(mine))
       if max(mine.get(k, 0), theirs.get(k, 0)) > 1 and abs(mine.get(k, 0) - theirs.get(k, 0)) > 0.105]
if bad or not theirs:
    sys.exit("FAIL: --sort dso,sym differs from perf report on the rebuilt binary:\n  " + "\n  ".join(bad))
PY
echo "pipe_injected_build_ids: $(head -1 "$tmp/other.err")"
