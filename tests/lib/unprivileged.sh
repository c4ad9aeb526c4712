# A user who is not root, at perf_event_paranoid 2 (the Debian and Ubuntu default), for the
# tests of that case. Source it; it makes $tmp (world-readable), $tmp/home (world-writable, the
# commands' working directory) and $tmp/pmuscope (a world-readable copy of the binary, in $pms),
# and defines as_user CMD...: run as root, the test sets paranoid 2 for its run (restored on
# exit) and as_user runs CMD as `nobody`; run by a user, CMD runs as that user, and the test is
# skipped (77) where paranoid is below 2. The caller's EXIT trap is set here: it restores the
# level and removes $tmp.
tmp=$(mktemp -d); chmod 755 "$tmp"
paranoid_restore=""
unprivileged_cleanup() {
    [ -z "$paranoid_restore" ] || echo "$paranoid_restore" > /proc/sys/kernel/perf_event_paranoid
    rm -rf "$tmp"
}
trap unprivileged_cleanup EXIT
if [ "$(id -u)" = 0 ]; then
    paranoid_restore=$(cat /proc/sys/kernel/perf_event_paranoid)
    echo 2 > /proc/sys/kernel/perf_event_paranoid
    as_user() { (cd "$tmp/home" && runuser -u nobody -- env HOME="$PWD" "$@"); }
else
    [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] || {
        echo "SKIP: perf_event_paranoid is below 2 and this user cannot raise it (run the test as root)"; exit 77; }
    as_user() { (cd "$tmp/home" && HOME="$PWD" "$@"); }
fi
mkdir -m 777 "$tmp/home"
install -m 755 "$PMUSCOPE" "$tmp/pmuscope"
pms="$tmp/pmuscope"
