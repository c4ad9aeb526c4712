# Item 5: hotspot on exact instruction sampling against exact per-instruction counts. The truth
# is one callgrind run of the hotspots workload (Debian's valgrind in the guest, as on the host);
# the recording samples every P-th user instruction (cycles:u, which -icount makes count
# instructions; instructions:u on a host with a PMU), P = 10007 (prime, so coprime to every loop
# length). --rounds 1 runs each of the five hot loops once, as one stretch of instructions, so
# each of a loop's instructions is executed at every k-th instruction of that stretch (k the loop
# length) and a sample falls on it once per P of its executions: its samples are floor(r/P) or
# ceil(r/P) of its exact count r. hotspot.on-host checks that and what follows from it on this
# machine (jq): the sample total, the ranking, top-N, the measures.
. ./lib.sh
need_pmu
period=10007
set -- hotspots --rounds 1 --scale 4
event=instructions:u
[ "$guest" = 1 ] && event=cycles:u
pmuscope hotspot --record-truth truth -- "$@" 2> out/truth.err || fail "hotspot --record-truth: $(cat out/truth.err)"
pmuscope stat -x, -e instructions:u -- "$@" 2>&1 > /dev/null | awk -F, '$3 == "instructions:u" { print $1 }' > out/instructions
pmuscope record -e $event -c $period -o out/hot.data -- "$@" 2> out/record.err || fail "record: $(cat out/record.err)"
pmuscope hotspot --truth truth --rows 0 --json=out/hot.json out/hot.data > out/hot.txt 2> out/hot.err ||
    fail "hotspot --truth: $(cat out/hot.err)"
hotspots --expect > out/expect
echo "$period $guest $event" > out/params
head -20 out/hot.txt
echo "$(cat out/instructions) instructions:u; $event every $period"
