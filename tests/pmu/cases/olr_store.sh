# Issue 16's storage goals on streams recorded from the bundled workloads with hardware
# counters (the hardware lists of tests/integration/olr_store_hw_counters.sh are perf stat
# intervals; these are samples): a sample every 20000 ns of cpu-clock reading cycles and
# instructions:u, as bench/bench-olr-format.sh records page-faults and context-switches on a
# machine without a PMU, on `sizes 8` and `phases --repeat 2`. The samples go to CSV and the
# guest stores them at eps 0.1% of each counter's range; olr_store.on-host checks the goals
# on this host (zstd) and reads the guest's files.
. ./lib.sh
need_pmu
rec() {
    name=$1; shift
    pmuscope record -e cpu-clock -c 20000 --read cycles,instructions:u -o out/$name.data -- "$@" \
        > /dev/null 2> out/$name.err || fail "record $name: $(cat out/$name.err)"
    pmuscope olr --samples out/$name.csv out/$name.data > /dev/null 2> out/$name.err ||
        fail "olr --samples $name: $(cat out/$name.err)"
    n=$(($(wc -l < out/$name.csv) - 1))
    [ "$n" -ge 10000 ] || fail "$name: $n samples"
    pmuscope olr --method opt --eps 0.1% --per-counter --store out/$name.olr out/$name.csv > out/$name.txt 2>&1 ||
        fail "olr --store $name: $(cat out/$name.txt)"
    echo "$name: $n samples of cycles and instructions:u"
}
rec sizes sizes 8
rec phases phases --units 250 --repeat 2
