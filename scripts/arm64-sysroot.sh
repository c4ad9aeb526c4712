#!/usr/bin/env bash
# Makes DIR/root: an arm64 sysroot of Debian's own packages for cross-building pmuscope
# (headers and libraries), plus what the emulated guest runs (kernel, busybox, perf with
# the shared libraries its ELF NEEDED entries name).
#
# Nothing is installed into the host system: installing :arm64 packages with apt-get
# would remove the host's libgsl-dev or perf. The .debs are fetched with `apt-get download`
# into DIR/debs and unpacked with `dpkg-deb -x`. Idempotent: a stamp records the list done.
#
#   scripts/arm64-sysroot.sh DIR
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd)

# Headers and link-time libraries for the cross build.
dev=(libc6-dev linux-libc-dev libcrypt-dev libpfm4-dev libdw-dev libelf-dev zlib1g-dev
     liblzma-dev libgsl-dev libglpk-dev libcmocka-dev liblapacke-dev libopenblas-serial-dev
     libzstd-dev libprotobuf-c-dev libiberty-dev libjansson-dev libpapi-dev)
# Their run-time libraries and those of their libraries.
runtime=(libc6 libgcc-s1 libpfm4 libdw1 libelf1 zlib1g liblzma5 libbz2-1.0 libzstd1 libgsl27
         libgslcblas0 libglpk40 libamd2 libcolamd2 libsuitesparseconfig5 libgmp10 libltdl7
         libcmocka0 libopenblas0-serial libgfortran5 libprotobuf-c1 libjansson4 libpapi7.0 libsde1)
# The guest: kernel (CONFIG_ARM_PMU=y), a static busybox, and perf as the reference with the
# libraries its NEEDED entries (and theirs) name; valgrind, whose callgrind gives hotspot's
# exact per-instruction counts (only its core and callgrind go into the guest, see pmu-vm).
guest=(linux-image-cloud-arm64 busybox-static linux-perf libbabeltrace1 libcap2 libnuma1
       libopencsd1 libperl5.36 libpython3.11 libslang2 libunwind8 libcrypt1 libexpat1
       libglib2.0-0 libstdc++6 libuuid1 libffi8 libmount1 libpcre2-8-0 libselinux1 libblkid1
       valgrind)

packages=("${dev[@]}" "${runtime[@]}" "${guest[@]}")
stamp="$dir/root/.pms-sysroot"
want=$(printf '%s\n' "${packages[@]}")
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

# apt-get download needs the arm64 package lists (scripts/install-deps.sh adds the architecture).
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "arm64-sysroot: dpkg has no arm64 architecture: run scripts/install-deps.sh" >&2
  exit 1
fi
if ! apt-cache show --no-all-versions libc6:arm64 >/dev/null 2>&1; then
  echo "arm64-sysroot: no arm64 package lists: run apt-get update (scripts/install-deps.sh does)" >&2
  exit 1
fi

# The kernel metapackage names the versioned image; take the image itself.
kernel=$(apt-cache depends linux-image-cloud-arm64:arm64 | sed -n 's/.*Depends: \(linux-image-[0-9].*-cloud-arm64\).*/\1/p' | head -1)
[ -n "$kernel" ] || { echo "arm64-sysroot: cannot resolve linux-image-cloud-arm64:arm64" >&2; exit 1; }

rm -rf "$dir/debs" "$dir/root"
mkdir -p "$dir/debs" "$dir/root"
names=()
for p in "${packages[@]}"; do
  [ "$p" = linux-image-cloud-arm64 ] && p=$kernel
  names+=("$p:arm64")
done
echo "arm64-sysroot: downloading ${#names[@]} arm64 packages into $dir/debs" >&2
# apt-get download drops privileges to _apt where it can; the folder must let it write.
chmod 0777 "$dir/debs"
(cd "$dir/debs" && apt-get download -q=2 "${names[@]}" 2> >(grep -v 'unsandboxed' >&2))
for deb in "$dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir/root"
done

# Absolute symbolic links (libz.so -> /lib/...) would point into the host: make them relative.
find "$dir/root" -type l -lname '/*' | while read -r link; do
  target=$(readlink "$link")
  ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir/root$target")" "$link"
done
printf '%s\n' "${packages[@]}" > "$stamp"
echo "arm64-sysroot: $dir/root ready" >&2
