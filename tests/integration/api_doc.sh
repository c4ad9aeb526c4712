#!/usr/bin/env bash
# docs/api.md against include/pmuscope/: its table of headers names every public header and
# nothing else, and every pms_ name it mentions is declared in a public header (internal
# pms__ names in a header under src/), so that the page never names a call that is gone.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
doc=$PMS_SOURCE_DIR/docs/api.md
inc=$PMS_SOURCE_DIR/include/pmuscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$inc" && ls -- *.h) | sort > "$tmp/headers"
sed -n 's/^| `pmuscope\/\([a-z_0-9]*\.h\)` | .*/\1/p' "$doc" | sort > "$tmp/listed"
[ "$(wc -l < "$tmp/listed")" -ge 30 ] || fail "docs/api.md has no table of the headers"
missing=$(comm -23 "$tmp/headers" "$tmp/listed")
[ -z "$missing" ] || fail "public headers missing from docs/api.md's table: $(echo $missing)"
gone=$(comm -13 "$tmp/headers" "$tmp/listed")
[ -z "$gone" ] || fail "docs/api.md lists headers that do not exist: $(echo $gone)"
grep -ohw 'pms_[A-Za-z0-9_]*' "$inc"/*.h | sort -u > "$tmp/declared"
grep -rohw --include='*.h' 'pms__[A-Za-z0-9_]*' "$PMS_SOURCE_DIR/src" | sort -u > "$tmp/internal"
# names that end in _ are families (pms_estimate_write_: _text, _json, ...); pms_X_create
# and the like are the naming pattern
grep -ow 'pms_[A-Za-z0-9_]*[A-Za-z0-9]' "$doc" | grep -v '^pms_X_' | sort -u > "$tmp/named"
unknown=$(comm -23 "$tmp/named" <(sort -u "$tmp/declared" "$tmp/internal"))
[ -z "$unknown" ] || fail "docs/api.md names what no header declares: $(echo $unknown)"
echo "ok: $(wc -l < "$tmp/listed") headers, $(wc -l < "$tmp/named") names"
