# Shell helpers for tests of the installed library: install the build into a prefix and
# build a program against it with pkg-config, as a user would. Source it; the caller
# defines fail().

# install_prefix DIR: cmake --install of the build into DIR; pkg-config and the loader then
# find that prefix's pmuscope.pc and libpmuscope.so.
install_prefix() {
    cmake --install "$PMS_BUILD_DIR" --prefix "$1" > "$1.install.log" || { cat "$1.install.log"; fail "cmake --install"; }
    export PKG_CONFIG_PATH=$1/lib/pkgconfig LD_LIBRARY_PATH=$1/lib
}

# build_installed OUT SOURCE: compiles SOURCE (strict C11, sanitized as the build is) with
# `pkg-config --cflags --libs pmuscope` and checks that OUT links the installed
# libpmuscope.so of the prefix install_prefix made.
build_installed() {
    local extra=()
    if grep -q '^PMS_SANITIZE:BOOL=ON' "$PMS_BUILD_DIR/CMakeCache.txt"; then extra=(-fsanitize=address,undefined); fi
    cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror "${extra[@]}" -o "$1" "$2" $(pkg-config --cflags --libs pmuscope) \
        || fail "$2 does not build with pkg-config --cflags --libs pmuscope"
    grep -q "${LD_LIBRARY_PATH%%:*}/libpmuscope.so" <(ldd "$1") || fail "$1 is not linked with the installed libpmuscope.so"
}
