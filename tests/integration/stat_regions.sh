#!/usr/bin/env bash
# pmuscope stat --regions on docs/examples/regions.c (a program that uses the region markers
# and nothing else of pmuscope), with software events, which this machine has: on each of 3
# threads at once, region "pages" touching 57 fresh pages 4 times counts exactly 228 page
# faults, "loop" (no new memory) 0, and "work", which holds both, their sum plus the faults of
# the inner regions' first begins (each allocates its record: at most 2 pages); task-clock
# never exceeds a region's time. The table, CSV and JSON agree; misuse gets its message; as an
# unprivileged user (perf_event_paranoid 2) the events count user mode, named NAME:u, as perf.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
prog=$PMS_BUILD_DIR/tests/example_regions
ev=task-clock,page-faults,context-switches

"$PMUSCOPE" stat --regions --json -e "$ev" -o "$tmp/r.json" -- "$prog" -t 3 -p 57 -r 4 -n 100000 ||
    fail "stat --regions --json"
# Under AddressSanitizer, its allocator and shadow memory fault pages of their own around the
# mmap and munmap in "work" (the stores in "pages" go unchecked: exact there too).
sanitized=$(grep -c '^PMS_SANITIZE:BOOL=ON' "$PMS_BUILD_DIR/CMakeCache.txt" || true)
python3 - "$tmp/r.json" "$sanitized" <<'EOF' || fail "the report's counts (above)"
import json, sys
d = json.load(open(sys.argv[1]))
sanitized = sys.argv[2] == "1"
names = [e["name"] for e in d["events"]]
assert names == ["task-clock", "page-faults", "context-switches"], names
assert all(e["read"] == "read(2)" for e in d["events"]), d["events"]   # software events: read(2)
rows = {(r["region"], r["thread"]): r for r in d["regions"]}
threads = sorted({t for _, t in rows})
assert len(threads) == 3, threads
for t in threads:
    pages, loop, work = rows["pages", t], rows["loop", t], rows["work", t]
    pf = lambda r: r["events"]["page-faults"]
    for r in (pages, loop, work):
        assert r["calls"] == 4, r
        for e in r["events"].values():
            assert e["state"] == "counted" and e["uncertainty"] == 0 and e["running_ns"] == e["enabled_ns"], e
        assert r["events"]["task-clock"]["value"] <= r["time_ns"], r
    assert pf(pages)["value"] == 228 and pf(pages)["raw"] == 228, pf(pages)
    assert pf(loop)["value"] == 0, pf(loop)
    extra = pf(work)["value"] - 228
    assert 0 <= extra <= (1000 if sanitized else 2), ("work", t, pf(work))
    print(f"thread {t}: pages 228, loop 0, work 228 + {extra} page faults, 4 calls each")
assert d["errors"] == [], d["errors"]
EOF

# The table (perf's place: the standard error) and CSV of one more run: 3 regions x 3 threads x 3 events.
"$PMUSCOPE" stat --regions -e "$ev" -- "$prog" -t 3 -p 10 2> "$tmp/table.txt" || fail "stat --regions: $(cat "$tmp/table.txt")"
cat "$tmp/table.txt"
for region in work pages loop; do grep -qx "Region $region" "$tmp/table.txt" || fail "no table for $region"; done
grep -Eq '^  thread( +[0-9]+){3} +sum$' "$tmp/table.txt" || fail "no column per thread and their sum"
grep -Eq '^  page-faults +10 +10 +10 +30$' "$tmp/table.txt" || fail "pages: 10 page faults a thread, 30 in all"
"$PMUSCOPE" stat --regions -x, -e "$ev" -o "$tmp/r.csv" -- "$prog" -t 3 -p 10 || fail "stat --regions -x,"
[ "$(head -1 "$tmp/r.csv")" = "region,thread,calls,time_ns,event,value,uncertainty,running_pct" ] || fail "CSV header"
[ "$(tail -n +2 "$tmp/r.csv" | wc -l)" -eq 27 ] || fail "CSV: $(cat "$tmp/r.csv")"
awk -F, '$1 == "pages" && $5 == "page-faults" && $6 != 10 { bad = 1 } END { exit bad }' "$tmp/r.csv" || fail "CSV pages"

# Misuse: a usage error, a program without markers, an event that does not exist.
set +e
"$PMUSCOPE" stat --regions -I 100 -- "$prog" 2> "$tmp/e1"; rc1=$?
"$PMUSCOPE" stat --regions -- true 2> "$tmp/e2"; rc2=$?
"$PMUSCOPE" stat --regions -e no-such-event -- "$prog" > /dev/null 2> "$tmp/e3"; rc3=$?
set -e
[ "$rc1" -eq 2 ] && grep -q -- "--regions runs a command" "$tmp/e1" || fail "-I with --regions: $rc1 $(cat "$tmp/e1")"
[ "$rc2" -eq 1 ] && grep -q "true wrote no region report" "$tmp/e2" || fail "no markers: $rc2 $(cat "$tmp/e2")"
[ "$rc3" -eq 1 ] && grep -q "# error: PMS_REGION_EVENTS: unknown event 'no-such-event'" "$tmp/e3" ||
    fail "a bad event: $rc3 $(cat "$tmp/e3")"

# Unprivileged: the events fall back to user mode where perf_event_paranoid is 2 or more.
if [ "$(id -u)" -eq 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] && id nobody > /dev/null 2>&1; then
    mkdir "$tmp/nobody"
    cp "$prog" "$tmp/nobody/regions"
    chmod 755 "$tmp" "$tmp/nobody/regions"
    chmod 777 "$tmp/nobody"
    su nobody -s /bin/sh -c "cd $tmp/nobody && PMS_REGION_EVENTS=$ev PMS_REGION_OUT=$tmp/nobody/r.json ./regions -p 20" ||
        fail "regions as nobody"
    python3 - "$tmp/nobody/r.json" <<'EOF' || fail "as nobody (above)"
import json, sys
d = json.load(open(sys.argv[1]))
assert [e["name"] for e in d["events"]] == ["task-clock:u", "page-faults:u", "context-switches:u"], d["events"]
pages = [r for r in d["regions"] if r["region"] == "pages"][0]
assert pages["events"]["page-faults:u"]["value"] == 20, pages
print("as nobody: task-clock:u, page-faults:u, context-switches:u; pages 20 page faults")
EOF
fi
echo ok
