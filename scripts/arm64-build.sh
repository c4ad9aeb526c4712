#!/usr/bin/env bash
# Cross-builds pmuscope, its test programs and the workloads for aarch64 into BUILD
# (default build-arm64), with the sysroot of scripts/arm64-sysroot.sh in BUILD/sysroot.
#   scripts/arm64-build.sh [BUILD]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-arm64}
mkdir -p "$build"
build=$(cd "$build" && pwd)

"$src/scripts/arm64-sysroot.sh" "$build/sysroot"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPMS_WERROR=ON \
        -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" \
        -DPMS_ARM64_SYSROOT="$build/sysroot/root" > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; exit 1; }
fi
# Quiet unless it fails: pmu-vm's stderr is the guest command's.
if ! cmake --build "$build" -j "${JOBS:-2}" > "$build/build.log" 2>&1; then
  cat "$build/build.log" >&2
  echo "arm64-build: the cross build failed (log: $build/build.log)" >&2
  exit 1
fi
