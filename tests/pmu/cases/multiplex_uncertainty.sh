# Multiplexed counts and their uncertainty (pmuscope/multiplex.h) against the unmultiplexed
# count of the same run: ten copies of instructions:u share the counters left beside a pinned
# instructions:uD, which is on a counter all the time and so counts exactly what each copy
# estimates. Over the intervals of stat -I 10 on phases (whose instructions per ns change
# with its phases), each copy's error is within 2 of its uncertainties (one standard deviation
# each) in at least 90% of the trials (95% if the errors were normal; runs here find 95-99%);
# the totals, and the counts of a region's 10 calls of 10 ms each (a call is a window) on
# each of 2 threads, all but one. None is <impossible>. (Calls much shorter than the kernel's
# turns, 4 ms, are another matter: docs/stat.md.)
. ./lib.sh
need_pmu
copies=instructions:u,instructions:u,instructions:u,instructions:u,instructions:u
copies=$copies,$copies

# Share of the multiplexed rows of a -x, file (time column with -I) within 2 uncertainties of the
# pinned reference row that precedes them: "covered trials" on stdout.
coverage() {
    awk -F, -v tcol="$2" '
        { v = $(tcol + 1); ev = $(tcol + 3) }
        ev == "instructions:uD" { ref = v; next }
        ev == "instructions:u" && v ~ /^[0-9]+$/ && NF == tcol + 8 {
            u = $(tcol + 8); d = v - ref; if (d < 0) d = -d
            n++; if (d <= 2 * u) c++
            if (d > 2 * u) printf "outside: %s = %s +- %s, reference %s (%.1f uncertainties)\n", ev, v, u, ref, (u > 0 ? d / u : 999) > "/dev/stderr"
        }
        /impossible/ { print "impossible: " $0 > "/dev/stderr"; bad = 1 }
        END { print c + 0, n + 0; exit bad }' "$1"
}

like_perf pmuscope stat -I 10 -x, -e instructions:uD,$copies -o out/iv.csv -- phases --units 100 --repeat 1 > /dev/null ||
    fail "stat -I: $(cat out/iv.csv)"
like_perf pmuscope stat -x, -e instructions:uD,$copies -o out/tot.csv -- phases --units 100 --repeat 1 > /dev/null ||
    fail "stat: $(cat out/tot.csv)"
cat out/tot.csv
grep -q '^[0-9]*,,instructions:uD,[0-9]*,100.00,,$' out/tot.csv || fail "the pinned reference was multiplexed"
read -r c n <<EOF
$(coverage out/iv.csv 1)
EOF
echo "intervals: $c of $n multiplexed counts within 2 uncertainties of the pinned count"
[ "$n" -ge 50 ] || fail "only $n multiplexed interval counts"
[ $((100 * c)) -ge $((90 * n)) ] || fail "only $c of $n intervals' counts are within 2 uncertainties"
read -r c n <<EOF
$(coverage out/tot.csv 0)
EOF
echo "totals: $c of $n within 2 uncertainties"
[ "$n" -ge 5 ] && [ "$c" -ge $((n - 1)) ] || fail "totals: only $c of $n within 2 uncertainties"

# The plain table says it too.
like_perf pmuscope stat -e instructions:uD,$copies -- phases --units 50 --repeat 1 2> out/plain.txt > /dev/null
grep -Eq '^ +[0-9]+ +instructions:u .*\( \+- [0-9]+\.[0-9]{2}% multiplexing \)  \([0-9]+\.[0-9]{2}%\)$' out/plain.txt ||
    fail "no '( +- x% multiplexing )' in the table: $(cat out/plain.txt)"

# A region's calls are its windows: 10 calls of region "loop" (10 ms each in the guest) on each of 2 threads.
PMS_REGION_EVENTS=instructions:uD,$copies PMS_REGION_OUT=out/r.json like_perf example_regions -t 2 -p 0 -n 2000000 -r 10 ||
    fail "regions"
pmuscope stat --regions -x, -e instructions:uD,$copies -o out/r.csv -- example_regions -t 2 -p 0 -n 2000000 -r 10 ||
    fail "stat --regions -x,"
# The copies are named instructions:u, instructions:u@2, ... (a report keys its events by name).
awk -F, '$1 == "loop" && $5 == "instructions:uD" { ref[$2] = $6; if ($8 != "100.00") { print "FAIL: the reference multiplexed: " $0; bad = 1 } }
         $1 == "loop" && $5 ~ /^instructions:u(@[0-9]+)?$/ && $8 != "100.00" { d = $6 - ref[$2]; if (d < 0) d = -d; n++; if (d <= 2 * $7) c++ }
         END { print "region loop: " c + 0 " of " n + 0 " multiplexed counts within 2 uncertainties"
               if (n < 5 || c < n - 1) bad = 1; exit bad }' out/r.csv || fail "region counts: $(grep '^loop' out/r.csv)"
echo ok
