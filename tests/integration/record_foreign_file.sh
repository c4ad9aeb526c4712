#!/bin/bash
# record -o FILE where FILE is another user's, in a sticky directory such as /tmp: only its
# owner may rename it (to FILE.old, or a new file over it), so the recording is refused before
# its command starts, with the reason, and FILE stays as it was. Before, the command ran, and
# the first second's rename failed: the recording was thrown away and the command killed (a
# long run lost for nothing). perf record refuses too, also before running the command
# ("Can't move data"). Root makes the file (a recording of Debian's gzip); `nobody` records
# (tests/lib/unprivileged.sh); its own file in the same directory is still replaced and kept
# as FILE.old.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root, to make a file of another user"; exit 77; }
command -v gzip > /dev/null || { echo "SKIP: gzip is not installed"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/unprivileged.sh"
out="$tmp/home"
chmod 1777 "$out"
seq 1 300000 > "$out/in.txt"; chmod 644 "$out/in.txt"
"$PMUSCOPE" record -e cpu-clock -o "$out/root.data" -- gzip -c "$out/in.txt" > /dev/null 2>&1 || fail "record as root"
chmod 644 "$out/root.data"; cp "$out/root.data" "$tmp/root.copy"

cmd=(sh -c 'touch ran; exec gzip -c in.txt')
set +e; as_user "$pms" record -e cpu-clock -o root.data -- "${cmd[@]}" > /dev/null 2> "$out/err"; rc=$?; set -e
[ "$rc" = 1 ] || fail "record over root's file: exit $rc: $(cat "$out/err")"
grep -q '^pmuscope: cannot write root.data: it belongs to another user, and its directory is sticky' "$out/err" ||
    fail "the reason: $(cat "$out/err")"
[ ! -e "$out/ran" ] || fail "the command ran before the refusal"
cmp -s "$out/root.data" "$tmp/root.copy" || fail "root's file changed"
[ -z "$(ls "$out" | grep -E '^root\.data\.(old|tmp-)')" ] || fail "left: $(ls "$out")"
# perf record: refused too, and its command not run
set +e; as_user perf record -e cpu-clock -o root.data -- "${cmd[@]}" > /dev/null 2>&1; prc=$?; set -e
[ "$prc" != 0 ] && [ ! -e "$out/ran" ] || fail "perf record over root's file: exit $prc, ran: $(ls "$out")"

# nobody's own file there: replaced, the old one kept as FILE.old
as_user "$pms" record -e cpu-clock -o own.data -- gzip -c in.txt > /dev/null 2>&1 || fail "record own.data"
cp "$out/own.data" "$tmp/own.copy"
as_user "$pms" record -e cpu-clock -o own.data -- "${cmd[@]}" > /dev/null 2> "$out/err" || fail "record over own.data: $(cat "$out/err")"
[ -e "$out/ran" ] && cmp -s "$out/own.data.old" "$tmp/own.copy" || fail "own.data not kept as own.data.old"
as_user "$pms" report -i own.data > /dev/null || fail "report own.data"
echo ok
