# Item 4: overflow sampling on a hardware counter. record -e cycles:u -c N gives
# instructions / N samples (cycles == instructions in the guest); with --read instructions:u
# (a PERF_SAMPLE_READ group) the instructions counted between two samples equal the period in
# force, also when --randomize changes it at every sample (mask:B and exp), so the periods set
# are the periods the counter ran; the values add up to the count (short of it by the part
# after the last sample, under one period). perf reads the files here;
# record.on-host reads them on the build machine (another architecture).
. ./lib.sh
need_pmu
n=8000000 c=1000000
total=$(like_perf pmuscope stat -x, -e instructions:u -- loop $n 2>&1 | awk -F, '{ print $1 }')
like_perf pmuscope record -e cycles:u -c $c -o out/fixed.data -- loop $n 2> out/fixed.err || fail "$(cat out/fixed.err)"
samples=$(perf script -i out/fixed.data -F period | wc -l)
want=$((total / c))
[ "$samples" -ge $((want - 1)) ] && [ "$samples" -le $((want + 1)) ] ||
    fail "$samples samples of $c cycles over $total instructions (expected $want +- 1)"
perf script -i out/fixed.data -F period,ip,sym | awk '$1 != 1000000 || $3 != "run" { print "FAIL: " $0; bad = 1 } END { exit bad }' ||
    fail "a sample not of period $c in run()"
echo "cycles:u every $c over $total instructions: $samples samples"

for how in mask:16 exp; do
    like_perf pmuscope record -e cycles:u -c $c --read instructions:u --randomize=$how --seed 11 \
        -o out/read-$how.data -- loop $n 2> out/read.err || fail "$how: $(cat out/read.err)"
    # perf script prints each sample's period and the instructions read since the last sample.
    perf script -i out/read-$how.data -F event,period > out/read-$how.txt 2> /dev/null
    awk -v how="$how" -v c=$c -v total="$total" '
        $2 == "cycles:u:" { p = $1; np++; sum += p; if (p != c) changed++
                            if (how == "mask:16" && (p < c || p >= c + 65536)) { print "FAIL: period " p; bad = 1 } }
        $2 == "instructions:u:" { if ($1 != p) { print "FAIL: " $1 " instructions in a period of " p; bad = 1 }
                                  isum += $1 }
        END { if (np < 5 || !changed) { print "FAIL: " np " samples, " changed " changed periods"; bad = 1 }
              if (isum != sum || isum > total || total - isum > (how == "exp" ? 10 : 2) * c + 65536) {
                  print "FAIL: instructions read add up to " isum ", periods to " sum ", count " total; bad = 1 }
              print how ": " np " samples, periods add up to " sum " of " total " instructions"
              exit bad }' out/read-$how.txt || exit 1
done
# The same seed gives the same periods.
like_perf pmuscope record -e cycles:u -c $c --randomize=mask:16 --seed 11 -o out/again.data -- loop $n 2> /dev/null
[ "$(perf script -i out/again.data -F period | awk '{ print $1 }')" = "$(grep 'cycles:u:' out/read-mask:16.txt | awk '{ print $1 }')" ] ||
    fail "--seed 11 gave other periods"
pmuscope report -i out/fixed.data > out/report.txt || fail "report"
grep -Eq '^ *100\.00% .* [0-9]+ +loop +run$' out/report.txt || fail "pmuscope report: $(cat out/report.txt)"
echo ok
