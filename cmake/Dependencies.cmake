# Locates the libraries pmuscope is built on. scripts/install-deps.sh installs them.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw libelf)
pkg_check_modules(GSL REQUIRED IMPORTED_TARGET gsl)
# Reading the region markers' JSON reports back (pmuscope stat --regions).
pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
# OLS by LAPACK's QR (dgeqrf, declared by LAPACKE's lapack.h) from OpenBLAS's single-threaded
# build, linked by its own folder so that the build's (and the install's) RUNPATH names it:
# Debian's default libopenblas.so.0 is the pthread build, whose threads only slow a
# tall-skinny QR on a busy machine. GSL stays for the distributions and small matrices.
find_path(LAPACK_INCLUDE_DIR lapack.h REQUIRED)
find_library(OPENBLAS_SERIAL_LIBRARY openblas REQUIRED NO_DEFAULT_PATH
             PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-serial)
add_library(pms_dep_lapack INTERFACE)
target_include_directories(pms_dep_lapack INTERFACE ${LAPACK_INCLUDE_DIR})
target_link_libraries(pms_dep_lapack INTERFACE ${OPENBLAS_SERIAL_LIBRARY})
get_filename_component(PMS_OPENBLAS_DIR ${OPENBLAS_SERIAL_LIBRARY} DIRECTORY)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)

find_path(PFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h REQUIRED)
find_library(PFM_LIBRARY pfm REQUIRED)
add_library(pms_dep_pfm INTERFACE)
target_include_directories(pms_dep_pfm INTERFACE ${PFM_INCLUDE_DIR})
target_link_libraries(pms_dep_pfm INTERFACE ${PFM_LIBRARY})

find_path(GLPK_INCLUDE_DIR glpk.h REQUIRED)
find_library(GLPK_LIBRARY glpk REQUIRED)
add_library(pms_dep_glpk INTERFACE)
target_include_directories(pms_dep_glpk INTERFACE ${GLPK_INCLUDE_DIR})
target_link_libraries(pms_dep_glpk INTERFACE ${GLPK_LIBRARY})

# The tests (cmocka) are built where cmocka is installed, or required with -DPMS_TESTS=ON
# (make test); a build for use alone (make build, make demo) needs only the build set.
if(NOT PMS_FUZZ AND NOT CMAKE_CROSSCOMPILING)
  if(PMS_TESTS)
    pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
  else()
    pkg_check_modules(CMOCKA IMPORTED_TARGET cmocka)
    if(NOT CMOCKA_FOUND)
      message(STATUS "cmocka not found: the tests are not built (make test installs it: scripts/install-deps.sh test)")
    endif()
  endif()
elseif(NOT PMS_FUZZ)
  pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
endif()

# libiberty's demangler (C++, and Rust in its auto mode), as perf uses it for symbol names.
find_path(IBERTY_INCLUDE_DIR libiberty/demangle.h REQUIRED)
find_library(IBERTY_LIBRARY NAMES libiberty.a iberty REQUIRED)
add_library(pms_dep_iberty INTERFACE)
target_include_directories(pms_dep_iberty INTERFACE ${IBERTY_INCLUDE_DIR})
target_link_libraries(pms_dep_iberty INTERFACE ${IBERTY_LIBRARY})

# pprof profiles: protobuf-c's runtime, its code generator (a build-machine program, also
# when cross-building) and zlib for the gzip framing.
pkg_check_modules(PROTOBUFC REQUIRED IMPORTED_TARGET libprotobuf-c)
pkg_check_modules(ZLIB REQUIRED IMPORTED_TARGET zlib)
find_program(PROTOC_C protoc-c REQUIRED)

# JSON in: the runs that `pmuscope stat --json` wrote, read back by `pmuscope diff`.
pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)

# libmicrohttpd: the HTTP server of `pmuscope stat --serve` (the CLI alone links it). The cross
# build for the emulated guest goes without it: the guest serves nothing.
if(CMAKE_CROSSCOMPILING)
  pkg_check_modules(MHD IMPORTED_TARGET libmicrohttpd)
else()
  pkg_check_modules(MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
endif()
