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
# The periods in force (the samples' PERIOD fields, exact as the read groups showed) are those
# the generator sets for --seed 11, in its order. Which of them show depends on when the sampler
# drains (one new period per drain; a period replaced before a sample fell in it never shows),
# so the distinct consecutive periods of the file must be an ordered subsequence of the base
# followed by the generator's sequence (tests/pmu/tools/pmu_periods.c prints it).
in_order() { # HOW PERIODS-FILE: fails unless the file's periods come from the generator, in order
    pmu_periods "$1" $c 11 "$(($(wc -l < "$2") + 1))" > out/gen-$1.txt
    awk -v c=$c 'NR == FNR { gen[++ng] = $1; next }
        $1 == cur { next }
        { while (j < ng && gen[j + 1] != $1) j++
          if (j == ng) { print "FAIL: period " $1 " is not the next of the generator after " cur; exit 1 }
          cur = $1; j++; runs++ }
        BEGIN { cur = c }
        END { if (runs < 3) { print "FAIL: only " runs " generated periods in force"; exit 1 }
              print FILENAME ": " runs " periods of the generator in force, in its order" }' out/gen-$1.txt "$2"
}
for how in mask:16 exp; do
    awk '$2 == "cycles:u:" { print $1 }' out/read-$how.txt > out/periods-$how.txt
    in_order $how out/periods-$how.txt || exit 1
done
# Without the read group, the same seed: the same generator, whatever the drains' timing.
like_perf pmuscope record -e cycles:u -c $c --randomize=mask:16 --seed 11 -o out/again.data -- loop $n 2> /dev/null
perf script -i out/again.data -F period | awk '{ print $1 }' > out/periods-again.txt
in_order mask:16 out/periods-again.txt || fail "--seed 11 without --read: not the generator's periods"
pmuscope report -i out/fixed.data > out/report.txt || fail "report"
# For the host's reports by binary and function (record.on-host): the hotspots workload's five
# functions and the loader's and libc's start-up, one sample every 100003 instructions.
like_perf pmuscope record -e cycles:u -c 100003 -o out/hotspots.data -- hotspots 2> out/hot.err || fail "$(cat out/hot.err)"
grep -Eq '^ *100\.00% .* [0-9]+ +loop +run$' out/report.txt || fail "pmuscope report: $(cat out/report.txt)"
echo ok
