#!/usr/bin/env bash
# SimPoint's files from pmuscope's phases: --simpoints ("INTERVAL PHASE" lines, as SimPoint
# 3.0's -saveSimpoints) and --weights ("WEIGHT PHASE", as -saveSimpointWeights), checked
# against SimPoint 3.0's definitions recomputed here from the run's JSON (each interval's
# phase, size and signature): a cluster's simulation point is the interval closest to the
# cluster's centroid (Euclidean distance to the mean of its intervals' vectors, the first
# of equals), its weight the cluster's share of the intervals by size (instructions), one
# line per cluster in id order; the weights add up to 1. On the bundled exp-bbv file
# (valgrind's vectors of two loops), at the thesis's settings (the transition phase 0 is a
# cluster of its own) and with a phase id at the first sighting; and on a live run. Several
# threads make no single stream: refused, saying so.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES/bbv

check() { # json, simpoints, weights
  python3 - "$@" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
rows = d["intervals"]
total = sum(r["size"] for r in rows)
want_points, want_weights = [], []
for phase in sorted({r["phase"] for r in rows}):
    members = [r for r in rows if r["phase"] == phase]
    n = len(members[0]["signature"])
    centroid = [sum(m["signature"][k] for m in members) / len(members) for k in range(n)]
    dist = lambda m: math.sqrt(sum((m["signature"][k] - centroid[k]) ** 2 for k in range(n)))
    best = min(members, key=lambda m: (dist(m), m["index"]))
    want_points.append((best["index"], phase))
    want_weights.append((sum(m["size"] for m in members) / total, phase))
got_points = [tuple(int(x) for x in line.split()) for line in open(sys.argv[2])]
got_weights = [(float(line.split()[0]), int(line.split()[1])) for line in open(sys.argv[3])]
if got_points != want_points:
    sys.exit("simulation points %s, SimPoint's definition gives %s" % (got_points, want_points))
if len(got_weights) != len(want_weights) or any(g[1] != w[1] or abs(g[0] - w[0]) > 1e-12
                                                for g, w in zip(got_weights, want_weights)):
    sys.exit("weights %s, SimPoint's definition gives %s" % (got_weights, want_weights))
if abs(sum(w for w, _ in got_weights) - 1) > 1e-9:
    sys.exit("the weights add up to %r" % sum(w for w, _ in got_weights))
print("%d intervals, %d clusters: points %s, weights %s" % (len(rows), len(got_points), got_points,
      " ".join("%.4f" % w for w, _ in got_weights)))
PY
}

for opts in "" "--transition 1" "--grow 2 --max-interval 4"; do
  # shellcheck disable=SC2086
  $P phase $opts --pc "$F/two.pc" --simpoints "$tmp/s.simpoints" --weights "$tmp/s.weights" --json \
    -o "$tmp/s.json" "$F/two.bb"
  echo -n "two.bb ${opts:-(defaults)}: "
  check "$tmp/s.json" "$tmp/s.simpoints" "$tmp/s.weights"
done
# The two loops of two.bb: the point of the first's phase (vector 1's) lies in vectors 1-7,
# the second's (vector 9's, which runs it alone) is vector 9.
$P phase --transition 1 --pc "$F/two.pc" --simpoints "$tmp/s.simpoints" --csv="$tmp/s.csv" -q -o /dev/null "$F/two.bb"
first=$(awk -F, 'NR == 3 { print $6 }' "$tmp/s.csv")
second=$(awk -F, 'NR == 11 { print $6 }' "$tmp/s.csv")
awk -v a="$first" -v b="$second" '$2 == a { ok += $1 >= 1 && $1 <= 7 } $2 == b { ok += $1 == 9 } END { exit ok != 2 }' \
  "$tmp/s.simpoints" || { echo "FAIL: points $(tr '\n' ' ' <"$tmp/s.simpoints")"; exit 1; }

# A live run: intervals of one thread (sizes in ns of task-clock).
$P phase --simpoints "$tmp/l.simpoints" --weights "$tmp/l.weights" --json -o "$tmp/l.json" \
  -- "$PMS_WORKLOADS/phases" --sequence AB --ms 100 --repeat 2
echo -n "live: "
check "$tmp/l.json" "$tmp/l.simpoints" "$tmp/l.weights"

rc=0
$P phase -q --simpoints "$tmp/t.simpoints" -o /dev/null -- "$PMS_WORKLOADS/phases" --threads 2 --sequence AB --ms 30 \
  --repeat 1 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "t.simpoints: SimPoint's files describe one stream of intervals, and this run has several threads" "$tmp/err" ||
  { echo "FAIL: two threads: $rc $(cat "$tmp/err")"; exit 1; }
echo "phase_simpoints: ok"
