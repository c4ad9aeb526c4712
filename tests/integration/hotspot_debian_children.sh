#!/bin/bash
# hotspot --sweep on Debian's sqlite3 (a recursive CTE in memory) and on a shell that runs
# gzip and then xz: valgrind follows the shell's children (a profile per process, each
# process dumping its counts before it forks, so that a child does not start with its
# parent's), and the truth keeps the processes apart (libc's instructions as gzip ran them
# and as xz did), as the samples are by their comm. Each checked by tests/lib/hotspot_debian.sh
# against a standalone callgrind run (--trace-children=yes, the sum of its profiles),
# `perf script` and a simulation of the ideal sampler, with under 5% of the samples
# outside the truth.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/hotspot_debian.sh"
need_tools sqlite3 gzip xz

debian_sweep sqlite3 - sqlite3 :memory: \
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT sum(x) FROM c;"

python3 -c 'import random, sys; r = random.Random(7); sys.stdout.write("".join("%d %s\n" % (r.randrange(10**6), r.choice("ab cd ef gh".split())) for _ in range(12000)))' > "$tmp/in.txt"
debian_sweep shell - sh -c "gzip -9 -c '$tmp/in.txt' > /dev/null; xz -6 -T1 -c '$tmp/in.txt' > /dev/null"
# three processes: the shell, gzip and xz; each program's instructions in its own image
jq -e '.truth.processes == 3' "$tmp/shell.json" > /dev/null || fail "shell: $(jq .truth.processes "$tmp/shell.json") processes"
for p in gzip xz; do
    ls "$tmp/shell"/callgrind.out.* > /dev/null 2>&1 || fail "shell: no child profile"
    grep -l "^cmd: .*$p " "$tmp/shell"/callgrind.out* > /dev/null || fail "shell: no profile of $p"
done
echo ok
