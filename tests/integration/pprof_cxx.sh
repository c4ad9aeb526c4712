#!/bin/bash
# A pprof profile of C++ code carries demangled names: the cxxtree workload (a namespace,
# a class template, member functions and an operator) recorded with callchains; go tool
# pprof and the npm package pprof-format show perf report's names for its functions
# (shapes::Spinner<unsigned long>::spin, shapes::Grid::walk, ...), no mangled _Z name, and
# the callers' names in the stacks.
set -euo pipefail
. "$PMS_SOURCE_DIR/tests/lib/pprof.sh" # $tmp, fail, the readers
export HOME=$tmp
cxx=$PMS_WORKLOADS/cxxtree
[ -x "$cxx" ] || fail "no C++ workload at $cxx"
"$PMUSCOPE" record -g -e cpu-clock -c 100000 -o "$tmp/cxx.data" --pprof "$tmp/cxx.pb.gz" -- "$cxx" >/dev/null 2>&1 ||
    fail "record -g --pprof on the C++ workload"
go_flat "$tmp/cxx.pb.gz" 0 > "$tmp/go.flat"
go_cum "$tmp/cxx.pb.gz" 0 > "$tmp/go.cum"
for f in 'shapes::Spinner<unsigned long>::spin' 'shapes::Spinner<unsigned int>::spin'; do
    grep -qF "	$f" "$tmp/go.flat" || fail "go tool pprof -top lacks $f: $(cat "$tmp/go.flat")"
done
for f in 'shapes::Grid::walk' 'shapes::Grid::operator()' main; do
    awk -F'\t' -v f="$f" '$2 == f && $1 + 0 > 10 {ok = 1} END {exit !ok}' "$tmp/go.cum" ||
        fail "go tool pprof -cum lacks the caller $f: $(cat "$tmp/go.cum")"
done
if grep -qP '\t_Z' "$tmp/go.cum"; then fail "a mangled name in the profile: $(grep -P '\t_Z' "$tmp/go.cum")"; fi
# every user-space function perf report names (over 1%) is in the profile by that name
perf report -i "$tmp/cxx.data" --no-children --stdio -g none --sort sym 2>/dev/null |
    awk '$2 == "[.]" && $1 + 0 > 1 {sub(/^ *[0-9.]+% +\[\.\] /, ""); print}' > "$tmp/perf.names"
[ -s "$tmp/perf.names" ] || fail "perf report names no function"
while IFS= read -r name; do
    awk -F'\t' -v f="$name" '$2 == f {ok = 1} END {exit !ok}' "$tmp/go.flat" || fail "perf's $name is not in the profile"
done < "$tmp/perf.names"
"$PMS_SOURCE_DIR/scripts/npm-pprof-format.sh" "$PMS_BUILD_DIR/npm" || fail "cannot install pprof-format"
node "$PMS_SOURCE_DIR/tests/pprof/decode.cjs" "$PMS_BUILD_DIR/npm/node_modules" "$tmp/cxx.pb.gz" 0 > "$tmp/node.flat" ||
    fail "pprof-format cannot decode the profile"
same_flat "$tmp/node.flat" "$tmp/go.flat" 0.01 0 "pprof-format against go tool pprof"
echo "pprof_cxx: ok ($(wc -l < "$tmp/perf.names") functions named as perf names them)"
