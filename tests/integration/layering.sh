#!/usr/bin/env bash
# src/ is layered (util -> event, io, stats, symbol -> collect -> render -> the five methods
# -> cli): no file includes a header of a layer above its own, no modules include each other
# in a loop, no .c files call each other in a loop (tests/layering/check_layers.py); and the
# checker itself catches all three.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
check=$PMS_SOURCE_DIR/tests/layering/check_layers.py
python3 "$check" "$PMS_SOURCE_DIR" || fail "the layering is broken (above)"
# The checker on a copy with an upward include and a loop between two methods.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$PMS_SOURCE_DIR/src" "$PMS_SOURCE_DIR/include" "$tmp/"
sed -i '1i #include "pmuscope/statfmt.h"' "$tmp/src/io/table.c"
out=$(python3 "$check" "$tmp" || true)
grep -q 'src/io/table.c:1: io (layer 1) includes pmuscope/statfmt.h of render (layer 3)' <<<"$out" ||
    fail "an upward include is not caught: $out"
sed -i '1d' "$tmp/src/io/table.c"
sed -i '1i #include "olr/columns.h"' "$tmp/src/phase/truth.c"
sed -i '1i #include "phase/assembler.h"' "$tmp/src/olr/olr.c"
out=$(python3 "$check" "$tmp" || true)
grep -Eq 'loop: (olr -> phase -> olr|phase -> olr -> phase)' <<<"$out" || fail "a loop is not caught: $out"
# Two files of one module that call each other: a loop between files.
rm -rf "$tmp/src" "$tmp/include"
cp -r "$PMS_SOURCE_DIR/src" "$PMS_SOURCE_DIR/include" "$tmp/"
printf '\nvoid pms__loop_back(void)\n{\n    pms_strerror();\n}\n' >> "$tmp/src/util/utf8.c"
printf '\nint pms__loop_there(void)\n{\n    pms__loop_back();\n    return 0;\n}\n' >> "$tmp/src/util/error.c"
out=$(python3 "$check" "$tmp" || true)
grep -q 'files call each other in a loop: src/util/error.c, src/util/utf8.c' <<<"$out" ||
    fail "a loop between files is not caught: $out"
echo "layering: ok"
