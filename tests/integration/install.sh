#!/usr/bin/env bash
# make install into a temporary prefix: the binary, a man page per subcommand made from
# its --help and its reference page docs/<command>.md, and a pkg-config file that compiles
# and links the phase monitor example and the region markers' example (which writes its
# per-region, per-thread report at exit).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/installed.sh"
install_prefix "$tmp/inst"

"$tmp/inst/bin/pmuscope" --version | grep -q '^pmuscope [0-9]' || fail "the installed binary does not run"
version=$("$tmp/inst/bin/pmuscope" --version | cut -d' ' -f2)

# one man page per subcommand in commands.def, each made from that command's --help
man=$tmp/inst/share/man/man1
[ -f "$man/pmuscope.1" ] || fail "no pmuscope(1)"
n=0
for cmd in $(sed -n 's/^PMS_COMMAND(\([a-z0-9_]*\),.*/\1/p' "$PMS_SOURCE_DIR/src/cli/commands.def"); do
    [ "$cmd" = help ] && continue
    page=$man/pmuscope-$cmd.1
    [ -f "$page" ] || fail "no man page for $cmd"
    # an option line of the command's own --help is in its page
    opt=$("$PMUSCOPE" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | grep -v -- '--help' | head -1)
    grep -q -- "${opt//-/\\\\-}" "$page" || grep -q -- "$opt" "$page" || fail "pmuscope-$cmd.1 lacks $opt from its --help"
    if command -v man >/dev/null; then
        grep -q "pmuscope $cmd" <(MANWIDTH=80 man -l "$page" 2>/dev/null) || fail "man cannot render pmuscope-$cmd.1"
    fi
    # the command's reference page docs/CMD.md follows, whole: its title as a section, and
    # every code block of the page as an example block of the man page (lowdown's .EX)
    doc=$PMS_SOURCE_DIR/docs/$cmd.md
    [ -f "$doc" ] || fail "no reference page docs/$cmd.md for $cmd"
    title=$(sed -n '1s/^# //p' "$doc" | tr -d '`')
    grep -qF "$title" <(MANWIDTH=200 man -l "$page" 2>/dev/null) || fail "pmuscope-$cmd.1 lacks docs/$cmd.md (its title '$title')"
    blocks=$(( $(grep -c '^ *```' "$doc") / 2 ))
    [ "$(grep -c '^\.EX' "$page")" -eq "$blocks" ] || fail "pmuscope-$cmd.1 has $(grep -c '^\.EX' "$page") code blocks, docs/$cmd.md $blocks"
    n=$((n + 1))
done
[ "$n" -ge 9 ] || fail "only $n subcommand man pages"

# the shared library beside the static one; pkg-config links the shared one
[ -f "$tmp/inst/lib/libpmuscope.a" ] || fail "no libpmuscope.a installed"
[ -L "$tmp/inst/lib/libpmuscope.so" ] && [ -f "$tmp/inst/lib/libpmuscope.so.0" ] || fail "no libpmuscope.so installed"

# pkg-config, relocated to this prefix
[ "$(pkg-config --modversion pmuscope)" = "$version" ] || fail "pkg-config version differs from pmuscope --version"
cflags=$(pkg-config --cflags pmuscope)
[[ "$cflags" == *"$tmp/inst/lib/pkgconfig/../../include"* ]] || fail "cflags do not point into the prefix: $cflags"
build_installed "$tmp/phase_monitor" "$PMS_SOURCE_DIR/docs/examples/phase_monitor.c"
"$tmp/phase_monitor" --self | grep -q '^[0-9]* phase changes' || fail "the example built from the install does not run"
# the static link of docs/api.md: libpmuscope.a and what it needs, no libpmuscope.so
sanitize=()
grep -q '^PMS_SANITIZE:BOOL=ON' "$PMS_BUILD_DIR/CMakeCache.txt" && sanitize=(-fsanitize=address,undefined)
cc "${sanitize[@]}" -o "$tmp/phase_monitor_static" "$PMS_SOURCE_DIR/docs/examples/phase_monitor.c" $(pkg-config --cflags pmuscope) \
    $(pkg-config --static --libs pmuscope | sed 's/-lpmuscope /-l:libpmuscope.a /') || fail "the static link of docs/api.md fails"
! ldd "$tmp/phase_monitor_static" | grep -q libpmuscope || fail "the static link still needs libpmuscope.so"
"$tmp/phase_monitor_static" --self | grep -q '^[0-9]* phase changes' || fail "the statically linked example does not run"
# a program with the region markers and nothing else of pmuscope: its report at exit
[ "$(grep -o '#include "pmuscope/[a-z_]*\.h"' "$PMS_SOURCE_DIR/docs/examples/regions.c")" = '#include "pmuscope/region.h"' ] ||
    fail "docs/examples/regions.c includes more of pmuscope than region.h"
build_installed "$tmp/regions" "$PMS_SOURCE_DIR/docs/examples/regions.c"
PMS_REGION_EVENTS=page-faults PMS_REGION_OUT="$tmp/regions.json" "$tmp/regions" -t 2 -p 30 || fail "regions (installed) failed"
[ "$(jq '[.regions[] | select(.region == "pages") | .events["page-faults"].value] | @csv' "$tmp/regions.json")" = '"30,30"' ] ||
    fail "the installed regions program's report: $(cat "$tmp/regions.json")"
# the installed demo finds the installed workloads (libexec/pmuscope) and runs on the installed data
[ -x "$tmp/inst/libexec/pmuscope/phases" ] || fail "the workloads are not installed"
fx=$tmp/inst/share/pmuscope/fixtures
[ -s "$fx/armpm/cbench-excerpt.tsv" ] && [ -s "$fx/armpm/LICENSE.md" ] || fail "the ARM data or its licence is not installed"
(cd "$tmp" && "$tmp/inst/bin/pmuscope" demo --steps record,report,cpistack,estimate --fixtures "$fx" \
    > demo.out 2> demo.err) || { cat "$tmp/demo.err"; fail "the installed demo failed"; }
grep -q "inst/libexec/pmuscope/phases" "$tmp/pmuscope-demo/index.html" || fail "the installed demo did not use the installed workloads"
grep -q '<svg' "$tmp/pmuscope-demo/index.html" || fail "the installed demo's page has no figure"
echo "ok: $n man pages, pkg-config $version, example built and run"
