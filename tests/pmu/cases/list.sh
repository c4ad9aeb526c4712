# Item 1: `pmuscope list` on a PMU: the generic, raw, sysfs and libpfm4 names this PMU has are
# openable, those it lacks say why; what list calls openable counts, with the same count as
# perf gives for the same name.
. ./lib.sh
need_pmu
pmuscope list > out/list.txt 2>&1 || fail "list failed: $(cat out/list.txt)"
row() { grep -E "^  $1 +$2 +" out/list.txt || fail "list has no $2 row for $1"; }
row cycles hardware | grep -q ' yes$' || fail "cycles not openable: $(row cycles hardware)"
row instructions hardware | grep -q ' yes$' || fail "instructions not openable"
row task-clock software | grep -q ' yes$' || fail "task-clock not openable"

if [ "$guest" = 1 ]; then
    # The emulated Cortex-A57: PMUv3 with cycles and instructions only among the generic
    # hardware events; its sysfs events; libpfm4 detects it as arm_ac57.
    row cache-misses hardware | grep -q "no: not supported by this machine's PMU (ENOENT): it has no such event" ||
        fail "cache-misses: $(row cache-misses hardware)"
    row branch-misses hardware | grep -q "no: not supported by this machine's PMU (ENOENT)" ||
        fail "branch-misses: $(row branch-misses hardware)"
    row armv8_pmuv3/cpu_cycles/ sysfs | grep -q ' yes$' || fail "sysfs cpu_cycles"
    row armv8_pmuv3/inst_retired/ sysfs | grep -q ' yes$' || fail "sysfs inst_retired"
    row arm_ac57::CPU_CYCLES libpfm4 | grep -q ' yes$' || fail "libpfm4 arm_ac57::CPU_CYCLES"
    row arm_ac57::INST_RETIRED libpfm4 | grep -q ' yes$' || fail "libpfm4 arm_ac57::INST_RETIRED"
    # Each spelling of the same two counters counts the loop alike: ARM's event numbers 0x11
    # (CPU_CYCLES) and 0x08 (INST_RETIRED), as raw, sysfs (perf's cpu/../u form), libpfm4.
    n=100000
    ref=$(like_perf pmuscope stat -x, -e instructions:u -- loop $n 2>&1 | awk -F, '{ print $1 }')
    for e in cycles:u r11:u r8:u armv8_pmuv3/cpu_cycles/u armv8_pmuv3/inst_retired/:u \
             arm_ac57::CPU_CYCLES:u arm_ac57::INST_RETIRED:u; do
        got=$(like_perf pmuscope stat -x, -e "$e" -- loop $n 2>&1)
        v=$(echo "$got" | awk -F, 'NR == 1 { print $1 }')
        [ "$v" = "$ref" ] || fail "$e counted '$got', instructions:u $ref"
    done
    # perf in the guest agrees on the names it shares with pmuscope.
    for e in r11:u armv8_pmuv3/inst_retired/u; do
        p=$(perf stat -x, -e "$e" -- loop $n 2>&1 | awk -F, 'NR == 1 { print $1 }')
        [ "$p" = "$ref" ] || fail "perf counted $p for $e, pmuscope $ref"
    done
fi
grep -c ' yes$' out/list.txt | awk '{ print "openable:", $1 }'
echo ok
