# Item 3: more events than counters. Ten copies of the instructions event on a PMU of 6
# counters + the cycle counter: the kernel multiplexes them, each scaled value is within 1% of
# the exact count, the running share is printed as perf prints it; the capacity probe finds
# 6 + 1 and --schedule=runs splits the events into runs that fit and merges them exactly.
. ./lib.sh
need_pmu
n=40000000
exact=$(like_perf pmuscope stat -x, -e instructions:u -- loop $n 2>&1 | awk -F, '{ print $1 }')
ten=r8:u,r8:u,r8:u,r8:u,r8:u,r8:u,r8:u,r8:u,r8:u,r8:u
[ "$guest" = 1 ] || ten=$(echo "$ten" | sed 's/r8:u/instructions:u/g')
like_perf pmuscope stat -x, -e "$ten" -- loop $n 2> out/mux.csv || fail "stat: $(cat out/mux.csv)"
cat out/mux.csv
awk -F, -v exact="$exact" '
    { d = $1 / exact - 1; if (d < 0) d = -d
      if (d > 0.01) { print "FAIL: scaled " $1 " is " 100 * d "% from the exact " exact; bad = 1 }
      if ($5 <= 0 || $5 > 100) { print "FAIL: running share " $5; bad = 1 }
      if ($5 < 100) shared++ }
    END { if (NR != 10) { print "FAIL: " NR " rows"; bad = 1 }
          if (!shared) { print "FAIL: no event was multiplexed"; bad = 1 }
          exit bad }' out/mux.csv || exit 1
# The share as perf prints it in its table: "(NN.NN%)" at the end of a multiplexed row, after
# pmuscope's "( +- x% multiplexing )".
like_perf pmuscope stat -e "$ten" -- loop 1000000 2> out/mux.txt
grep -Eq '^ +[0-9]+ +(r8|instructions):u +\( \+- [0-9]+\.[0-9]{2}% multiplexing \)  \([0-9]+\.[0-9]{2}%\)$' out/mux.txt ||
    fail "no (NN.NN%) share: $(cat out/mux.txt)"

# The counters' capacity, probed by --schedule=runs beside its anchors cycles and instructions:
# the cycle counter takes cycles, instructions and 5 more take the 6 others.
like_perf pmuscope stat --schedule=runs -x, -o out/sched.csv -e r8:u,r11:u,r1:u,r2:u,r3:u,r4:u,r5:u,r6:u \
    -- loop 1000000 2> out/sched.err || fail "schedule: $(cat out/sched.err)"
cat out/sched.err out/sched.csv
if [ "$guest" = 1 ]; then
    grep -q "8 events in 2 runs of at most 5 beside the anchors (cycles,instructions)" out/sched.err ||
        fail "capacity not 6 + 1: $(cat out/sched.err)"
    ref=$(like_perf pmuscope stat -x, -e instructions:u -- loop 1000000 2>&1 | awk -F, '{ print $1 }')
    # r1..r6 (refills, TLB, stores) QEMU does not model: they count 0, but they take counters.
    for ev in r8:u r11:u; do
        [ "$(csv_value out/sched.csv $ev)" = "$ref" ] || fail "merged $ev $(csv_value out/sched.csv $ev), exact $ref"
    done
    awk -F, '$5 != "100.00" { print "FAIL: multiplexed in a scheduled run: " $0; bad = 1 } END { exit bad }' out/sched.csv ||
        exit 1
else
    grep -Eq "8 events in [0-9]+ runs of at most [0-9]+ beside the anchors" out/sched.err || fail "no schedule"
fi
echo ok
