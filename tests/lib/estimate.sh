# Shell helpers for estimate's tests. Source it; the caller defines fail() and sets $tmp and $fx.

# check_runs_needed METHOD LABEL: a method that needs at least k + 2 fitting runs for k varying
# counters refuses 12 runs of the ARM table's 11 counters with a message saying so (exit 1, the
# reason in the CSV row LABEL), and fits 13.
check_runs_needed() {
    local method=$1 label=$2 table=$fx/estimate/armpm_runs_2000mhz_run1.csv rc=0
    "$PMUSCOPE" estimate "$table" --by-index --train 1-12 --method "$method" --csv > "$tmp/k1.csv" 2> /dev/null || rc=$?
    [ $rc -eq 1 ] || fail "$method: k + 1 runs must exit 1"
    grep -qx "$label,,,,,$method: 12 fitting runs for 11 varying counters: needs at least 13 runs" "$tmp/k1.csv" ||
        fail "$method: k + 1 runs: $(cat "$tmp/k1.csv")"
    "$PMUSCOPE" estimate "$table" --by-index --train 1-13 --method "$method" --csv > "$tmp/k2.csv"
    # the held-out error (leave-one-out refits of 12 runs fail: named in the note), no test runs, the fit error
    grep -Eq "^$label,11,[0-9.e+-]*,,[0-9.e+-]+," "$tmp/k2.csv" || fail "$method: k + 2 runs must fit: $(cat "$tmp/k2.csv")"
}
