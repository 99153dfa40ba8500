/*
 * The C test harness of slicc-scrub, written against include/slicc_scrub.h.
 *
 *   scrub_c_tests [VECTORS.json [IDLE.json [ERRORS.json]]]
 *
 * With a vectors file (SPEC §5), runs every case through scrub_bytes (after
 * compiling its secrets both with scrub_compile and with scrub_compile_json),
 * through a stream split at every point, and one byte at a time, comparing
 * output and hits here, in C; then runs the cases again from eight threads
 * sharing the compiled scrubbers. With an idle file (vectors/idle.json), runs
 * its streams of push, idle and end, comparing what each step returns. With
 * an errors file (vectors/errors.json), compiles each case's secrets both
 * ways and checks the status and that the message shows no value.
 * Always runs the misuse tests (NULL arguments, empty input, push after end,
 * invalid JSON, every compile error, options from other header versions) and
 * eight threads sharing one scrubber, each with its own streams, the
 * scrubber freed while they run.
 *
 * Ends with "N passed, N failed" and exits non-zero on any failure.
 */
#include "slicc_scrub.h"

#include "mini_json.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Counting
 * ------------------------------------------------------------------------ */

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static long passed, failed;

static void report(int ok, const char *file, int line, const char *fmt, ...) {
    pthread_mutex_lock(&count_lock);
    if (ok) {
        passed++;
    } else {
        va_list args;
        failed++;
        fprintf(stderr, "FAIL %s:%d: ", file, line);
        va_start(args, fmt);
        vfprintf(stderr, fmt, args);
        va_end(args);
        fputc('\n', stderr);
    }
    pthread_mutex_unlock(&count_lock);
}

#define CHECK(cond, ...) report((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_STATUS(call, want)                                                                \
    do {                                                                                        \
        scrub_status got_ = (call);                                                             \
        CHECK(got_ == (want), "%s: status %u (%s), want %u", #call, (unsigned)got_,             \
              scrub_status_message(got_), (unsigned)(want));                                    \
    } while (0)

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* ------------------------------------------------------------------------
 * Byte buffers
 * ------------------------------------------------------------------------ */

typedef struct {
    uint8_t *data;
    size_t len, cap;
} buf;

static void buf_add(buf *b, const uint8_t *p, size_t n) {
    if (n == 0) {
        return;
    }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n) {
            cap *= 2;
        }
        uint8_t *bigger = realloc(b->data, cap);
        if (!bigger) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        b->data = bigger;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void buf_free(buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Describes where `got` first differs from `want`, into `why`. */
static int same_bytes(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len,
                      char *why, size_t why_len) {
    size_t i = 0;
    if (got_len == want_len && (want_len == 0 || memcmp(got, want, want_len) == 0)) {
        return 1;
    }
    while (i < got_len && i < want_len && got[i] == want[i]) {
        i++;
    }
    snprintf(why, why_len, "output differs at byte %zu (got %zu bytes, want %zu)", i, got_len,
             want_len);
    return 0;
}

/* ------------------------------------------------------------------------
 * Vector cases
 * ------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    const char *form;
    uint64_t count;
} want_hit;

typedef struct {
    const char *name;
    scrub_secret *secrets;
    size_t secrets_len;
    const char *secrets_json; /* the raw "secrets" array of the file */
    size_t secrets_json_len;
    uint32_t same_length;
    const uint8_t *input;
    size_t input_len;
    const uint8_t *output;
    size_t output_len;
    want_hit *hits;
    size_t hits_len;
    scrub_scrubber *scrubber; /* compiled once, shared by the threads */
} vcase;

/* Memory of the decoded cases, freed at the end. */
static void **owned;
static size_t owned_len, owned_cap;

static void *own(void *p) {
    if (owned_len == owned_cap) {
        owned_cap = owned_cap ? owned_cap * 2 : 64;
        owned = realloc(owned, owned_cap * sizeof *owned);
        if (!owned) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    owned[owned_len++] = p;
    return p;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The bytes of `plain` (a string) or `hex` (a hex string) of `object`:
 * 1 when found, 0 when neither is there, -1 on a malformed field. */
static int bytes_of(const mj_value *object, const char *plain, const char *hex,
                    const uint8_t **out, size_t *out_len) {
    const mj_value *p = mj_get(object, plain);
    const mj_value *h = mj_get(object, hex);
    if (p && p->type == MJ_STRING) {
        *out = (const uint8_t *)p->string;
        *out_len = p->string_len;
        return 1;
    }
    if (h && h->type == MJ_STRING) {
        size_t n = h->string_len / 2;
        uint8_t *bytes = own(xmalloc(n));
        if (h->string_len % 2 != 0) {
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            int hi = hex_value(h->string[2 * i]), lo = hex_value(h->string[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                return -1;
            }
            bytes[i] = (uint8_t)(hi << 4 | lo);
        }
        *out = bytes;
        *out_len = n;
        return 1;
    }
    return (p || h) ? -1 : 0;
}

/* The secrets of a case (c->name is set), as structs and as their JSON. */
static int load_secrets(const mj_value *secrets, const char *text, vcase *c) {
    c->secrets_json = text + secrets->start;
    c->secrets_json_len = secrets->end - secrets->start;
    c->secrets_len = secrets->len;
    c->secrets = own(xmalloc(secrets->len * sizeof(scrub_secret)));
    for (size_t i = 0; i < secrets->len; i++) {
        const mj_value *s = &secrets->items[i];
        const mj_value *sname = mj_get(s, "name");
        scrub_secret *out = &c->secrets[i];
        memset(out, 0, sizeof *out);
        if (!sname || sname->type != MJ_STRING ||
            bytes_of(s, "value", "valueHex", &out->value, &out->value_len) != 1 ||
            bytes_of(s, "placeholder", "placeholderHex", &out->placeholder,
                     &out->placeholder_len) < 0) {
            fprintf(stderr, "case %s: secret %zu malformed\n", c->name, i);
            return 0;
        }
        out->name = sname->string;
    }
    return 1;
}

/* The parts of a case that vectors.json and idle.json share: name,
 * secrets, options and hits. */
static int load_common(const mj_value *v, const char *text, vcase *c, size_t index) {
    const mj_value *name = mj_get(v, "name");
    const mj_value *secrets = mj_get(v, "secrets");
    const mj_value *options = mj_get(v, "options");
    const mj_value *hits = mj_get(v, "hits");
    memset(c, 0, sizeof *c);
    if (!name || name->type != MJ_STRING || !secrets || secrets->type != MJ_ARRAY || !hits ||
        hits->type != MJ_ARRAY) {
        fprintf(stderr, "case %zu: name, secrets or hits missing\n", index);
        return 0;
    }
    c->name = name->string;
    if (!load_secrets(secrets, text, c)) {
        return 0;
    }
    if (options && options->type == MJ_OBJECT) {
        const mj_value *same = mj_get(options, "sameLength");
        c->same_length = same && same->type == MJ_BOOL && same->boolean;
    }
    c->hits_len = hits->len;
    c->hits = own(xmalloc(hits->len * sizeof(want_hit)));
    for (size_t i = 0; i < hits->len; i++) {
        const mj_value *hname = mj_get(&hits->items[i], "name");
        const mj_value *form = mj_get(&hits->items[i], "form");
        const mj_value *count = mj_get(&hits->items[i], "count");
        if (!hname || hname->type != MJ_STRING || !form || form->type != MJ_STRING || !count ||
            count->type != MJ_NUMBER) {
            fprintf(stderr, "case %s: hit %zu malformed\n", c->name, i);
            return 0;
        }
        c->hits[i].name = hname->string;
        c->hits[i].form = form->string;
        c->hits[i].count = (uint64_t)count->number;
    }
    return 1;
}

static int load_case(const mj_value *v, const char *text, vcase *c, size_t index) {
    if (!load_common(v, text, c, index)) {
        return 0;
    }
    if (bytes_of(v, "input", "inputHex", &c->input, &c->input_len) != 1 ||
        bytes_of(v, "output", "outputHex", &c->output, &c->output_len) != 1) {
        fprintf(stderr, "case %s: input or output missing\n", c->name);
        return 0;
    }
    return 1;
}

/* Whether `hits` (taken and freed here) are the case's, in any order. */
static int same_hits(scrub_hits *hits, const want_hit *want, size_t want_len, char *why,
                     size_t why_len) {
    size_t len = 0;
    int ok = 1;
    unsigned char used[256] = {0};
    if (scrub_hits_len(hits, &len) != SCRUB_STATUS_OK) {
        snprintf(why, why_len, "scrub_hits_len failed");
        scrub_hits_free(hits);
        return 0;
    }
    if (len != want_len || want_len > sizeof used) {
        snprintf(why, why_len, "%zu hits, want %zu", len, want_len);
        ok = 0;
    }
    for (size_t i = 0; ok && i < len; i++) {
        scrub_hit hit;
        size_t j;
        if (scrub_hits_get(hits, i, &hit) != SCRUB_STATUS_OK) {
            snprintf(why, why_len, "scrub_hits_get(%zu) failed", i);
            ok = 0;
            break;
        }
        if (strcmp(scrub_form_name(hit.form), hit.form_name) != 0) {
            snprintf(why, why_len, "hit %zu: form %u is not named %s", i, (unsigned)hit.form,
                     hit.form_name);
            ok = 0;
            break;
        }
        for (j = 0; j < want_len; j++) {
            if (!used[j] && strcmp(want[j].name, hit.name) == 0 &&
                strcmp(want[j].form, hit.form_name) == 0 && want[j].count == hit.count) {
                used[j] = 1;
                break;
            }
        }
        if (j == want_len) {
            snprintf(why, why_len, "unexpected hit {%s, %s, %llu}", hit.name, hit.form_name,
                     (unsigned long long)hit.count);
            ok = 0;
        }
    }
    scrub_hits_free(hits);
    return ok;
}

static scrub_status compile_case(const vcase *c, int json, scrub_scrubber **out) {
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_error *error = NULL;
    scrub_status status;
    options.same_length = c->same_length;
    if (json) {
        status = scrub_compile_json(c->secrets_json, c->secrets_json_len, &options, out, &error);
    } else {
        status = scrub_compile(c->secrets, c->secrets_len, &options, out, &error);
    }
    if (status != SCRUB_STATUS_OK) {
        fprintf(stderr, "case %s: compile (%s): %s\n", c->name, json ? "json" : "structs",
                scrub_error_message(error));
    }
    scrub_error_free(error);
    return status;
}

/* scrub_bytes on the whole input. */
static int check_bytes(const vcase *c, const scrub_scrubber *s, char *why, size_t why_len) {
    scrub_result *result = NULL;
    scrub_hits *hits = NULL;
    const uint8_t *out;
    size_t out_len;
    int ok;
    if (scrub_bytes(s, c->input, c->input_len, &result) != SCRUB_STATUS_OK ||
        scrub_result_output(result, &out, &out_len) != SCRUB_STATUS_OK ||
        scrub_result_hits(result, &hits) != SCRUB_STATUS_OK) {
        snprintf(why, why_len, "scrub_bytes failed");
        scrub_result_free(result);
        scrub_hits_free(hits);
        return 0;
    }
    ok = same_bytes(out, out_len, c->output, c->output_len, why, why_len);
    if (ok) {
        ok = same_hits(hits, c->hits, c->hits_len, why, why_len); /* frees hits */
    } else {
        scrub_hits_free(hits);
    }
    scrub_result_free(result);
    return ok;
}

/* A stream fed in chunks: sizes[k] bytes at a time (cycling), 0 meaning
 * the rest; then end. Compares the concatenated output and the hits. */
static int check_stream(const vcase *c, const scrub_scrubber *s, const size_t *sizes,
                        size_t n_sizes, buf *acc, char *why, size_t why_len) {
    scrub_stream *stream = NULL;
    scrub_hits *hits = NULL;
    const uint8_t *out;
    size_t out_len, pos = 0, k = 0;
    int ok;
    acc->len = 0;
    if (scrub_stream_new(s, &stream) != SCRUB_STATUS_OK) {
        snprintf(why, why_len, "scrub_stream_new failed");
        return 0;
    }
    while (pos < c->input_len) {
        size_t n = sizes[k % n_sizes];
        k++;
        if (n == 0 || n > c->input_len - pos) {
            n = c->input_len - pos;
        }
        if (scrub_stream_push(stream, c->input + pos, n, &out, &out_len) != SCRUB_STATUS_OK) {
            snprintf(why, why_len, "scrub_stream_push failed");
            scrub_stream_free(stream);
            return 0;
        }
        buf_add(acc, out, out_len);
        pos += n;
    }
    if (scrub_stream_end(stream, &out, &out_len) != SCRUB_STATUS_OK ||
        scrub_stream_hits(stream, &hits) != SCRUB_STATUS_OK) {
        snprintf(why, why_len, "scrub_stream_end failed");
        scrub_stream_free(stream);
        return 0;
    }
    buf_add(acc, out, out_len);
    scrub_stream_free(stream);
    ok = same_bytes(acc->data, acc->len, c->output, c->output_len, why, why_len);
    if (!ok) {
        scrub_hits_free(hits);
        return 0;
    }
    return same_hits(hits, c->hits, c->hits_len, why, why_len);
}

static void run_case(const vcase *c) {
    char why[256];
    buf acc = {NULL, 0, 0};
    scrub_scrubber *from_json = NULL;
    int ok;
    size_t split;

    CHECK(c->scrubber != NULL, "case %s: compile (structs) failed", c->name);
    CHECK(compile_case(c, 1, &from_json) == SCRUB_STATUS_OK, "case %s: compile (json) failed",
          c->name);
    if (!c->scrubber || !from_json) {
        scrub_scrubber_free(from_json);
        return;
    }
    why[0] = '\0';
    CHECK(check_bytes(c, c->scrubber, why, sizeof why), "case %s: bytes: %s", c->name, why);
    CHECK(check_bytes(c, from_json, why, sizeof why), "case %s: bytes (json compile): %s",
          c->name, why);
    scrub_scrubber_free(from_json);

    /* Every split point: push(input[..i]), push(input[i..]), end. A split
     * at 0 pushes an empty chunk first. */
    ok = 1;
    for (split = 0; ok && split <= c->input_len; split++) {
        scrub_stream *stream = NULL;
        scrub_hits *hits = NULL;
        const uint8_t *out;
        size_t out_len;
        acc.len = 0;
        if (scrub_stream_new(c->scrubber, &stream) != SCRUB_STATUS_OK ||
            scrub_stream_push(stream, c->input, split, &out, &out_len) != SCRUB_STATUS_OK) {
            snprintf(why, sizeof why, "push failed");
            scrub_stream_free(stream);
            ok = 0;
            break;
        }
        buf_add(&acc, out, out_len);
        if (scrub_stream_push(stream, c->input + split, c->input_len - split, &out, &out_len) !=
            SCRUB_STATUS_OK) {
            snprintf(why, sizeof why, "push failed");
            scrub_stream_free(stream);
            ok = 0;
            break;
        }
        buf_add(&acc, out, out_len);
        if (scrub_stream_end(stream, &out, &out_len) != SCRUB_STATUS_OK ||
            scrub_stream_hits(stream, &hits) != SCRUB_STATUS_OK) {
            snprintf(why, sizeof why, "end failed");
            scrub_stream_free(stream);
            ok = 0;
            break;
        }
        buf_add(&acc, out, out_len);
        scrub_stream_free(stream);
        if (!same_bytes(acc.data, acc.len, c->output, c->output_len, why, sizeof why)) {
            scrub_hits_free(hits);
            ok = 0;
            break;
        }
        ok = same_hits(hits, c->hits, c->hits_len, why, sizeof why);
    }
    CHECK(ok, "case %s: split at %zu: %s", c->name, split, why);

    {
        static const size_t one[] = {1};
        CHECK(check_stream(c, c->scrubber, one, 1, &acc, why, sizeof why),
              "case %s: one byte at a time: %s", c->name, why);
    }
    buf_free(&acc);
}

/* ------------------------------------------------------------------------
 * Threads over the vector cases: eight threads share every compiled
 * scrubber, each with its own streams and chunk sizes.
 * ------------------------------------------------------------------------ */

typedef struct {
    const vcase *cases;
    size_t n_cases;
    int id;
    long failures;
} vector_thread;

static void *run_vector_thread(void *arg) {
    vector_thread *t = arg;
    char why[256];
    buf acc = {NULL, 0, 0};
    for (size_t k = 0; k < t->n_cases; k++) {
        const vcase *c = &t->cases[(k + (size_t)t->id * 7) % t->n_cases];
        size_t sizes[3];
        if (!c->scrubber) {
            continue;
        }
        sizes[0] = (size_t)t->id + 1;
        sizes[1] = 3 + (size_t)t->id * 5;
        sizes[2] = 2;
        if (!check_stream(c, c->scrubber, sizes, 3, &acc, why, sizeof why) ||
            !check_bytes(c, c->scrubber, why, sizeof why)) {
            fprintf(stderr, "FAIL thread %d: case %s: %s\n", t->id, c->name, why);
            t->failures++;
        }
    }
    buf_free(&acc);
    return NULL;
}

static void run_vector_threads(const vcase *cases, size_t n_cases) {
    pthread_t threads[8];
    vector_thread state[8];
    long failures = 0;
    for (int i = 0; i < 8; i++) {
        state[i].cases = cases;
        state[i].n_cases = n_cases;
        state[i].id = i;
        state[i].failures = 0;
        CHECK(pthread_create(&threads[i], NULL, run_vector_thread, &state[i]) == 0,
              "pthread_create");
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        failures += state[i].failures;
    }
    CHECK(failures == 0, "vectors from 8 threads: %ld failures", failures);
}

/* Reads a whole file; NULL when it cannot. */
static char *read_text(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *text;
    long size;
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    text = xmalloc((size_t)size);
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", path);
        fclose(f);
        free(text);
        return NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return text;
}

static void free_owned(void) {
    for (size_t i = 0; i < owned_len; i++) {
        free(owned[i]);
    }
    free(owned);
    owned = NULL;
    owned_len = owned_cap = 0;
}

/* idle.json: one stream per case, steps push/pushHex/idle/end, and what each
 * step returns; hits after the end. */
static void run_idle_case(const mj_value *v, const char *text, size_t index) {
    vcase c;
    const mj_value *steps = mj_get(v, "steps");
    const mj_value *outputs = mj_get(v, "outputs");
    scrub_scrubber *s = NULL;
    scrub_stream *stream = NULL;
    scrub_hits *hits = NULL;
    char why[256];
    int ok = 1;
    if (!load_common(v, text, &c, index) || !steps || steps->type != MJ_ARRAY || !outputs ||
        outputs->type != MJ_ARRAY || outputs->len != steps->len) {
        CHECK(0, "idle case %zu cannot be read", index);
        return;
    }
    if (compile_case(&c, 0, &s) != SCRUB_STATUS_OK || scrub_stream_new(s, &stream) != SCRUB_STATUS_OK) {
        CHECK(0, "idle case %s: compile", c.name);
        scrub_scrubber_free(s);
        return;
    }
    scrub_scrubber_free(s);
    why[0] = '\0';
    for (size_t k = 0; ok && k < steps->len; k++) {
        const mj_value *step = &steps->items[k];
        const uint8_t *chunk, *out, *want;
        size_t chunk_len, out_len, want_len;
        scrub_status status;
        if (bytes_of(step, "push", "pushHex", &chunk, &chunk_len) == 1) {
            status = scrub_stream_push(stream, chunk, chunk_len, &out, &out_len);
        } else if (mj_get(step, "idle")) {
            status = scrub_stream_idle(stream, &out, &out_len);
        } else if (mj_get(step, "end")) {
            status = scrub_stream_end(stream, &out, &out_len);
        } else {
            snprintf(why, sizeof why, "step %zu: unknown step", k);
            ok = 0;
            break;
        }
        if (status != SCRUB_STATUS_OK) {
            snprintf(why, sizeof why, "step %zu: %s", k, scrub_status_message(status));
            ok = 0;
            break;
        }
        if (outputs->items[k].type != MJ_STRING) {
            snprintf(why, sizeof why, "step %zu: output is not a string", k);
            ok = 0;
            break;
        }
        want = (const uint8_t *)outputs->items[k].string;
        want_len = outputs->items[k].string_len;
        if (!same_bytes(out, out_len, want, want_len, why, sizeof why)) {
            size_t n = strlen(why);
            snprintf(why + n, sizeof why - n, " at step %zu", k);
            ok = 0;
        }
    }
    if (ok) {
        ok = scrub_stream_hits(stream, &hits) == SCRUB_STATUS_OK &&
             same_hits(hits, c.hits, c.hits_len, why, sizeof why);
    }
    CHECK(ok, "idle case %s: %s", c.name, why);
    scrub_stream_free(stream);
}

static int run_idle(const char *path) {
    size_t len;
    char error[128];
    char *text = read_text(path, &len);
    mj_value *doc;
    const mj_value *cases;
    if (!text) {
        return 0;
    }
    doc = mj_parse(text, len, error);
    if (!doc) {
        fprintf(stderr, "%s: %s\n", path, error);
        free(text);
        return 0;
    }
    cases = mj_get(doc, "cases");
    CHECK(cases && cases->type == MJ_ARRAY && cases->len > 0, "%s: no cases", path);
    for (size_t i = 0; cases && cases->type == MJ_ARRAY && i < cases->len; i++) {
        run_idle_case(&cases->items[i], text, i);
    }
    printf("idle: %zu cases from %s\n", cases ? cases->len : 0, path);
    free_owned();
    mj_free(doc);
    free(text);
    return 1;
}

static int run_vectors(const char *path) {
    size_t size;
    char error[128];
    char *text = read_text(path, &size);
    mj_value *doc;
    const mj_value *cases;
    vcase *loaded;
    size_t n = 0;
    if (!text) {
        return 0;
    }
    doc = mj_parse(text, size, error);
    if (!doc) {
        fprintf(stderr, "%s: %s\n", path, error);
        free(text);
        return 0;
    }
    cases = mj_get(doc, "cases");
    CHECK(cases && cases->type == MJ_ARRAY && cases->len > 0, "%s: no cases", path);
    {
        const mj_value *fragment = mj_get(doc, "fragment");
        const mj_value *min_value = mj_get(doc, "minValue");
        const mj_value *idle_ms = mj_get(doc, "idleMs");
        CHECK(fragment && fragment->number == SCRUB_FRAGMENT, "fragment differs from header");
        CHECK(min_value && min_value->number == SCRUB_MIN_VALUE, "minValue differs from header");
        CHECK(idle_ms && idle_ms->number == SCRUB_IDLE_MS, "idleMs differs from header");
    }
    if (!cases || cases->type != MJ_ARRAY) {
        mj_free(doc);
        free(text);
        return 0;
    }
    loaded = xmalloc(cases->len * sizeof(vcase));
    for (size_t i = 0; i < cases->len; i++) {
        if (!load_case(&cases->items[i], text, &loaded[n], i)) {
            CHECK(0, "case %zu cannot be read", i);
            continue;
        }
        if (compile_case(&loaded[n], 0, &loaded[n].scrubber) != SCRUB_STATUS_OK) {
            loaded[n].scrubber = NULL;
        }
        n++;
    }
    for (size_t i = 0; i < n; i++) {
        run_case(&loaded[i]);
    }
    run_vector_threads(loaded, n);
    printf("vectors: %zu cases from %s\n", n, path);
    for (size_t i = 0; i < n; i++) {
        scrub_scrubber_free(loaded[i].scrubber);
    }
    free(loaded);
    free_owned();
    mj_free(doc);
    free(text);
    return 1;
}

/* errors.json: the status each kind of compile error gives. */
static const struct {
    const char *error;
    scrub_status status;
} ERROR_STATUS[] = {
    {"unsupported version", SCRUB_STATUS_UNSUPPORTED_VERSION},
    {"invalid name", SCRUB_STATUS_INVALID_NAME},
    {"duplicate name", SCRUB_STATUS_DUPLICATE_NAME},
    {"value too short", SCRUB_STATUS_VALUE_TOO_SHORT},
    {"value too long", SCRUB_STATUS_VALUE_TOO_LONG},
    {"placeholder too long", SCRUB_STATUS_PLACEHOLDER_TOO_LONG},
    {"placeholder leaks", SCRUB_STATUS_PLACEHOLDER_LEAKS},
    {"redaction leaks", SCRUB_STATUS_REDACTION_LEAKS},
};

/* Whether `needle` occurs in the NUL-terminated `text`. */
static int contains(const char *text, const uint8_t *needle, size_t len) {
    size_t n = strlen(text);
    for (size_t i = 0; len > 0 && i + len <= n; i++) {
        if (memcmp(text + i, needle, len) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Whether the message shows a value (trimmed of CR and LF) or a placeholder
 * of the case; shorter ones than 7 bytes could occur by chance. */
static int shows_secret(const vcase *c, const char *message) {
    for (size_t i = 0; message && i < c->secrets_len; i++) {
        const uint8_t *v = c->secrets[i].value;
        size_t n = c->secrets[i].value_len;
        while (n > 0 && (v[0] == '\r' || v[0] == '\n')) {
            v++;
            n--;
        }
        while (n > 0 && (v[n - 1] == '\r' || v[n - 1] == '\n')) {
            n--;
        }
        if ((n >= SCRUB_MIN_VALUE - 1 && contains(message, v, n)) ||
            (c->secrets[i].placeholder_len >= SCRUB_MIN_VALUE - 1 &&
             contains(message, c->secrets[i].placeholder, c->secrets[i].placeholder_len))) {
            return 1;
        }
    }
    return 0;
}

static void run_error_case(const mj_value *v, const char *text, size_t index) {
    const mj_value *name = mj_get(v, "name");
    const mj_value *secrets = mj_get(v, "secrets");
    const mj_value *options = mj_get(v, "options");
    const mj_value *error = mj_get(v, "error");
    scrub_options opts = SCRUB_OPTIONS_INIT;
    scrub_status want = SCRUB_STATUS_OK;
    vcase c;
    memset(&c, 0, sizeof c);
    if (!name || name->type != MJ_STRING || !secrets || secrets->type != MJ_ARRAY || !error ||
        error->type != MJ_STRING) {
        CHECK(0, "error case %zu cannot be read", index);
        return;
    }
    c.name = name->string;
    for (size_t i = 0; i < sizeof ERROR_STATUS / sizeof ERROR_STATUS[0]; i++) {
        if (strcmp(ERROR_STATUS[i].error, error->string) == 0) {
            want = ERROR_STATUS[i].status;
        }
    }
    if (!load_secrets(secrets, text, &c) || want == SCRUB_STATUS_OK) {
        CHECK(0, "error case %s cannot be read", c.name);
        return;
    }
    if (options && options->type == MJ_OBJECT) {
        const mj_value *version = mj_get(options, "version");
        const mj_value *same = mj_get(options, "sameLength");
        if (version && version->type == MJ_NUMBER) {
            opts.version = (uint32_t)version->number;
        }
        opts.same_length = same && same->type == MJ_BOOL && same->boolean;
    }
    for (int json = 0; json < 2; json++) {
        scrub_scrubber *s = NULL;
        scrub_error *err = NULL;
        scrub_status got =
            json ? scrub_compile_json(c.secrets_json, c.secrets_json_len, &opts, &s, &err)
                 : scrub_compile(c.secrets, c.secrets_len, &opts, &s, &err);
        const char *how = json ? "scrub_compile_json" : "scrub_compile";
        CHECK(got == want, "error case %s: %s gives %s (%u), want %s", c.name, how,
              scrub_status_message(got), (unsigned)got, error->string);
        CHECK(s == NULL, "error case %s: %s: no scrubber", c.name, how);
        CHECK(err != NULL && scrub_error_status(err) == got, "error case %s: %s: the error",
              c.name, how);
        CHECK(!shows_secret(&c, scrub_error_message(err)),
              "error case %s: %s: the message shows a value or placeholder", c.name, how);
        scrub_error_free(err);
        scrub_scrubber_free(s);
    }
}

static int run_errors(const char *path) {
    size_t len;
    char error[128];
    char *text = read_text(path, &len);
    mj_value *doc;
    const mj_value *cases;
    if (!text) {
        return 0;
    }
    doc = mj_parse(text, len, error);
    if (!doc) {
        fprintf(stderr, "%s: %s\n", path, error);
        free(text);
        return 0;
    }
    cases = mj_get(doc, "cases");
    CHECK(cases && cases->type == MJ_ARRAY && cases->len > 0, "%s: no cases", path);
    for (size_t i = 0; cases && cases->type == MJ_ARRAY && i < cases->len; i++) {
        run_error_case(&cases->items[i], text, i);
    }
    printf("errors: %zu cases from %s\n", cases ? cases->len : 0, path);
    free_owned();
    mj_free(doc);
    free(text);
    return 1;
}

/* ------------------------------------------------------------------------
 * Misuse and the C-specific contract
 * ------------------------------------------------------------------------ */

static const char GH_VALUE[] = "ghp_abcdefgh12345678";
static const char GH_PLACEHOLDER[] = "fnox_proxy_1";
static const char SK_VALUE[] = "sk-live-0123456789ABCDEFghij";

static scrub_scrubber *compile_two(uint32_t same_length) {
    scrub_secret secrets[2] = {
        {"GH_TOKEN", (const uint8_t *)GH_VALUE, sizeof GH_VALUE - 1,
         (const uint8_t *)GH_PLACEHOLDER, sizeof GH_PLACEHOLDER - 1},
        {"SK_KEY", (const uint8_t *)SK_VALUE, sizeof SK_VALUE - 1, NULL, 0},
    };
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_scrubber *s = NULL;
    options.same_length = same_length;
    CHECK_STATUS(scrub_compile(secrets, 2, &options, &s, NULL), SCRUB_STATUS_OK);
    return s;
}

/* Whether the message of a failed compile is there, names the secret by
 * index and name, and holds none of the given secret bytes. */
static void check_error(scrub_error *error, scrub_status want, const char *index_text,
                        const char *name, const char *value, const char *placeholder) {
    const char *message = scrub_error_message(error);
    CHECK(error != NULL && message != NULL, "an error with a message (status %u)",
          (unsigned)want);
    if (!message) {
        return;
    }
    CHECK(scrub_error_status(error) == want, "scrub_error_status %u, want %u",
          (unsigned)scrub_error_status(error), (unsigned)want);
    if (index_text) {
        CHECK(strstr(message, index_text) != NULL, "message names %s: %s", index_text, message);
    }
    if (name) {
        CHECK(strstr(message, name) != NULL, "message names %s: %s", name, message);
    }
    if (value) {
        CHECK(strstr(message, value) == NULL, "message shows a value: %s", message);
    }
    if (placeholder) {
        CHECK(strstr(message, placeholder) == NULL, "message shows a placeholder: %s", message);
    }
}

static void test_constants_and_version(void) {
    const char *version = scrub_version();
    CHECK(version != NULL && version[0] != '\0', "scrub_version");
    CHECK(scrub_rules_version() == SCRUB_RULES_VERSION, "rules version %u",
          (unsigned)scrub_rules_version());
    CHECK(SCRUB_FRAGMENT == 16 && SCRUB_MIN_VALUE == 8 && SCRUB_IDLE_MS == 50 &&
              SCRUB_RULES_VERSION == 4,
          "constants of SPEC §1");
    {
        /* The header's version macros are the linked library's version. */
        char want[64];
        snprintf(want, sizeof want, "%u.%u.%u", (unsigned)SLICC_SCRUB_VERSION_MAJOR,
                 (unsigned)SLICC_SCRUB_VERSION_MINOR, (unsigned)SLICC_SCRUB_VERSION_PATCH);
        CHECK(version != NULL && strcmp(version, want) == 0,
              "scrub_version() %s, header version macros %s", version ? version : "NULL", want);
    }
    /* The constants as functions, for callers without the header's macros. */
    CHECK(scrub_fragment() == SCRUB_FRAGMENT && scrub_min_value() == SCRUB_MIN_VALUE &&
              scrub_max_value() == SCRUB_MAX_VALUE &&
              scrub_max_placeholder() == SCRUB_MAX_PLACEHOLDER &&
              scrub_max_name() == SCRUB_MAX_NAME && scrub_idle_ms() == SCRUB_IDLE_MS &&
              scrub_max_total_values() == SCRUB_MAX_TOTAL_VALUES,
          "constant functions equal the header's macros");
    CHECK(strcmp(scrub_status_message(SCRUB_STATUS_OK), "ok") == 0, "message of OK");
    CHECK(strcmp(scrub_status_message(9999), "unknown status") == 0, "message of 9999");
    {
        static const scrub_status all[] = {
            SCRUB_STATUS_NULL_ARGUMENT,      SCRUB_STATUS_INVALID_ARGUMENT,
            SCRUB_STATUS_PANIC,              SCRUB_STATUS_STREAM_ENDED,
            SCRUB_STATUS_STREAM_POISONED,    SCRUB_STATUS_INDEX_OUT_OF_RANGE,
            SCRUB_STATUS_UNSUPPORTED_OPTIONS, SCRUB_STATUS_UNSUPPORTED_VERSION,
            SCRUB_STATUS_INVALID_NAME,       SCRUB_STATUS_DUPLICATE_NAME,
            SCRUB_STATUS_VALUE_TOO_SHORT,    SCRUB_STATUS_VALUE_TOO_LONG,
            SCRUB_STATUS_PLACEHOLDER_TOO_LONG, SCRUB_STATUS_PLACEHOLDER_LEAKS,
            SCRUB_STATUS_REDACTION_LEAKS,    SCRUB_STATUS_TOO_LARGE,
            SCRUB_STATUS_INVALID_JSON,       SCRUB_STATUS_INVALID_SECRETS_JSON,
        };
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
            const char *m = scrub_status_message(all[i]);
            CHECK(m != NULL && m[0] != '\0' && strcmp(m, "unknown status") != 0 &&
                      strcmp(m, "ok") != 0,
                  "status %u has its own message", (unsigned)all[i]);
        }
    }
    {
        static const char *names[] = {"raw",    "fragment", "json", "percent",
                                      "html",   "base64",   "hex",  "wrapped"};
        for (uint32_t i = 0; i < 8; i++) {
            CHECK(scrub_form_name(i) && strcmp(scrub_form_name(i), names[i]) == 0,
                  "form %u is %s", (unsigned)i, names[i]);
        }
        CHECK(scrub_form_name(8) == NULL, "form 8 has no name");
        CHECK(SCRUB_FORM_RAW == 0 && SCRUB_FORM_WRAPPED == 7, "form values");
    }
}

static void test_compile_errors(void) {
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_scrubber *s = (scrub_scrubber *)&options; /* must be reset to NULL */
    scrub_error *error = NULL;
    uint8_t long_value[SCRUB_MAX_VALUE + 1];
    uint8_t long_placeholder[SCRUB_MAX_PLACEHOLDER + 1];
    char long_name[SCRUB_MAX_NAME + 2];
    memset(long_value, 'v', sizeof long_value);
    memset(long_placeholder, 'p', sizeof long_placeholder);
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';

    /* Version. */
    options.version = 2;
    CHECK_STATUS(scrub_compile(NULL, 0, &options, &s, &error), SCRUB_STATUS_UNSUPPORTED_VERSION);
    CHECK(s == NULL, "scrubber_out is NULL after a failure");
    check_error(error, SCRUB_STATUS_UNSUPPORTED_VERSION, "2", NULL, NULL, NULL);
    scrub_error_free(error);
    options.version = SCRUB_RULES_VERSION;

    {
        struct {
            scrub_secret secrets[2];
            size_t len;
            scrub_status want;
            const char *index_text;
            const char *name;
        } cases[] = {
            {{{"bad name", (const uint8_t *)"hunter2hunter2", 14, NULL, 0}},
             1, SCRUB_STATUS_INVALID_NAME, "secret 0", "bad name"},
            {{{"", (const uint8_t *)"hunter2hunter2", 14, NULL, 0}},
             1, SCRUB_STATUS_INVALID_NAME, "secret 0", NULL},
            {{{long_name, (const uint8_t *)"hunter2hunter2", 14, NULL, 0}},
             1, SCRUB_STATUS_INVALID_NAME, "secret 0", NULL},
            {{{"bad\xff", (const uint8_t *)"hunter2hunter2", 14, NULL, 0}},
             1, SCRUB_STATUS_INVALID_NAME, "secret 0", NULL},
            {{{"A", (const uint8_t *)"hunter2hunter2", 14, NULL, 0},
              {"A", (const uint8_t *)"other-value-1", 13, NULL, 0}},
             2, SCRUB_STATUS_DUPLICATE_NAME, "secret 1", "A"},
            {{{"A", (const uint8_t *)"hunter2hunter2", 14, NULL, 0},
              {"SHORT", (const uint8_t *)"hunter2", 7, NULL, 0}},
             2, SCRUB_STATUS_VALUE_TOO_SHORT, "secret 1", "SHORT"},
            {{{"LONG", long_value, sizeof long_value, NULL, 0}},
             1, SCRUB_STATUS_VALUE_TOO_LONG, "secret 0", "LONG"},
            {{{"P", (const uint8_t *)"hunter2hunter2", 14, long_placeholder,
               sizeof long_placeholder}},
             1, SCRUB_STATUS_PLACEHOLDER_TOO_LONG, "secret 0", "P"},
            {{{"A", (const uint8_t *)"hunter2hunter2", 14, (const uint8_t *)"x-other-value-1-x", 17},
              {"B", (const uint8_t *)"other-value-1", 13, NULL, 0}},
             2, SCRUB_STATUS_PLACEHOLDER_LEAKS, "secret 0", "A"},
            {{{"A", (const uint8_t *)"redacted", 8, NULL, 0}},
             1, SCRUB_STATUS_REDACTION_LEAKS, "secret 0", "A"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            s = (scrub_scrubber *)&options;
            CHECK_STATUS(scrub_compile(cases[i].secrets, cases[i].len, &options, &s, &error),
                         cases[i].want);
            CHECK(s == NULL, "compile error %zu: scrubber_out is NULL", i);
            check_error(error, cases[i].want, cases[i].index_text, cases[i].name,
                        "hunter2", "x-other-value-1-x");
            scrub_error_free(error);
            /* The same without error_out: only the status. */
            CHECK_STATUS(scrub_compile(cases[i].secrets, cases[i].len, &options, &s, NULL),
                         cases[i].want);
        }
    }

    /* NULL pointers inside and around the secrets. */
    {
        scrub_secret secret = {NULL, (const uint8_t *)"hunter2hunter2", 14, NULL, 0};
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error), SCRUB_STATUS_NULL_ARGUMENT);
        check_error(error, SCRUB_STATUS_NULL_ARGUMENT, "secret 0", "name", NULL, NULL);
        scrub_error_free(error);
        secret.name = "A";
        secret.value = NULL;
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error), SCRUB_STATUS_NULL_ARGUMENT);
        check_error(error, SCRUB_STATUS_NULL_ARGUMENT, "secret 0", "value", NULL, NULL);
        scrub_error_free(error);
        secret.value = NULL;
        secret.value_len = 0;
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error),
                     SCRUB_STATUS_VALUE_TOO_SHORT);
        scrub_error_free(error);
        secret.value = (const uint8_t *)"hunter2hunter2";
        secret.value_len = 14;
        secret.placeholder_len = 3;
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error), SCRUB_STATUS_NULL_ARGUMENT);
        check_error(error, SCRUB_STATUS_NULL_ARGUMENT, "secret 0", "placeholder", NULL, NULL);
        scrub_error_free(error);
        secret.placeholder_len = 0;
        CHECK_STATUS(scrub_compile(NULL, 1, &options, &s, &error), SCRUB_STATUS_NULL_ARGUMENT);
        check_error(error, SCRUB_STATUS_NULL_ARGUMENT, "secrets", NULL, NULL, NULL);
        scrub_error_free(error);
        CHECK_STATUS(scrub_compile(&secret, 1, NULL, &s, &error), SCRUB_STATUS_NULL_ARGUMENT);
        check_error(error, SCRUB_STATUS_NULL_ARGUMENT, "options", NULL, NULL, NULL);
        scrub_error_free(error);
        CHECK_STATUS(scrub_compile(&secret, 1, &options, NULL, &error),
                     SCRUB_STATUS_NULL_ARGUMENT);
        check_error(error, SCRUB_STATUS_NULL_ARGUMENT, "scrubber_out", NULL, NULL, NULL);
        scrub_error_free(error);
        /* Success clears *error_out. */
        error = (scrub_error *)&options;
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error), SCRUB_STATUS_OK);
        CHECK(error == NULL && s != NULL, "success: error_out NULL, a scrubber");
        scrub_scrubber_free(s);
    }

    /* Options from other header versions. */
    {
        struct {
            scrub_options options;
            uint64_t newer_field;
        } newer;
        scrub_secret secret = {"A", (const uint8_t *)"hunter2hunter2", 14, NULL, 0};
        memset(&newer, 0, sizeof newer);
        newer.options.struct_size = sizeof newer;
        newer.options.version = SCRUB_RULES_VERSION;
        CHECK_STATUS(scrub_compile(&secret, 1, &newer.options, &s, NULL), SCRUB_STATUS_OK);
        scrub_scrubber_free(s);
        newer.newer_field = 1;
        CHECK_STATUS(scrub_compile(&secret, 1, &newer.options, &s, NULL),
                     SCRUB_STATUS_UNSUPPORTED_OPTIONS);
        options.struct_size = 4;
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error),
                     SCRUB_STATUS_INVALID_ARGUMENT);
        check_error(error, SCRUB_STATUS_INVALID_ARGUMENT, "struct_size", NULL, NULL, NULL);
        scrub_error_free(error);
        options.struct_size = sizeof options;
        options.same_length = 2;
        CHECK_STATUS(scrub_compile(&secret, 1, &options, &s, &error),
                     SCRUB_STATUS_INVALID_ARGUMENT);
        check_error(error, SCRUB_STATUS_INVALID_ARGUMENT, "same_length", NULL, NULL, NULL);
        scrub_error_free(error);
        options.same_length = 0;
    }

    /* A misaligned error_out is refused, not written. */
    {
        union {
            scrub_error *align;
            unsigned char bytes[2 * sizeof(scrub_error *)];
        } raw;
        memset(&raw, 0, sizeof raw);
        s = NULL;
        CHECK_STATUS(scrub_compile(NULL, 0, &options, &s,
                                   (scrub_error **)(void *)(raw.bytes + 1)),
                     SCRUB_STATUS_INVALID_ARGUMENT);
        CHECK(s == NULL, "nothing compiled");
    }

    /* An empty list passes everything through. */
    {
        scrub_result *r = NULL;
        const uint8_t *out;
        size_t out_len;
        const char text[] = "nothing to see: ghp_abcdefgh12345678";
        CHECK_STATUS(scrub_compile(NULL, 0, &options, &s, NULL), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_bytes(s, (const uint8_t *)text, sizeof text - 1, &r), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_result_output(r, &out, &out_len), SCRUB_STATUS_OK);
        CHECK(out_len == sizeof text - 1 && memcmp(out, text, out_len) == 0,
              "empty list: unchanged");
        scrub_result_free(r);
        scrub_scrubber_free(s);
    }
}

static void test_compile_json(void) {
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_scrubber *s = NULL;
    scrub_error *error = NULL;
    struct {
        const char *json;
        size_t len; /* 0: strlen */
        scrub_status want;
    } cases[] = {
        {"", 0, SCRUB_STATUS_INVALID_JSON},
        {"[", 0, SCRUB_STATUS_INVALID_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\"", 0, SCRUB_STATUS_INVALID_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\"}]\0", 40, SCRUB_STATUS_INVALID_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2\xff\xfe\"}]", 0, SCRUB_STATUS_INVALID_JSON},
        {"{\"name\":\"A\",\"value\":\"hunter2hunter2\"}", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[\"hunter2hunter2\"]", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\"}]", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"value\":\"hunter2hunter2\"}]", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":7,\"value\":\"hunter2hunter2\"}]", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"value\":1234567890}]", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"valueHex\":\"hunter2hunter2\"}]", 0,
         SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"valueHex\":\"0\"}]", 0, SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\",\"valueHex\":\"00\"}]", 0,
         SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\",\"palceholder\":\"x\"}]", 0,
         SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\",\"placeholderHex\":\"zz\"}]", 0,
         SCRUB_STATUS_INVALID_SECRETS_JSON},
        {"[{\"name\":\"A\",\"value\":\"hunter2\"}]", 0, SCRUB_STATUS_VALUE_TOO_SHORT},
        {"[{\"name\":\"A B\",\"value\":\"hunter2hunter2\"}]", 0, SCRUB_STATUS_INVALID_NAME},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\"},{\"name\":\"A\",\"value\":\"x-hunter3-x\"}]",
         0, SCRUB_STATUS_DUPLICATE_NAME},
        {"[{\"name\":\"A\",\"value\":\"redacted\"}]", 0, SCRUB_STATUS_REDACTION_LEAKS},
        {"[{\"name\":\"A\",\"value\":\"hunter2hunter2\",\"placeholder\":\"<hunter2hunter2>\"}]", 0,
         SCRUB_STATUS_PLACEHOLDER_LEAKS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].json);
        CHECK_STATUS(scrub_compile_json(cases[i].json, len, &options, &s, &error), cases[i].want);
        CHECK(s == NULL, "json case %zu: no scrubber", i);
        check_error(error, cases[i].want, NULL, NULL, "hunter2", NULL);
        scrub_error_free(error);
    }
    CHECK_STATUS(scrub_compile_json(NULL, 5, &options, &s, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_compile_json(NULL, 0, &options, &s, NULL), SCRUB_STATUS_INVALID_JSON);
    CHECK_STATUS(scrub_compile_json("[]", 2, NULL, &s, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_compile_json("[]", 2, &options, NULL, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_compile_json("[]", 2, &options, &s, NULL), SCRUB_STATUS_OK);
    scrub_scrubber_free(s);
    {
        /* Text and hex forms, an empty placeholder (none), and the result. */
        const char json[] =
            "[{\"name\":\"GH_TOKEN\",\"value\":\"ghp_abcdefgh12345678\",\"placeholder\":\"fnox_proxy_1\"},"
            " {\"name\":\"BIN\",\"valueHex\":\"00ff00ff00ff00ff\",\"placeholder\":\"\"}]";
        const uint8_t input[] = "a ghp_abcdefgh12345678 b \x00\xff\x00\xff\x00\xff\x00\xff c";
        const char want[] = "a fnox_proxy_1 b [redacted:BIN] c";
        scrub_result *r = NULL;
        const uint8_t *out;
        size_t out_len;
        CHECK_STATUS(scrub_compile_json(json, sizeof json - 1, &options, &s, &error),
                     SCRUB_STATUS_OK);
        CHECK(error == NULL, "no error on success");
        CHECK_STATUS(scrub_bytes(s, input, sizeof input - 1, &r), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_result_output(r, &out, &out_len), SCRUB_STATUS_OK);
        CHECK(out_len == sizeof want - 1 && memcmp(out, want, out_len) == 0,
              "json compile scrubs text and hex values");
        scrub_result_free(r);
        scrub_scrubber_free(s);
    }
}

static void test_bytes_and_hits(void) {
    scrub_scrubber *s = compile_two(0);
    scrub_result *r = NULL;
    scrub_hits *hits = NULL;
    scrub_hit hit;
    const uint8_t *out = NULL;
    size_t out_len = 99, len = 99;
    const char input[] = "GH=ghp_abcdefgh12345678 b64=Z2hwX2FiY2RlZmdoMTIzNDU2Nzg= "
                         "hex=736B2D6C6976652D303132333435363738394142434445466768696A again "
                         "ghp_abcdefgh12345678\n";
    const char want[] = "GH=fnox_proxy_1 b64=[redacted:GH_TOKEN] hex=[redacted:SK_KEY] again "
                        "fnox_proxy_1\n";
    /* NULL arguments. */
    CHECK_STATUS(scrub_bytes(NULL, (const uint8_t *)"x", 1, &r), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK(r == NULL, "result_out NULL after failure");
    CHECK_STATUS(scrub_bytes(s, (const uint8_t *)"x", 1, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_bytes(s, NULL, 1, &r), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_result_output(NULL, &out, &out_len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK(out != NULL && out_len == 0, "output of a failed call is empty, not NULL");
    CHECK_STATUS(scrub_result_hits(NULL, &hits), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK(hits == NULL, "hits_out NULL after failure");
    CHECK_STATUS(scrub_hits_len(NULL, &len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_hits_get(NULL, 0, &hit), SCRUB_STATUS_NULL_ARGUMENT);

    /* Empty input, NULL pointer with a zero length. */
    CHECK_STATUS(scrub_bytes(s, NULL, 0, &r), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_result_output(r, &out, &out_len), SCRUB_STATUS_OK);
    CHECK(out != NULL && out_len == 0, "empty input: empty output, non-NULL");
    CHECK_STATUS(scrub_result_output(r, NULL, &out_len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_result_output(r, &out, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_result_hits(r, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_result_hits(r, &hits), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_hits_len(hits, &len), SCRUB_STATUS_OK);
    CHECK(len == 0, "empty input: no hits");
    CHECK_STATUS(scrub_hits_get(hits, 0, &hit), SCRUB_STATUS_INDEX_OUT_OF_RANGE);
    scrub_hits_free(hits);
    scrub_result_free(r);

    CHECK_STATUS(scrub_bytes(s, (const uint8_t *)input, sizeof input - 1, &r), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_result_output(r, &out, &out_len), SCRUB_STATUS_OK);
    CHECK(out_len == sizeof want - 1 && memcmp(out, want, out_len) == 0, "scrub_bytes: %.*s",
          (int)out_len, (const char *)out);
    CHECK_STATUS(scrub_result_hits(r, &hits), SCRUB_STATUS_OK);
    scrub_result_free(r); /* the hits are independent of the result */
    CHECK_STATUS(scrub_hits_len(hits, &len), SCRUB_STATUS_OK);
    CHECK(len == 3, "three hits, got %zu", len);
    CHECK_STATUS(scrub_hits_get(hits, 0, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_hits_len(hits, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    if (len == 3) {
        /* By secret index, then form order. */
        scrub_hit h0, h1, h2;
        CHECK_STATUS(scrub_hits_get(hits, 0, &h0), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_hits_get(hits, 1, &h1), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_hits_get(hits, 2, &h2), SCRUB_STATUS_OK);
        CHECK(strcmp(h0.name, "GH_TOKEN") == 0 && h0.form == SCRUB_FORM_RAW && h0.count == 2 &&
                  strcmp(h0.form_name, "raw") == 0,
              "hit 0: %s %s %llu", h0.name, h0.form_name, (unsigned long long)h0.count);
        CHECK(strcmp(h1.name, "GH_TOKEN") == 0 && h1.form == SCRUB_FORM_BASE64 && h1.count == 1,
              "hit 1: %s %s", h1.name, h1.form_name);
        CHECK(strcmp(h2.name, "SK_KEY") == 0 && h2.form == SCRUB_FORM_HEX && h2.count == 1,
              "hit 2: %s %s", h2.name, h2.form_name);
        hit = h2;
        CHECK_STATUS(scrub_hits_get(hits, 3, &hit), SCRUB_STATUS_INDEX_OUT_OF_RANGE);
        CHECK(hit.count == 1 && hit.form == SCRUB_FORM_HEX, "hit_out untouched on error");
        CHECK_STATUS(scrub_hits_get(hits, (size_t)-1, &hit), SCRUB_STATUS_INDEX_OUT_OF_RANGE);
    }
    scrub_hits_free(hits);
    scrub_scrubber_free(s);

    /* sameLength keeps length and line breaks. */
    s = compile_two(1);
    {
        const char in2[] = "x ghp_abcdefgh12345678 y";
        const char want2[] = "x ******************** y";
        CHECK_STATUS(scrub_bytes(s, (const uint8_t *)in2, sizeof in2 - 1, &r), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_result_output(r, &out, &out_len), SCRUB_STATUS_OK);
        CHECK(out_len == sizeof want2 - 1 && memcmp(out, want2, out_len) == 0,
              "same_length: %.*s", (int)out_len, (const char *)out);
        scrub_result_free(r);
    }
    scrub_scrubber_free(s);
}

static void test_stream_misuse(void) {
    scrub_scrubber *s = compile_two(0);
    scrub_stream *st = NULL, *other = NULL;
    scrub_hits *hits = NULL;
    const uint8_t *out = NULL;
    size_t out_len = 0, held = 0, len = 0;
    buf acc = {NULL, 0, 0};

    CHECK_STATUS(scrub_stream_new(NULL, &st), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK(st == NULL, "stream_out NULL after failure");
    CHECK_STATUS(scrub_stream_new(s, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_new(s, &st), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_stream_push(NULL, (const uint8_t *)"x", 1, &out, &out_len),
                 SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_idle(NULL, &out, &out_len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_end(NULL, &out, &out_len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_hits(NULL, &hits), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_held(NULL, &held), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_held(st, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_hits(st, NULL), SCRUB_STATUS_NULL_ARGUMENT);

    /* A bad call consumes nothing: no byte is lost. */
    CHECK_STATUS(scrub_stream_push(st, (const uint8_t *)"lost?", 5, NULL, &out_len),
                 SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_push(st, (const uint8_t *)"lost?", 5, &out, NULL),
                 SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_push(st, NULL, 5, &out, &out_len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK(out != NULL && out_len == 0, "a failed push gives an empty output");
    CHECK_STATUS(scrub_stream_idle(st, NULL, &out_len), SCRUB_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(scrub_stream_end(st, &out, NULL), SCRUB_STATUS_NULL_ARGUMENT);
    {
        /* A misaligned out pointer is refused, not written. */
        union {
            size_t align;
            unsigned char bytes[2 * sizeof(size_t)];
        } raw;
        memset(&raw, 0, sizeof raw);
        CHECK_STATUS(scrub_stream_held(st, (size_t *)(void *)(raw.bytes + 1)),
                     SCRUB_STATUS_INVALID_ARGUMENT);
    }
    CHECK_STATUS(scrub_stream_held(st, &held), SCRUB_STATUS_OK);
    CHECK(held == 0, "nothing held after failed calls");

    /* Empty chunk, NULL with a zero length. */
    out = NULL;
    CHECK_STATUS(scrub_stream_push(st, NULL, 0, &out, &out_len), SCRUB_STATUS_OK);
    CHECK(out != NULL && out_len == 0, "empty push: empty output, non-NULL");

    /* Idle below 16 held bytes hands them out; above it holds. */
    CHECK_STATUS(scrub_stream_push(st, (const uint8_t *)"a ghp_abcd", 10, &out, &out_len),
                 SCRUB_STATUS_OK);
    buf_add(&acc, out, out_len);
    CHECK_STATUS(scrub_stream_held(st, &held), SCRUB_STATUS_OK);
    CHECK(held == 8, "held the prefix ghp_abcd: %zu", held);
    CHECK_STATUS(scrub_stream_idle(st, &out, &out_len), SCRUB_STATUS_OK);
    buf_add(&acc, out, out_len);
    CHECK(acc.len == 10 && memcmp(acc.data, "a ghp_abcd", 10) == 0, "idle released the prompt");
    CHECK_STATUS(scrub_stream_held(st, &held), SCRUB_STATUS_OK);
    CHECK(held == 0, "idle emptied the stream");
    acc.len = 0;
    CHECK_STATUS(scrub_stream_push(st, (const uint8_t *)" ghp_abcdefgh1234567", 20, &out,
                                   &out_len),
                 SCRUB_STATUS_OK);
    buf_add(&acc, out, out_len);
    CHECK_STATUS(scrub_stream_held(st, &held), SCRUB_STATUS_OK);
    CHECK(held == 19, "held 19 bytes: %zu", held);
    CHECK_STATUS(scrub_stream_idle(st, &out, &out_len), SCRUB_STATUS_OK);
    CHECK(out_len == 0, "idle with 16 or more held gives nothing");
    CHECK_STATUS(scrub_stream_push(st, (const uint8_t *)"8 end", 5, &out, &out_len),
                 SCRUB_STATUS_OK);
    buf_add(&acc, out, out_len);

    /* A second stream from the same scrubber is independent. */
    CHECK_STATUS(scrub_stream_new(s, &other), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_stream_push(other, (const uint8_t *)"ghp_abcdefgh", 12, &out, &out_len),
                 SCRUB_STATUS_OK);
    CHECK(out_len == 0, "the other stream holds its own prefix");

    CHECK_STATUS(scrub_stream_end(st, &out, &out_len), SCRUB_STATUS_OK);
    buf_add(&acc, out, out_len);
    CHECK(acc.len == 17 && memcmp(acc.data, " fnox_proxy_1 end", 17) == 0, "stream output: %.*s",
          (int)acc.len, (const char *)acc.data);

    /* After end: errors, hits still readable. */
    CHECK_STATUS(scrub_stream_push(st, (const uint8_t *)"x", 1, &out, &out_len),
                 SCRUB_STATUS_STREAM_ENDED);
    CHECK_STATUS(scrub_stream_idle(st, &out, &out_len), SCRUB_STATUS_STREAM_ENDED);
    CHECK_STATUS(scrub_stream_end(st, &out, &out_len), SCRUB_STATUS_STREAM_ENDED);
    CHECK(out_len == 0, "no output after end");
    CHECK_STATUS(scrub_stream_hits(st, &hits), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_hits_len(hits, &len), SCRUB_STATUS_OK);
    CHECK(len == 1, "one hit after end: %zu", len);
    scrub_hits_free(hits);
    scrub_stream_free(st);

    /* The stream's own output pushed back into it is copied, not
     * overwritten while it is read. */
    {
        scrub_stream *again = NULL;
        const char text[] = "once ghp_abcdefgh12345678 twice\n";
        const char want[] = "once fnox_proxy_1 twice\n";
        buf both = {NULL, 0, 0};
        CHECK_STATUS(scrub_stream_new(s, &again), SCRUB_STATUS_OK);
        CHECK_STATUS(scrub_stream_push(again, (const uint8_t *)text, sizeof text - 1, &out,
                                       &out_len),
                     SCRUB_STATUS_OK);
        CHECK(out_len == sizeof want - 1 && memcmp(out, want, out_len) == 0, "first pass");
        CHECK_STATUS(scrub_stream_push(again, out, out_len, &out, &out_len), SCRUB_STATUS_OK);
        buf_add(&both, out, out_len);
        CHECK_STATUS(scrub_stream_end(again, &out, &out_len), SCRUB_STATUS_OK);
        buf_add(&both, out, out_len);
        CHECK(both.len == sizeof want - 1 && memcmp(both.data, want, both.len) == 0,
              "own output pushed back: %.*s", (int)both.len, (const char *)both.data);
        scrub_stream_free(again);
        buf_free(&both);
    }

    /* The scrubber may go first. */
    scrub_scrubber_free(s);
    CHECK_STATUS(scrub_stream_push(other, (const uint8_t *)"12345678!", 9, &out, &out_len),
                 SCRUB_STATUS_OK);
    acc.len = 0;
    buf_add(&acc, out, out_len);
    CHECK_STATUS(scrub_stream_end(other, &out, &out_len), SCRUB_STATUS_OK);
    buf_add(&acc, out, out_len);
    CHECK(acc.len == 13 && memcmp(acc.data, "fnox_proxy_1!", 13) == 0,
          "stream outlives its scrubber: %.*s", (int)acc.len, (const char *)acc.data);
    scrub_stream_free(other);

    /* Freeing NULL is a no-op everywhere. */
    scrub_scrubber_free(NULL);
    scrub_stream_free(NULL);
    scrub_result_free(NULL);
    scrub_hits_free(NULL);
    scrub_error_free(NULL);
    CHECK(scrub_error_message(NULL) == NULL, "scrub_error_message(NULL)");
    CHECK(scrub_error_status(NULL) == SCRUB_STATUS_NULL_ARGUMENT, "scrub_error_status(NULL)");
    buf_free(&acc);
}

/* ------------------------------------------------------------------------
 * Eight threads, one scrubber, several streams each; the scrubber is freed
 * while they run.
 * ------------------------------------------------------------------------ */

#define STREAMS_PER_THREAD 4

typedef struct {
    const scrub_scrubber *scrubber;
    pthread_barrier_t *barrier;
    const uint8_t *input;
    size_t input_len;
    const uint8_t *want;
    size_t want_len;
    int id;
    long failures;
} shared_thread;

static void *run_shared_thread(void *arg) {
    shared_thread *t = arg;
    scrub_stream *streams[STREAMS_PER_THREAD];
    size_t pos[STREAMS_PER_THREAD], step[STREAMS_PER_THREAD];
    buf acc[STREAMS_PER_THREAD];
    int live = 0;
    for (int k = 0; k < STREAMS_PER_THREAD; k++) {
        streams[k] = NULL;
        if (scrub_stream_new(t->scrubber, &streams[k]) != SCRUB_STATUS_OK) {
            t->failures++;
        }
        pos[k] = 0;
        step[k] = 1 + (size_t)(t->id * STREAMS_PER_THREAD + k) % 23;
        acc[k].data = NULL;
        acc[k].len = acc[k].cap = 0;
    }
    /* The main thread frees the scrubber once every stream exists. */
    pthread_barrier_wait(t->barrier);
    pthread_barrier_wait(t->barrier);
    do {
        live = 0;
        for (int k = 0; k < STREAMS_PER_THREAD; k++) {
            const uint8_t *out;
            size_t out_len, n;
            if (!streams[k] || pos[k] >= t->input_len) {
                continue;
            }
            live = 1;
            n = step[k] < t->input_len - pos[k] ? step[k] : t->input_len - pos[k];
            if (scrub_stream_push(streams[k], t->input + pos[k], n, &out, &out_len) !=
                SCRUB_STATUS_OK) {
                t->failures++;
            }
            buf_add(&acc[k], out, out_len);
            pos[k] += n;
        }
    } while (live);
    for (int k = 0; k < STREAMS_PER_THREAD; k++) {
        const uint8_t *out;
        size_t out_len;
        char why[128];
        if (!streams[k]) {
            continue;
        }
        if (scrub_stream_end(streams[k], &out, &out_len) != SCRUB_STATUS_OK) {
            t->failures++;
        }
        buf_add(&acc[k], out, out_len);
        if (!same_bytes(acc[k].data, acc[k].len, t->want, t->want_len, why, sizeof why)) {
            fprintf(stderr, "FAIL thread %d stream %d: %s\n", t->id, k, why);
            t->failures++;
        }
        scrub_stream_free(streams[k]);
        buf_free(&acc[k]);
    }
    return NULL;
}

static void test_shared_scrubber_threads(void) {
    scrub_scrubber *s = compile_two(0);
    pthread_t threads[8];
    shared_thread state[8];
    pthread_barrier_t barrier;
    scrub_result *r = NULL;
    const uint8_t *want;
    size_t want_len;
    buf input = {NULL, 0, 0};
    long failures = 0;
    static const char *pieces[] = {
        "line ghp_abcdefgh12345678 end\n",
        "b64 Z2hwX2FiY2RlZmdoMTIzNDU2Nzg= and shifted eGdocF9hYmNkZWZnaDEyMzQ1Njc4\n",
        "hex 736B2D6C6976652D303132333435363738394142434445466768696A\n",
        "fragment 0123456789ABCDEFghij, near miss ghp_abcdefgh1234567X\n",
        "wrapped c2stbGl2ZS0wMTIzNDU2\r\nNzg5QUJDREVGZ2hpag==\n",
        "plain text that matches nothing at all, for a while.\n",
    };
    for (int round = 0; round < 40; round++) {
        for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
            buf_add(&input, (const uint8_t *)pieces[(i + (size_t)round) % 6],
                    strlen(pieces[(i + (size_t)round) % 6]));
        }
    }
    CHECK_STATUS(scrub_bytes(s, input.data, input.len, &r), SCRUB_STATUS_OK);
    CHECK_STATUS(scrub_result_output(r, &want, &want_len), SCRUB_STATUS_OK);
    {
        /* The reference itself holds no value. */
        int leaked = 0;
        for (size_t i = 0; i + 20 <= want_len; i++) {
            leaked |= memcmp(want + i, GH_VALUE, 20) == 0 || memcmp(want + i, SK_VALUE, 20) == 0;
        }
        CHECK(!leaked && want_len < input.len, "reference output is scrubbed");
    }
    pthread_barrier_init(&barrier, NULL, 9);
    for (int i = 0; i < 8; i++) {
        state[i].scrubber = s;
        state[i].barrier = &barrier;
        state[i].input = input.data;
        state[i].input_len = input.len;
        state[i].want = want;
        state[i].want_len = want_len;
        state[i].id = i;
        state[i].failures = 0;
        CHECK(pthread_create(&threads[i], NULL, run_shared_thread, &state[i]) == 0,
              "pthread_create");
    }
    pthread_barrier_wait(&barrier);
    scrub_scrubber_free(s); /* every stream exists: they keep what they need */
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        failures += state[i].failures;
    }
    pthread_barrier_destroy(&barrier);
    CHECK(failures == 0, "8 threads x %d streams on one scrubber: %ld failures",
          STREAMS_PER_THREAD, failures);
    scrub_result_free(r);
    buf_free(&input);
}

int main(int argc, char **argv) {
    test_constants_and_version();
    test_compile_errors();
    test_compile_json();
    test_bytes_and_hits();
    test_stream_misuse();
    test_shared_scrubber_threads();
    if (argc > 1 && !run_vectors(argv[1])) {
        failed++;
    }
    if (argc > 2 && !run_idle(argv[2])) {
        failed++;
    }
    if (argc > 3 && !run_errors(argv[3])) {
        failed++;
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
