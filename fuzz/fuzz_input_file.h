/* For fuzz targets whose reader takes a path: the input is written to one temporary
 * file per process, rewritten for each run, so the whole file path (open, line reader,
 * parser) is what gets fuzzed. */
#ifndef PMS_FUZZ_INPUT_FILE_H
#define PMS_FUZZ_INPUT_FILE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_input_path[64];

static void fuzz_input_remove(void) { unlink(fuzz_input_path); }

/* Returns the path of a file holding exactly DATA, or NULL when it cannot be written. */
static const char *fuzz_input_file(const uint8_t *data, size_t size)
{
    if (!fuzz_input_path[0]) {
        snprintf(fuzz_input_path, sizeof fuzz_input_path, "/tmp/pms-fuzz-XXXXXX");
        int fd = mkstemp(fuzz_input_path);
        if (fd < 0) return NULL;
        close(fd);
        atexit(fuzz_input_remove);
    }
    FILE *f = fopen(fuzz_input_path, "wb");
    if (!f) return NULL;
    size_t put = fwrite(data, 1, size, f);
    if (fclose(f) || put != size) return NULL;
    return fuzz_input_path;
}

#endif
