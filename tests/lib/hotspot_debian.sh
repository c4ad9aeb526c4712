# hotspot --sweep on a program nobody here wrote, checked against what nobody here wrote.
# Source it after defining fail() and tmp; TMPDIR is set to an empty $tmp/tmp, so that
# the sweep's temporary directory (pmuscope-truth-*) is seen to go.
#
# debian_sweep NAME INPUT COMMAND...   (INPUT: the file the command reads as its standard
# input, or - for none) sweeps 64K,256K ns of cpu-clock (--fallback: no PMU here; one
# native run records both periods beside valgrind) into $tmp/NAME.json, keeping valgrind's
# profiles and the recording in $tmp/NAME, and checks:
#  - progress on stderr: valgrind started, each period recorded, valgrind done with its time;
#  - every period's row is there and measured;
#  - the truth's instructions are a standalone `valgrind --tool=callgrind
#    --trace-children=yes` run's (the sum of its profiles' summary lines), within 0.1%;
#  - under 5% of each period's samples lie outside the truth (in files or at instructions
#    valgrind never ran);
#  - every run wrote the same output (runs_differ null);
#  - the measures are those recomputed by hotspot_recompute.py from callgrind's profiles
#    and `perf script` (to 1e-6), and the ideal sampler's columns those of its own
#    simulation from the exact counts;
#  - no temporary directory is left.
mkdir -p "$tmp/tmp"
export TMPDIR=$tmp/tmp

# Skips the test (77) where a program it runs is missing.
need_tools() {
    for tool in valgrind perf python3 readelf jq "$@"; do
        command -v "$tool" > /dev/null || { echo "SKIP: no $tool (scripts/install-deps.sh test installs it)"; exit 77; }
    done
}

debian_sweep() {
    local name=$1 input=$2
    shift 2
    local stdin=(--stdin "$input") from=$input
    [ "$input" = - ] && stdin=() from=/dev/null
    "$PMUSCOPE" hotspot --sweep 64K,256K --fallback --save-truth "$tmp/$name" --json -o "$tmp/$name.json" \
        "${stdin[@]}" -- "$@" 2> "$tmp/$name.err" || fail "$name: hotspot --sweep: $(cat "$tmp/$name.err")"
    for line in "valgrind (callgrind) started on $1" "recorded period 64K: [0-9]* samples" \
                "recorded period 256K: [0-9]* samples" "valgrind done in [0-9.]* s: [0-9]* instructions"; do
        grep -q "^pmuscope hotspot: $line" "$tmp/$name.err" || fail "$name: no progress line \"$line\": $(cat "$tmp/$name.err")"
    done
    jq -e '(.periods | length) == 2 and all(.periods[]; .measured and .ns > 0)' "$tmp/$name.json" > /dev/null ||
        fail "$name: periods $(jq -c '[.periods[] | {period, samples, measured}]' "$tmp/$name.json")"

    mkdir "$tmp/$name.ref"
    valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$tmp/$name.ref/callgrind.%p" \
        --log-file="$tmp/$name.ref/log.%p" "$@" < "$from" > /dev/null || fail "$name: standalone valgrind"
    local ref truth
    ref=$(awk '/^summary:/ { s += $2 } END { printf "%d", s }' "$tmp/$name.ref"/callgrind.*)
    truth=$(jq .truth.instructions "$tmp/$name.json")
    awk -v a="$truth" -v b="$ref" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.001 * b) }' ||
        fail "$name: the truth counts $truth instructions, standalone callgrind $ref"

    jq -e 'all(.periods[]; .outside_truth_share < 0.05)' "$tmp/$name.json" > /dev/null ||
        fail "$name: samples outside the truth: $(jq -c '[.periods[] | {period, outside_truth_share, outside_cause}]' "$tmp/$name.json")"
    jq -e '.runs_differ == null' "$tmp/$name.json" > /dev/null || fail "$name: $(jq -r .runs_differ "$tmp/$name.json")"
    python3 "$PMS_SOURCE_DIR/tests/integration/hotspot_recompute.py" "$tmp/$name" "$tmp/$name/sweep.data" \
        "$tmp/$name.json" > "$tmp/$name.recompute" || fail "$name: recomputed: $(grep FAIL "$tmp/$name.recompute")"
    [ -z "$(ls -A "$tmp/tmp")" ] || fail "$name: left in TMPDIR: $(ls -A "$tmp/tmp")"
    local summary='[.periods[] | "\(.period): \(.ns) samples, \(.outside_truth_share * 1000 | round / 10)% outside, NRMSE_SR \(.nrmse_sr * 1e4 | round / 1e4) (ideal \(.nrmse_sr_ideal * 1e4 | round / 1e4))"] | join("; ")'
    echo "$name: $truth instructions in $(jq .truth.processes "$tmp/$name.json") process(es) (standalone callgrind" \
         "$ref); $(jq -r "$summary" "$tmp/$name.json")"
}

# The CPU mask the sweep reported, checked against glibc itself: run with those tunables,
# the loader reports valgrind's preferences and copy thresholds and none of the features
# the tunables turn off; where the sweep found nothing to mask, the reports agree already;
# where it could not tell, the loader says nothing x86 (or cannot say).
check_cpu_mask() {
    local json=$1 loader state tunables
    loader=$(readelf -lW "$PMUSCOPE" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
    state=$(jq -r .cpu_mask.state "$json")
    tunables=$(jq -r .cpu_mask.glibc_tunables "$json")
    local keys='^x86\.cpu_features\.(preferred\.|rep_movsb_threshold|rep_stosb_threshold|non_temporal_threshold|data_cache_size|shared_cache_size)'
    valgrind --tool=none -q --vgdb=no "$loader" --list-diagnostics 2> /dev/null | grep -E "$keys" > "$tmp/glibc.valgrind" || true
    case $state in
    applied)
        GLIBC_TUNABLES=$tunables "$loader" --list-diagnostics | grep -E "$keys" > "$tmp/glibc.masked"
        diff "$tmp/glibc.valgrind" "$tmp/glibc.masked" > "$tmp/glibc.diff" ||
            fail "cpu mask $tunables: the loader still differs from valgrind's: $(cat "$tmp/glibc.diff")"
        # the turned-off features: AVX512F's bit is features[1].active[1] bit 16 (CPUID leaf 7 EBX)
        if [[ $tunables == *-AVX512F* ]]; then
            local bits
            bits=$(GLIBC_TUNABLES=$tunables "$loader" --list-diagnostics | sed -n 's/^x86\.cpu_features\.features\[0x1\]\.active\[0x1\]=//p')
            [ $((bits >> 16 & 1)) -eq 0 ] || fail "cpu mask $tunables: AVX512F still active ($bits)"
        fi
        echo "cpu mask: $tunables: the loader then reports valgrind's preferences and thresholds" ;;
    same)
        "$loader" --list-diagnostics | grep -E "$keys" | diff "$tmp/glibc.valgrind" - > /dev/null ||
            fail "cpu mask: the sweep found nothing to mask, but the loader's reports differ" ;;
    unavailable)
        if "$loader" --list-diagnostics 2> /dev/null | grep -q '^x86\.cpu_features\.' && [ -s "$tmp/glibc.valgrind" ]; then
            fail "cpu mask unavailable ($(jq -r .cpu_mask.why "$json")) where the loader reports x86 features"
        fi ;;
    *) fail "cpu mask state $state" ;;
    esac
}
