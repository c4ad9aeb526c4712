#!/usr/bin/env python3
"""Checks pmuscope's charts as a reader would, from the SVG as written (parsed, not grepped).

usage: svg_check.py [--kind KIND --table FILE [--json FILE] [--input FILE] [--eps E] ...]
                    [--boxes FILE] FILE...

FILE is an .svg, or an .html page whose inline <svg> figures are all checked. Every chart
(<g class="chart">) must pass:
  - each axis it draws has round tick labels, increasing, that lie on one straight line of
    the axis's scale (linear, log10, log2) within half a pixel, inside the data's range
    plus one tick step, and a unit in its label; a linear axis whose visible range does not
    hold 0 carries a break mark;
  - every data mark lies inside its plot area, and its position, read back through the
    ticks as drawn (the labels' numbers, not the SVG's own attributes), is its number within
    a pixel: the number from the table the command wrote when --kind/--table name one,
    else the value the mark carries;
  - the legend has one entry per series, each with a swatch of the series' kind (a line for
    a line, a dot for points, a square for bars, ...) and colour, all distinct;
  - no two labels overlap (estimated from the font's character widths, or the boxes the
    browser measured: --boxes, as tests/tools/page_check.sh writes them).
Exit 0 when every check holds, 1 with one line per failure otherwise.

Kinds (what the marks are compared with):
  sweep     --table hotspot --csv output
  estimate  --json estimate --json output, --input the runs table it read (fit, test, held-out
            and interval series)
  cpistack  --table cpistack --csv output [--input the interval table, --group-col, --skip]
  phase     --table phase --csv output, --json phase --json output
  olr       --table olr --csv output (segments), --input the samples as CSV (olr --samples),
            --eps E (opt's bound, counts)
  report    --table report --csv output
"""
import argparse
import csv
import json
import math
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
failures = []


def fail(where, msg):
    failures.append(f"{where}: {msg}")


def tag(e):
    return e.tag.replace(NS, "")


def classes(e):
    return (e.get("class") or "").split()


def find_class(root, cls, name=None):
    return [e for e in root.iter() if cls in classes(e) and (name is None or tag(e) == name)]


def num(e, attr, default=None):
    v = e.get(attr)
    return float(v) if v is not None else default


# ---- tick labels: the numbers a reader sees ----

SUFFIX = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}


def parse_label(text):
    m = re.fullmatch(r"\s*([-\u2212]?[0-9]+(?:\.[0-9]+)?)\s*(Ki|Mi|Gi|Ti|K|M|G|T)?\s*", text or "")
    if not m:
        return None
    return float(m.group(1).replace("\u2212", "-")) * SUFFIX[m.group(2) or ""]


def text_of(e):
    """A text element's own text, without the <title> a reader sees only on hover."""
    parts = [e.text or ""]
    for c in e:
        if tag(c) != "title":
            parts.append(text_of(c))
        parts.append(c.tail or "")
    return "".join(parts).strip()


# ---- geometry ----

def parse_transform(t):
    """The affine matrix (a, b, c, d, e, f) of a transform attribute (translate, rotate, matrix)."""
    m = (1, 0, 0, 1, 0, 0)
    for fn, args in re.findall(r"(\w+)\s*\(([^)]*)\)", t or ""):
        a = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if fn == "translate":
            n = (1, 0, 0, 1, a[0], a[1] if len(a) > 1 else 0)
        elif fn == "rotate":
            r = math.radians(a[0])
            n = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(a) == 3:
                n = mul(mul((1, 0, 0, 1, a[1], a[2]), n), (1, 0, 0, 1, -a[1], -a[2]))
        elif fn == "matrix":
            n = tuple(a)
        else:
            continue
        m = mul(m, n)
    return m


def mul(p, q):
    a, b, c, d, e, f = p
    A, B, C, D, E, F = q
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


# DejaVu Sans advance widths in em, by character class (the browser's sans-serif here)
NARROW, WIDE = set("iljI.,:;'|!()[]/ f-tr"), set("mwMW%@")


def text_width(s, size):
    w = 0
    for ch in s:
        w += 0.3 if ch in NARROW else 0.9 if ch in WIDE else 0.72 if ch.isupper() else 0.62
    return w * size


def text_quad(e, parents_transform):
    """The four corners of a text element's box, from its position, anchor, size and transform."""
    size = float(e.get("font-size") or 12)
    s = text_of(e)
    w = text_width(s, size)
    x, y = num(e, "x", 0.0), num(e, "y", 0.0)
    anchor = e.get("text-anchor") or "start"
    left = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
    m = mul(parents_transform, parse_transform(e.get("transform")))
    top, bottom = y - 0.76 * size, y + 0.24 * size
    return [apply(m, left, top), apply(m, left + w, top), apply(m, left + w, bottom), apply(m, left, bottom)]


def quads_overlap(p, q, margin=0.5):
    """Separating axis test of two convex quadrilaterals, shrunk by margin pixels."""
    for poly in (p, q):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            ln = math.hypot(nx, ny) or 1
            nx, ny = nx / ln, ny / ln
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) - margin <= min(b) or max(b) - margin <= min(a):
                return False
    return True


# ---- axes ----

class Axis:
    def __init__(self, g, where):
        self.g, self.where = g, where
        self.name = g.get("data-axis")
        self.scale = g.get("data-scale") or "linear"
        self.unit = g.get("data-unit") or ""
        self.ticks = []  # (pixel, value, label)
        self.cats = {}   # category index -> pixel
        horizontal = self.name != "y"
        for t in find_class(g, "tick"):
            line = next((c for c in t if tag(c) == "line"), None)
            txt = next((c for c in t if tag(c) == "text"), None)
            if t.get("data-cat") is not None:
                # a category's place: its tick mark as drawn; its label (if not thinned out) at it
                if line is None:
                    fail(where, f"axis {self.name}: category {t.get('data-cat')} has no tick mark")
                    continue
                x = num(line, "x1")
                self.cats[int(t.get("data-cat"))] = x
                if txt is not None:
                    px = apply(parse_transform(txt.get("transform")), num(txt, "x", 0.0), num(txt, "y", 0.0))
                    if abs(px[0] - x) > 4:
                        fail(where, f"axis {self.name}: the label '{text_of(txt)}' stands {px[0] - x:.1f} px off its tick")
                continue
            if line is None or txt is None:
                fail(where, f"axis {self.name}: a tick without its line or label")
                continue
            pixel = num(line, "x1") if horizontal else num(line, "y1")
            label = text_of(txt)
            value = parse_label(label)
            if value is None:
                fail(where, f"axis {self.name}: tick label '{label}' is not a number")
                continue
            dv = num(t, "data-value")
            if dv is not None and abs(dv - value) > 1e-9 * max(1, abs(dv)):
                fail(where, f"axis {self.name}: tick label '{label}' reads {value:g}, the tick is at {dv:g}")
            self.ticks.append((pixel, value, label))
        self.fit_ok = False
        if self.scale == "category":
            return
        if len(self.ticks) < 3:
            fail(where, f"axis {self.name}: {len(self.ticks)} tick(s): too few to read values off it")
            return
        if self.scale.startswith("log") and any(v <= 0 for _, v, _ in self.ticks):
            fail(where, f"axis {self.name}: a tick <= 0 on a log scale")
            return
        ts = sorted(self.ticks, key=lambda t: t[0] * (1 if horizontal else -1))
        vals = [self.s(v) for _, v, _ in ts]
        if any(b <= a for a, b in zip(vals, vals[1:])):
            fail(where, f"axis {self.name}: tick labels not increasing along the axis: {[l for _, _, l in ts]}")
            return
        (p0, v0, _), (p1, v1, _) = ts[0], ts[-1]
        self.b = (p1 - p0) / (self.s(v1) - self.s(v0))
        self.a = p0 - self.b * self.s(v0)
        for p, v, l in ts:
            if abs(self.pixel(v) - p) > 0.5:
                fail(where, f"axis {self.name}: tick '{l}' at {p:.1f} px, {self.pixel(v):.1f} px on the {self.scale} "
                     "line through the first and last ticks: the ticks are not of one scale")
                return
        steps = [b - a for a, b in zip(vals, vals[1:])]
        self.step = sorted(steps)[len(steps) // 2]
        self.fit_ok = True

    def s(self, v):
        return math.log10(v) if self.scale == "log10" else math.log2(v) if self.scale == "log2" else v

    def pixel(self, v):
        if self.scale.startswith("log") and v <= 0:
            return float("nan")
        return self.a + self.b * self.s(v)

    def value(self, p):
        t = (p - self.a) / self.b
        return 10**t if self.scale == "log10" else 2**t if self.scale == "log2" else t


# ---- one chart ----

def series_of(chart):
    return [g for g in find_class(chart, "series", "g")]


def check_chart(chart, where, expect, boxes):
    title_el = next(iter(find_class(chart, "title")), None)
    title = text_of(title_el) if title_el is not None else ""
    where = f"{where} '{title}'"
    plot = next(iter(find_class(chart, "plot-area")), None)
    band = next(iter(find_class(chart, "band-area")), None)
    axes = {a.get("data-axis"): Axis(a, where) for a in find_class(chart, "axis", "g")}
    seen = {name: [] for name in axes}  # the values drawn on each axis

    def area(el):
        return (num(el, "x"), num(el, "y"), num(el, "x") + num(el, "width"), num(el, "y") + num(el, "height"))

    def inside(box, x0, y0, x1=None, y1=None, what=""):
        x1 = x0 if x1 is None else x1
        y1 = y0 if y1 is None else y1
        if not box:
            fail(where, f"{what}: no plot area to draw in")
            return
        bx0, by0, bx1, by1 = box
        if min(x0, x1) < bx0 - 0.5 or max(x0, x1) > bx1 + 0.5 or min(y0, y1) < by0 - 0.5 or max(y0, y1) > by1 + 0.5:
            fail(where, f"{what} at x {min(x0, x1):.1f}..{max(x0, x1):.1f}, y {min(y0, y1):.1f}..{max(y0, y1):.1f} "
                 f"lies outside its plot area {bx0:.1f}..{bx1:.1f} x {by0:.1f}..{by1:.1f}")

    def near(axis_name, pixel, value, what):
        ax = axes.get(axis_name)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            fail(where, f"{what}: no number to compare with")
            return
        if ax is None:
            fail(where, f"{what}: no {axis_name} axis")
            return
        seen[axis_name].append(value)
        if not ax.fit_ok:
            return
        want = ax.pixel(value)
        if not abs(want - pixel) <= 1.0:
            fail(where, f"{what}: drawn at {pixel:.1f} px on {axis_name}, which the axis reads as "
                 f"{ax.value(pixel):.6g}; the number is {value:.6g} ({want:.1f} px)")

    if not series_of(chart):
        fail(where, "no data series (or none a reader's check can find)")
    for need in ("x", "y"):
        if need not in axes and (need == "x" or plot is not None):
            fail(where, f"no {need} axis")
    def number(want, key, what, own):
        """What a mark stands for: the table's number when there is a table, else its own."""
        if want is None:
            return own()
        if key not in want:
            fail(where, f"{what} is not in the table")
            return None
        return want[key]

    plot_box = area(plot) if plot is not None else None
    band_box = area(band) if band is not None else None
    legend = find_class(chart, "legend-entry")
    heat_scale = None
    for e in legend:
        if e.get("data-kind") == "heat":
            labels = [parse_label(text_of(t)) for t in e.iter() if tag(t) == "text"]
            labels = [v for v in labels if v is not None]
            if len(labels) >= 2:
                heat_scale = (min(labels), max(labels))
            else:
                fail(where, "the heat map's colour scale has no numbers at its ends")
    band_colors = {e.get("data-value"): (e.get("data-color") or "").lower() for e in legend
                   if e.get("data-kind") == "band"}

    for s in series_of(chart):
        kind, label = s.get("data-kind"), s.get("data-label") or ""
        what = f"series '{label}' ({kind})"
        marks = find_class(s, "mark")
        if not marks:
            fail(where, f"{what}: no marks at its data points")
        want = expect.series(title, label, kind) if expect else None
        for m in marks:
            t = tag(m)
            if kind in ("line", "points"):
                if t != "circle":
                    fail(where, f"{what}: a mark that is a {t}, not a dot")
                    continue
                cx, cy = num(m, "cx"), num(m, "cy")
                i = int(m.get("data-i", -1))
                inside(plot_box, cx, cy, what=f"{what} point {i}")
                xy = number(want, i, f"{what}: point {i}", lambda: (num(m, "data-x"), num(m, "data-y")))
                if xy is None:
                    continue
                x, y = xy
                near("x", cx, x, f"{what} point {i} x")
                near("y", cy, y, f"{what} point {i} y")
            elif kind == "bar":
                c = int(m.get("data-cat", -1))
                x0, y0, x1, y1 = area(m)
                inside(plot_box, x0, y0, x1, y1, what=f"{what} bar {c}")
                span = number(want, c, f"{what}: bar {c}",
                              lambda: (num(m, "data-base", 0.0), num(m, "data-base", 0.0) + num(m, "data-value", 0.0)))
                if span is None:
                    continue
                lo, hi = span
                near("y", max(y0, y1), min(lo, hi), f"{what} bar {c} bottom")
                near("y", min(y0, y1), max(lo, hi), f"{what} bar {c} top")
                centre = axes.get("x").cats.get(c) if axes.get("x") else None
                if centre is None or abs((x0 + x1) / 2 - centre) > 1:
                    fail(where, f"{what} bar {c}: not under its category label")
            elif kind == "sum":
                c = int(m.get("data-cat", -1))
                y = num(m, "y1")
                inside(plot_box, num(m, "x1"), y, num(m, "x2"), y, what=f"{what} {c}")
                v = want[c] if want is not None and c in want else num(m, "data-value")
                near("y", y, v, f"{what} {c}")
            elif kind == "area":
                x0, y0, x1, y1 = area(m)
                inside(plot_box, x0, y0, x1, y1, what=what)
                got = want.get(int(m.get("data-i", 0))) if want is not None else None
                xa, xb, lo, hi = got if got else (num(m, "data-x0"), num(m, "data-x1"), num(m, "data-lo"),
                                                  num(m, "data-hi"))
                near("x", x0, xa, f"{what} left")
                near("x", x1, xb, f"{what} right")
                near("y", y1, lo, f"{what} low")
                near("y", y0, hi, f"{what} high")
            elif kind == "heat":
                r, c = int(m.get("data-row")), int(m.get("data-col"))
                x0, y0, x1, y1 = area(m)
                inside(plot_box, x0 + 0.1, y0 + 0.1, x1 - 0.1, y1 - 0.1, what=f"heat cell {r},{c}")
                near("x", x0, c, f"heat cell {r},{c} left")
                near("x", x1, c + 1, f"heat cell {r},{c} right")
                near("y", y1, r, f"heat cell {r},{c} bottom")
                near("y", y0, r + 1, f"heat cell {r},{c} top")
                v = want.get((r, c)) if want is not None else num(m, "data-value")
                if v is None:
                    fail(where, f"heat cell {r},{c} is not in the table")
                    continue
                shade = re.fullmatch(r"rgb\((\d+),(\d+),255\)", m.get("fill") or "")
                if heat_scale is None:
                    continue
                if not shade or v is None:
                    fail(where, f"heat cell {r},{c}: colour {m.get('fill')} is not on the scale")
                    continue
                lo, hi = heat_scale
                read = lo + (1 - int(shade.group(1)) / 255) * (hi - lo)
                if abs(read - v) > (hi - lo) / 255 + 1e-9:
                    fail(where, f"heat cell {r},{c}: its colour reads {read:.4g} on the scale, the number is {v:.4g}")
            elif kind == "band":
                a, b = int(m.get("data-first")), int(m.get("data-last"))
                x0, y0, x1, y1 = area(m)
                inside(band_box, x0, y0, x1, y1, what=f"band {a}..{b}")
                near("x", x0, a, f"band {a}..{b} left")
                near("x", x1, b + 1, f"band {a}..{b} right")
                lab = m.get("data-label")
                if band_colors and (m.get("fill") or "").lower() != band_colors.get(lab):
                    fail(where, f"band {a}..{b}: colour {m.get('fill')} is not the legend's for '{lab}'")
                if want is not None:
                    for i in range(a, b + 1):
                        if str(want.get(i)) != lab:
                            fail(where, f"band interval {i}: drawn as '{lab}', the table says '{want.get(i)}'")
                            break
            else:
                fail(where, f"{what}: unknown kind")
        if want is not None and kind in ("line", "points", "bar"):
            drawn = {int(m.get("data-i" if kind != "bar" else "data-cat", -1)) for m in marks}
            missing = [k for k in want if k not in drawn and not expect.thinned(title, label)]
            if missing:
                fail(where, f"{what}: rows {missing[:5]} of the table are not drawn")

    if expect:
        expect.check_axes(where, title, axes)

    # the axes: ticks within the data's range plus one step, units, break marks
    for name, ax in axes.items():
        if name == "band":
            xt = [(round(p, 1), l) for p, _, l in axes["x"].ticks] if "x" in axes else []
            bt = [(round(p, 1), l) for p, _, l in ax.ticks]
            if xt != bt:
                fail(where, f"the band's ticks {bt[:6]}... differ from the plot's {xt[:6]}...")
            continue
        if ax.scale == "category":
            continue
        label_el = next(iter(find_class(ax.g, "axis-label")), None)
        label = text_of(label_el) if label_el is not None else ""
        if not ax.unit or f"({ax.unit}" not in label:
            fail(where, f"axis {name}: no unit in its label '{label}'")
        if ax.scale.startswith("log") and "log" not in label:
            fail(where, f"axis {name}: a {ax.scale} scale not said in its label '{label}'")
        if not ax.fit_ok:
            continue
        if ax.scale == "linear" and plot_box:
            e0, e1 = (plot_box[0], plot_box[2]) if name == "x" else (plot_box[3], plot_box[1])
            v0, v1 = ax.value(e0), ax.value(e1)
            if not (min(v0, v1) <= 0 <= max(v0, v1)) and not find_class(ax.g, "axis-break"):
                fail(where, f"axis {name}: starts at {min(v0, v1):.4g}, not 0, with no break mark")
        data = [ax.s(v) for v in seen.get(name, []) if not (ax.scale.startswith("log") and v <= 0)]
        if not data:
            continue
        lo, hi = min(data), max(data)
        ticks = [ax.s(v) for _, v, _ in ax.ticks]
        if min(ticks) < lo - ax.step * 1.0001 or max(ticks) > hi + ax.step * 1.0001:
            fail(where, f"axis {name}: ticks {[l for _, _, l in ax.ticks]} go past the data "
                 f"({min(seen[name]):.4g}..{max(seen[name]):.4g}) by more than a step")

    # the legend: one entry per series, of its kind and colour, all distinct
    entries = [e for e in legend if e.get("data-kind") not in ("band", "heat")]
    keys = [(e.get("data-kind"), (e.get("data-color") or "").lower()) for e in entries]
    if len(set(keys)) != len(keys):
        dup = [k for k in keys if keys.count(k) > 1]
        fail(where, f"legend: entries with the same swatch {dup[0]}")
    swatch_of = {"line": "line", "points": "circle", "bar": "rect", "sum": "line", "area": "rect"}
    for e in entries:
        sw = find_class(e, "swatch")
        kinds = {tag(x) for x in sw}
        want_tag = swatch_of.get(e.get("data-kind"))
        if want_tag not in kinds:
            fail(where, f"legend '{e.get('data-label')}': a {e.get('data-kind')} shown by {sorted(kinds)}")
        for x in sw:
            col = (x.get("stroke") if tag(x) == "line" or x.get("fill") in ("white", "none") else x.get("fill")) or ""
            if col.lower() != (e.get("data-color") or "").lower():
                fail(where, f"legend '{e.get('data-label')}': swatch colour {col} is not the series' {e.get('data-color')}")
    for s in series_of(chart):
        if s.get("data-kind") in ("heat", "band") or not s.get("data-label"):
            continue
        key = (s.get("data-kind"), (s.get("data-color") or "").lower())
        match = [e for e in entries if e.get("data-label") == s.get("data-label")]
        if not match:
            fail(where, f"legend: no entry for series '{s.get('data-label')}'")
        elif (match[0].get("data-kind"), (match[0].get("data-color") or "").lower()) != key:
            fail(where, f"legend '{s.get('data-label')}': swatch {match[0].get('data-kind')} "
                 f"{match[0].get('data-color')}, the series draws {key[0]} {key[1]}")
    if any(s.get("data-kind") == "band" for s in series_of(chart)):
        if not band_colors:
            fail(where, "the band has no legend")
        elif len(set(band_colors.values())) != len(band_colors):
            fail(where, "band legend: two labels with one colour")
    if any(s.get("data-kind") == "heat" for s in series_of(chart)) and heat_scale is None:
        fail(where, "a heat map without a colour scale")

    # labels do not overlap
    texts = [t for t in chart.iter() if tag(t) == "text" and text_of(t)]
    quads = boxes.pop(0) if boxes else None
    if quads is not None and len(quads) != len(texts):
        fail(where, f"--boxes holds {len(quads)} text boxes, the chart has {len(texts)} texts")
        quads = None
    if quads is None:
        quads = [text_quad(t, parent_transforms(chart, t)) for t in texts]
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if quads_overlap(quads[i], quads[j]):
                fail(where, f"labels overlap: '{text_of(texts[i])}' and '{text_of(texts[j])}'")


def parent_transforms(root, target):
    path = []

    def walk(e, acc):
        if e is target:
            path.append(acc)
            return True
        m = mul(acc, parse_transform(e.get("transform"))) if e is not root else acc
        return any(walk(c, m) for c in e)

    walk(root, (1, 0, 0, 1, 0, 0))
    return path[0] if path else (1, 0, 0, 1, 0, 0)


# ---- what the tables say ----

def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Expect:
    """The numbers of one chart kind, from the tables the command wrote."""

    def series(self, title, label, kind):
        return None

    def thinned(self, title, label):
        return False

    def check_axes(self, where, title, axes):
        pass


class Sweep(Expect):
    def __init__(self, a):
        self.rows = read_csv(a.table)
        self.xcol = next(k for k in self.rows[0] if k.startswith("period"))

    def series(self, title, label, kind):
        if label not in self.rows[0]:
            return None
        return {i: (float(r[self.xcol]), float(r[label])) for i, r in enumerate(self.rows)}

    def check_axes(self, where, title, axes):
        """Periods that are powers of 2 are read on a binary axis with a tick at each."""
        periods = [int(float(r[self.xcol])) for r in self.rows]
        ax = axes.get("x")
        if ax is None or not all(p > 0 and p & (p - 1) == 0 for p in periods):
            return
        if ax.scale != "log2":
            fail(where, f"periods {periods}, powers of 2, on a {ax.scale} axis")
        ticks = {v for _, v, _ in ax.ticks}
        missing = [p for p in periods if p not in ticks]
        if missing:
            fail(where, f"no tick at the periods {missing}")


class Estimate(Expect):
    def __init__(self, a):
        self.j = json.load(open(a.json))
        rows = read_csv(a.input)
        self.row = {r[next(iter(r))]: (i, r) for i, r in enumerate(rows)}
        self.cycles = self.j["cycles"]

    def error(self, m, run):
        _, r = self.row[run]
        est = m.get("intercept", 0) + sum(c * float(r[k]) for k, c in m["coefficients"].items())
        return 100 * (est - float(r[self.cycles])) / float(r[self.cycles])

    def series(self, title, label, kind):
        name, part = label.rsplit(" ", 1)
        if part == "interval":  # "LP 90% interval"
            name = name.rsplit(" ", 1)[0]
        m = next((m for m in self.j["methods"] if m["method"].upper() == name.upper()), None)
        if m is None:
            return None
        if part == "held-out":  # the fitting runs' held-out estimates (those the refits gave)
            done = [(self.row[h["run"]][0] + 1, h["error_pct"]) for h in m["heldout"]["runs"] if h["error_pct"] is not None]
            return dict(enumerate(done))
        if part == "interval":  # each test run's interval as a box: its bounds as error % of its cycles
            done = [(self.row[t["run"]][0] + 1 - 0.3, self.row[t["run"]][0] + 1 + 0.3,
                     100 * (t["lower"] - t["measured"]) / t["measured"], 100 * (t["upper"] - t["measured"]) / t["measured"])
                    for t in m["test"] if t["lower"] is not None and t["upper"] is not None]
            return dict(enumerate(done))
        runs = self.j["train"] if part == "fit" else self.j["test"]
        out = {}
        for i, run in enumerate(runs):
            x = self.row[run][0] + 1
            if part == "test":
                t = next(t for t in m["test"] if t["run"] == run)
                out[i] = (x, t["error_pct"])
            else:
                out[i] = (x, self.error(m, run))
        return out


class Cpistack(Expect):
    def __init__(self, a):
        self.rows = read_csv(a.table)
        cols = list(self.rows[0])
        self.comps = cols[cols.index("base"):cols.index("model_CPI")]
        self.observed = {}
        if a.input:
            with open(a.input, newline="") as f:
                lines = [l for l in f]
            head = lines[0].lstrip("#").rstrip("\n").split("\t")
            for l in lines[1:]:
                r = dict(zip(head, l.rstrip("\n").split("\t")))
                self.observed.setdefault(r[a.group_col], []).append(float(r["CPU_CYCLES"]) / float(r["INST_RETIRED"]))
            for g in self.observed:
                self.observed[g] = self.observed[g][a.skip:]

    def stacked(self, values):
        """Each part's [low, high]: positive parts stacked up from 0, negative ones down."""
        pos = neg = 0
        out = []
        for v in values:
            if v >= 0:
                out.append((pos, pos + v))
                pos += v
            else:
                out.append((neg + v, neg))
                neg += v
        return out

    def series(self, title, label, kind):
        if title.startswith("CPI stack") and "interval" not in title:
            if kind == "sum":
                return {i: float(r["model_CPI"]) for i, r in enumerate(self.rows)}
            if label not in self.comps:
                return None
            k = self.comps.index(label)
            return {i: self.stacked([float(r[c]) for c in self.comps])[k] for i, r in enumerate(self.rows)}
        if title.startswith("Observed and model CPI") and label == "observed":
            g = title.split(": ", 1)[1]
            if g in self.observed:
                return {i: (i + 1, v) for i, v in enumerate(self.observed[g])}
        return None


class Phase(Expect):
    def __init__(self, a):
        self.phase = {int(r["interval"]): r["phase"] for r in read_csv(a.table)}
        self.sig = None  # without --json the cells' colours are read against the values they carry
        if a.json:
            self.sig = {}
            for c, iv in enumerate(json.load(open(a.json))["intervals"]):
                for r, v in enumerate(iv["signature"]):
                    self.sig[(r, c)] = v

    def series(self, title, label, kind):
        if kind == "band":
            # phase 0 is the transition phase, drawn as "no phase" (-1)
            return {i: ("-1" if p == "0" else p) for i, p in self.phase.items()}
        if kind == "heat":
            return self.sig
        return None


class Olr(Expect):
    def __init__(self, a):
        self.segs = {}
        for r in read_csv(a.table):
            self.segs.setdefault(r["counter"], []).append(r)
        with open(a.input, newline="") as f:
            rd = csv.reader(f)
            head = next(rd)
            self.samples = [[float(v) for v in row] for row in rd]
        self.head = head
        self.eps = a.eps

    def counter(self, title):
        return title.split(":", 1)[0]

    def thinned(self, title, label):
        return True  # long streams are drawn every n-th: what is drawn must still be exact

    def series(self, title, label, kind):
        name = self.counter(title)
        if name not in self.head:
            return None
        j = self.head.index(name)
        if label == "samples":
            return {i: (r[0], r[j]) for i, r in enumerate(self.samples)}
        if label == "lines":
            out = {}
            for k, s in enumerate(self.segs.get(name, [])):
                out[2 * k] = (float(s["x_first"]), float(s["y_first"]))
                out[2 * k + 1] = (float(s["x_last"]), float(s["y_last"]))
            return out
        if label == "error":  # the sample less the first line that holds it, at its x
            segs = [(float(s["x_first"]), float(s["x_last"]), float(s["y_first"]), float(s["y_last"]))
                    for s in self.segs.get(name, [])]
            out, k = {}, 0
            for i, r in enumerate(self.samples):
                x = r[0]
                while k < len(segs) and segs[k][1] < x:
                    k += 1
                if k == len(segs) or x < segs[k][0]:
                    continue
                x0, x1, y0, y1 = segs[k]
                out[i] = (x, r[j] - (y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y0))
            return out
        if kind == "area" and self.eps is not None:
            xs = [r[0] for r in self.samples]
            return {0: (min(xs), max(xs), -self.eps, self.eps)}
        return None


class Report(Expect):
    def __init__(self, a):
        self.rows = read_csv(a.table)

    def series(self, title, label, kind):
        pre = "children_" if "children" in title.lower() and "children_share" in self.rows[0] else ""
        event = re.search(r" of (\S+) with", title)
        rows = [r for r in self.rows if not event or r["event"] == event.group(1)]
        out = {}
        for i, r in enumerate(rows[:10]):
            lo, s, hi = (100 * float(r[pre + k]) for k in ("ci_low", "share", "ci_high"))
            out[i] = {"low end": (0, lo), "to estimate": (lo, s), "to high end": (s, hi)}.get(label)
        return out if all(v is not None for v in out.values()) else None


KINDS = {"sweep": Sweep, "estimate": Estimate, "cpistack": Cpistack, "phase": Phase, "olr": Olr, "report": Report}


def svgs_of(path):
    text = open(path, encoding="utf-8").read()
    if path.endswith(".svg"):
        return [text]
    return re.findall(r"<svg\b.*?</svg>", text, flags=re.S)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kind", choices=sorted(KINDS))
    p.add_argument("--table")
    p.add_argument("--json")
    p.add_argument("--input")
    p.add_argument("--eps", type=float)
    p.add_argument("--group-col", default="Benchmark")
    p.add_argument("--skip", type=int, default=0)
    p.add_argument("--boxes", help="JSON: per figure, per chart, the corners of every text's box")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    expect = KINDS[a.kind](a) if a.kind else None
    boxes = json.load(open(a.boxes)) if a.boxes else None
    ncharts = 0
    for path in a.files:
        for k, text in enumerate(svgs_of(path)):
            try:
                root = ET.fromstring(text)
            except ET.ParseError as e:
                fail(f"{path} figure {k}", f"not well-formed XML: {e}")
                continue
            fig_boxes = boxes.pop(0) if boxes else None
            charts = find_class(root, "chart", "g")
            if not charts:
                fail(f"{path} figure {k}", "no chart")
            for c in charts:
                ncharts += 1
                check_chart(c, f"{path} figure {k}", expect, fig_boxes)
    groups = {}  # failures alike but for their numbers: the first two of each, then a count
    for f in failures:
        groups.setdefault(re.sub(r"[0-9.]+", "#", f), []).append(f)
    for same in groups.values():
        for f in same[:2]:
            print("FAIL:", f)
        if len(same) > 2:
            print(f"FAIL: ... and {len(same) - 2} more like the last")
    if not a.quiet:
        print(f"svg_check: {ncharts} charts, {len(failures)} failures")
    return 1 if failures or ncharts == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
