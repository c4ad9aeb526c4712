#!/usr/bin/env python3
"""The layering of src/: util -> event, io, stats, symbol -> collect -> render -> the five
methods (olr, cpistack, estimate, hotspot, phase), diff (beside hotspot, whose profiles it
reads) and the region markers -> demo (which runs them all) -> cli. A file may include headers of its own layer
or below, never above; no two modules include each other in a loop; and no .c files call
each other's functions in a loop (a.c calls b.c, which calls a.c).

A public header (include/pmuscope/X.h) belongs to the module whose .c files define the
functions it declares (most of them); an internal header ("mod/x.h") to its directory.
Usage: check_layers.py SOURCE_DIR"""
import collections, os, re, sys

LAYERS = {"util": 0, "event": 1, "io": 1, "stats": 1, "symbol": 1, "collect": 2, "render": 3,
          "olr": 4, "cpistack": 4, "estimate": 4, "hotspot": 4, "phase": 4, "diff": 4, "region": 4,
          "demo": 5,
          "cli": 6}

root = sys.argv[1]
src, inc = os.path.join(root, "src"), os.path.join(root, "include", "pmuscope")
errors = []

files = {}  # path relative to src -> text
for d, _, names in os.walk(src):
    for n in names:
        if n.endswith((".c", ".h")):
            p = os.path.join(d, n)
            files[os.path.relpath(p, src)] = open(p, encoding="utf-8").read()
for rel in files:
    mod = rel.split(os.sep)[0]
    if mod not in LAYERS:
        errors.append(f"src/{rel}: module '{mod}' has no layer (add it to tests/layering/check_layers.py)")

# Where each function is defined: "name(" at the start of a definition line.
definer = {}
for rel, text in files.items():
    if rel.endswith(".c"):
        for m in re.finditer(r"^[A-Za-z_][\w \*]*?\b(pms_\w+)\(", text, re.M):
            definer.setdefault(m.group(1), rel.split(os.sep)[0])

public_module = {}
for n in sorted(os.listdir(inc)):
    text = open(os.path.join(inc, n), encoding="utf-8").read()
    votes = collections.Counter(definer[f] for f in re.findall(r"\b(pms_\w+)\s*\(", text) if f in definer)
    # a header of types and macros only (no functions) sits with util: anyone may use it
    public_module[n] = votes.most_common(1)[0][0] if votes else "util"

graph = collections.defaultdict(set)
for rel, text in sorted(files.items()):
    mod = rel.split(os.sep)[0]
    if mod not in LAYERS:
        continue
    for line_no, line in enumerate(text.split("\n"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        target = m.group(1)
        if target.startswith("pmuscope/"):
            tmod = public_module.get(target[len("pmuscope/"):])
        elif "/" in target:
            tmod = target.split("/")[0]
        else:
            continue  # a header beside the file
        if tmod is None or tmod not in LAYERS:
            continue
        if LAYERS[tmod] > LAYERS[mod]:
            errors.append(f"src/{rel}:{line_no}: {mod} (layer {LAYERS[mod]}) includes {target} of {tmod} "
                          f"(layer {LAYERS[tmod]}), a layer above")
        if tmod != mod:
            graph[mod].add(tmod)

# Loops between modules (of the same layer: across layers the check above forbids them).
def find_cycle():
    state, stack = {}, []
    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state:
                c = visit(t)
                if c:
                    return c
        stack.pop()
        state[m] = 2
        return None
    for m in sorted(LAYERS):
        if m not in state:
            c = visit(m)
            if c:
                return c
    return None

cycle = find_cycle()
if cycle:
    errors.append("modules include each other in a loop: " + " -> ".join(cycle))

# Loops between files: who defines each function that is not file-local (a line that opens
# a definition: no ';' before its end or before its body's '{'), and whom each file calls;
# a strongly connected group of more than one file is a loop.
file_definer = {}
for rel, text in files.items():
    if rel.endswith(".c"):
        for m in re.finditer(r"^(?!static\b)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\(([^;{]*$|[^;{]*\)\s*\{)", text, re.M):
            if m.group(1) not in ("if", "while", "for", "switch", "return"):
                file_definer.setdefault(m.group(1), rel)
calls = collections.defaultdict(set)
for rel, text in files.items():
    if rel.endswith(".c"):
        for f in set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text)):
            if file_definer.get(f, rel) != rel:
                calls[rel].add(file_definer[f])

def file_loops():
    index, low, stack, on, loops = {}, {}, [], set(), []
    def connect(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(calls[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                loops.append(sorted(group))
    for v in sorted(f for f in files if f.endswith(".c")):
        if v not in index:
            connect(v)
    return loops

for group in file_loops():
    errors.append("files call each other in a loop: " + ", ".join("src/" + f for f in group))

for e in errors:
    print(e)
if errors:
    sys.exit(1)
print(f"ok: {len(files)} files in {len(LAYERS)} modules, {sum(len(v) for v in graph.values())} module "
      f"dependencies, all downward, no loops; {sum(len(v) for v in calls.values())} calls between files, no loops")
