"""The library against spec_reference.py, a brute-force reference written
from SPEC.md alone: random secrets (trimmed, multi-line, not UTF-8,
periodic, sharing bytes or encodings with each other, placeholders that
leak) and inputs built from their encodings in every form and variant
(pieces, base64 inside longer blobs at every shift, line breaks inserted),
with sameLength on and off. For each case: the compile's acceptance or
refusal, bytes(), a stream in random chunks (one byte at a time in a fifth
of them) and end(), what the stream holds after some pushes (section 4's
hold-back, exactly), idle() where fewer than 16 bytes are held, and push
after end(). Seeded: a failure names its seed and case, and repeats.

Run as the package's other tests (see test_slicc_scrub.py);
SLICC_SCRUB_SPEC_CASES sets the number of cases (default 4,000),
SLICC_SCRUB_SPEC_LONG_CASES that of cases with PEM-like values of 270 to
2,000 bytes (default 25).
"""

import base64
import html
import json
import os
import random
import re
import unittest
import urllib.parse

import spec_reference as reference
from slicc_scrub import Scrubber, ScrubError, Status

CASES = int(os.environ.get("SLICC_SCRUB_SPEC_CASES", "4000"))
# Cases with PEM-like values (about a second each).
LONG_CASES = int(os.environ.get("SLICC_SCRUB_SPEC_LONG_CASES", "25"))
SEED = 0x5EC5_0004

B64STD = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
PRINT = bytes(range(0x20, 0x7F))
SPECIAL = b"\"\\/<>&' +%=~*()!-_.:;"
UNI = ["\u00e9", "\u20ac", "\U0001F600", "\u2028", "\u2029", "\u007f", "\t", "\x01", "\u00a0", "\u4e2d"]
NAMECH = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-."


# ------------------------------------------------------------------ secrets

def rand_ascii(r, n, alphabet=None):
    alphabet = alphabet or (b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ" + SPECIAL)
    return bytes(r.choice(alphabet) for _ in range(n))


def pem_value(r):
    """A PEM-like value: base64 of 200 to 1,500 bytes between a header and a
    footer, in lines most often (long values are followed along the value,
    not stepped, in the engine)."""
    body = base64.b64encode(bytes(r.randrange(256) for _ in range(r.randint(200, 1500))))
    if r.random() < 0.7:
        width = r.choice([40, 64, 76])
        body = b"\n".join(body[i:i + width] for i in range(0, len(body), width))
    return b"-----BEGIN KEY-----\n" + body + b"\n-----END KEY-----\n"


def rand_value(r, others, long=False):
    if long and r.random() < 0.7:
        return pem_value(r)
    n = r.randint(8, 40)
    kind = r.random()
    if kind < 0.30:
        v = rand_ascii(r, n)
    elif kind < 0.40:
        v = bytes(r.randrange(256) for _ in range(n))          # not UTF-8 (mostly)
    elif kind < 0.50:
        s = ""
        while len(s.encode()) < n:
            s += r.choice(UNI) if r.random() < 0.3 else chr(r.choice(list(PRINT)))
        v = s.encode()
    elif kind < 0.60:                                          # periodic
        per = rand_ascii(r, r.randint(1, 4), b"abcAB01")
        v = (per * 40)[:n]
    elif kind < 0.72:                                          # inner LF / CRLF
        v = bytearray(rand_ascii(r, n))
        for _ in range(r.randint(1, 3)):
            i = r.randint(1, len(v) - 1)
            v[i:i] = r.choice([b"\n", b"\r\n", b"\r", b"\n\n"])
        v = bytes(v)
    elif kind < 0.78 and others:                               # another's encoding
        o = r.choice(others)
        m = r.random()
        if m < 0.3:
            v = o.hex().encode()
        elif m < 0.5:
            v = o.hex().upper().encode()
        elif m < 0.8:
            v = base64.b64encode(bytes(r.randrange(3)) + o).rstrip(b"=")[r.randint(0, 3):]
        else:
            v = urllib.parse.quote(o, safe="").encode()
        if len(v) < 8:
            v = v + b"12345678"
    elif kind < 0.88 and others:                               # share with another
        o = r.choice(others)
        m = r.random()
        if m < 0.25:
            v = o[:r.randint(4, len(o))] + rand_ascii(r, r.randint(0, 20))
        elif m < 0.5:
            v = rand_ascii(r, r.randint(0, 20)) + o[-r.randint(4, len(o)):]
        elif m < 0.7:
            a = r.randint(0, len(o) - 8)
            v = o[a:a + r.randint(8, len(o) - a)]
        elif m < 0.85:
            v = o
        else:
            v = o[r.randint(1, len(o) - 1):] + rand_ascii(r, r.randint(4, 20))
    else:
        v = rand_ascii(r, n, b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    if r.random() < 0.15:
        v = r.choice([b"\n", b"\r\n", b"\r", b"\n\r\n"]) + v
    if r.random() < 0.2:
        v = v + r.choice([b"\n", b"\r\n", b"\r", b"\n\n"])
    if len(reference.trim(v)) < 8:
        v = v + rand_ascii(r, 8)
    return v[:60]


def rand_secrets(r, long=False):
    k = r.choice([1, 1, 2, 2, 3, 4])
    names, values, out = set(), [], []
    for i in range(k):
        while True:
            nm = "".join(r.choice(NAMECH) for _ in range(r.randint(1, 8)))
            if nm not in names:
                break
        v = rand_value(r, [reference.trim(x) for x in values], long)
        ph = None
        if r.random() < 0.03 and values:   # a placeholder that leaks (refused)
            o = reference.trim(r.choice(values))
            ph = r.choice([o, o[:17], base64.b64encode(o), o.hex().encode(), b"x" + o[-16:]])
        elif r.random() < 0.02 and i > 0:
            nm = reference.trim(values[0]).decode("latin-1")
            nm = "".join(c for c in nm if c in NAMECH)[:128] or "z"
            while nm in names:
                nm = nm + "_"
        elif r.random() < 0.4:
            ph = r.choice([b"PH_" + str(i).encode(), b"<secret>", b"", b"\xff\xfe", b"p" * r.randint(1, 5)])
        names.add(nm)
        values.append(v)
        out.append((nm, v, ph))
    return out


# ------------------------------------------------------------------ encodings

def js_stringify(t):
    return json.dumps(t, ensure_ascii=False)[1:-1]


def enc_json(r, v):
    try:
        t = v.decode("utf-8")
    except UnicodeDecodeError:
        return v
    m = r.randrange(4)
    if m == 0:
        s = js_stringify(t)
    elif m == 1:
        s = json.dumps(t, ensure_ascii=True)[1:-1]
    elif m == 2:
        s = js_stringify(t).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        s = s.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    else:
        s = json.dumps(t, ensure_ascii=True)[1:-1].replace("\\u007f", "\x7f").replace("/", "\\/")
    return s.encode("utf-8")


def enc_percent(r, v):
    m = r.randrange(4)
    if m == 0:
        s = urllib.parse.quote(v, safe="!~*'()")
    elif m == 1:
        s = urllib.parse.quote(v, safe="")
    elif m == 2:
        s = urllib.parse.quote_plus(v, safe="")
    else:
        s = urllib.parse.quote_plus(v, safe="*").replace("~", "%7E")
    if r.random() < 0.5:
        s = re.sub("%[0-9A-F]{2}", lambda x: x.group(0).lower(), s)
    return s.encode()


def enc_html(r, v):
    s = html.escape(v.decode("latin-1"), quote=True)
    m = r.randrange(3)
    if m != 1:
        s = s.replace("&#x27;", "&#39;")
    if m == 2:
        s = s.replace("&quot;", "&#34;")
    return s.encode("latin-1")


def insert_breaks(r, s, maxn=4):
    s = bytearray(s)
    if r.random() < 0.4:                                        # fixed columns
        w = r.choice([4, 8, 16, 64, 76])
        out = bytearray()
        for i in range(0, len(s), w):
            out += s[i:i + w] + r.choice([b"\n", b"\r\n"])
        return bytes(out)
    for _ in range(r.randint(1, maxn)):
        i = r.randint(0, len(s))
        s[i:i] = r.choice([b"\n", b"\r\n", b"\r", b"\n\n"])
    return bytes(s)


def enc_base64(r, v, breaks=0.3, most=4):
    """v's base64 inside a blob, either alphabet, padded or not, with up to
    `most` line breaks inserted in a share `breaks` of them."""
    pre = bytes(r.randrange(256) for _ in range(r.choice([0, 0, 1, 2, r.randint(0, 8)])))
    post = bytes(r.randrange(256) for _ in range(r.choice([0, 0, 1, 2, r.randint(0, 8)])))
    e = base64.b64encode(pre + v + post)
    if r.random() < 0.4:
        e = e.replace(b"+", b"-").replace(b"/", b"_")
    if r.random() < 0.3:
        e = e.rstrip(b"=")
    if r.random() < breaks:
        e = insert_breaks(r, e, most)
    return e


def enc_hex(r, v, breaks=0.3, most=4):
    """v's hex inside a blob, either case, line breaks as in enc_base64."""
    pre = bytes(r.randrange(256) for _ in range(r.choice([0, 0, 1, 3])))
    post = bytes(r.randrange(256) for _ in range(r.choice([0, 0, 1, 3])))
    e = (pre + v + post).hex().encode()
    if r.random() < 0.5:
        e = e.upper()
    if r.random() < breaks:
        e = insert_breaks(r, e, most)
    return e


def piece_of(r, v):
    m = r.random()
    if m < 0.45:
        return v
    n = len(v)
    if n > 16 and m < 0.85:
        a = r.randint(0, n - 16)
        b = r.randint(a + 16, n)
        return v[a:b]
    a = r.randint(0, n - 1)
    return v[a:r.randint(a + 1, n)]


def filler(r, vals):
    m = r.random()
    n = r.choice([0, 1, 2, 3, r.randint(0, 12)])
    if m < 0.3:
        return rand_ascii(r, n, b"abcxyz ABC:=\"'")
    if m < 0.45:
        return rand_ascii(r, n, B64STD + b"=")
    if m < 0.55:
        return rand_ascii(r, n, b"0123456789abcdefABCDEF")
    if m < 0.65:
        return r.choice([b"\n", b"\r\n", b"\r", b" ", b"\n\n"])
    if m < 0.85 and vals:
        v = r.choice(vals)
        return bytes(r.choice(v) for _ in range(n))
    return bytes(r.randrange(256) for _ in range(n))


def encode_one(r, v):
    m = r.random()
    if m < 0.25:
        return piece_of(r, v)
    if m < 0.30:
        crlf = reference.raw_crlf_variant(v)
        return crlf if crlf else v
    if m < 0.40:
        return enc_json(r, piece_of(r, v))
    if m < 0.50:
        return enc_percent(r, piece_of(r, v))
    if m < 0.57:
        return enc_html(r, piece_of(r, v))
    if m < 0.80:
        return enc_base64(r, piece_of(r, v) if r.random() < 0.3 else v)
    if m < 0.92:
        return enc_hex(r, piece_of(r, v) if r.random() < 0.3 else v)
    # adjacent / overlapping occurrences
    k = r.randint(1, max(1, len(v) - 1))
    return v + v[k:] if r.random() < 0.5 else v[:k] + v


def wrap_heavy(r, vals):
    """base64 / hex blobs with many line breaks, plain and wrapped competing."""
    out = bytearray()
    for _ in range(r.randint(1, 4)):
        v = r.choice(vals)
        if r.random() < 0.3:
            v = piece_of(r, v)
        encode = enc_base64 if r.random() < 0.6 else enc_hex
        e = encode(r, v, breaks=0.8, most=12)
        out += rand_ascii(r, r.choice([0, 0, 1, 3]), B64STD + b"=\r\n")
        out += e
        if r.random() < 0.3:
            out += bytes(r.choice(b"\r\n") for _ in range(r.randint(1, 4)))
    return bytes(out)


def rand_input(r, secrets):
    vals = [s[1] if r.random() < 0.2 else reference.trim(s[1]) for s in secrets]
    if r.random() < 0.25:
        return wrap_heavy(r, vals)
    out = bytearray()
    for _ in range(r.randint(1, 7) if r.random() < 0.9 else r.randint(10, 40)):
        out += filler(r, vals)
        out += encode_one(r, r.choice(vals))
        if r.random() < 0.15 and len(secrets) > 1:  # overlap two secrets
            a, b = r.sample(vals, 2)
            out += a[:-r.randint(1, 6)] + b
    out += filler(r, vals)
    if r.random() < 0.2:                            # end on a partial encoding
        e = encode_one(r, r.choice(vals))
        out += e[:r.randint(0, len(e))]
    return bytes(out)


def rand_chunks(r, data):
    m = r.random()
    if m < 0.2:
        return [data[i:i + 1] for i in range(len(data))]
    cuts = sorted(r.sample(range(len(data) + 1), min(len(data) + 1, r.randint(0, 10))))
    out, last = [], 0
    for c in cuts + [len(data)]:
        out.append(data[last:c])
        last = c
    return out


# ------------------------------------------------------------------ checking

def hits_tuple(hits):
    return [(h.name, h.form, h.count) for h in hits]


def check_case(r, secrets, same_length, data, stats):
    """The differences between the library and the reference on one case,
    each a (kind, details) pair; counts what was exercised in `stats`."""
    failures = []
    rs = reference.make_secrets(secrets)
    texts = [t for s in rs for t in ([s.placeholder] if s.placeholder else []) + [s.redacted()]]
    leaky = [t for t in texts if reference.has_any_candidate(rs, t)]
    # A leaking placeholder made from a long value can be too long too.
    too_long = [s.placeholder for s in rs
                if s.placeholder and len(s.placeholder) > reference.MAX_PLACEHOLDER]
    refusals = set()
    if leaky:
        refusals |= {Status.PLACEHOLDER_LEAKS, Status.REDACTION_LEAKS}
    if too_long:
        refusals.add(Status.PLACEHOLDER_TOO_LONG)
    try:
        sc = Scrubber(secrets, same_length=same_length)
    except ScrubError as e:
        stats["refused"] += 1
        if e.status not in refusals:
            failures.append(("refused", dict(status=e.status, message=e.message)))
        return failures
    if refusals:
        failures.append(("accepted a leaking or too long placeholder or redaction",
                         dict(leaky=leaky, too_long=too_long)))
    expected = reference.scrub(rs, data, same_length)
    for _, form, count in expected[1]:
        stats["form " + form] += count
    got = sc.bytes(data)
    if (got.output, hits_tuple(got.hits)) != expected:
        failures.append(("bytes", dict(expected=expected, got=(got.output, hits_tuple(got.hits)))))
    # A stream in random chunks, what it holds after some of them, end().
    chunks = rand_chunks(r, data)
    st = sc.stream()
    out, fed, asked = b"", b"", 0
    for chunk in chunks:
        out += st.push(chunk)
        fed += chunk
        if asked < 4 and (r.random() < 0.3 or len(chunks) < 5):
            asked += 1
            stats["held asked"] += 1
            hold, decided, _ = reference.stream_state(rs, fed, same_length)
            if (st.held, out) != (len(fed) - hold, decided):
                failures.append(("held", dict(pushed=fed, chunks=chunks,
                                              expected=(len(fed) - hold, decided),
                                              got=(st.held, out))))
    out += st.end()
    if (out, hits_tuple(st.hits)) != expected:
        failures.append(("stream", dict(chunks=chunks, expected=expected,
                                        got=(out, hits_tuple(st.hits)))))
    try:
        st.push(b"x")
        failures.append(("push after end() did not fail", {}))
    except ScrubError as e:
        if e.status != Status.STREAM_ENDED:
            failures.append(("push after end()", dict(status=e.status)))
    st.close()
    # idle() between chunks: with fewer than 16 bytes held it flushes them
    # as end() would, and what follows is scrubbed afresh (section 4).
    if r.random() < 0.3:
        st = sc.stream()
        out, segment, segments = b"", b"", []
        for chunk in rand_chunks(r, data):
            out += st.push(chunk)
            segment += chunk
            if r.random() < 0.5:
                hold, _, _ = reference.stream_state(rs, segment, same_length)
                held = len(segment) - hold
                flushed = st.idle()
                out += flushed
                if held < 16:
                    stats["idle flushes"] += 1
                    expected_flush = reference.scrub(rs, segment[hold:], same_length)[0]
                    if flushed != expected_flush:
                        failures.append(("idle", dict(pushed=segment, expected=expected_flush,
                                                      got=flushed)))
                    segments.append(segment)
                    segment = b""
                elif flushed != b"":
                    failures.append(("idle with 16 or more held", dict(pushed=segment,
                                                                       got=flushed)))
        out += st.end()
        segments.append(segment)
        each = [reference.scrub(rs, s, same_length) for s in segments]
        expected_idle = (b"".join(o for o, _ in each),
                         reference.merge_hits(rs, [h for _, h in each]))
        if (out, hits_tuple(st.hits)) != expected_idle:
            failures.append(("stream with idle", dict(segments=segments, expected=expected_idle,
                                                      got=(out, hits_tuple(st.hits)))))
        st.close()
    sc.close()
    return failures


class SpecReferenceTest(unittest.TestCase):
    def test_the_reference_gives_the_spec_examples(self):
        # SPEC section 2's base64 example, and a raw match: if the
        # reference were wrong here, its agreement would say nothing.
        (s,) = reference.make_secrets([("A", b"ghp_abcdefgh", None)])
        patterns = [p for form, p in s.patterns if form == "base64"]
        for p in [b"Z2hwX2FiY2RlZmdo", b"docF9hYmNkZWZna", b"docF9hYmNkZWZnaA==",
                  b"naHBfYWJjZGVmZ2", b"naHBfYWJjZGVmZ2g="]:
            self.assertIn(p, patterns)
        self.assertEqual(reference.scrub([s], b"x ghp_abcdefgh y"),
                         (b"x [redacted:A] y", [("A", "raw", 1)]))

    def test_random_cases_agree_with_the_reference(self):
        self.agree(SEED, CASES, long=False)

    def test_random_cases_of_long_values_agree_with_the_reference(self):
        self.agree(SEED + 1, LONG_CASES, long=True)

    def agree(self, seed, cases, long):
        r = random.Random(seed)
        stats = {k: 0 for k in ["refused", "held asked", "idle flushes"]}
        stats.update({"form " + f: 0 for f in reference.FORMS})
        for case in range(cases):
            secrets = rand_secrets(r, long)
            data = rand_input(r, secrets)
            same_length = r.random() < 0.3
            failures = check_case(r, secrets, same_length, data, stats)
            if failures:
                kind, details = failures[0]
                self.fail(f"case {case} of seed {seed:#x}: {kind}: secrets={secrets!r} "
                          f"same_length={same_length} input={data!r} {details!r}")
        # What the cases exercised: each check met its subject (refusals
        # and html matches aside in the few long cases).
        rare = {"refused", "form html"} if long else set()
        for what, count in stats.items():
            if what not in rare:
                self.assertGreater(count, 0, f"no {what} in {cases} cases")


if __name__ == "__main__":
    unittest.main()
