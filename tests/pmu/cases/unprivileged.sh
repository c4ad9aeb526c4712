# A user who is not root at perf_event_paranoid 2 (Debian's default) counts and samples the
# hardware events as perf does then (evsel__fallback): cycles and instructions in user space
# only, named cycles:u and instructions:u, said once on stderr, exit 0; in the guest the counts
# equal perf's, run as the same user, exactly (both in perf's environment: lib.sh's like_perf).
# Where no fallback exists (-a) the refusal says what the case needs. As root, the case sets
# paranoid 2 for its run; as a user, it is that user.
. ./lib.sh
need_pmu
mkdir -p out/user && chmod 777 out/user
if [ "$(id -u)" = 0 ]; then
    old=$(cat /proc/sys/kernel/perf_event_paranoid)
    trap 'echo "$old" > /proc/sys/kernel/perf_event_paranoid' EXIT
    echo 2 > /proc/sys/kernel/perf_event_paranoid
    as_user() { (cd out/user && export HOME="$PWD" && like_perf pmu_as_user 65534 "$@"); }
else
    [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] || { echo "skipped: paranoid below 2 and not root"; exit 77; }
    as_user() { (cd out/user && like_perf "$@"); }
fi
pms=$(command -v pmuscope) loop=$(command -v loop)

as_user "$pms" stat -x, -e cycles,instructions -- "$loop" 1000000 2> out/user/pms.csv ||
    fail "stat as a user: $(cat out/user/pms.csv)"
[ "$(grep -c 'counting user space only, as perf does (cycles:u, instructions:u)' out/user/pms.csv)" = 1 ] ||
    fail "stat: not said once: $(cat out/user/pms.csv)"
as_user perf stat -x, -e cycles,instructions -- "$loop" 1000000 2> out/user/perf.csv ||
    fail "perf stat as a user: $(cat out/user/perf.csv)"
for ev in cycles:u instructions:u; do
    a=$(csv_value out/user/pms.csv $ev) b=$(csv_value out/user/perf.csv $ev)
    [ -n "$a" ] && [ -n "$b" ] || fail "$ev: pmuscope '$a', perf '$b' ($(cat out/user/pms.csv out/user/perf.csv))"
    if [ "$guest" = 1 ]; then [ "$a" = "$b" ] || fail "$ev: pmuscope $a, perf $b"
    else near "$a" "$b" 5 || fail "$ev: pmuscope $a, perf $b"; fi
done

as_user "$pms" record -e cycles -c 100000 -o x.data -- "$loop" 1000000 2> out/user/rec.err ||
    fail "record as a user: $(cat out/user/rec.err)"
grep -q 'counting user space only, as perf does (cycles:u)' out/user/rec.err || fail "record: $(cat out/user/rec.err)"
[ "$(perf evlist -f -i out/user/x.data)" = "cycles:u" ] || fail "perf evlist: $(perf evlist -f -i out/user/x.data 2>&1)"

if as_user "$pms" stat -a -e cycles -o /dev/null -- "$loop" 1000 2> out/user/a.err; then
    fail "stat -a as a user at paranoid 2 succeeded"
fi
grep -q 'system-wide counting needs 0' out/user/a.err || fail "stat -a advice: $(cat out/user/a.err)"
echo "as uid 65534 at paranoid 2: cycles:u $(csv_value out/user/pms.csv cycles:u), instructions:u $(csv_value out/user/pms.csv instructions:u), as perf"
