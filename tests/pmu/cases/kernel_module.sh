# Kernel module code: the guest loads Debian's wp512 module (and AF_ALG's, which reach it
# from user space) and kernel_hash hashes through it; perf record -a and pmuscope record -a
# sample the whole machine. Both files are reported here by perf report and pmuscope report
# (--sort dso,sym and dso: the guest's kallsyms and modules are this kernel's); the tables come
# back to the host, where kernel_module.on-host compares them row by row.
. ./lib.sh
for m in af_alg algif_hash wp512; do
    [ -f $m.ko ] || { echo "skipped: no $m.ko"; exit 77; }
    grep -q "^$m " /proc/modules || insmod $m.ko || fail "insmod $m.ko"
done
grep '\[wp512\]$' /proc/kallsyms > out/kallsyms.txt || fail "no wp512 symbols in /proc/kallsyms"
perf record -q -a -e cpu-clock -c 100000 -o out/perf.data -- kernel_hash wp512 0.5 > /dev/null 2> out/perf.err ||
    fail "perf record: $(cat out/perf.err)"
pmuscope record -a -e cpu-clock -c 100000 -o out/ours.data -- kernel_hash wp512 0.5 > /dev/null 2> out/ours.err ||
    fail "pmuscope record: $(cat out/ours.err)"
for f in perf ours; do
    for sort in dso,sym dso; do
        perf report -i out/$f.data --stdio --sort $sort --percent-limit 0 > out/$f-$sort.perf 2> /dev/null ||
            fail "perf report -i $f.data --sort $sort"
        pmuscope report -i out/$f.data --sort $sort --weight period --csv --limit 0 > out/$f-$sort.csv ||
            fail "pmuscope report -i $f.data --sort $sort"
    done
done
echo "recorded and reported: $(grep -c . out/perf-dso,sym.perf) and $(grep -c . out/ours-dso,sym.perf) lines of perf report"
perf script -i out/ours.data --show-mmap-events 2> /dev/null | grep -m3 'MMAP -1/0' || true
