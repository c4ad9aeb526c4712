#!/usr/bin/env bash
# Runs one case of the hardware suite: in the emulated ARM guest (scripts/pmu-vm), or with
# PMS_PMU_HOST=1 directly on this host (make test-pmu-host), where a host without a PMU skips
# (exit 77). A case NAME.sh runs where the PMU is; NAME.on-host, if there is one, then checks
# on this host what the case left in out/ (now in pmu-vm-out/).
#   tests/pmu/run.sh NAME
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
name=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

rc=0
if [ "${PMS_PMU_HOST:-0}" = 1 ]; then
    build=${PMS_BUILD_DIR:?PMS_BUILD_DIR is not set (run through ctest)}
    cp "$here/lib.sh" "$here/cases/$name.sh" .
    PATH="$build:$build/workloads:$build/tests:$PATH" sh "$name.sh" || rc=$?
    [ "$rc" -eq 77 ] && exit 77
    [ -d out ] && mv out pmu-vm-out
else
    # NAME.modules: kernel modules (one name a line) of the guest's Debian kernel, copied from
    # the arm64 sysroot into the guest's working directory for the case to load.
    adds=()
    if [ -f "$here/cases/$name.modules" ]; then
        root=${PMS_ARM64_BUILD:-$src/build-arm64}/sysroot/root
        [ -d "$root/lib/modules" ] || "$src/scripts/arm64-sysroot.sh" "${PMS_ARM64_BUILD:-$src/build-arm64}/sysroot" >/dev/null
        while read -r m; do
            ko=$(find "$root"/lib/modules/*/kernel -name "$m.ko" -print -quit)
            [ -n "$ko" ] || { echo "FAIL: no $m.ko in the arm64 sysroot's modules"; exit 1; }
            adds+=(--add "$ko")
        done < "$here/cases/$name.modules"
    fi
    "$src/scripts/pmu-vm" --add "$here/lib.sh" --add "$here/cases/$name.sh" "${adds[@]}" -- sh "$name.sh" || rc=$?
    if [ "$rc" -eq 77 ]; then
        echo "FAIL: the emulated machine has no PMU"
        exit 1
    fi
fi
[ "$rc" -eq 0 ] || exit "$rc"
if [ -f "$here/cases/$name.on-host" ]; then
    bash "$here/cases/$name.on-host" pmu-vm-out
fi
