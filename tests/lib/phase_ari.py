#!/usr/bin/env python3
"""The adjusted Rand index of a phase run recomputed from its CSV (the phase and truth
columns, Hubert & Arabie's formula) and checked against the one its JSON gives, over all
intervals the known schedule labels, or per thread (--per-thread: each thread's rows
against the JSON's "threads"). Prints "INDEX LABELLED" (per thread: "TID INDEX LABELLED" a
line); exits 1 when they differ.

usage: phase_ari.py CSV JSON [--per-thread]
"""
import csv
import json
import sys
from collections import Counter


def ari(a, b):
    pairs = lambda c: sum(v * (v - 1) // 2 for v in c.values())
    index, ra, rb = pairs(Counter(zip(a, b))), pairs(Counter(a)), pairs(Counter(b))
    total = len(a) * (len(a) - 1) // 2
    expected = ra * rb / total
    top = (ra + rb) / 2
    return 1.0 if top == expected else (index - expected) / (top - expected)


def check(rows, got, what):
    want = ari([r["phase"] for r in rows], [r["truth"] for r in rows])
    if abs(got - want) > 1e-9:
        sys.exit("%s: adjusted Rand index %r in the JSON, %r recomputed from the CSV" % (what, got, want))
    return want


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["truth"] != "-"]
    doc = json.load(open(sys.argv[2]))
    if "--per-thread" in sys.argv[3:]:
        for t in doc["threads"]:
            mine = [r for r in rows if int(r["tid"]) == t["tid"]]
            print(t["tid"], "%.3f" % check(mine, t["adjusted_rand_index"], "thread %d" % t["tid"]), len(mine))
    else:
        print("%.3f" % check(rows, doc["summary"]["adjusted_rand_index"], "the run"), len(rows))


main()
