/* A small JSON reader: see mini_json.h. */
#include "mini_json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text;
    size_t len, pos;
    char *error;
    int depth;
} parser;

static bool fail(parser *p, const char *what) {
    if (p->error[0] == '\0') {
        snprintf(p->error, 128, "%s at byte %zu", what, p->pos);
    }
    return false;
}

static void skip_ws(parser *p) {
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            break;
        }
        p->pos++;
    }
}

static bool grow(void **items, size_t *cap, size_t len, size_t size) {
    if (len < *cap) {
        return true;
    }
    size_t next = *cap ? *cap * 2 : 4;
    void *bigger = realloc(*items, next * size);
    if (!bigger) {
        return false;
    }
    *items = bigger;
    *cap = next;
    return true;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool read_u4(parser *p, uint32_t *out) {
    if (p->len - p->pos < 4) {
        return fail(p, "short \\u escape");
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(p->text[p->pos + (size_t)i]);
        if (d < 0) {
            return fail(p, "bad \\u escape");
        }
        v = v << 4 | (uint32_t)d;
    }
    p->pos += 4;
    *out = v;
    return true;
}

static size_t put_utf8(char *out, uint32_t cp) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* At an opening quote: decodes the string into a new buffer. */
static bool parse_string(parser *p, char **out, size_t *out_len) {
    p->pos++; /* the quote */
    /* Decoded text is never longer than the source. */
    char *buf = malloc(p->len - p->pos + 1);
    size_t n = 0;
    if (!buf) {
        return fail(p, "out of memory");
    }
    for (;;) {
        if (p->pos >= p->len) {
            free(buf);
            return fail(p, "unterminated string");
        }
        unsigned char c = (unsigned char)p->text[p->pos++];
        if (c == '"') {
            break;
        }
        if (c < 0x20) {
            free(buf);
            return fail(p, "control character in string");
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            continue;
        }
        if (p->pos >= p->len) {
            free(buf);
            return fail(p, "unterminated escape");
        }
        char e = p->text[p->pos++];
        uint32_t cp;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (!read_u4(p, &cp)) {
                free(buf);
                return false;
            }
            if (cp >= 0xD800 && cp < 0xDC00) {
                uint32_t low;
                if (p->len - p->pos < 2 || p->text[p->pos] != '\\' || p->text[p->pos + 1] != 'u') {
                    free(buf);
                    return fail(p, "lone surrogate");
                }
                p->pos += 2;
                if (!read_u4(p, &low)) {
                    free(buf);
                    return false;
                }
                if (low < 0xDC00 || low >= 0xE000) {
                    free(buf);
                    return fail(p, "bad surrogate pair");
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                free(buf);
                return fail(p, "lone surrogate");
            }
            /* A \u escape is 6 source bytes, at most 4 decoded ones
             * (a pair: 12 for 4), so the buffer is big enough. */
            n += put_utf8(buf + n, cp);
            break;
        default:
            free(buf);
            return fail(p, "bad escape");
        }
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return true;
}

static bool parse_value(parser *p, mj_value *v);

static bool parse_array(parser *p, mj_value *v) {
    size_t cap = 0;
    v->type = MJ_ARRAY;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->text[p->pos] == ']') {
        p->pos++;
        return true;
    }
    for (;;) {
        if (!grow((void **)&v->items, &cap, v->len, sizeof(mj_value))) {
            return fail(p, "out of memory");
        }
        memset(&v->items[v->len], 0, sizeof(mj_value));
        v->len++;
        if (!parse_value(p, &v->items[v->len - 1])) {
            return false;
        }
        skip_ws(p);
        if (p->pos < p->len && p->text[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->text[p->pos] == ']') {
            p->pos++;
            return true;
        }
        return fail(p, "expected , or ]");
    }
}

static bool parse_object(parser *p, mj_value *v) {
    size_t cap = 0, key_cap = 0;
    v->type = MJ_OBJECT;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->text[p->pos] == '}') {
        p->pos++;
        return true;
    }
    for (;;) {
        skip_ws(p);
        if (p->pos >= p->len || p->text[p->pos] != '"') {
            return fail(p, "expected a key");
        }
        if (!grow((void **)&v->items, &cap, v->len, sizeof(mj_value)) ||
            !grow((void **)&v->keys, &key_cap, v->len, sizeof(char *))) {
            return fail(p, "out of memory");
        }
        memset(&v->items[v->len], 0, sizeof(mj_value));
        v->keys[v->len] = NULL;
        v->len++;
        size_t key_len;
        if (!parse_string(p, &v->keys[v->len - 1], &key_len)) {
            return false;
        }
        skip_ws(p);
        if (p->pos >= p->len || p->text[p->pos] != ':') {
            return fail(p, "expected :");
        }
        p->pos++;
        if (!parse_value(p, &v->items[v->len - 1])) {
            return false;
        }
        skip_ws(p);
        if (p->pos < p->len && p->text[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->text[p->pos] == '}') {
            p->pos++;
            return true;
        }
        return fail(p, "expected , or }");
    }
}

static bool literal(parser *p, const char *word) {
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0) {
        return fail(p, "bad literal");
    }
    p->pos += n;
    return true;
}

static bool parse_value(parser *p, mj_value *v) {
    bool ok;
    if (++p->depth > 64) {
        return fail(p, "too deep");
    }
    skip_ws(p);
    if (p->pos >= p->len) {
        return fail(p, "unexpected end");
    }
    v->start = p->pos;
    switch (p->text[p->pos]) {
    case '{': ok = parse_object(p, v); break;
    case '[': ok = parse_array(p, v); break;
    case '"':
        v->type = MJ_STRING;
        ok = parse_string(p, &v->string, &v->string_len);
        break;
    case 't': v->type = MJ_BOOL; v->boolean = true; ok = literal(p, "true"); break;
    case 'f': v->type = MJ_BOOL; ok = literal(p, "false"); break;
    case 'n': v->type = MJ_NULL; ok = literal(p, "null"); break;
    default: {
        char *end;
        char tmp[64];
        size_t n = 0;
        while (p->pos + n < p->len && n < sizeof tmp - 1 &&
               strchr("+-0123456789.eE", p->text[p->pos + n]) && p->text[p->pos + n] != '\0') {
            tmp[n] = p->text[p->pos + n];
            n++;
        }
        tmp[n] = '\0';
        v->type = MJ_NUMBER;
        v->number = strtod(tmp, &end);
        ok = n > 0 && end == tmp + n;
        if (ok) {
            p->pos += n;
        } else {
            fail(p, "bad value");
        }
    }
    }
    v->end = p->pos;
    p->depth--;
    return ok;
}

static void free_inner(mj_value *v) {
    free(v->string);
    for (size_t i = 0; i < v->len; i++) {
        free_inner(&v->items[i]);
        if (v->keys) {
            free(v->keys[i]);
        }
    }
    free(v->items);
    free(v->keys);
}

mj_value *mj_parse(const char *text, size_t len, char *error) {
    parser p = {text, len, 0, error, 0};
    mj_value *v = calloc(1, sizeof *v);
    error[0] = '\0';
    if (!v) {
        snprintf(error, 128, "out of memory");
        return NULL;
    }
    bool ok = parse_value(&p, v);
    if (ok) {
        skip_ws(&p);
        if (p.pos != p.len) {
            ok = fail(&p, "trailing text");
        }
    }
    if (!ok) {
        mj_free(v);
        return NULL;
    }
    return v;
}

void mj_free(mj_value *value) {
    if (value) {
        free_inner(value);
        free(value);
    }
}

const mj_value *mj_get(const mj_value *object, const char *key) {
    if (!object || object->type != MJ_OBJECT) {
        return NULL;
    }
    for (size_t i = 0; i < object->len; i++) {
        if (object->keys[i] && strcmp(object->keys[i], key) == 0) {
            return &object->items[i];
        }
    }
    return NULL;
}
