#!/usr/bin/env bash
# Installs the Debian packages pmuscope needs, in two sets:
#   scripts/install-deps.sh [build]   building and running pmuscope (make build, make demo,
#                                     make install): compiler, CMake, the libraries, help2man
#                                     and lowdown for the man pages (each command's --help and
#                                     its docs/ page), valgrind for hotspot's exact counts
#   scripts/install-deps.sh test      the build set and what only the tests and benchmarks use:
#                                     the references (perf, R, glpsol, Go's pprof, Node.js),
#                                     the Debian programs hotspot's tests sweep (gzip, xz,
#                                     sqlite3), chromium, cmocka, clang for the fuzzers, and the emulated
#                                     ARM machine (QEMU, the aarch64 cross compiler, dpkg's
#                                     arm64 architecture for the guest's packages)
# Idempotent: only missing packages are installed. apt-get as root, sudo otherwise; where it can
# do neither it lists the packages and stops.
set -euo pipefail
set_name=${1:-build}

build_packages=(
  build-essential cmake pkg-config
  libpfm4-dev libdw-dev libelf-dev
  libgsl-dev libglpk-dev liblapacke-dev libopenblas-serial-dev
  libzstd-dev libprotobuf-c-dev protobuf-c-compiler libiberty-dev libjansson-dev
  libmicrohttpd-dev help2man lowdown valgrind
)
test_packages=(
  clang libcmocka-dev
  linux-perf glpk-utils
  r-base-core r-cran-nnls r-cran-sandwich r-cran-lmtest r-cran-glmnet
  zstd xz-utils gzip sqlite3 golang-go nodejs
  jq libxml2-utils python3 curl python3-prometheus-client
  prometheus prometheus-node-exporter
  chromium
  gcc-aarch64-linux-gnu qemu-system-arm cpio
  libpapi-dev papi-tools
)
case $set_name in
  build) packages=("${build_packages[@]}") ;;
  test) packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [build|test]" >&2; exit 2 ;;
esac

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ "$set_name" = test ]; then
  # npm (the tests install the pprof-format decoder with it: scripts/npm-pprof-format.sh) is
  # Debian's npm package where nodejs is Debian's; NodeSource's nodejs carries its own.
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi

# The emulated ARM machine of scripts/pmu-vm is built from Debian's arm64 packages, downloaded
# (never installed) by scripts/arm64-sysroot.sh: dpkg must know the architecture and apt its
# lists. Only the test set adds it.
need_arch=no
if [ "$set_name" = test ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then need_arch=yes; fi
if [ ${#missing[@]} -eq 0 ] && [ $need_arch = no ]; then
  if [ "$set_name" = test ] && ! apt-cache show --no-all-versions libc6:arm64 >/dev/null 2>&1; then
    as_root apt-get update -qq || { echo "install-deps: run as root: apt-get update (arm64 package lists)" >&2; exit 1; }
  fi
  exit 0
fi

if ! as_root true; then
  echo "install-deps: these Debian packages are missing (${set_name} set): ${missing[*]}" >&2
  [ $need_arch = no ] || echo "install-deps: and dpkg needs the arm64 architecture: dpkg --add-architecture arm64" >&2
  echo "install-deps: run as root, or give this user sudo, or install them by hand:" >&2
  echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
arch_note=""
[ $need_arch = no ] || arch_note=" (and dpkg's arm64 architecture)"
echo "install-deps: installing the ${set_name} set's missing packages${arch_note}: ${missing[*]}" >&2
[ $need_arch = no ] || as_root dpkg --add-architecture arm64
as_root apt-get update -qq
[ ${#missing[@]} -eq 0 ] ||
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
