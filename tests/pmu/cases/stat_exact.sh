# Item 2: stat on a workload whose instruction count is known (loop: a fixed number of
# instructions per iteration): the difference between two sizes is exact, separate events
# and the group {cycles,instructions} agree with perf stat in the guest, cycles == instructions
# there; an event this PMU lacks is <not supported> beside a counted one, as perf shows it.
. ./lib.sh
need_pmu
k=$(loop --insns)
[ "$k" -gt 0 ] || fail "loop has no assembly loop on this architecture"
n1=1000000 n2=3000000
for spec in cycles:u,instructions:u '{cycles:u,instructions:u}'; do
    for n in $n1 $n2; do
        like_perf pmuscope stat -x, -e "$spec" -- loop $n 2> out/pms.$n || fail "stat $spec: $(cat out/pms.$n)"
        perf stat -x, -e "$spec" -- loop $n 2> out/perf.$n || fail "perf stat $spec: $(cat out/perf.$n)"
    done
    i1=$(csv_value out/pms.$n1 instructions:u) i2=$(csv_value out/pms.$n2 instructions:u)
    c1=$(csv_value out/pms.$n1 cycles:u) c2=$(csv_value out/pms.$n2 cycles:u)
    want=$((k * (n2 - n1)))
    if [ "$guest" = 1 ]; then
        [ $((i2 - i1)) -eq "$want" ] || fail "$spec: instructions grew by $((i2 - i1)), expected $want"
        [ "$c1" = "$i1" ] && [ "$c2" = "$i2" ] || fail "$spec: cycles $c1 $c2 differ from instructions $i1 $i2"
        for n in $n1 $n2; do
            for ev in cycles:u instructions:u; do
                a=$(csv_value out/pms.$n $ev) b=$(csv_value out/perf.$n $ev)
                [ "$a" = "$b" ] || fail "$spec loop $n: $ev pmuscope $a, perf $b"
            done
        done
    else
        near $((i2 - i1)) "$want" 0.5 || fail "$spec: instructions grew by $((i2 - i1)), expected about $want"
        near "$i2" "$(csv_value out/perf.$n2 instructions:u)" 0.5 || fail "$spec: instructions differ from perf's"
    fi
    echo "$spec: loop $n1 -> $i1, loop $n2 -> $i2 instructions (+$((i2 - i1)) = $k x $((n2 - n1)))"
done

# One event this PMU cannot count does not fail the others (perf's <not supported> row).
if [ "$guest" = 1 ]; then
    like_perf pmuscope stat -x, -e cycles:u,cache-misses -- loop $n1 2> out/ns.pms || fail "stat with cache-misses failed: $(cat out/ns.pms)"
    perf stat -x, -e cycles:u,cache-misses -- loop $n1 2> out/ns.perf
    [ "$(grep cache-misses out/ns.pms)" = "$(grep cache-misses out/ns.perf)" ] ||
        fail "cache-misses row '$(grep cache-misses out/ns.pms)', perf's '$(grep cache-misses out/ns.perf)'"
    [ "$(csv_value out/ns.pms cycles:u)" = "$(csv_value out/ns.perf cycles:u)" ] || fail "cycles:u beside cache-misses"
    like_perf pmuscope stat -e cycles:u,cache-misses -- loop $n1 2> out/ns.txt
    grep -Eq '^ +<not supported> +cache-misses' out/ns.txt || fail "plain: $(cat out/ns.txt)"
    grep -q "# cache-misses: not supported by this machine's PMU (ENOENT)" out/ns.txt || fail "no reason: $(cat out/ns.txt)"
    cat out/ns.txt
fi
echo ok
