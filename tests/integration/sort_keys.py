"""Rows of `perf report --stdio --sort KEYS` and of `pmuscope report --sort KEYS --csv` keyed
alike, for the keys comm, pid, dso and sym in any comma-separated combination: a row's key is
the tuple of its columns as perf prints them (pid as TID:comm, sym without its [.] mark,
dso as a base name). Shared by report_sort_keys.sh, report_corpus.sh and perfdata_compressed.sh."""
import csv, io, os, re, subprocess

def short(dso):
    return dso if dso.startswith("[") else os.path.basename(dso)

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
            key.append(row["function"] or "0x%016x" % int(row["file_offset"], 16))
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
