#!/bin/bash
# Event names as perf report prints them, on every file of the public corpus
# (tests/data/perf-corpus): the set of events of pmuscope report's CSV equals the events of
# perf report --no-group's tables. Old pipe-mode files (perf 3.x, whose only names are
# HEADER_EVENT_TYPE records that perf 6.1 ignores) and others that name no event get
# perf's name from the type, config and modifiers: cycles, cpu-clock, cycles:ppH, raw 0x...
set -euo pipefail
corpus=$(cd "$(dirname "$0")/../data/perf-corpus" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
python3 - "$corpus" "$PMUSCOPE" <<'PY'
import csv, io, os, re, subprocess, sys
corpus, pmuscope = sys.argv[1:3]
failed, compared, unnamed_in_file = [], 0, 0
for root, _, names in os.walk(corpus):
    for n in sorted(names):
        if n.endswith((".md", "LICENSE", ".txt")):
            continue
        path = os.path.join(root, n)
        p = subprocess.run(["perf", "report", "-i", path, "--stdio", "--no-group", "--no-itrace"], capture_output=True,
                           text=True, env=dict(os.environ, PAGER="cat"))
        theirs = set(re.findall(r"^# Samples: .* of events? '(.*)'", p.stdout, re.M))
        o = subprocess.run([pmuscope, "report", "-i", path, "--csv", "--limit", "0"], capture_output=True, text=True)
        ours = {r["event"] for r in csv.DictReader(io.StringIO(o.stdout))} if o.returncode == 0 else set()
        if not theirs:
            continue
        compared += 1
        if ours != theirs:
            failed.append("%s: pmuscope %s, perf %s" % (n, sorted(ours), sorted(theirs)))
        print("%s: %s" % (n, ", ".join(sorted(ours))))
if compared < 15:
    failed.append("only %d corpus files compared" % compared)
if failed:
    print("FAIL:\n  " + "\n  ".join(failed))
    sys.exit(1)
print("report_event_names: %d files, names as perf's" % compared)
PY
