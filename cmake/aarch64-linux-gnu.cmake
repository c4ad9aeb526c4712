# Cross-builds pmuscope for 64-bit ARM Linux with Debian's gcc-aarch64-linux-gnu against a
# sysroot of Debian's arm64 packages made by scripts/arm64-sysroot.sh:
#   scripts/arm64-sysroot.sh build-arm64/sysroot
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DPMS_ARM64_SYSROOT=$PWD/build-arm64/sysroot/root
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

if(NOT PMS_ARM64_SYSROOT)
  set(PMS_ARM64_SYSROOT "$ENV{PMS_ARM64_SYSROOT}")
endif()
if(NOT PMS_ARM64_SYSROOT OR NOT EXISTS "${PMS_ARM64_SYSROOT}/usr/include/stdio.h")
  message(FATAL_ERROR "aarch64 toolchain: PMS_ARM64_SYSROOT='${PMS_ARM64_SYSROOT}' is not a sysroot; "
                      "make one with scripts/arm64-sysroot.sh DIR and pass -DPMS_ARM64_SYSROOT=DIR/root")
endif()
# try_compile projects see the same sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PMS_ARM64_SYSROOT)

set(CMAKE_SYSROOT "${PMS_ARM64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH "${PMS_ARM64_SYSROOT}")
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads the sysroot's .pc files only, and prefixes their paths with the sysroot.
set(ENV{PKG_CONFIG_DIR} "")
set(ENV{PKG_CONFIG_LIBDIR}
    "${PMS_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${PMS_ARM64_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${PMS_ARM64_SYSROOT}")
