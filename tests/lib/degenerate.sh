# Shell helpers for the degenerate-case tests (degenerate_inputs.sh, degenerate_hotspot.sh).
# Source it: it makes the scratch directory $tmp (removed at exit), and fail() counts the
# failures that the test reports at its end.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# refused WHAT MESSAGE CMD...: exit 1 and MESSAGE (a grep -E pattern) on stderr.
refused() {
    local what=$1 msg=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne 1 ] || ! grep -Eq -- "$msg" "$tmp/err"; then
        fail "$what: exit $rc, wanted 1 and /$msg/: $(cat "$tmp/err")"
    else
        echo "ok: $what: $(cat "$tmp/err")"
    fi
}

# clean WHAT CMD...: exit 0, and no output of the run (stdout, stderr, every file written
# under $tmp/o) holds nan or inf as a word; every JSON null has its reason.
clean() {
    local what=$1
    shift
    rm -rf "$tmp/o"
    mkdir "$tmp/o"
    "$@" >"$tmp/o/stdout" 2>"$tmp/o/stderr"
    local rc=$?
    [ "$rc" -eq 0 ] || { fail "$what: exit $rc: $(cat "$tmp/o/stderr")"; return; }
    if grep -EiwH -- '-?(nan|inf|infinity)%?' "$tmp"/o/*; then
        fail "$what: nan or inf in an output"
        return
    fi
    for f in "$tmp"/o/*; do
        python3 - "$f" <<'EOF' || fail "$what: $f: a null without its reason"
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(0)  # not JSON
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if x is None and k + "_reason" not in v and k not in ("fit", "loo", "partial", "truth"):
                print(sys.argv[1], "null without a reason:", k)
                sys.exit(1)
            walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
walk(doc)
EOF
    done
    echo "ok: $what"
}
