#!/bin/bash
# The two sets of Debian packages (scripts/install-deps.sh): `make build`, `make demo` and
# `make install` install the build set only, with none of the tests' packages (R, Go, Node.js,
# chromium, QEMU, the cross compiler, cmocka, perf) and no dpkg architecture; the test targets
# install both sets and add arm64. Run against stand-ins for dpkg, dpkg-query, apt-get and
# apt-cache that find nothing installed and log what they are asked, so nothing is installed.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
src=$PMS_SOURCE_DIR
mkdir "$tmp/bin"
for tool in dpkg dpkg-query apt-get apt-cache sudo; do
    printf '#!/bin/sh\necho "%s $*" >> "%s/log"\n%s\n' "$tool" "$tmp" \
        "$([ "$tool" = dpkg-query ] || [ "$tool" = apt-cache ] && echo 'exit 1' || echo 'exit 0')" > "$tmp/bin/$tool"
    chmod +x "$tmp/bin/$tool"
done
PATH="$tmp/bin:/usr/sbin:/sbin:/bin:/usr/bin"
test_only="r-base-core golang-go nodejs chromium qemu-system-arm gcc-aarch64-linux-gnu libcmocka-dev linux-perf clang"

installed() { sed -n 's/^apt-get .*install -y -qq --no-install-recommends //p' "$tmp/log" | tr ' ' '\n' | grep .; }
for set in build test; do
    : > "$tmp/log"
    if [ "$(id -u)" = 0 ]; then
        PATH=$PATH bash "$src/scripts/install-deps.sh" $set 2> "$tmp/err" || fail "$set: $(cat "$tmp/err")"
    else # as a user without sudo the script lists what is missing and stops
        set +e; PATH=$PATH bash "$src/scripts/install-deps.sh" $set 2> "$tmp/err"; rc=$?; set -e
        [ "$rc" = 1 ] && grep -q "apt-get install --no-install-recommends" "$tmp/err" || fail "$set as a user: $(cat "$tmp/err")"
        sed -n 's/.*apt-get install --no-install-recommends /apt-get install -y -qq --no-install-recommends /p' "$tmp/err" >> "$tmp/log"
    fi
    installed | sort > "$tmp/$set.pkgs"
    grep -qx valgrind "$tmp/$set.pkgs" && grep -qx libgsl-dev "$tmp/$set.pkgs" || fail "$set set lacks the build set: $(xargs < "$tmp/$set.pkgs")"
    for p in $test_only; do
        if grep -qx "$p" "$tmp/$set.pkgs"; then [ $set = test ] || fail "the build set installs $p"
        else [ $set = build ] || fail "the test set does not install $p"; fi
    done
    if grep -q 'add-architecture' "$tmp/log" "$tmp/err"; then [ $set = test ] || fail "the build set adds a dpkg architecture"
    else [ $set = build ] || [ "$(id -u)" != 0 ] || fail "the test set does not add arm64"; fi
done
comm -23 "$tmp/build.pkgs" "$tmp/test.pkgs" | grep . && fail "packages of the build set missing from the test set"

# Which set each make target installs (make -n prints the recipe without running it).
recipe() { make -n -C "$src" "$1" BUILD="$tmp/none" 2>/dev/null || true; }
for target in build demo install; do
    r=$(recipe $target)
    [[ $r == *"install-deps.sh build"* ]] || fail "make $target: no build set"
    [[ $r != *"install-deps.sh test"* ]] || fail "make $target installs the test set"
done
for target in test test-fast; do
    [[ $(recipe $target) == *"install-deps.sh test"* ]] || fail "make $target: no test set"
done
echo "build set: $(wc -l < "$tmp/build.pkgs") packages; test set: $(wc -l < "$tmp/test.pkgs")"
