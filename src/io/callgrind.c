/* Reader of callgrind.out files with per-instruction costs (--dump-instr=yes).
 * Format: valgrind's "Callgrind Format Specification" (docs/cl-format.xml). */
#include "pmuscope/callgrind.h"
#include "io/text_lines.h"
#include "util/error.h"
#include "util/grow.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUBPOS 8
#define MAX_NAME_ID (1u << 22) /* ids are small integers; refuse absurd ones */

/* Names of one compression class (objects or functions) and the id -> index map. */
typedef struct name_table {
    char **names;
    size_t n, cap;
    int32_t *by_id; /* id -> index, -1 if undefined */
    size_t nids;
} name_table;

struct pms_callgrind {
    pms_cg_instr *instrs;
    size_t n, cap;
    pms_cg_branch *targets, *sources; /* of jumps, conditional jumps and calls */
    size_t ntargets, targets_cap, nsources, sources_cap;
    pms_cg_call *calls;
    size_t ncalls, calls_cap;
    name_table objects, functions;
    uint64_t total;
    char *command;
    unsigned long pid; /* "pid:" header, 0 if absent */
    unsigned parts;
    size_t jumps; /* jump= and jcnd= lines */
};

typedef struct parser {
    pms_callgrind *cg;
    const char *name;
    size_t line;
    int npos, instr_pos;        /* subpositions per cost line and which one is "instr" */
    int nevents, ir_event;      /* events per cost line and which one is "Ir" */
    uint64_t last[MAX_SUBPOS];  /* subpositions of the last cost line */
    int32_t object, function;   /* current ob= and fn= (index, -1 if none yet) */
    name_table files;           /* fl=/fi=/fe=/cfi=/cfl= ids, only checked */
    size_t call_line;           /* line of a calls= whose cost line is due, 0 if none */
    size_t jump_line;           /* line of a jump=/jcnd= whose source position is due, 0 if none */
    int32_t call_object;        /* cob= of the next calls= (index, -1: the current ob=) */
    int32_t called_object;      /* the due calls= line's target object and address */
    uint64_t called_addr;
    bool have_summary, have_totals;
    uint64_t summary, totals;
} parser;

static int bad(const parser *p, const char *fmt, const char *what)
{
    return pms__fail(PMS_EFORMAT, "%s: line %zu: %s%s", p->name, p->line, fmt, what ? what : "");
}

static void names_free(name_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->names[i]);
    free(t->names);
    free(t->by_id);
}

static int32_t names_add(name_table *t, const char *name)
{
    if (pms__grow(&t->names, &t->cap, t->n + 1, sizeof *t->names))
        return -1;
    if (!(t->names[t->n] = strdup(name)))
        return -1;
    return (int32_t)t->n++;
}

static int names_bind(name_table *t, size_t id, int32_t index)
{
    size_t old = t->nids;
    if (pms__grow(&t->by_id, &t->nids, id + 1, sizeof *t->by_id))
        return -1;
    for (size_t i = old; i < t->nids; i++)
        t->by_id[i] = -1;
    t->by_id[id] = index;
    return 0;
}

/* Resolves "name", "(id) name" or "(id)" to an index in t (adding names as needed). */
static int resolve_name(parser *p, name_table *t, const char *spec, const char *value, int32_t *out)
{
    if (value[0] == '(' && isdigit((unsigned char)value[1])) {
        char *end;
        errno = 0;
        unsigned long id = strtoul(value + 1, &end, 10);
        if (*end != ')' || errno || id >= MAX_NAME_ID)
            return bad(p, "expected a name id \"(number)\" below 4194304 after ", spec);
        const char *name = end + 1;
        if (*name == '\0') {
            if (id >= t->nids || t->by_id[id] < 0)
                return pms__fail(PMS_EFORMAT, "%s: line %zu: %s(%lu) refers to an id that was never defined",
                                p->name, p->line, spec, id);
            *out = t->by_id[id];
            return PMS_OK;
        }
        if (*name != ' ')
            return bad(p, "expected a space between the name id and the name after ", spec);
        int32_t index = names_add(t, name + 1);
        if (index < 0 || names_bind(t, id, index) < 0)
            return pms__fail(PMS_ENOMEM, "%s: line %zu: out of memory for names", p->name, p->line);
        *out = index;
        return PMS_OK;
    }
    int32_t index = names_add(t, value);
    if (index < 0)
        return pms__fail(PMS_ENOMEM, "%s: line %zu: out of memory for names", p->name, p->line);
    *out = index;
    return PMS_OK;
}

static bool parse_u64(const char **s, uint64_t *v)
{
    const char *q = *s;
    int base = 10;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        base = 16;
        q += 2;
    }
    if (!isxdigit((unsigned char)*q) || (base == 10 && !isdigit((unsigned char)*q)))
        return false;
    char *end;
    errno = 0;
    *v = strtoull(q, &end, base);
    if (errno)
        return false;
    *s = end;
    return true;
}

static int add_instr(parser *p, uint64_t addr, uint64_t count)
{
    pms_callgrind *cg = p->cg;
    if (p->object < 0) {
        int32_t unknown = names_add(&cg->objects, "???");
        if (unknown < 0)
            return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
        p->object = unknown;
    }
    if (pms__grow(&cg->instrs, &cg->cap, cg->n + 1, sizeof *cg->instrs))
        return pms__fail(PMS_ENOMEM, "%s: line %zu: out of memory for %zu instructions", p->name, p->line, cg->n + 1);
    cg->instrs[cg->n++] = (pms_cg_instr){(uint32_t)p->object, p->function < 0 ? 0 : (uint32_t)p->function, addr,
                                         count};
    if (cg->total > UINT64_MAX - count)
        return bad(p, "the instruction counts overflow 64 bits", NULL);
    cg->total += count;
    return PMS_OK;
}

static bool is_cost_start(char c)
{
    return isdigit((unsigned char)c) || c == '+' || c == '-' || c == '*';
}

/* Subpositions (absolute, +n, -n, *), relative to those of the last cost line. */
static int parse_positions(parser *p, const char **sp, uint64_t pos[MAX_SUBPOS])
{
    const char *s = *sp;
    for (int i = 0; i < p->npos; i++) {
        while (*s == ' ' || *s == '\t')
            s++;
        uint64_t d;
        if (*s == '*') {
            pos[i] = p->last[i];
            s++;
        } else if (*s == '+' || *s == '-') {
            char sign = *s++;
            if (!parse_u64(&s, &d))
                return bad(p, "expected a number after the sign of a relative subposition", NULL);
            if (sign == '-' ? d > p->last[i] : d > UINT64_MAX - p->last[i])
                return bad(p, "a relative subposition goes outside 0 .. 2^64-1", NULL);
            pos[i] = sign == '-' ? p->last[i] - d : p->last[i] + d;
        } else if (!parse_u64(&s, &pos[i])) {
            return bad(p, "expected a subposition (number, 0x number, +n, -n or *)", NULL);
        }
        if (*s && *s != ' ' && *s != '\t')
            return bad(p, "expected a space after a subposition", NULL);
    }
    *sp = s;
    return PMS_OK;
}

static int add_branch(parser *p, pms_cg_branch **list, size_t *n, size_t *cap, int32_t object, uint64_t addr)
{
    if (object < 0)
        return PMS_OK; /* before any ob=: no object to place it in */
    if (pms__grow(list, cap, *n + 1, sizeof **list))
        return pms__fail(PMS_ENOMEM, "%s: line %zu: out of memory for branches", p->name, p->line);
    (*list)[(*n)++] = (pms_cg_branch){(uint32_t)object, addr};
    return PMS_OK;
}

/* The source position after a jump=, jcnd= or calls= line: a block ends at it. */
static int branch_source(parser *p, const uint64_t *pos)
{
    pms_callgrind *cg = p->cg;
    p->jump_line = 0;
    return add_branch(p, &cg->sources, &cg->nsources, &cg->sources_cap, p->object, pos[p->instr_pos]);
}

/* "jump=COUNT TARGET", "jcnd=EXECUTED/COUNT TARGET" or "calls=COUNT TARGET": the target
 * subpositions are relative to the last cost line and do not move it. */
static int branch_target(parser *p, const char *v, int32_t object, uint64_t *addr)
{
    if (p->instr_pos < 0)
        return PMS_OK; /* the cost line reports the missing instr subposition */
    v += strspn(v, " \t");
    v += strcspn(v, " \t");
    uint64_t pos[MAX_SUBPOS];
    int rc = parse_positions(p, &v, pos);
    if (rc < 0)
        return rc;
    pms_callgrind *cg = p->cg;
    *addr = pos[p->instr_pos];
    return add_branch(p, &cg->targets, &cg->ntargets, &cg->targets_cap, object, pos[p->instr_pos]);
}

/* A cost line: subpositions (absolute, +n, -n, *) then the event costs. */
static int cost_line(parser *p, const char *s)
{
    if (p->nevents == 0)
        return bad(p, "a cost line before the \"events:\" header", NULL);
    if (p->instr_pos < 0)
        return bad(p, "no instruction addresses (\"positions:\" lacks \"instr\"): "
                      "record the profile with valgrind --tool=callgrind --dump-instr=yes", NULL);
    uint64_t pos[MAX_SUBPOS];
    int rc = parse_positions(p, &s, pos);
    if (rc < 0)
        return rc;
    uint64_t ir = 0;
    for (int e = 0;; e++) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            break;
        uint64_t v;
        if (e >= p->nevents)
            return bad(p, "more costs than events in the \"events:\" header", NULL);
        if (!parse_u64(&s, &v) || (*s && *s != ' ' && *s != '\t'))
            return bad(p, "expected a cost (a decimal number)", NULL);
        if (e == p->ir_event)
            ir = v;
    }
    memcpy(p->last, pos, sizeof pos[0] * (size_t)p->npos);
    if (p->call_line) { /* the inclusive cost of a call, not self cost */
        p->call_line = 0;
        if (p->object >= 0 && p->called_object >= 0) {
            pms_callgrind *cg = p->cg;
            if (pms__grow(&cg->calls, &cg->calls_cap, cg->ncalls + 1, sizeof *cg->calls))
                return pms__fail(PMS_ENOMEM, "%s: line %zu: out of memory for calls", p->name, p->line);
            cg->calls[cg->ncalls++] = (pms_cg_call){(uint32_t)p->object, (uint32_t)p->called_object,
                                                    pos[p->instr_pos], p->called_addr};
        }
        return branch_source(p, pos);
    }
    if (p->jump_line && (rc = branch_source(p, pos)) < 0)
        return rc;
    return ir ? add_instr(p, pos[p->instr_pos], ir) : PMS_OK;
}

/* Counts the blank-separated words of v and finds the position of word (-1 if absent). */
static int count_words(const char *v, const char *word, int *position)
{
    int n = 0;
    *position = -1;
    for (const char *s = v + strspn(v, " \t"); *s; s += strspn(s, " \t")) {
        size_t len = strcspn(s, " \t");
        if (len == strlen(word) && strncmp(s, word, len) == 0)
            *position = n;
        n++;
        s += len;
    }
    return n;
}

static int positions_header(parser *p, const char *v)
{
    p->npos = count_words(v, "instr", &p->instr_pos);
    if (p->npos > MAX_SUBPOS)
        return bad(p, "more than 8 subpositions in \"positions:\"", NULL);
    if (p->npos == 0)
        return bad(p, "\"positions:\" names no subposition", NULL);
    memset(p->last, 0, sizeof p->last);
    return PMS_OK;
}

static int events_header(parser *p, const char *v)
{
    p->nevents = count_words(v, "Ir", &p->ir_event);
    if (p->ir_event < 0)
        return bad(p, "\"events:\" has no Ir (instructions executed) event", NULL);
    return PMS_OK;
}

/* The Ir value of a "summary:" or "totals:" line. */
static int total_header(parser *p, const char *v, uint64_t *out)
{
    if (p->nevents == 0)
        return bad(p, "a summary or totals line before \"events:\"", NULL);
    const char *s = v;
    for (int e = 0; e <= p->ir_event; e++) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!parse_u64(&s, out))
            return bad(p, "expected one number per event in the summary or totals line", NULL);
    }
    return PMS_OK;
}

static int header_line(parser *p, const char *key, size_t klen, const char *v)
{
#define KEY(k) (klen == sizeof(k) - 1 && strncmp(key, k, klen) == 0)
    while (*v == ' ')
        v++;
    if (KEY("positions"))
        return positions_header(p, v);
    if (KEY("events"))
        return events_header(p, v);
    if (KEY("part")) {
        p->cg->parts++;
        memset(p->last, 0, sizeof p->last);
        return PMS_OK;
    }
    if (KEY("pid")) {
        char *end;
        unsigned long pid = strtoul(v, &end, 10);
        if (end == v || (*end && *end != ' ' && *end != '\t'))
            return bad(p, "expected a process id after \"pid:\"", NULL);
        p->cg->pid = pid;
        return PMS_OK;
    }
    if (KEY("cmd")) {
        free(p->cg->command);
        p->cg->command = strdup(v);
        return p->cg->command ? PMS_OK : pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
    }
    if (KEY("summary") || KEY("totals")) { /* one of each per part: add them up */
        bool totals = KEY("totals");
        uint64_t t = 0, *sum = totals ? &p->totals : &p->summary;
        int rc = total_header(p, v, &t);
        if (rc == PMS_OK && *sum > UINT64_MAX - t)
            return bad(p, "the summary or totals lines overflow 64 bits", NULL);
        *(totals ? &p->have_totals : &p->have_summary) = true;
        *sum += t;
        return rc;
    }
    return PMS_OK; /* version, creator, thread, desc, event, ...: not needed */
#undef KEY
}

static int spec_line(parser *p, const char *spec, size_t slen, const char *v)
{
#define SPEC(k) (slen == sizeof(k) - 1 && strncmp(spec, k, slen) == 0)
    int32_t ignored;
    if (SPEC("ob"))
        return resolve_name(p, &p->cg->objects, "ob=", v, &p->object);
    if (SPEC("cob"))
        return resolve_name(p, &p->cg->objects, "cob=", v, &p->call_object);
    if (SPEC("fn"))
        return resolve_name(p, &p->cg->functions, "fn=", v, &p->function);
    if (SPEC("cfn"))
        return resolve_name(p, &p->cg->functions, "cfn=", v, &ignored);
    if (SPEC("jfn"))
        return resolve_name(p, &p->cg->functions, "jfn=", v, &ignored);
    if (SPEC("fl") || SPEC("fi") || SPEC("fe") || SPEC("cfi") || SPEC("cfl") || SPEC("jfi"))
        return resolve_name(p, &p->files, "fl=", v, &ignored);
    if (SPEC("calls")) {
        p->call_line = p->line;
        int32_t object = p->call_object >= 0 ? p->call_object : p->object;
        p->call_object = -1;
        p->called_object = object;
        p->called_addr = 0;
        return branch_target(p, v, object, &p->called_addr);
    }
    if (SPEC("jump") || SPEC("jcnd")) { /* a position line without cost follows: the source */
        p->jump_line = p->line;
        p->cg->jumps++;
        uint64_t ignored_addr;
        return branch_target(p, v, p->object, &ignored_addr);
    }
    return pms__fail(PMS_EFORMAT, "%s: line %zu: unknown specification \"%.*s=\"", p->name, p->line, (int)slen, spec);
#undef SPEC
}

static int body_or_header(parser *p, char *s)
{
    size_t len = strlen(s);
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
        s[--len] = '\0';
    if (len == 0 || s[0] == '#')
        return PMS_OK;
    if (is_cost_start(s[0]))
        return cost_line(p, s);
    if (p->call_line)
        return pms__fail(PMS_EFORMAT, "%s: line %zu: expected the cost line of the call at line %zu", p->name,
                        p->line, p->call_line);
    if (p->jump_line)
        return pms__fail(PMS_EFORMAT, "%s: line %zu: expected the source position of the jump at line %zu", p->name,
                        p->line, p->jump_line);
    size_t k = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_");
    if (k > 0 && s[k] == '=')
        return spec_line(p, s, k, s + k + 1);
    if (k > 0 && s[k] == ':')
        return header_line(p, s, k, s + k + 1);
    return bad(p, "expected a header \"key: value\", a specification \"spec=name\" or a cost line", NULL);
}

static int cmp_instr(const void *a, const void *b)
{
    const pms_cg_instr *x = a, *y = b;
    if (x->object != y->object)
        return x->object < y->object ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : 0;
}

/* Sorts by (object, address) and sums the costs given for one instruction. */
static void merge_instrs(pms_callgrind *cg)
{
    qsort(cg->instrs, cg->n, sizeof *cg->instrs, cmp_instr);
    size_t w = 0;
    for (size_t i = 1; i < cg->n; i++) {
        if (cmp_instr(&cg->instrs[w], &cg->instrs[i]) == 0)
            cg->instrs[w].count += cg->instrs[i].count; /* no overflow: the total did not */
        else
            cg->instrs[++w] = cg->instrs[i];
    }
    cg->n = w + 1;
}

static int cmp_branch(const void *a, const void *b)
{
    const pms_cg_branch *x = a, *y = b;
    if (x->object != y->object)
        return x->object < y->object ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : 0;
}

static void unique_branches(pms_cg_branch *b, size_t *n)
{
    if (*n == 0)
        return;
    qsort(b, *n, sizeof *b, cmp_branch);
    size_t w = 0;
    for (size_t i = 1; i < *n; i++)
        if (cmp_branch(&b[w], &b[i]) != 0)
            b[++w] = b[i];
    *n = w + 1;
}

static int finish(parser *p)
{
    if (p->call_line)
        return pms__fail(PMS_EFORMAT, "%s: line %zu: the file ends before the cost line of the call at line %zu",
                        p->name, p->line, p->call_line);
    if (p->nevents == 0)
        return pms__fail(PMS_EFORMAT, "%s: no \"events:\" header: not a callgrind profile", p->name);
    uint64_t expected = p->have_totals ? p->totals : p->summary;
    if ((p->have_totals || p->have_summary) && expected != p->cg->total)
        return pms__fail(PMS_EFORMAT,
                        "%s: the cost lines add up to %" PRIu64 " instructions but the %s says %" PRIu64
                        " (truncated or edited file?)",
                        p->name, p->cg->total, p->have_totals ? "totals" : "summary", expected);
    if (p->cg->n == 0)
        return pms__fail(PMS_EFORMAT, "%s: no executed instruction in the profile", p->name);
    merge_instrs(p->cg);
    unique_branches(p->cg->targets, &p->cg->ntargets);
    unique_branches(p->cg->sources, &p->cg->nsources);
    return PMS_OK;
}

int pms_callgrind_read_stream(pms_callgrind **out, FILE *in, const char *name)
{
    *out = NULL;
    pms_callgrind *cg = calloc(1, sizeof *cg);
    if (!cg)
        return pms__fail(PMS_ENOMEM, "%s: out of memory", name);
    parser p = {.cg = cg, .name = name, .instr_pos = -1, .ir_event = -1, .object = -1, .function = -1,
                .call_object = -1, .called_object = -1};
    pms_lines r;
    int rc = pms__lines_from_stream(&r, in, name, 0);
    char *line;
    size_t len;
    while (rc == PMS_OK && (rc = pms__lines_next(&r, &line, &len)) == 1) {
        p.line = r.line;
        rc = body_or_header(&p, line);
    }
    pms__lines_close(&r);
    if (rc == PMS_OK)
        rc = finish(&p);
    names_free(&p.files);
    if (rc < 0) {
        pms_callgrind_free(cg);
        return rc;
    }
    if (cg->parts == 0)
        cg->parts = 1;
    *out = cg;
    return PMS_OK;
}

int pms_callgrind_read(pms_callgrind **out, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        *out = NULL;
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open callgrind profile %s", path);
    }
    int rc = pms_callgrind_read_stream(out, f, path);
    fclose(f);
    return rc;
}

void pms_callgrind_free(pms_callgrind *cg)
{
    if (!cg)
        return;
    free(cg->instrs);
    free(cg->targets);
    free(cg->sources);
    free(cg->calls);
    names_free(&cg->objects);
    names_free(&cg->functions);
    free(cg->command);
    free(cg);
}

const pms_cg_instr *pms_callgrind_instrs(const pms_callgrind *cg, size_t *count)
{
    *count = cg->n;
    return cg->instrs;
}

const pms_cg_branch *pms_callgrind_branch_targets(const pms_callgrind *cg, size_t *count)
{
    *count = cg->ntargets;
    return cg->targets;
}

const pms_cg_branch *pms_callgrind_branch_sources(const pms_callgrind *cg, size_t *count)
{
    *count = cg->nsources;
    return cg->sources;
}

const pms_cg_call *pms_callgrind_calls(const pms_callgrind *cg, size_t *count)
{
    *count = cg->ncalls;
    return cg->calls;
}

size_t pms_callgrind_nobjects(const pms_callgrind *cg) { return cg->objects.n; }

const char *pms_callgrind_object(const pms_callgrind *cg, size_t i)
{
    return i < cg->objects.n ? cg->objects.names[i] : "???";
}

const char *pms_callgrind_function(const pms_callgrind *cg, size_t i)
{
    return i < cg->functions.n ? cg->functions.names[i] : "???";
}

uint64_t pms_callgrind_total(const pms_callgrind *cg) { return cg->total; }
const char *pms_callgrind_command(const pms_callgrind *cg) { return cg->command ? cg->command : ""; }
unsigned pms_callgrind_parts(const pms_callgrind *cg) { return cg->parts; }
unsigned long pms_callgrind_pid(const pms_callgrind *cg) { return cg->pid; }

size_t pms_callgrind_njumps(const pms_callgrind *cg) { return cg->jumps; }
