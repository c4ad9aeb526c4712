# Item 8: deterministic twins of the live tests that depend on the host's scheduler. (phase's
# twin is phase.sh: two runs, the same intervals and labels.) The sampler's lost-sample test:
# a ring of one page (85 samples of 48 bytes) is not drained until the child has run 50 ms;
# on the host what was delivered or lost can only be bounded by the child's CPU time (within
# 30%); here cycles:u counts the child's instructions exactly, so the samples taken are
# instructions / period, and every one of them is delivered or counted lost, except those
# still pending when the command ended (the kernel reports a loss with the next record that
# fits: fewer than a page holds). The period keeps the rate (10 kHz of virtual time) below
# where the kernel throttles; a throttled sample is neither delivered nor lost.
. ./lib.sh
need_pmu
period=100003
pmu_lost $period loop 20000000 > out/lost.txt 2> out/lost.err || fail "pmu_lost: $(cat out/lost.err)"
cat out/lost.txt
read -r _ delivered _ lost _ throttled _ insns < out/lost.txt
[ "$throttled" = 0 ] || fail "$throttled throttle events"
taken=$((insns / period))
echo "$taken samples taken: $delivered delivered + $lost lost = $((delivered + lost))"
[ "$lost" -gt 0 ] || fail "no sample lost: the one-page ring never overflowed"
[ "$delivered" -ge 60 ] || fail "only $delivered samples delivered"
[ $((delivered + lost)) -le "$taken" ] || fail "more delivered and lost ($((delivered + lost))) than taken ($taken)"
if [ "$guest" = 1 ]; then
    [ $((delivered + lost)) -gt $((taken - 85)) ] ||
        fail "$((taken - delivered - lost)) samples neither delivered nor counted lost (at most 85 may be pending)"
fi
echo ok
