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

# olr --decode - reads the segment file from standard input, piped or redirected
"$P" olr --method opt --eps 1 --store "$tmp/g.olr" "$F/olr/group.data" >/dev/null
"$P" olr --decode "$tmp/g.olr" -o "$tmp/decoded.csv"
[ "$(wc -l <"$tmp/decoded.csv")" -gt 10 ] || fail "olr --decode FILE: too few rows"
cat "$tmp/g.olr" | "$P" olr --decode - -o "$tmp/decoded-pipe.csv" || fail "cat | olr --decode -"
"$P" olr --decode - -o "$tmp/decoded-redir.csv" <"$tmp/g.olr" || fail "olr --decode - < file"
cmp "$tmp/decoded.csv" "$tmp/decoded-pipe.csv" || fail "olr --decode -: piped differs"
cmp "$tmp/decoded.csv" "$tmp/decoded-redir.csv" || fail "olr --decode -: redirected differs"

# A reader's message names the input as given ("-"), never the temporary copy of the pipe
# (/dev/fd/N) that the format check reads: expect_named WANT FILE CMD... runs CMD - with
# FILE piped in and redirected, and expects exit 1 and a message starting "pmuscope: WANT".
expect_named() {
    local file=$1
    shift
    for how in pipe redir; do
        if [ $how = pipe ]; then cat "$file" | "$@" - >/dev/null 2>"$tmp/err" && fail "$* -: exit 0 on $file"
        else "$@" - <"$file" >/dev/null 2>"$tmp/err" && fail "$* - < $file: exit 0"; fi
        grep -q "^pmuscope: -[:, ]" "$tmp/err" || fail "$* - ($how): message does not name '-': $(cat "$tmp/err")"
        if grep -q /dev/fd/ "$tmp/err"; then fail "$* - ($how): message names the copy: $(cat "$tmp/err")"; fi
    done
}
printf 'x,y\n1,2\n1,3\n' >"$tmp/repeat_x.csv"
head -c 3000 "$F/olr/group.data" >"$tmp/cut.data"
printf 'T:1:5 \nX\n' >"$tmp/bad.bb"
head -c 100 "$tmp/g.olr" >"$tmp/cut.olr"
expect_named "$tmp/repeat_x.csv" "$P" olr
expect_named "$tmp/repeat_x.csv" "$P" olr --method opt --eps 1%
expect_named "$tmp/repeat_x.csv" "$P" olr --method opt --store "$tmp/o.olr"
expect_named "$tmp/cut.data" "$P" olr
expect_named "$tmp/cut.data" "$P" phase
expect_named "$tmp/bad.bb" "$P" phase
expect_named "$tmp/cut.olr" "$P" olr --decode
echo "pipe inputs: ok"
