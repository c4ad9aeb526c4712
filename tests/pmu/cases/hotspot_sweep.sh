# Item 8: the deterministic twin of tests/integration/hotspot_sweep.sh. On the host that test
# samples cpu-clock, so a period gives as many samples as the CPU time the scheduler gave, and
# its trends are averaged over seeds. Here the sweeps sample cycles:u, which counts the
# command's user instructions exactly: a period of I/N gives N samples (I the instructions),
# and a fixed-period sweep run twice gives the same measures. hotspot_sweep.on-host checks the
# JSON files written here (jq): the samples each period gives, the same host test's trends,
# and the repeat. The workloads run 10 rounds instead of 100 (50M and 27M instructions instead
# of 500M and 272M: callgrind in the guest runs about 60 times slower than the program).
. ./lib.sh
need_pmu
event=instructions:u
[ "$guest" = 1 ] && event=cycles:u
echo "$guest $event" > out/params
instructions() { pmuscope stat -x, -e instructions:u -- "$@" 2>&1 > /dev/null | awk -F, '$3 == "instructions:u" { print $1 }'; }
# A period near I/N that is prime to 2, 3 and 5, so that a fixed period does not fall on the
# same instruction of a short loop at every sample.
near() { awk -v p="$1" 'BEGIN { p = int(p); while (p % 2 == 0 || p % 3 == 0 || p % 5 == 0) p++; print p }'; }
sweep() { # NAME TRUTH PERIODS [OPTIONS]... -- COMMAND...: one sweep into out/NAME.json
    name=$1 truth=$2 periods=$3; shift 3
    pmuscope hotspot --sweep "$periods" -e $event --truth "$truth" --json=out/$name.json "$@" > /dev/null 2> out/err ||
        fail "hotspot --sweep $periods ($name): $(cat out/err)"
}

set -- hotspots --rounds 10
pmuscope hotspot --record-truth truth -- "$@" 2> out/err || fail "--record-truth: $(cat out/err)"
total=$(instructions "$@")
periods=$(near $((total / 2000))),$(near $((total / 500))),$(near $((total / 25)))
echo "$total $periods" > out/default
echo "hotspots --rounds 10: $total instructions; periods $periods (2000, 500 and 25 samples)"
for r in 1 2; do sweep fixed$r truth "$periods" --no-randomize -- "$@"; done
for r in 1 2 3; do sweep run$r truth "$periods" --seed $r -- "$@"; done

set -- hotspots --spread --rounds 10
pmuscope hotspot --record-truth spread-truth -- "$@" 2> out/err || fail "--record-truth --spread: $(cat out/err)"
total=$(instructions "$@")
ladder=$(awk -v t="$total" 'BEGIN { p = t / 3500; for (i = 0; i < 9; i++) { printf "%s%d", i ? "," : "", p; p *= 2 } }')
echo "$total $ladder" > out/spread
echo "hotspots --spread --rounds 10: $total instructions; periods $ladder"
for r in 1 2 3 4; do sweep spread$r spread-truth "$ladder" --seed $r -- "$@"; done
echo ok
