#!/bin/bash
# pmuscope record writes the build-id section (HEADER_BUILD_ID) for every binary its samples
# fell in, as perf record does: `perf buildid-list -i` lists exactly the binaries of
# `perf report --sort dso`, each with the build-id `readelf -n` reads from the file, the
# kernel with `perf buildid-list -k`'s and [vdso] (when sampled) with perf record's.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
fail() { echo "FAIL: $*" >&2; exit 1; }

"$PMUSCOPE" record -e cpu-clock -F 2000 -o "$tmp/ours.data" -- "$PMS_WORKLOADS/names" >/dev/null 2>&1
perf buildid-list -i "$tmp/ours.data" 2>/dev/null | sort -k2 > "$tmp/listed"
[ -s "$tmp/listed" ] || fail "perf buildid-list lists nothing"
while read -r id name; do
    if [ "$name" = "[kernel.kallsyms]" ]; then
        want=$(perf buildid-list -k 2>/dev/null)
    elif [ "$name" = "[vdso]" ]; then # perf record's: from the recording process's own vDSO
        perf record -q -e cpu-clock -o "$tmp/vdso.data" -- "$PMS_WORKLOADS/names" 1 >/dev/null 2>&1
        want=$(perf buildid-list -i "$tmp/vdso.data" 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
    else
        want=$(readelf -n "$name" | awk '/Build ID:/ { print $3 }')
    fi
    [ "$id" = "$want" ] || fail "$name: build-id $id in the file, $want on the machine"
done < "$tmp/listed"
# The binaries with samples, by perf's own reading of the file.
PAGER=cat perf report -i "$tmp/ours.data" --stdio --sort dso 2>/dev/null |
    awk '/^ +[0-9.]+%/ { print $2 }' | sort > "$tmp/sampled" # not perf's tips, which may hold a %
awk '{ n = split($2, p, "/"); print p[n] }' "$tmp/listed" | sort > "$tmp/listed_names"
diff "$tmp/sampled" "$tmp/listed_names" || fail "build-ids listed (right) for other binaries than perf report shows (left)"
grep -q 'names$' "$tmp/listed" && grep -q 'libc.so.6$' "$tmp/listed" || fail "names or libc missing: $(cat "$tmp/listed")"
echo "record_build_ids: $(wc -l < "$tmp/listed") binaries, build-ids as on disk"
