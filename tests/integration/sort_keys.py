"""Rows of `perf report --stdio --sort KEYS` and of `pmuscope report --sort KEYS --csv` keyed
alike, for the keys comm, pid, dso and sym in any comma-separated combination: a row's key is
the tuple of its columns as perf prints them (pid as TID:comm, sym without its [.] mark,
dso as a base name). Shared by report_sort_keys.sh, report_corpus.sh and perfdata_compressed.sh."""
import csv, io, os, re, subprocess

def short(dso):
    return dso if dso.startswith("[") else os.path.basename(dso)

def sym_name(row):
    """The function of a CSV row, or perf's name of an address without a symbol: its offset
    in the binary (C's %#.16llx: no 0x for zero)."""
    offset = int(row["file_offset"], 16)
    return row["function"] or ("0x%016x" % offset if offset else "%016x" % 0)

def perf_row(sort, line):
    """(share, key) of a table line of perf report, or None for other lines."""
    m = re.match(r"\s+([\d.]+)%\s+(\S.*?)\s*$", line)
    if not m:
        return None
    cols = re.split(r"\s{2,}", m.group(2))
    if len(cols) != len(sort.split(",")):
        return None
    cols = [re.sub(r"^\[.\] ", "", c) for c in cols]
    return float(m.group(1)), tuple(cols)

def our_row(sort, row):
    """The key of a row of pmuscope's CSV (given --sort KEYS) as perf_row makes it."""
    key = []
    for k in sort.split(","):
        if k == "comm":
            key.append(row["comm"])
        elif k == "pid":  # perf prints the thread's last name
            key.append("%s:%s" % (row["pid"], row["thread_comm"]))
        elif k == "dso":
            key.append(short(row["binary"]))
        elif k == "sym":  # perf names an address without a symbol by its offset in the binary
            key.append(sym_name(row))
    return tuple(key)

def perf_table(path, sort, extra=()):
    """{key: share} of perf report --stdio --sort KEYS [EXTRA...] on one file (rows of the same key summed)."""
    out = subprocess.run(["perf", "report", "-i", path, "--stdio", "--sort", sort, "--percent-limit", "0", *extra],
                         capture_output=True, text=True, env=dict(os.environ, PAGER="cat"), check=True).stdout
    table = {}
    for r in (perf_row(sort, l) for l in out.splitlines() if not l.startswith("#")):
        if r:
            table[r[1]] = table.get(r[1], 0) + r[0]
    return table

def our_table(pmuscope, path, sort):
    """{key: share %} of pmuscope report --sort KEYS --weight period --csv on one file."""
    out = subprocess.run([pmuscope, "report", "-i", path, "--sort", sort, "--weight", "period", "--csv", "--limit", "0"],
                         capture_output=True, text=True, check=True).stdout
    table = {}
    for r in csv.DictReader(io.StringIO(out)):
        table[our_row(sort, r)] = table.get(our_row(sort, r), 0) + 100 * float(r["share"])
    return table

def perf_report_lines(path, sort, children, extra=()):
    """(event, line) of perf report --stdio --sort KEYS, -g none, --children or --no-children
    (no group view, branch stacks or processor traces); event is the current table's name
    (None before the first). Returns (lines, returncode, stderr)."""
    p = subprocess.run(["perf", "report", "-i", path, "--sort", sort, "--stdio", "--no-group", "-g", "none",
                        "--children" if children else "--no-children", "--no-branch-stack", "--no-itrace",
                        "--percent-limit", "0", *extra],
                       capture_output=True, text=True, env=dict(os.environ, PAGER="cat"))
    lines, event = [], None
    for line in p.stdout.splitlines():
        m = re.match(r"# Samples: .* of events? '(.*)'", line)
        if m:
            event = m.group(1)
            lines.append((event, None))
        else:
            lines.append((event, line))
    return lines, p.returncode, p.stderr

def children_problems(pmuscope, path, sort, threshold, tolerance, weight="period", extra=(), unknown_children=True):
    """Differences between perf report --children and pmuscope report --children on one file,
    --sort dso or dso,sym: the Children and the Self column of every row over `threshold`
    percent in either, within `tolerance` points (perf prints two decimals). `extra`: more
    options of perf report. unknown_children=False leaves out the Children column of the
    [unknown] binary (frames past where an unwinder lost the stack)."""
    lines, returncode, stderr = perf_report_lines(path, sort, True, extra)
    theirs = {}
    for event, line in lines:
        if line is None:
            theirs.setdefault(event, {})
            continue
        if sort == "dso":
            m = re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+(\S.*?)\s*$", line)
            key = m and m.group(3)
        else:
            m = re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+\[.\] (.*?)\s*$", line)
            key = m and (m.group(3), m.group(4))
        if m and event is not None:
            c, s = theirs[event].get(key, (0, 0))
            theirs[event][key] = (c + float(m.group(1)), s + float(m.group(2)))
    o = subprocess.run([pmuscope, "report", "-i", path, "--sort", "dso" if sort == "dso" else "sym", "--children",
                        "--weight", weight, "--csv", "--limit", "0"], capture_output=True, text=True)
    ours = {}
    for row in csv.DictReader(io.StringIO(o.stdout)) if o.returncode == 0 else []:
        t = ours.setdefault(row["event"], {})
        d = short(row["binary"])
        if sort != "dso":
            d = (d, sym_name(row))
        c, s = t.get(d, (0, 0))
        t[d] = (c + 100 * float(row["children_share"]), s + 100 * float(row["share"]))
    if returncode != 0 or not theirs:
        return ["perf report --children failed (%d): %s" % (returncode, stderr.strip()[-300:])]
    if o.returncode != 0:
        return ["pmuscope report --children failed (%d): %s" % (o.returncode, o.stderr.strip())]
    problems = []
    for event, perf_rows in theirs.items():
        mine = ours.get(event, {})
        for row in sorted(set(perf_rows) | set(mine)):
            for col, name in ((0, "children"), (1, "self")):
                if col == 0 and not unknown_children and (row if sort == "dso" else row[0]) == "[unknown]":
                    continue
                a, b = mine.get(row, (0, 0))[col], perf_rows.get(row, (0, 0))[col]
                if max(a, b) > threshold and abs(a - b) > tolerance + 0.005:
                    problems.append("--children %s: %s %s: pmuscope %.2f%% perf %.2f%%" % (event, row, name, a, b))
    return problems

def path_problems(pmuscope, path, threshold, tolerance, extra=()):
    """Differences between the call paths of perf report --no-children -g folded (callee
    order, by function, shares of all the period) and pmuscope report --no-children -g on one
    file, rows by dso,sym: every (row, path) over `threshold` percent in either, within
    `tolerance` points. Also returns how many paths were compared."""
    p = subprocess.run(["perf", "report", "-i", path, "--sort", "dso,sym", "--stdio", "--no-children",
                        "-g", "folded,0,callee,function,percent", "--percent-limit", "0", *extra],
                       capture_output=True, text=True, env=dict(os.environ, PAGER="cat"))
    theirs, row = {}, None
    for line in p.stdout.splitlines():
        m = re.match(r"\s+[\d.]+%\s+(\S+)\s+\[.\] (.*?)\s*$", line)
        if m:
            row = (m.group(1), m.group(2))
            continue
        m = re.match(r"([\d.]+)% (\S.*)$", line)
        if m and row:
            theirs[(row, m.group(2))] = theirs.get((row, m.group(2)), 0) + float(m.group(1))
    o = subprocess.run([pmuscope, "report", "-i", path, "--no-children", "-g", "--weight", "period", "--json",
                        "--limit", "0"], capture_output=True, text=True)
    if p.returncode != 0 or not theirs:
        return ["perf report -g folded failed (%d): %s" % (p.returncode, p.stderr.strip()[-300:])], 0
    if o.returncode != 0:
        return ["pmuscope report -g failed (%d): %s" % (o.returncode, o.stderr.strip())], 0
    import json
    ours = {}
    for event in json.loads(o.stdout)["events"][:1]:
        for r in event["rows"]:
            key = (short(r["binary"]), sym_name({"function": r["function"] or "", "file_offset": hex(r["file_offset"])}))
            for q in r["paths"]:
                ours[(key, q["path"])] = ours.get((key, q["path"]), 0) + 100 * q["share"]
    problems, compared = [], 0
    for k in sorted(set(theirs) | set(ours)):
        a, b = ours.get(k, 0.0), theirs.get(k, 0.0)
        if max(a, b) > threshold:
            compared += 1
            if abs(a - b) > tolerance + 0.005:
                problems.append("-g folded %s %s: pmuscope %.2f%% perf %.2f%%" % (k[0], k[1][:120], a, b))
    return problems, compared
