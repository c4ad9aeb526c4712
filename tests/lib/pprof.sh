# Helpers of the pprof tests: other people's readers of pmuscope's profiles. Sourcing it
# makes the test's scratch directory $tmp (removed at exit) and fail().
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/csv.sh" # plain_csv

# go tool pprof offline, writing nothing outside $tmp.
gopprof() {
    HOME=$tmp GOCACHE=$tmp/gocache GOPATH=$tmp/gopath GOFLAGS=-mod=mod GOPROXY=off PPROF_TMPDIR=$tmp \
        go tool pprof -symbolize=none "$@"
}

# "share<TAB>function" per function as go tool pprof -top prints it (flat%, 2 decimals).
go_flat() { # FILE SAMPLE_INDEX
    gopprof -top -nodecount=1000000 -nodefraction=0 -sample_index="$2" "$1" 2>"$tmp/go.err" |
        awk '/^ *flat +flat%/ {rows=1; next}
             rows && NF >= 6 {name=$6; for (i = 7; i <= NF; i++) name = name " " $i; sub(/%$/, "", $2); printf "%s\t%s\n", $2, name}' ||
        { cat "$tmp/go.err" >&2; fail "go tool pprof cannot read $1"; }
}

# "cum share<TAB>function" per function as go tool pprof -top -cum prints it (cum%: a sample
# counts once in every function of its stack).
go_cum() { # FILE SAMPLE_INDEX
    gopprof -top -cum -nodecount=1000000 -nodefraction=0 -sample_index="$2" "$1" 2>"$tmp/go.err" |
        awk '/^ *flat +flat%/ {rows=1; next}
             rows && NF >= 6 {name=$6; for (i = 7; i <= NF; i++) name = name " " $i; sub(/%$/, "", $5); printf "%s\t%s\n", $5, name}' ||
        { cat "$tmp/go.err" >&2; fail "go tool pprof cannot read $1"; }
}

# "children share<TAB>function" per function name from a report --children CSV, functions
# with a name only (pprof makes one function of a binary's addresses without a symbol,
# report a row of each, as perf).
report_children() { # CSV
    python3 -c '
import csv, sys
shares = {}
with open(sys.argv[1], newline="") as f:
    for r in csv.DictReader(f):
        if r["function"]:
            shares[r["function"]] = shares.get(r["function"], 0.0) + 100 * float(r["children_share"])
for name, share in shares.items():
    print("%.4f\t%s" % (share, name))' "$1"
}

# "share<TAB>function" per function name from a pmuscope report CSV (share column 9, rows of
# one name summed: pprof merges functions by name, report by binary and function). A real CSV
# reader: demangled C++ names hold commas inside quoted fields.
report_flat() { # CSV
    python3 -c '
import csv, sys
shares = {}
with open(sys.argv[1], newline="") as f:
    rows = csv.reader(f)
    next(rows)
    for r in rows:
        name = r[2] or "[unknown]"
        shares[name] = shares.get(name, 0.0) + 100 * float(r[8])
for name, share in shares.items():
    print("%.4f\t%s" % (share, name))' "$1"
}

# Every function of A with a share of at least MIN percent has the same share in B within
# TOL percentage points, and the other way round.
same_flat() { # A B TOL MIN WHAT
    awk -F'\t' -v tol="$3" -v min="$4" -v what="$5" '
        FNR == NR {a[$2] = $1; next} {b[$2] = $1}
        END {
            for (n in a) if (a[n] + 0 >= min) {
                if (!(n in b) && a[n] + 0 == 0) continue # a zero row one reader lists and the other leaves out
                if (!(n in b)) { printf "%s: %s: only in the first (%s%%)\n", what, n, a[n]; bad = 1; continue }
                d = a[n] - b[n]; if (d < 0) d = -d
                if (d > tol) { printf "%s: %s: %s%% against %s%%\n", what, n, a[n], b[n]; bad = 1 } }
            for (n in b) if (b[n] + 0 >= min && b[n] + 0 > 0 && !(n in a)) { printf "%s: %s: only in the second (%s%%)\n", what, n, b[n]; bad = 1 }
            exit bad
        }' "$1" "$2" || fail "$5: the shares differ (above)"
}

# A CPU profile of tests/pprof/goburn written by go test -cpuprofile, offline: Go's build
# cache lives in the build tree (kept between runs), no module is downloaded.
go_cpu_profile() { # OUT
    cp -r "$PMS_SOURCE_DIR/tests/pprof/goburn" "$tmp/goburn"
    (cd "$tmp/goburn" && HOME=$tmp GOCACHE=$PMS_BUILD_DIR/gocache GOPATH=$tmp/gopath GOPROXY=off GOFLAGS=-mod=mod \
        go test -count=1 -cpuprofile "$1" -o "$tmp/goburn.test" . > "$tmp/go.log" 2>&1) ||
        { cat "$tmp/go.log"; fail "go test -cpuprofile"; }
}
