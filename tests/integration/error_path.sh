#!/usr/bin/env bash
# One error path: every command, driven into a usage error and into a runtime error, says
# "pmuscope: <message>" exactly once (warnings aside) and exits 2 or 1. A usage error is
# that line and the pointer to --help, nothing else (getopt says nothing of its own); a
# runtime error's line is the last on stderr (anything printed before it is a warning or
# the command's progress, never a second error).
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
PMS=$PMUSCOPE
fx=$PMS_FIXTURES
failures=0
bad() { echo "FAIL: $*"; sed 's/^/    stderr: /' "$tmp/err"; failures=$((failures + 1)); }

# errors: the "pmuscope: " lines that are not warnings.
errors() { grep '^pmuscope: ' "$tmp/err" | grep -vc '^pmuscope: warning: '; }

# usage CMD ARGS...: exit 2, stderr exactly "pmuscope: ..." and "See 'pmuscope CMD --help'."
usage() {
    local cmd=$1
    "$PMS" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 2 ] || [ "$(errors)" -ne 1 ] ||
        [ "$(tail -n 1 "$tmp/err")" != "See 'pmuscope $cmd --help'." ]; then
        bad "usage error, exit $rc (wanted 2): $*"
    else
        echo "ok (2): $* -> $(head -n 1 "$tmp/err")"
    fi
}

# runtime PATTERN CMD ARGS...: exit 1, one error line, the last on stderr, matching PATTERN.
runtime() {
    local want=$1
    shift
    "$PMS" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
    local last
    last=$(tail -n 1 "$tmp/err")
    if [ $rc -ne 1 ] || [ "$(errors)" -ne 1 ] || [[ "$last" != pmuscope:* ]] || [[ "$last" == "pmuscope: warning:"* ]] ||
        ! grep -q -- "$want" <<<"$last"; then
        bad "runtime error, exit $rc (wanted 1, one message matching '$want'): $*"
    else
        echo "ok (1): $* -> $last"
    fi
}

for cmd in list stat record report cpistack estimate hotspot olr demo phase; do
    usage "$cmd" --no-such-option
    usage "$cmd" -Z
done
usage record -e                               # a missing argument
usage report --limit=x
usage stat --repeat 0 -- true
usage record -c 0 -- true
usage record --help=yes
usage cpistack --split 2 x.csv
usage estimate --method nosuch x.csv
usage hotspot --rows x --truth t x.data
usage hotspot --record-truth d --sweep 1M -- true     # --sweep was ignored
usage olr --eps x in.csv
usage demo --steps nosuch
usage phase --threshold 200 x.data
# The option a usage error names: an unknown short option clustered right after a long
# option is named as itself (getopt leaves optind on the cluster, so the argument before it
# is the long option, which is not the one refused); a long option's own errors still name it.
names() { # WANT CMD ARGS...: a usage error whose message names WANT
    local want=$1
    shift
    usage "$@"
    grep -qxF -- "pmuscope: $want" "$tmp/err" || bad "$*: wanted '$want' in: $(head -n 1 "$tmp/err")"
}
names "-Q: unknown option" report --json -Qh
names "-Q: unknown option" report --weight period -Qh
names "-Z: unknown option" cpistack --brief -Zb x.csv
names "--help: takes no argument" record --help=x -h
"$PMS" help no-such-command >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(errors)" -eq 1 ] || bad "help no-such-command: exit $rc"

printf 'garbage\n' >garbage.data
printf 'PERFIL' >short.data

runtime "cannot write nodir/x.json" list --json=nodir/x.json
runtime "unknown event 'nosuch'" stat -e nosuch -- true
runtime "cannot run '/nonexistent'" stat -e task-clock -- /nonexistent
runtime "cannot run '/nonexistent'" record -e cpu-clock -o p.data -- /nonexistent
runtime "unknown event 'nosuch'" record -e nosuch -o p.data -- true
runtime "garbage.data: neither a perf.data file (no PERFILE2 magic at offset 0) nor a pprof profile" report -i garbage.data
runtime "short.data: 6 bytes is too short" report -i short.data  # a perf.data cut short
runtime "cannot open none.csv" cpistack none.csv
runtime "cannot open none.csv" estimate none.csv
runtime "not a truth directory" hotspot --truth none p.data
runtime "cannot open none.csv" olr none.csv
runtime "cannot open none.data" phase none.data
runtime "the bundled workloads are needed" demo --workloads "$tmp/none" -o "$tmp/demo"
# A command that runs under valgrind but fails when sampled: the sweep's recording fails,
# and the message says so once (the recordings run in this process, with nothing of their own
# on stderr).
runtime "exited with status 3 while recorded at period" hotspot --sweep 1M \
    -- sh -c 'case "$LD_PRELOAD" in *vgpreload*) exit 0;; *) exit 3;; esac'
# An output that fails after the analysis: still one message.
runtime "cannot write nodir/x.csv" olr --csv=nodir/x.csv "$fx/olr/paper_example.csv"

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "error_path: ok"
