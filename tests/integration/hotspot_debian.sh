#!/bin/bash
# hotspot --sweep on Debian's gzip (reading its standard input: --stdin), xz and sort with
# inputs made here, each checked by tests/lib/hotspot_debian.sh against a standalone
# callgrind run, `perf script` and a simulation of the ideal sampler, with under 5% of the
# samples outside the truth; and the CPU mask the sweep gave the native runs, against
# glibc's own report with it (check_cpu_mask). hotspot_debian_children.sh does sqlite3 and
# a shell running two programs.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/hotspot_debian.sh"
need_tools gzip xz sort

# Text of words and numbers, the same on every run: 200 KB to compress, 4 MB to sort.
python3 - "$tmp" <<'PY'
import random, sys
r = random.Random(29)
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split()
def text(lines):
    return "".join(" ".join(r.choice(words) + str(r.randrange(1000)) for _ in range(8)) + "\n" for _ in range(lines))
open(sys.argv[1] + "/small.txt", "w").write(text(3000))
open(sys.argv[1] + "/big.txt", "w").write(text(60000))
PY

# gzip reads its standard input: every run gets the file, opened for it alone (valgrind and
# the native run beside it must not share one file offset).
debian_sweep gzip "$tmp/small.txt" gzip -9 -c
[ "$(jq -r .stdin "$tmp/gzip.json")" = "$tmp/small.txt" ] || fail "gzip: the JSON names stdin $(jq .stdin "$tmp/gzip.json")"
check_cpu_mask "$tmp/gzip.json"
debian_sweep xz - xz -6 -T1 -c "$tmp/small.txt"
debian_sweep sort - sort "$tmp/big.txt"
echo ok
