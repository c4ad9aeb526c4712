"""Wu & Mencer's hotspot measures recomputed without pmuscope, from what valgrind and perf
wrote: callgrind's per-instruction counts (every callgrind.out* profile of a truth directory,
parsed here) and the samples as `perf script` prints them (file offsets from the MMAP2
records it shows), then an ideal random sampler simulated from the exact counts.

    hotspot_recompute.py TRUTH_DIR PERF_DATA SWEEP_JSON

checks every measured period of SWEEP_JSON (pmuscope hotspot --sweep --json): NS, m, the
samples outside the truth, NRMSE_SR, SC, OD, OD over the covered IPs, Kendall's tau-b and
top-10 precision and recall within 1e-6 of pmuscope's; and the ideal sampler's columns
against 500 draws simulated here: the means within 5 standard errors of each other (the
simulation's spread standing for both), and pmuscope's 95% range (its 2.5% and 97.5%
quantiles of its 200 draws) where the simulated draws put it: below its low end at most
10% of them (2.5% is due; the end of 200 draws misses it by 1.1% as a standard deviation),
above its high end at most 10%. A measure's spread is often skewed (SC near 1 with a long
tail of draws that missed a hot instruction), which the share of draws beyond an end
takes in its stride where a distance between two ends of 200 draws would not. Prints what
it compared, exits 1 on a difference.

The rules pmuscope documents, implemented again here: a callgrind address is a link-time
address (file offset from the PT_LOAD segment holding it, readelf -lW); code callgrind puts
in no object ("???", PLT stubs) is placed in the object whose calls into it (x86-64 CALL
rel32 read from the file) give one load bias; instructions are keyed by (process name,
file, offset), the process name being the file name of the profile's command cut to 15
bytes as the kernel cuts a comm, and a sample whose comm no profile has is placed by file
alone in the first process that ran it; the blocks of a truth recorded without branches are
the runs of equal counts, so an executed instruction's block count is its own count."""
import json, math, os, random, re, statistics, subprocess, sys

DRAWS = 500


def process_name(cmd):
    word = cmd.strip().split()[0] if cmd.strip() else "?"
    return os.path.basename(word)[:15]


SEGMENTS = {}


def segments(path):
    """PT_LOAD (vaddr, memsz, offset) of an ELF file, from readelf."""
    if path not in SEGMENTS:
        out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
        SEGMENTS[path] = [(int(m.group(2), 16), int(m.group(3), 16), int(m.group(1), 16))
                          for m in re.finditer(r"^\s*LOAD\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+0x[0-9a-f]+\s+"
                                               r"0x[0-9a-f]+\s+(0x[0-9a-f]+)", out, re.M)]
    return SEGMENTS[path]


def to_offset(path, addr):
    for vaddr, memsz, offset in segments(path):
        if vaddr <= addr < vaddr + memsz:
            return addr - vaddr + offset
    return None


def call_target(path, addr):
    """Link-time target of the CALL rel32 at link-time address addr of path, or None."""
    off = to_offset(path, addr)
    if off is None:
        return None
    with open(path, "rb") as f:
        f.seek(off)
        code = f.read(5)
    if len(code) < 5 or code[0] != 0xE8:
        return None
    return addr + 5 + int.from_bytes(code[1:5], "little", signed=True)


def parse_profile(path):
    """{(object, addr): (count, function)}, the calls from an object into ???, the command,
    the total instructions."""
    names = {"ob": {}, "fn": {}}
    instrs, calls, cmd, total = {}, [], "", 0
    ob = fn = None
    cob = None
    last = [0, 0]
    call_due = None  # (called object, target address) of a calls= line whose cost line is next

    def resolve(kind, value):
        m = re.match(r"\((\d+)\)\s*(.*)", value)
        if not m:
            return value
        if m.group(2):
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), "???")

    def positions(words):
        out = []
        for i, w in enumerate(words[:2]):
            if w == "*":
                out.append(last[i])
            elif w[0] in "+-":
                out.append(last[i] + int(w))
            else:
                out.append(int(w, 0))
        return out

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            m = re.match(r"([a-z]+):\s*(.*)", line)
            if m and not line[0].isdigit():
                key, value = m.groups()
                if key == "cmd":
                    cmd = value
                elif key == "part":
                    last = [0, 0]
                elif key == "positions" and value.split() != ["instr", "line"]:
                    sys.exit("%s: positions %s: expected instr line" % (path, value))
                continue
            m = re.match(r"([a-z]+)=(.*)", line)
            if m:
                key, value = m.groups()
                if key == "ob":
                    ob = resolve("ob", value)
                elif key == "cob":
                    cob = resolve("ob", value)
                elif key == "fn":
                    fn = resolve("fn", value)
                elif key == "cfn":
                    resolve("fn", value)
                elif key == "calls":
                    target = value.split()[1:]
                    call_due = (cob if cob is not None else ob, positions(target)[0])
                    cob = None
                elif key in ("jump", "jcnd"):
                    sys.exit("%s: jumps recorded: a sweep's truth has none" % path)
                continue
            words = line.split()
            pos = positions(words)
            last = pos
            cost = int(words[2]) if len(words) > 2 else 0
            if call_due:  # the inclusive cost of a call, from the call instruction at pos
                calls.append((ob, pos[0], call_due[0], call_due[1]))
                call_due = None
                continue
            if cost:
                key = (ob, pos[0])
                count, function = instrs.get(key, (0, fn))
                instrs[key] = (count + cost, function)
                total += cost
    return instrs, calls, cmd, total


def stub_biases(calls, objects):
    """object -> its load bias under valgrind, from its calls into ??? that agree."""
    bias = {}
    for source_ob, addr, target_ob, target in calls:
        if target_ob != "???" or source_ob not in objects or not source_ob.startswith("/"):
            continue
        t = call_target(source_ob, addr)
        if t is None or to_offset(source_ob, t) is None:
            continue
        b = target - t
        if bias.get(source_ob, b) != b:
            bias[source_ob] = None
        elif source_ob not in bias:
            bias[source_ob] = b
    return {k: v for k, v in bias.items() if v is not None}


def load_truth(truth):
    """(instruction (process, file, offset) -> (count, function), object order, NI)."""
    listed = {line.split(" ", 1)[1].strip() for line in open(os.path.join(truth, "objects"))
              if line.strip() and not line.startswith("#")}
    files = sorted(f for f in os.listdir(truth) if re.fullmatch(r"callgrind\.out(\.[0-9.]+)?", f))
    files.sort(key=lambda f: f != "callgrind.out")
    counts, order, ni = {}, [], 0
    for name in files:
        instrs, calls, cmd, total = parse_profile(os.path.join(truth, name))
        proc = process_name(cmd)
        ni += total
        seen = [ob for ob in dict.fromkeys(ob for ob, _ in instrs) if ob in listed]
        for ob in seen:
            if (proc, ob) not in order:
                order.append((proc, ob))
        bias = stub_biases(calls, listed)
        for (ob, addr), (count, function) in instrs.items():
            place = None
            if ob in listed:
                off = to_offset(ob, addr)
                place = (proc, ob, off) if off is not None else None
            elif ob == "???":
                for p, o in order:  # the first object of this process whose bias places it
                    if p == proc and o in bias:
                        off = to_offset(o, addr - bias[o])
                        if off is not None:
                            place = (proc, o, off)
                            break
            if place:
                c, f = counts.get(place, (0, function))
                counts[place] = (c + count, f)
    return counts, order, ni


def perf_samples(data, periods):
    """{period: {(comm, file, offset): samples}} and {period: samples in no file}."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,period,ip,dso", "--show-mmap-events",
                          "--show-task-events"], capture_output=True, text=True, check=True).stdout
    maps, by_period, unplaced = {}, {p: {} for p in periods}, {p: 0 for p in periods}
    for line in out.splitlines():
        m = re.search(r"PERF_RECORD_MMAP2? (\d+)/\d+: \[0x([0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*?\]: "
                      r"\S+ (\S.*)$", line)
        if m:
            pid, start, size, pgoff, path = m.groups()
            maps.setdefault(int(pid), []).append((int(start, 16), int(size, 16), int(pgoff, 16), path))
            continue
        m = re.search(r"PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)", line)
        if m:
            maps[int(m.group(1))] = list(maps.get(int(m.group(2)), []))
            continue
        m = re.search(r"PERF_RECORD_COMM exec: .*:(\d+)/\d+", line)
        if m:
            maps[int(m.group(1))] = []
            continue
        m = re.match(r"\s*(.+?)\s+(\d+)\s+(\d+)\s+([0-9a-f]+) \((.*)\)\s*$", line)
        if not m or "PERF_RECORD" in line:
            continue
        comm, pid, period, ip = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4), 16)
        base = max(p for p in periods if p <= period)  # a randomised period lies in [P, 9P/8)
        place = None
        for start, size, pgoff, path in reversed(maps.get(pid, [])):
            if start <= ip < start + size:
                place = (comm, path, ip - start + pgoff) if path.startswith("/") else None
                break
        if place:
            by_period[base][place] = by_period[base].get(place, 0) + 1
        else:
            unplaced[base] += 1
    return by_period, unplaced


def tau_b(x, y):
    n = len(x)
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            a, b = x[i] - x[j], y[i] - y[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                tx += 1
            elif b == 0:
                ty += 1
            elif (a > 0) == (b > 0):
                conc += 1
            else:
                disc += 1
    d = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / d if d else None


def level(values):
    """value -> 1 + the number of distinct values above it"""
    distinct = sorted(set(values), reverse=True)
    return {v: i + 1 for i, v in enumerate(distinct)}


def top_set(values, n):
    positive = sorted((v for v in values.values() if v > 0), reverse=True)
    if not positive:
        return set()
    cut = positive[min(n, len(positive)) - 1]
    return {k for k, v in values.items() if v >= cut}


def measures(sampled, counts, ni, ro, top=10):
    """The measures of S = sampled {key: c} against the exact counts (top 0: NRMSE_SR, SC and
    OD alone, as the ideal sampler needs)."""
    ns = sum(sampled.values())
    keys = list(sampled)
    c = [sampled[k] for k in keys]
    r = [counts[k][0] if k in counts else 0 for k in keys]
    s_frac, r_frac = [v / ns for v in c], [v / ni for v in r]
    span = max(s_frac + r_frac) - min(s_frac + r_frac)
    nrmse = math.sqrt(sum(s * (s - q) ** 2 for s, q in zip(s_frac, r_frac))) / span if span > 0 else 0.0
    so = level(c)
    zero = len(ro) + 1  # a block count of 0 ranks below every executed count

    def od(which):
        idx = [i for i in range(len(keys)) if which(i)]
        if not idx:
            return None
        w = sum(c[i] for i in idx)
        lv = level([c[i] for i in idx])
        return math.sqrt(sum(c[i] / w * (lv[c[i]] - ro.get(r[i], zero)) ** 2 for i in idx)) / len(idx)

    out = {"ns": ns, "m": len(keys), "nrmse_sr": nrmse, "sc": sum(r) / ni, "od": od(lambda i: True)}
    if top:
        out.update({"od_covered": od(lambda i: r[i] > 0), "kendall_tau_b": tau_b(c, r) if len(keys) > 1 else None,
                    "unexecuted_samples": sum(ci for ci, ri in zip(c, r) if ri == 0)})
        sampled_all = dict(sampled)
        executed_all = {k: v[0] for k, v in counts.items()}
        st, et = top_set(sampled_all, top), top_set(executed_all, top)
        both = len(st & et)
        out["top_precision"] = both / len(st) if st else 0.0
        out["top_recall"] = both / len(et) if et else 0.0
    return out


def place(samples, counts, order):
    """Samples keyed as the truth keys instructions: own process, else the first that ran the file."""
    placed, outside = {}, 0
    files = {(p, f) for p, f in order}
    for (comm, path, off), n in samples.items():
        if (comm, path) in files:
            key = (comm, path, off)
        else:
            first = next((p for p, f in order if f == path), None)
            if first is None:
                outside += n
                continue
            key = (first, path, off)
        placed[key] = placed.get(key, 0) + n
    return placed, outside


def quantile7(v, q):
    v = sorted(v)
    h = (len(v) - 1) * q
    lo = math.floor(h)
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])


def ideal(counts, ni, ro, ns, seed):
    """{measure: list of its values over DRAWS simulated draws}"""
    keys = list(counts)
    weights = [counts[k][0] for k in keys]
    rng = random.Random(seed)
    draws = {"nrmse_sr": [], "sc": [], "od": []}
    for _ in range(DRAWS):
        hits = {}
        for k in rng.choices(keys, weights=weights, k=ns):
            hits[k] = hits.get(k, 0) + 1
        m = measures(hits, counts, ni, ro, top=0)
        for name in draws:
            draws[name].append(m[name])
    return draws


def ideal_agrees(values, mean, low, high, their_draws):
    """Whether pmuscope's mean and range (of their_draws draws) are those of these values."""
    sd = statistics.pstdev(values)
    se = sd * math.sqrt(1 / len(values) + 1 / their_draws)
    below = sum(v < low for v in values) / len(values)
    above = sum(v > high for v in values) / len(values)
    return abs(statistics.fmean(values) - mean) <= 5 * se + 1e-12 and below <= 0.10 and above <= 0.10, below, above


def main():
    truth, data, sweep_json = sys.argv[1:4]
    sweep = json.load(open(sweep_json))
    counts, order, ni = load_truth(truth)
    if ni != sweep["truth"]["instructions"]:
        sys.exit("FAIL: callgrind's profiles count %d instructions, pmuscope's truth %d" %
                 (ni, sweep["truth"]["instructions"]))
    ro = level([c for c, _ in counts.values()])
    periods = [p["period"] for p in sweep["periods"]]
    by_period, unplaced = perf_samples(data, periods)
    bad = 0
    for p in sweep["periods"]:
        samples = by_period[p["period"]]
        total = sum(samples.values()) + unplaced[p["period"]]
        if total != p["samples"]:
            print("FAIL: period %d: perf script shows %d samples, pmuscope %d" % (p["period"], total, p["samples"]))
            bad += 1
        if not p["measured"]:
            continue
        placed, outside = place(samples, counts, order)
        mine = measures(placed, counts, ni, ro)
        mine["outside_samples"] = outside
        for key, value in mine.items():
            theirs = p[key]
            same = (value is None and theirs is None) or (
                value is not None and theirs is not None and abs(value - theirs) <= 1e-6 * max(1.0, abs(theirs)))
            if not same:
                print("FAIL: period %d: %s recomputed %s, pmuscope %s" % (p["period"], key, value, theirs))
                bad += 1
        print("period %d: NS %d m %d NRMSE_SR %.6f SC %.6f OD %.6f tau-b %s: as pmuscope's" %
              (p["period"], mine["ns"], mine["m"], mine["nrmse_sr"], mine["sc"], mine["od"], mine["kendall_tau_b"]))
        if not p["ideal_draws"]:
            continue
        sim = ideal(counts, ni, ro, p["ns"], p["period"])
        for name, values in sim.items():
            pm, pl, ph = p[name + "_ideal"], p[name + "_ideal_low"], p[name + "_ideal_high"]
            ok, below, above = ideal_agrees(values, pm, pl, ph, p["ideal_draws"])
            print("%speriod %d: ideal %s: pmuscope %.5f [%.5f, %.5f], simulated mean %.5f, %.1f%% of the simulated "
                  "draws below the range, %.1f%% above" % ("" if ok else "FAIL: ", p["period"], name, pm, pl, ph,
                                                           statistics.fmean(values), 100 * below, 100 * above))
            bad += not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
