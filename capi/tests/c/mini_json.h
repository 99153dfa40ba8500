/*
 * A small JSON reader for the C test harness: enough for
 * vectors/vectors.json. Parses a whole document into a tree; strings are
 * decoded to UTF-8 bytes (with their length: they may hold NUL), and every
 * value remembers its span in the source text (so the harness can hand the
 * raw "secrets" array to scrub_compile_json).
 */
#ifndef MINI_JSON_H
#define MINI_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { MJ_NULL, MJ_BOOL, MJ_NUMBER, MJ_STRING, MJ_ARRAY, MJ_OBJECT } mj_type;

typedef struct mj_value mj_value;

struct mj_value {
    mj_type type;
    /* Span in the source text: [start, end). */
    size_t start, end;
    bool boolean;
    double number;
    /* MJ_STRING: decoded bytes, NUL-terminated for convenience. */
    char *string;
    size_t string_len;
    /* MJ_ARRAY: items; MJ_OBJECT: values, with keys[i] their keys. */
    mj_value *items;
    char **keys;
    size_t len;
};

/* Parses `text` (`len` bytes). Returns NULL and fills `error` (at least 128
 * bytes) on failure. Free the result with mj_free. */
mj_value *mj_parse(const char *text, size_t len, char *error);

void mj_free(mj_value *value);

/* The member `key` of an object, or NULL (also when `object` is not one). */
const mj_value *mj_get(const mj_value *object, const char *key);

#endif
