/* perf_samples: the samples of a perf.data file, one a line, through the reader API
 * (include/pmuscope/perfdata.h), in the order perf script shows them.
 *
 *   perf_samples [--file-order] FILE
 *
 * Prints "TID TIME IP EVENT" for every sample (TIME in nanoseconds), sorted by time as
 * perf's ordered events sort them (the reader's default), or with --file-order as the
 * records lie in the file (perf record writes one CPU's buffer after the other). The
 * last line on stderr counts the samples and the places where time went backwards.
 *
 * Build against an installed pmuscope:
 *   cc -o perf_samples perf_samples.c $(pkg-config --cflags --libs pmuscope) */
#include <pmuscope/error.h>
#include <pmuscope/perfdata.h>

#include <stdio.h>
#include <string.h>

struct tally {
    unsigned long long samples, backwards, last_time;
};

static int print_sample(const pms_sample *s, void *ctx)
{
    struct tally *t = ctx;
    if (t->samples++ && s->time < t->last_time) t->backwards++;
    t->last_time = s->time;
    printf("%u %llu %llx %s\n", s->tid, (unsigned long long)s->time, (unsigned long long)s->ip,
           s->attr && s->attr->name ? s->attr->name : "?");
    return 0;
}

int main(int argc, char **argv)
{
    int file_order = argc == 3 && strcmp(argv[1], "--file-order") == 0;
    if (argc != 2 + file_order) {
        fprintf(stderr, "usage: perf_samples [--file-order] FILE\n");
        return 2;
    }
    pms_perfdata_reader *r;
    if (pms_perfdata_open(&r, argv[argc - 1])) {
        fprintf(stderr, "perf_samples: %s\n", pms_strerror());
        return 1;
    }
    if (file_order) pms_perfdata_set_order(r, PMS_PERFDATA_ORDER_FILE);
    struct tally t = {0, 0, 0};
    pms_perfdata_handlers h = {.sample = print_sample, .ctx = &t};
    int rc = pms_perfdata_read(r, &h);
    pms_perfdata_close(r);
    if (rc) {
        fprintf(stderr, "perf_samples: %s\n", pms_strerror());
        return 1;
    }
    fprintf(stderr, "%llu samples, time went backwards %llu times\n", t.samples, t.backwards);
    return 0;
}
