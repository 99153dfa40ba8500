/*
 * The C example of the README's "C library" section, at length: compile
 * one secret, scrub a buffer, then the same through a stream in pieces;
 * print the hits. Exits non-zero when the output is not what it should be,
 * so it doubles as a test.
 */
#include <slicc_scrub.h>

#include <stdio.h>
#include <string.h>

int main(void) {
    static const char value[] = "ghp_abcdefgh12345678";
    static const char placeholder[] = "fnox_proxy_1";
    static const char input[] = "token: ghp_abcdefgh12345678, base64: Z2hwX2FiY2RlZmdoMTIzNDU2Nzg=\n";
    static const char want[] = "token: fnox_proxy_1, base64: [redacted:GH_TOKEN]\n";
    scrub_secret secret = {"GH_TOKEN", (const uint8_t *)value, sizeof value - 1,
                           (const uint8_t *)placeholder, sizeof placeholder - 1};
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_scrubber *scrubber = NULL;
    scrub_error *error = NULL;
    scrub_result *result = NULL;
    scrub_stream *stream = NULL;
    scrub_hits *hits = NULL;
    const uint8_t *out;
    size_t out_len, n_hits, i;
    char streamed[256];
    size_t streamed_len = 0;
    int ok = 1;

    printf("slicc-scrub %s, rules version %u\n", scrub_version(), (unsigned)scrub_rules_version());
    if (scrub_compile(&secret, 1, &options, &scrubber, &error) != SCRUB_STATUS_OK) {
        fprintf(stderr, "compile: %s\n", scrub_error_message(error));
        scrub_error_free(error);
        return 1;
    }

    /* One buffer at once. */
    if (scrub_bytes(scrubber, (const uint8_t *)input, sizeof input - 1, &result) != SCRUB_STATUS_OK ||
        scrub_result_output(result, &out, &out_len) != SCRUB_STATUS_OK) {
        return 1;
    }
    fwrite(out, 1, out_len, stdout);
    ok &= out_len == sizeof want - 1 && memcmp(out, want, out_len) == 0;
    scrub_result_free(result);

    /* The same as a stream, in pieces that cut the secret. */
    if (scrub_stream_new(scrubber, &stream) != SCRUB_STATUS_OK) {
        return 1;
    }
    scrub_scrubber_free(scrubber); /* the stream keeps what it needs */
    for (i = 0; i < sizeof input - 1; i += 5) {
        size_t n = sizeof input - 1 - i < 5 ? sizeof input - 1 - i : 5;
        if (scrub_stream_push(stream, (const uint8_t *)input + i, n, &out, &out_len) !=
            SCRUB_STATUS_OK) {
            return 1;
        }
        memcpy(streamed + streamed_len, out, out_len); /* out is valid until the next call */
        streamed_len += out_len;
    }
    if (scrub_stream_end(stream, &out, &out_len) != SCRUB_STATUS_OK) {
        return 1;
    }
    memcpy(streamed + streamed_len, out, out_len);
    streamed_len += out_len;
    fwrite(streamed, 1, streamed_len, stdout);
    ok &= streamed_len == sizeof want - 1 && memcmp(streamed, want, streamed_len) == 0;

    /* Hits: names and forms, never values. */
    if (scrub_stream_hits(stream, &hits) != SCRUB_STATUS_OK ||
        scrub_hits_len(hits, &n_hits) != SCRUB_STATUS_OK) {
        return 1;
    }
    for (i = 0; i < n_hits; i++) {
        scrub_hit hit;
        if (scrub_hits_get(hits, i, &hit) == SCRUB_STATUS_OK) {
            printf("hit: %s %s x%llu\n", hit.name, hit.form_name, (unsigned long long)hit.count);
        }
    }
    ok &= n_hits == 2;
    scrub_hits_free(hits);
    scrub_stream_free(stream);
    puts(ok ? "ok" : "WRONG OUTPUT");
    return ok ? 0 : 1;
}
