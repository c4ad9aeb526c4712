# Item 7: the regression methods on counts collected where the PMU is. stat --schedule=runs
# collects a runs table over sizes for estimate, stat -I a table of intervals for cpistack,
# and both commands run on them. In the guest -icount makes every cycle an instruction, so
# the truth is known: cycles:u = 1 x instructions:u exactly, in every run and interval. So
# estimate's LP and least squares fit that line and estimate the held-out runs with no
# error, and cpistack's stack is a base CPI of 1 with nothing on page-faults. (On real
# hardware the same commands run; only the guest's exact answers are asserted.)
. ./lib.sh
need_pmu
pmuscope stat --schedule=runs --anchor cycles:u,instructions:u --sizes 1-8 -e page-faults -o out/runs.csv \
    -- sizes 2> out/runs.err || fail "stat --schedule=runs: $(cat out/runs.err)"
cat out/runs.csv
# each hardware event has its multiplexing uncertainty beside it (0: --schedule=runs fits the counters)
[ "$(head -1 out/runs.csv)" = "run,size,cycles:u,uncertainty(cycles:u),instructions:u,uncertainty(instructions:u),page-faults" ] ||
    fail "runs table header: $(head -1 out/runs.csv)"
[ "$(grep -c '^TEST' out/runs.csv)" = 8 ] || fail "not 8 runs"
pmuscope estimate out/runs.csv --test 7-8 --cycles cycles:u --ignore size > out/estimate.txt 2>&1 ||
    fail "estimate: $(cat out/estimate.txt)"
sed -n '1,/^MRA:/p' out/estimate.txt
pmuscope stat -I 20 -x, -e cycles:u,instructions:u,page-faults -o out/intervals.csv \
    -- phases --units 1000 --repeat 1 > /dev/null 2> out/iv.err || fail "stat -I: $(cat out/iv.err)"
pmuscope cpistack -e page-faults out/intervals.csv > out/cpistack.txt 2>&1 || fail "cpistack: $(cat out/cpistack.txt)"
sed -n '/^intervals:/p; /^Test RMSE/p; /^CPI stack/,$p' out/cpistack.txt
if [ "$guest" = 1 ]; then
    awk -F, 'NR > 1 && ($3 != $5 || $5 <= prev || $4 != 0 || $6 != 0) {
                 print "FAIL: " $0 " (cycles:u != instructions:u, not growing, or multiplexed)"; bad = 1 }
             NR > 1 { prev = $5 } END { exit bad }' out/runs.csv || exit 1
    # The errors of the LP and MRA rows (held-out, test and fit |err| %, then the error % of
    # each test run: columns 3 to 7): none beyond rounding, and LP's model is instructions:u x 1.
    awk '($1 == "LP" || $1 == "MRA") && NF == 7 { n++; for (i = 3; i <= 7; i++) if ($i > 1e-9 || $i < -1e-9) { print "FAIL: " $0; bad = 1 } }
         END { if (n != 2) { print "FAIL: no LP and MRA rows"; bad = 1 } exit bad }' out/estimate.txt || exit 1
    grep -Eq '^  instructions:u +1$' out/estimate.txt || fail "LP's coefficient of instructions:u is not 1"
    awk '/^intervals:/ && $2 < 20 { print "FAIL: " $0; bad = 1 }
         /^Test RMSE:/ && ($3 > 1e-9) { print "FAIL: " $0; bad = 1 }
         /^  base / { base = $2 } /^  model CPI / { model = $3 } /^  true CPI / { truth = $3 }
         /^  page-faults / && !/VIF/ && NF == 3 { pf = $2 }
         END { if (base != "1.0000" || model != "1.0000" || truth != "1.0000" || pf != "0.0000") {
                   print "FAIL: base " base ", page-faults " pf ", model CPI " model ", true CPI " truth; bad = 1 }
               exit bad }' out/cpistack.txt || exit 1
fi
echo ok
