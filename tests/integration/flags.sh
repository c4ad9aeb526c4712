#!/usr/bin/env bash
# One meaning per flag: every subcommand's real option table (pmuscope CMD --list-options)
# is read; a short letter names one long option everywhere, a long option takes one kind
# of argument and has one short letter (or none) everywhere; where perf record, perf stat
# or perf report has the letter, ours is perf's long name; docs/flags.md lists exactly the
# flags the commands have, each with one meaning.
set -euo pipefail
exec python3 - "$PMUSCOPE" "$PMS_SOURCE_DIR/docs/flags.md" <<'PY'
import re, subprocess, sys
pms, doc = sys.argv[1], sys.argv[2]
fail = []
helptext = subprocess.run([pms, "--help"], capture_output=True, text=True, check=True).stdout
cmds = [m.group(1) for m in re.finditer(r"^  ([a-z]+)\s", helptext, re.M) if m.group(1) != "help"]
assert len(cmds) >= 10, cmds
table = {}  # command -> [(short or None, long or None, arg kind)]
for c in cmds:
    out = subprocess.run([pms, c, "--list-options"], capture_output=True, text=True)
    assert out.returncode == 0, (c, out.stderr)
    rows = []
    for line in out.stdout.splitlines():
        s, l, kind = line.split()
        rows.append((None if s == "-" else s, None if l == "-" else l, kind))
    assert rows, c
    table[c] = rows
short_long, long_short, long_kind = {}, {}, {}
for c, rows in table.items():
    for s, l, kind in rows:
        if s and not l: fail.append(f"{c}: {s} has no long name")
        if s: short_long.setdefault(s, set()).add(l)
        if l:
            long_short.setdefault(l, set()).add(s)
            long_kind.setdefault(l, set()).add(kind)
for s, ls in short_long.items():
    if len(ls) > 1: fail.append(f"{s} means {sorted(ls)}")
for l, ss in long_short.items():
    if len(ss) > 1: fail.append(f"{l} has short letters {sorted(map(str, ss))}")
for l, ks in long_kind.items():
    if len(ks) > 1: fail.append(f"{l} takes {sorted(ks)} arguments")
# perf's letters: ours must be one of perf's long names for the same letter.
perf = {}
for sub in ("record", "stat", "report"):
    h = subprocess.run(["perf", sub, "-h"], capture_output=True, text=True)
    for m in re.finditer(r"^\s+(-[A-Za-z]), (--[a-z][a-z0-9-]*)", h.stdout + h.stderr, re.M):
        perf.setdefault(m.group(1), set()).add(m.group(2))
assert "-e" in perf and "--event" in perf["-e"], "cannot read perf's option letters"
for s, ls in short_long.items():
    if s in perf and s != "-h" and not (ls & perf[s]):
        fail.append(f"{s} is {sorted(ls)} here but {sorted(perf[s])} in perf")
# docs/flags.md: one row per long option: | short | long | commands | meaning |
documented = {}
for line in open(doc):
    m = re.match(r"^\|\s*(`-[A-Za-z]`)?\s*\|\s*`(--[a-z][a-z0-9-]*)[^`]*`\s*\|([^|]*)\|\s*(\S[^|]*)\|", line)
    if not m: continue
    l = m.group(2)
    if l in documented: fail.append(f"docs/flags.md: {l} has two rows")
    documented[l] = (m.group(1) and m.group(1).strip("`"), {x.strip() for x in m.group(3).split(",") if x.strip()})
for l in long_short:
    users = {c for c, rows in table.items() if any(r[1] == l for r in rows)}
    if l not in documented: fail.append(f"docs/flags.md lacks {l} ({', '.join(sorted(users))})")
    else:
        s, dcmds = documented[l]
        if dcmds != users: fail.append(f"docs/flags.md: {l} is in {sorted(users)}, documented for {sorted(dcmds)}")
        if s != next(iter(long_short[l])): fail.append(f"docs/flags.md: {l} short {s}, table {long_short[l]}")
for l in documented:
    if l not in long_short: fail.append(f"docs/flags.md documents {l}, which no command has")
if fail:
    print("FAIL:\n  " + "\n  ".join(fail)); sys.exit(1)
print(f"flags: {len(long_short)} long and {len(short_long)} short options over {len(cmds)} commands, one meaning each")
PY
