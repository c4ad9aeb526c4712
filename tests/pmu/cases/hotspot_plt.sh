# The truth of PLT stubs on AArch64. callgrind puts the stubs in no object ("???"), at
# run-time addresses; the truth finds the executable's load bias under valgrind from its calls
# into them (src/hotspot/truth_stubs.c decodes each BL's imm26 for its link-time target). In
# the guest (Debian's valgrind, aarch64 code), vdso_calls calls clock_gettime and
# gettimeofday through their PLT stubs CALLS times each; its recording samples every P-th
# user instruction (cycles:u, which -icount makes count instructions; instructions:u on a
# host with a PMU). hotspot_plt.on-host checks on this host, with aarch64-linux-gnu-objdump
# on the binary itself, that callgrind placed the stubs in "???" and that every sample on a
# stub's instructions found its truth: CALLS executions, exactly.
. ./lib.sh
need_pmu
# AArch64 code only: on an x86-64 host with a PMU (make test-pmu-host) the stubs are x86's,
# whose CALL decoding unit/test_hotspot_truth checks. The guest is always AArch64.
[ "$(uname -m)" = aarch64 ] || { echo "skipped: AArch64's PLT stubs, on $(uname -m)"; exit 77; }
period=997
calls=20000
set -- vdso_calls $calls
event=instructions:u
[ "$guest" = 1 ] && event=cycles:u
pmuscope hotspot --record-truth truth -- "$@" 2> out/truth.err || fail "hotspot --record-truth: $(cat out/truth.err)"
pmuscope record -e $event -c $period -o out/plt.data -- "$@" 2> out/record.err || fail "record: $(cat out/record.err)"
pmuscope hotspot --truth truth --rows 0 --json=out/plt.json out/plt.data > out/plt.txt 2> out/plt.err ||
    fail "hotspot --truth: $(cat out/plt.err)"
cp truth/callgrind.out out/callgrind.out || fail "no callgrind.out in the truth: $(ls truth)"
cp "$(command -v vdso_calls)" out/vdso_calls
echo "$calls" > out/calls
head -12 out/plt.txt
