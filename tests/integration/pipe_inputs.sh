#!/usr/bin/env bash
# olr and phase choose their reader from the input's first bytes: from a pipe ("-", /dev/stdin,
# bash's <(...)) they give the same result as from the file, for every input kind: perf.data,
# CSV and TSV tables (olr), perf.data, exp-bbv and SimPoint .bb (phase). Before, the format
# check consumed the first 8 bytes of a pipe and the reader saw the rest.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES
fail() { echo "FAIL: $*"; exit 1; }

# same_from_pipes NAME FILE CMD...: CMD FILE, and CMD with FILE through each kind of pipe,
# write the same CSV (the output that does not name the input).
same_from_pipes() {
    local name=$1 file=$2
    shift 2
    "$@" --csv="$tmp/file.csv" "$file" >/dev/null || fail "$name from the file"
    [ -s "$tmp/file.csv" ] || fail "$name: empty CSV"
    cat "$file" | "$@" --csv="$tmp/dash.csv" - >/dev/null || fail "$name from cat | ... -"
    cat "$file" | "$@" --csv="$tmp/stdin.csv" /dev/stdin >/dev/null || fail "$name from cat | ... /dev/stdin"
    "$@" --csv="$tmp/subst.csv" <(cat "$file") >/dev/null || fail "$name from <(cat ...)"
    "$@" --csv="$tmp/redir.csv" - <"$file" >/dev/null || fail "$name from - < file"
    for k in dash stdin subst redir; do cmp "$tmp/file.csv" "$tmp/$k.csv" || fail "$name: $k differs"; done
    echo "ok: $name"
}

tr ',' '\t' <"$F/olr/paper_example.csv" >"$tmp/paper.tsv"
same_from_pipes "olr perf.data" "$F/olr/group.data" "$P" olr
same_from_pipes "olr CSV" "$F/olr/paper_example.csv" "$P" olr
same_from_pipes "olr TSV" "$tmp/paper.tsv" "$P" olr
same_from_pipes "phase perf.data" "$F/olr/group.data" "$P" phase --samples-per-interval 10
same_from_pipes "phase exp-bbv" "$F/bbv/two.bb" "$P" phase --pc "$F/bbv/two.pc"
"$P" phase --write-bb "$tmp/sig.bb" "$F/bbv/two.bb" >/dev/null
same_from_pipes "phase SimPoint .bb" "$tmp/sig.bb" "$P" phase --format simpoint

# the source is still named as given
cat "$F/olr/paper_example.csv" | "$P" olr - | head -1 | grep -q "^-: " || fail "olr - names its input '-'"
echo "pipe inputs: ok"
