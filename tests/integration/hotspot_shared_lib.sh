#!/bin/bash
# Address mapping in a shared library: a loop in libhot.so that runs exactly N times,
# loaded at different addresses natively (ASLR) and under valgrind. The hottest sampled
# IP of the library must meet valgrind's count for it: executed = block count = N.
# The programs are built here without sanitizers, so valgrind runs them in the ASan build too.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
n=30000000

cat > "$tmp/hot.c" <<'C'
volatile unsigned long lib_sink;
__attribute__((noinline)) void lib_loop(unsigned long n)
{
    unsigned long x = n;
    for (unsigned long i = 0; i < n; i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        x ^= x >> 31;
    }
    lib_sink = x;
}
C
cat > "$tmp/main.c" <<C
void lib_loop(unsigned long n);
int main(void) { lib_loop(${n}ul); return 0; }
C
${CC:-cc} -O2 -g -shared -fPIC -Wl,--build-id -o "$tmp/libhot.so" "$tmp/hot.c"
${CC:-cc} -O2 -g -pie -fPIE -Wl,--build-id -o "$tmp/main" "$tmp/main.c" -L"$tmp" -lhot -Wl,-rpath,"$tmp"

"$PMUSCOPE" hotspot --record-truth "$tmp/truth" -- "$tmp/main"
grep -q " $tmp/libhot.so\$" "$tmp/truth/objects" || fail "libhot.so not among the objects: $(cat "$tmp/truth/objects")"
"$PMUSCOPE" record -e cpu-clock -c 20000 -o "$tmp/perf.data" -- "$tmp/main" 2>/dev/null
"$PMUSCOPE" hotspot --truth "$tmp/truth" --json "$tmp/perf.data" > "$tmp/out.json"

lib=$(jq -c --arg p "$tmp/libhot.so" '[.ips[] | select(.object == $p)] | max_by(.sampled)' "$tmp/out.json")
[ "$lib" != null ] || fail "no sample placed in libhot.so: $(jq -c '[.ips[].object] | unique' "$tmp/out.json")"
echo "hottest IP in libhot.so: $lib"
jq -e --argjson n $n '.function == "lib_loop" and .executed == $n and .block_count == $n' <<<"$lib" >/dev/null ||
    fail "libhot.so loop: expected $n executions of lib_loop"
# and from the ELF side (nm, readelf): the file offset lies inside lib_loop
sym=$((16#$(nm "$tmp/libhot.so" | awk '$3 == "lib_loop" {print $1}')))
read -r seg_off seg_addr < <(readelf -lW "$tmp/libhot.so" | awk '$1 == "LOAD" && / R E / {print $2, $3}')
start=$((sym - seg_addr + seg_off))
off=$(jq .offset <<<"$lib")
[ "$off" -ge "$start" ] && [ "$off" -lt $((start + 64)) ] || fail "offset $off outside lib_loop at $start"
echo ok
