/* Chart colours: series, stacked-bar components and band labels from one palette (then
 * distinct hues beyond it, so that no two legend swatches look alike), the heat map's scale. */
#include "render/chart_impl.h"

#include <math.h>
#include <string.h>

/* The palette of series, bars and bands (Tableau 10), then hues a golden angle apart. */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])

static void nth_color(size_t k, char out[8])
{
    if (k < PALETTE_SIZE) {
        memcpy(out, palette[k], 8);
        return;
    }
    double h = fmod(37.0 + 137.508 * (double)k, 360.0) / 60.0, s = 0.55, l = k % 2 ? 0.45 : 0.62;
    double ch = (1 - fabs(2 * l - 1)) * s, x = ch * (1 - fabs(fmod(h, 2) - 1)), m = l - ch / 2;
    double rgb[6][3] = {{ch, x, 0}, {x, ch, 0}, {0, ch, x}, {0, x, ch}, {x, 0, ch}, {ch, 0, x}};
    const double *v = rgb[(int)h % 6];
    snprintf(out, 8, "#%02x%02x%02x", (int)lround(255 * (v[0] + m)), (int)lround(255 * (v[1] + m)),
             (int)lround(255 * (v[2] + m)));
}

void pms__palette_color(size_t k, char out[8]) { nth_color(k, out); }

void pms__band_color(int l, char out[8])
{
    if (l < 0) memcpy(out, "#cccccc", 8);
    else nth_color((size_t)l, out);
}

void pms__heat_color(double v, double lo, double hi, char *out, size_t len)
{
    double t = hi > lo ? (v - lo) / (hi - lo) : 0;
    int shade = (int)lround(255 * (1 - (t < 0 ? 0 : t > 1 ? 1 : t)));
    snprintf(out, len, "rgb(%d,%d,255)", shade, shade);
}

