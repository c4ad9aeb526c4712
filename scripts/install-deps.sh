#!/usr/bin/env bash
# Installs the Debian packages pmuscope needs to build, test and run its demo.
# Idempotent: only missing packages are installed. apt-get as root, sudo otherwise.
set -euo pipefail

packages=(
  build-essential cmake pkg-config clang
  libpfm4-dev libdw-dev libelf-dev libcmocka-dev
  libgsl-dev libglpk-dev glpk-utils liblapacke-dev libopenblas-serial-dev
  linux-perf valgrind
  r-base-core r-cran-nnls r-cran-sandwich r-cran-lmtest
  zstd xz-utils libzstd-dev
  libprotobuf-c-dev protobuf-c-compiler libiberty-dev golang-go
  nodejs
  jq libxml2-utils python3
  chromium help2man
  gcc-aarch64-linux-gnu qemu-system-arm cpio
)
# The emulated ARM machine of scripts/pmu-vm is built from Debian's arm64 packages, downloaded
# (never installed) by scripts/arm64-sysroot.sh: dpkg must know the architecture and apt its lists.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
  else echo "install-deps: run as root: $*" >&2; return 1
  fi
}
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  as_root dpkg --add-architecture arm64
  as_root apt-get update -qq
elif ! apt-cache show --no-all-versions libc6:arm64 >/dev/null 2>&1; then
  as_root apt-get update -qq
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
# npm (the tests install the pprof-format decoder with it: scripts/npm-pprof-format.sh) is
# Debian's npm package where nodejs is Debian's; NodeSource's nodejs carries its own.
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  run=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  run=(sudo)
else
  echo "install-deps: these Debian packages are missing: ${missing[*]}" >&2
  echo "install-deps: run as root, or give this user sudo, or install them by hand:" >&2
  echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
