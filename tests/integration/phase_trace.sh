#!/usr/bin/env bash
# pmuscope phase --trace: the timeline as Chrome trace event JSON. Every event is checked
# against the trace event format's documented fields (ph, name, pid, tid, ts and dur in
# microseconds, args; "X" complete events with a duration, "C" counters with numeric args,
# "M" metadata naming process and thread), and against the same run's --json intervals:
# one "X" slice per run of consecutive intervals in one phase, covering exactly those
# intervals' times, and one "C" event per interval with a metric, holding it. On a perf.data from
# perf record (times) and an exp-bbv file (no times: sizes stand in).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

perf record -q -e cpu-clock -c 100000 -o "$tmp/perf.data" -- "$PMS_WORKLOADS/phases" >/dev/null 2>&1
"$PMUSCOPE" phase --trace "$tmp/perf.json" --json="$tmp/perf.run.json" -q "$tmp/perf.data" >/dev/null
F=$PMS_FIXTURES/bbv
"$PMUSCOPE" phase --pc "$F/two.pc" --transition 1 --trace "$tmp/bbv.json" --json="$tmp/bbv.run.json" -q "$F/two.bb" >/dev/null

check() { # TRACE RUN_JSON TIMED
python3 - "$@" <<'PY'
import json, sys
trace_path, run_path, timed = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
def fail(msg):
    sys.exit(f"FAIL: {trace_path}: {msg}")
doc = json.load(open(trace_path))
run = json.load(open(run_path))
if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
    fail("not the JSON object format: no traceEvents array")
if doc.get("displayTimeUnit") not in (None, "ms", "ns"):
    fail(f"displayTimeUnit {doc.get('displayTimeUnit')!r} is neither ms nor ns")
num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
slices, counters, meta = [], [], []
for k, e in enumerate(doc["traceEvents"]):
    where = f"event {k} {e!r}"
    if not isinstance(e.get("name"), str) or not isinstance(e.get("ph"), str):
        fail(f"{where}: name and ph must be strings")
    if not isinstance(e.get("pid"), int):
        fail(f"{where}: pid must be an integer")
    if e["ph"] == "X":
        if not (num(e.get("ts")) and num(e.get("dur")) and e["ts"] >= 0 and e["dur"] >= 0):
            fail(f"{where}: a complete event needs ts and dur, microseconds >= 0")
        if not isinstance(e.get("tid"), int):
            fail(f"{where}: a complete event needs a tid")
        slices.append(e)
    elif e["ph"] == "C":
        args = e.get("args")
        if not num(e.get("ts")) or not isinstance(args, dict) or not args or not all(num(v) for v in args.values()):
            fail(f"{where}: a counter event needs ts and numeric args")
        counters.append(e)
    elif e["ph"] == "M":
        if e["name"] not in ("process_name", "thread_name") or not isinstance(e.get("args", {}).get("name"), str):
            fail(f"{where}: metadata must name the process or thread in args.name")
        meta.append(e["name"])
    else:
        fail(f"{where}: phase type {e['ph']!r} is not one pmuscope writes")
if sorted(meta) != ["process_name", "thread_name"]:
    fail(f"metadata events {meta}")
iv = run["intervals"]
if not iv:
    fail("the run has no intervals")
# Runs of one phase in the intervals, in order.
runs = []
for i, x in enumerate(iv):
    if runs and iv[runs[-1][0]]["phase"] == x["phase"]:
        runs[-1][1] = i
    else:
        runs.append([i, i])
if len(slices) != len(runs):
    fail(f"{len(slices)} slices for {len(runs)} runs of one phase")
t0 = min(x["start_ns"] for x in iv)
def span(i):  # microseconds from the earliest start; an end before its start counts as the start
    if timed:
        start = (iv[i]["start_ns"] - t0) / 1e3
        return start, max(start, (iv[i]["end_ns"] - t0) / 1e3)
    at = sum(x["size"] for x in iv[:i])
    return at, at + iv[i]["size"]
close = lambda a, b: abs(a - b) <= 1e-3 * max(1.0, abs(b))
for s, (a, b) in zip(slices, runs):
    want_ts, want_end = span(a)[0], span(b)[1]
    if s["args"]["phase"] != iv[a]["phase"] or s["args"]["intervals"] != b - a + 1:
        fail(f"slice {s} is not intervals {a}..{b} of phase {iv[a]['phase']}")
    if not close(s["ts"], want_ts) or not close(s["ts"] + s["dur"], max(want_ts, want_end)):
        fail(f"slice {s}: want ts {want_ts} end {want_end}")
measured = [(i, x) for i, x in enumerate(iv) if x["metric"] is not None]  # JSON null: no metric
if len(counters) != len(measured):
    fail(f"{len(counters)} counter events for {len(measured)} intervals with a metric")
for c, (i, x) in zip(counters, measured):
    if not close(c["ts"], span(i)[0]) or not close(c["args"]["value"], x["metric"]):
        fail(f"counter {c}: want ts {span(i)[0]} value {x['metric']}")
print(f"{trace_path}: {len(slices)} slices, {len(counters)} counters ok")
PY
}
check "$tmp/perf.json" "$tmp/perf.run.json" 1
check "$tmp/bbv.json" "$tmp/bbv.run.json" 0
# More than one phase in the workload's timeline, so that slices were really cut.
[ "$(python3 -c 'import json,sys; print(sum(e["ph"] == "X" for e in json.load(open(sys.argv[1]))["traceEvents"]))' "$tmp/perf.json")" -ge 2 ] ||
    fail "one slice only for the phases workload"
if "$PMUSCOPE" phase --trace "$tmp/nodir/t.json" -q "$F/two.bb" --pc "$F/two.pc" >/dev/null 2>"$tmp/err"; then fail "unwritable trace accepted"; fi
grep -q "nodir/t.json" "$tmp/err" || fail "the message does not name the trace file: $(cat "$tmp/err")"
echo "phase_trace: ok"
