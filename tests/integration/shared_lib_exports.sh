#!/usr/bin/env bash
# libpmuscope.so exports the public API and nothing else: every defined dynamic symbol is
# declared in include/pmuscope/, internal helpers (pms__*, util/, file-local) stay hidden,
# every global of libpmuscope.a is public or pms__, and every public header exports its
# declarations (#pragma GCC visibility push(default)).
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
so=$(ls "$PMS_BUILD_DIR"/src/libpmuscope.so.* 2>/dev/null | head -1)
[ -n "$so" ] || fail "no libpmuscope.so in $PMS_BUILD_DIR/src"
inc=$PMS_SOURCE_DIR/include/pmuscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in "$inc"/*.h; do
    grep -q 'extern "C"' "$h" || fail "$(basename "$h") has no extern \"C\" guard"
    grep -q '#pragma GCC visibility push(default)' "$h" || fail "$(basename "$h") does not export its API (#pragma GCC visibility push(default))"
done
grep -ohw 'pms_[A-Za-z0-9_]*' "$inc"/*.h | sort -u > "$tmp/declared"
# The linker's own symbols are not the library's API.
nm -D --defined-only "$so" | awk '{print $NF}' | grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' | sort -u > "$tmp/exported"
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
[ -z "$extra" ] || fail "exported but not declared in include/pmuscope: $(echo $extra)"
n=$(wc -l < "$tmp/exported")
[ "$n" -ge 200 ] || fail "only $n exported symbols: the public API is not exported"
for f in pms_record_run pms_olr_live_create pms_perfdata_sniff pms_strerror pms_hotspot_write_sweep; do
    grep -qx "$f" "$tmp/exported" || fail "$f is declared public but not exported"
done
# The static library has no hidden visibility to lean on: every global it defines is public
# API or carries the internal pms__ prefix, so no internal name can clash with a user's.
a=$PMS_BUILD_DIR/src/libpmuscope.a
[ -f "$a" ] || fail "no libpmuscope.a in $PMS_BUILD_DIR/src"
# (AddressSanitizer's ODR indicator __odr_asan.X of a global X stands for X: X is checked.)
nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 && $2 ~ /[TDBRCV]/ {sub(/^__odr_asan[.]/, "", $3); print $3}' |
    sort -u > "$tmp/static"
stray=$(comm -23 "$tmp/static" "$tmp/declared" | grep -v '^pms__' || true)
[ -z "$stray" ] || fail "libpmuscope.a defines globals that are neither public nor pms__: $(echo $stray)"
for f in pms__fail pms__sample_id_parse; do # internal (src/util, src/io)
    if grep -qx "$f" "$tmp/exported"; then fail "internal $f is exported"; fi
done
echo "ok: $n symbols exported from $(basename "$so"), all declared in include/pmuscope"
