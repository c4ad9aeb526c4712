/* The five analysis methods and their papers (pmuscope/methods.h). Venue and year are
 * cited only where the paper's own text states them; where it does not, the citation says so. */
#include "pmuscope/methods.h"
#include "util/error.h"

#include <stdbool.h>
#include <string.h>

static const pms_method methods[] = {
    {.command = "olr",
     .name = "online linear regression of sample streams",
     .about = "Replaces a stream of counter samples by line segments fitted as the samples arrive: a "
              "new line starts when a sample leaves the current one (wm, the paper's test), or the "
              "fewest lines within an error bound (opt). `pmuscope record --olr` fits while recording.",
     .citation = "Qiang Wu and Oskar Mencer, \"Online Linear Regression of Sampling Data from Performance "
                 "Event Counters\", Imperial College London (its text gives no venue or year)"},
    {.command = "cpistack",
     .name = "CPI stacks by linear regression",
     .about = "Fits the CPI of each interval against the rates of miss events (least squares or "
              "non-negative least squares) and splits the CPI into a base and one part per event.",
     .citation = "Aman Choudhary and Shashank Singh, \"Obtaining CPI Stack for Programs using Hardware "
                 "Performance Counters and Linear Regression\", course assignment, Indian Institute of "
                 "Science, Bangalore (its text gives no venue or year)"},
    {.command = "hotspot",
     .name = "accuracy of sampling based hotspot detection",
     .about = "Samples a program's instruction pointers and scores the sampled hotspots against exact "
              "execution counts from valgrind: normalised root mean square error, sample coverage and "
              "order deviation, over a sweep of sampling periods.",
     .citation = "Qiang Wu and Oskar Mencer, \"Evaluating Sampling Based Hotspot Detection\", Imperial "
                 "College London (its text gives no venue or year)"},
    {.command = "phase",
     .name = "online phase classification and prediction",
     .about = "Hashes the instruction pointers sampled in each interval into a signature, classifies "
              "it into a program phase and predicts the next phase, live or from recorded files.",
     .citation = "Andreas Sembrant, \"Low Overhead Online Phase Predictor and Classifier\", master thesis, "
                 "Uppsala University, UPTEC IT 11 002 (its text gives no year)"},
    {.command = "estimate",
     .name = "CPU cycles estimated from event counts",
     .about = "Fits the cycles of runs to their event counts by linear programming (LP), multiple "
              "regression (MRA) and multiple regression considering multicollinearity (MRACM, two "
              "counters), and compares their errors on runs not used for fitting.",
     .citation = "Ryota Hattori, \"Multiple regression analysis considering multicollinearity for "
                 "estimating CPU cycles using performance counters\", Kindai University (its text gives "
                 "no venue or year)"},
};

const pms_method *pms_methods(size_t *n)
{
    *n = sizeof methods / sizeof methods[0];
    return methods;
}

const pms_method *pms_method_of(const char *command)
{
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(methods[i].command, command) == 0) return &methods[i];
    return NULL;
}

int pms_write_wrapped(FILE *out, const char *first, const char *text, const char *indent)
{
    size_t col = strlen(first);
    bool line_start = true;
    fputs(first, out);
    while (*text) {
        size_t word = strcspn(text, " ");
        if (!line_start && col + 1 + word > 80) {
            fprintf(out, "\n%s", indent);
            col = strlen(indent);
            line_start = true;
        }
        if (!line_start) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, word, out);
        col += word;
        line_start = false;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
    return ferror(out) ? pms__fail(PMS_EIO, "cannot write the text") : PMS_OK;
}
