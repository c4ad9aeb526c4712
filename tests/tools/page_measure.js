// Injected by tests/lib/browser.sh into a test-only copy of a page (the page itself forbids
// scripts): once laid out, it writes into <pre id="pms-measure"> what the browser measured:
//   overflow: the page's scroll width against its client width, and every element whose box
//             ends past the page's right edge outside any scroll container;
//   boxes:    per <svg>, per chart (<g class="chart">), the four corners of every non-empty
//             <text>'s box (its own text, not its <title>), in the SVG's user units, in
//             document order (as tests/tools/svg_check.py --boxes reads them).
window.addEventListener("load", function () {
    var doc = document.documentElement, width = doc.clientWidth, overflowing = [];
    function scrolls(e) {
        for (var p = e.parentElement; p; p = p.parentElement) {
            var o = getComputedStyle(p).overflowX;
            if (o !== "visible" && o !== "clip") return true;
        }
        return false;
    }
    var all = document.body.getElementsByTagName("*");
    for (var i = 0; i < all.length; i++) {
        var e = all[i];
        if (e.id === "pms-measure") continue;
        var r = e.getBoundingClientRect();
        if (r.right > width + 0.5 && !scrolls(e))
            overflowing.push(e.tagName.toLowerCase() + (e.getAttribute("class") ? "." + e.getAttribute("class") : "") +
                             " right " + r.right.toFixed(1));
    }
    function ownText(t) {
        var s = "";
        for (var k = 0; k < t.childNodes.length; k++)
            if (t.childNodes[k].nodeName.toLowerCase() !== "title") s += t.childNodes[k].textContent;
        return s.trim();
    }
    var figures = [], svgs = document.getElementsByTagName("svg");
    for (var f = 0; f < svgs.length; f++) {
        var svg = svgs[f], charts = [], scale = 1;
        var vb = svg.viewBox && svg.viewBox.baseVal;
        if (vb && vb.width) scale = svg.getBoundingClientRect().width / vb.width;
        var gs = svg.querySelectorAll("g.chart");
        for (var c = 0; c < gs.length; c++) {
            var quads = [], texts = gs[c].getElementsByTagName("text");
            for (var t = 0; t < texts.length; t++) {
                if (!ownText(texts[t])) continue;
                var b = texts[t].getBBox(), m = texts[t].getCTM(), q = [];
                [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].forEach(
                    function (p) {
                        q.push([(m.a * p[0] + m.c * p[1] + m.e) / scale, (m.b * p[0] + m.d * p[1] + m.f) / scale]);
                    });
                quads.push(q);
            }
            charts.push(quads);
        }
        figures.push(charts);
    }
    var out = document.createElement("pre");
    out.id = "pms-measure";
    out.textContent = JSON.stringify({
        client_width: width, scroll_width: doc.scrollWidth, overflowing: overflowing, boxes: figures});
    document.body.appendChild(out);
});
