# The region markers on a PMU: docs/examples/regions.c on two threads at once, region "loop" a
# loop of exactly 5 instructions an iteration. In the guest (-icount) its instructions:u are
# exact: two loop lengths differ by exactly 5 x their difference, on both threads, read in user
# space (kernel.perf_user_access = 1, arm64's user access, Linux 5.17+) and through read(2)
# (perf_user_access = 0); what each read path adds of its own (user-mode instructions: a
# read(2)'s kernel work is not in :u) is a constant, the same on both threads and at both
# lengths. cycles:u equals instructions:u there. (What a read costs in all: the benchmark.)
# PAPI 7 (its perf_event component) counts the same loop with PAPI_start/PAPI_stop: the same
# exact difference, and the same count within the two libraries' own read paths (2000
# instructions). `pmuscope stat --regions` prints the table. On real hardware (make
# test-pmu-host) the same checks run within 0.5%.
. ./lib.sh
need_pmu
k=$(loop --insns)
[ "$k" -gt 0 ] || fail "no assembly loop on this architecture"
n1=200000 n2=700000
access=/proc/sys/kernel/perf_user_access

# region "loop" of each thread in report FILE: "instructions cycles read"
loop_counts() {
    awk '/"region": "loop"/ { inloop = 1 } inloop && /"instructions:u": \{/ { ev = "i" } inloop && /"cycles:u": \{/ { ev = "c" }
         inloop && ev && /"raw":/ { gsub(/[^0-9]/, "", $2); v[ev] = $2; if (ev == "c") { print v["i"], v["c"]; inloop = 0 } ev = "" }' "$1"
}
how_read() { awk -F'"' '/"name": "instructions:u"/ { getline; print $4; exit }' "$1"; }

for mode in 1 0; do
    want=$([ "$mode" = 1 ] && echo "user space" || echo "read(2)")
    if [ -f "$access" ]; then
        echo "$mode" > "$access" || fail "cannot set perf_user_access"
    elif [ "$guest" = 1 ]; then
        fail "the guest kernel has no $access (Linux 5.17+)"
    else
        want=any # x86: rdpmc is the kernel's choice (/sys/bus/event_source/devices/cpu/rdpmc)
    fi
    for n in $n1 $n2; do
        PMS_REGION_EVENTS=instructions:u,cycles:u PMS_REGION_OUT=out/r$mode.$n.json like_perf example_regions -t 2 -p 0 -n $n ||
            fail "regions -n $n"
        [ "$(loop_counts out/r$mode.$n.json | wc -l)" = 2 ] || fail "not two threads: $(cat out/r$mode.$n.json)"
        how=$(how_read out/r$mode.$n.json)
        [ "$want" = any ] || [ "$how" = "$want" ] || fail "perf_user_access=$mode: read by $how, expected $want"
    done
    # per thread: the difference, and the constant each read path adds
    loop_counts out/r$mode.$n1.json > out/l1
    loop_counts out/r$mode.$n2.json > out/l2
    paste -d' ' out/l1 out/l2 > out/pairs$mode
    cat out/pairs$mode
    while read -r i1 c1 i2 c2; do
        if [ "$guest" = 1 ]; then
            [ $((i2 - i1)) -eq $((k * (n2 - n1))) ] || fail "$how: the loop grew by $((i2 - i1)) instructions, expected $((k * (n2 - n1)))"
            [ "$i1" = "$c1" ] && [ "$i2" = "$c2" ] || fail "$how: cycles:u $c1 $c2 differ from instructions:u $i1 $i2"
        else
            near $((i2 - i1)) $((k * (n2 - n1))) 0.5 || fail "$how: the loop grew by $((i2 - i1)) instructions"
        fi
    done < out/pairs$mode
    extra=$(awk -v k="$k" -v n="$n1" '{ print $1 - k * n }' out/pairs$mode | sort -u)
    [ "$guest" = 0 ] || [ "$(echo "$extra" | wc -l)" = 1 ] || fail "$how: the read path's own instructions differ by thread: $extra"
    echo "$how: loop of $n1 and $n2 iterations: +$((k * (n2 - n1))) instructions exactly; the markers' own: $extra"
    echo "$extra" | head -1 > out/extra$mode
done

# PAPI on the same loop (and the same events): PAPI_TOT_INS, PAPI_TOT_CYC (user mode, PAPI's default).
if command -v pmu_papi > /dev/null; then
    # PAPI refuses to start under Debian's perf_event_paranoid 3 (the guest's), even as root.
    [ "$guest" = 1 ] && echo 2 > /proc/sys/kernel/perf_event_paranoid
    for n in $n1 $n2; do
        pmu_papi count $n 3 instructions:u,cycles:u PAPI_TOT_INS,PAPI_TOT_CYC > out/papi.$n 2> out/papi.err ||
            fail "pmu_papi: $(cat out/papi.err)"
        cat out/papi.$n
    done
    for who in pmuscope papi; do
        a=$(awk -v w=$who '$1 == w { print $3; exit }' out/papi.$n1) b=$(awk -v w=$who '$1 == w { print $3; exit }' out/papi.$n2)
        if [ "$guest" = 1 ]; then
            [ $((b - a)) -eq $((3 * k * (n2 - n1))) ] || fail "$who: 3 loops grew by $((b - a)), expected $((3 * k * (n2 - n1)))"
        else
            near $((b - a)) $((3 * k * (n2 - n1))) 0.5 || fail "$who: 3 loops grew by $((b - a))"
        fi
    done
    awk '$1 == "pmuscope" { p[$2 == "instructions:u" ? "i" : "c"] = $3 } $1 == "papi" { q[$2 == "PAPI_TOT_INS" ? "i" : "c"] = $3 }
         END { for (e in p) { d = p[e] - q[e]; if (d < 0) d = -d
                 if (d > 3 * 2000) { print "FAIL: pmuscope " p[e] " and PAPI " q[e] " differ by " d; bad = 1 } }
               print "pmuscope and PAPI on 3 loops: instructions " p["i"] " and " q["i"] ", cycles " p["c"] " and " q["c"]
               exit bad }' out/papi.$n2 || exit 1
elif [ "$guest" = 1 ]; then
    fail "no pmu_papi in the guest (PAPI's development files missing from the arm64 sysroot?)"
fi

pmuscope stat --regions -e instructions:u -- example_regions -t 2 -p 10 -n $n1 2> out/table.txt || fail "stat --regions: $(cat out/table.txt)"
cat out/table.txt
grep -Eq '^  instructions:u( +[0-9]+){3}$' out/table.txt || fail "no instructions:u row with two threads and their sum"
echo ok
