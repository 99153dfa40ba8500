"""A brute-force reference of SPEC.md (rules version 4), sections 1 to 3, for
bytes(input), and a model of section 4's hold-back, for
test_spec_reference.py.

Written from the spec alone, without reading the engine or its Rust
reference (tests/reference/), so that a reading the two share by
accident shows up as a difference here. Clarity over speed: every pattern
is tried at every position.

Readings taken where the text leaves room:
 R1  Dedupe ("a pattern is added only when it differs from every pattern
     already added for the same secret") keeps the earliest form.  It cannot
     change any result beyond what the tie order (form first) already gives,
     but it is done anyway.  Fragment windows are not deduped against each
     other: "When the same window occurs at several offsets of a value, each
     is a candidate."
 R2  A fragment candidate is labelled `raw` when k == 0 and its extended
     length is n (it covers v exactly); it then ties as raw, is replaced by
     the placeholder and counted as raw.
 R3  Wrapped: the view is the whole input with every CR/LF removed; a view
     occurrence starting at view index i of a base64/hex pattern P gives a
     candidate at orig[i] with span orig[i] .. orig[i+len(P)-1] (inclusive).
     If that span holds no CR/LF it is labelled with P's own form (base64 or
     hex), which coincides with the plain candidate anyway.
 R4  The "no candidate starts at CR or LF" rule is applied to every
     candidate of every form (it only bites fragment windows; all other
     patterns of a trimmed value cannot start with CR/LF, and view
     occurrences never do).
 R5  Candidates at p only read input bytes >= p, so all candidates are
     enumerated once over the whole input and the selection loop skips
     those with p < c.
 R6  JSON forms are built from the Unicode scalars of v (valid UTF-8 only).
     Percent and HTML forms work on bytes (no UTF-8 requirement), per the
     text "each byte outside the kept set becomes %XX"; HTML replaces the
     five ASCII characters byte-wise.
 R7  Percent c (quote_plus) and d (URLSearchParams): space -> '+', every
     other non-kept byte -> %XX.  a and b: space -> %20.
 R8  A compile "refusal" check: a placeholder / `[redacted:<name>]` text
     "contains a match of a pattern" when scanning that text alone with this
     reference finds at least one candidate of any form (fragment windows
     and wrapped view occurrences included).  See has_any_candidate().
"""

import base64

FORMS = ["raw", "fragment", "json", "percent", "html", "base64", "hex", "wrapped"]
FORM_INDEX = {f: i for i, f in enumerate(FORMS)}
FRAGMENT = 16
MIN_VALUE = 8
MAX_PLACEHOLDER = 1024  # bytes (section 1)
CRLF = (0x0D, 0x0A)


# ---------------------------------------------------------------- section 1

def trim(value):
    """Remove every CR and LF at the start and at the end."""
    v = bytes(value)
    while v and v[0] in CRLF:
        v = v[1:]
    while v and v[-1] in CRLF:
        v = v[:-1]
    return v


# ---------------------------------------------------------------- section 2

def raw_crlf_variant(v):
    """v with each LF not preceded by CR written as CR LF; None if none."""
    out = bytearray()
    changed = False
    for i, b in enumerate(v):
        if b == 0x0A and (i == 0 or v[i - 1] != 0x0D):
            out += b"\r\n"
            changed = True
        else:
            out.append(b)
    return bytes(out) if changed else None


def _json_common(ch):
    """Variant a's escape of one character, or None if kept as is."""
    o = ord(ch)
    table = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t",
             "\n": "\\n", "\f": "\\f", "\r": "\\r"}
    if ch in table:
        return table[ch]
    if o < 0x20:
        return "\\u%04x" % o
    return None


def _u_escape(ch):
    o = ord(ch)
    if o > 0xFFFF:
        o -= 0x10000
        hi = 0xD800 + (o >> 10)
        lo = 0xDC00 + (o & 0x3FF)
        return "\\u%04x\\u%04x" % (hi, lo)
    return "\\u%04x" % o


def json_variant(text, variant):
    out = []
    for ch in text:
        e = _json_common(ch)
        if e is not None:
            out.append(e)
            continue
        o = ord(ch)
        if variant == "b" and (o == 0x7F or o > 0x7F):
            out.append(_u_escape(ch))
        elif variant == "c" and ch in "<>&":
            out.append("\\u%04x" % o)
        elif variant == "c" and o in (0x2028, 0x2029):
            out.append("\\u%04x" % o)
        elif variant == "d" and o > 0x7F:
            out.append(_u_escape(ch))
        elif variant == "d" and ch == "/":
            out.append("\\/")
        else:
            out.append(ch)
    return "".join(out).encode("utf-8")


ALNUM = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
PERCENT_KEEP = {
    "a": ALNUM | set(b"-_.!~*'()"),
    "b": ALNUM | set(b"-_.~"),
    "c": ALNUM | set(b"-_.~"),
    "d": ALNUM | set(b"*-._"),
}


def percent_variant(v, variant, upper):
    out = bytearray()
    for b in v:
        if b in PERCENT_KEEP[variant]:
            out.append(b)
        elif b == 0x20 and variant in ("c", "d"):
            out += b"+"
        else:
            out += (("%%%02X" if upper else "%%%02x") % b).encode()
    return bytes(out)


def html_variant(v, variant):
    table = {ord("&"): b"&amp;", ord("<"): b"&lt;", ord(">"): b"&gt;",
             ord('"'): b"&quot;", ord("'"): b"&#39;"}
    if variant == "b":
        table[ord("'")] = b"&#x27;"
    if variant == "c":
        table[ord('"')] = b"&#34;"
    out = bytearray()
    for b in v:
        out += table.get(b, bytes([b]))
    return bytes(out)


def _b64(data, urlsafe):
    e = base64.b64encode(data)
    if urlsafe:
        e = e.replace(b"+", b"-").replace(b"/", b"_")
    return e


def ceil_div(a, b):
    return -((-a) // b)


def base64_patterns(v, urlsafe):
    n = len(v)
    pats = []
    for s in (0, 1, 2):
        start = ceil_div(8 * s, 6)
        end = (8 * (s + n)) // 6
        core_src = _b64(b"\0" * s + v + b"\0" * 3, urlsafe).rstrip(b"=")
        pats.append(core_src[start:end])                      # core
        tail = _b64(b"\0" * s + v, urlsafe)[start:]
        pats.append(tail)                                     # tail, padded
        pats.append(tail.rstrip(b"="))                        # tail, unpadded
    return pats


def build_patterns(v):
    """[(form, pattern bytes)] of one secret, in form order, deduped (R1).
    Fragment windows and wrapped are handled separately."""
    cand = [("raw", v)]
    crlf = raw_crlf_variant(v)
    if crlf is not None:
        cand.append(("raw", crlf))
    try:
        text = v.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        for var in "abcd":
            cand.append(("json", json_variant(text, var)))
    for upper in (True, False):
        for var in "abcd":
            cand.append(("percent", percent_variant(v, var, upper)))
    for var in "abc":
        cand.append(("html", html_variant(v, var)))
    for urlsafe in (False, True):
        for p in base64_patterns(v, urlsafe):
            cand.append(("base64", p))
    cand.append(("hex", v.hex().encode()))
    cand.append(("hex", v.hex().upper().encode()))
    out = []
    for form, p in cand:
        if p and all(p != q for _, q in out):
            out.append((form, p))
    return out


class Secret:
    def __init__(self, name, value, placeholder=None):
        self.name = name if isinstance(name, str) else name.decode()
        self.v = trim(value)
        if len(self.v) < MIN_VALUE:
            raise ValueError("value too short")
        self.placeholder = bytes(placeholder) if placeholder else None
        self.patterns = build_patterns(self.v)
        # (b)ase64 and hex patterns, for the wrapped view (not deduped away
        # by the wrapped rule: "the dedupe rule above does not remove them")
        self.wrapped = [(f, p) for f, p in self.patterns if f in ("base64", "hex")]
        n = len(self.v)
        self.windows = []
        if n > FRAGMENT:
            for k in range(0, n - FRAGMENT + 1):
                self.windows.append((k, self.v[k:k + FRAGMENT]))

    def redacted(self):
        return b"[redacted:" + self.name.encode() + b"]"


def make_secrets(specs):
    """specs: [(name, value, placeholder-or-None)]"""
    return [Secret(*s) for s in specs]


# ---------------------------------------------------------------- section 3

def occurrences(hay, needle):
    """Every start index of needle in hay, overlapping ones included."""
    out = []
    i = hay.find(needle)
    while i >= 0:
        out.append(i)
        i = hay.find(needle, i + 1)
    return out


def candidates(secrets, data):
    """All candidates: list of (p, length, form, secret index).  Brute force."""
    data = bytes(data)
    cands = []
    # The CR/LF-free view, and where each of its bytes is in data.
    pos = [i for i, b in enumerate(data) if b not in CRLF]
    view = bytes(data[i] for i in pos)
    for si, s in enumerate(secrets):
        n = len(s.v)
        for form, pat in s.patterns:
            for p in occurrences(data, pat):
                cands.append((p, len(pat), form, si))
        for k, w in s.windows:
            for p in occurrences(data, w):
                e = 0
                while (k + FRAGMENT + e < n and p + FRAGMENT + e < len(data)
                       and data[p + FRAGMENT + e] == s.v[k + FRAGMENT + e]):
                    e += 1
                length = FRAGMENT + e
                form = "raw" if (k == 0 and length == n) else "fragment"  # R2
                cands.append((p, length, form, si))
        # wrapped (R3)
        for form, pat in s.wrapped:
            for i in occurrences(view, pat):
                a, z = pos[i], pos[i + len(pat) - 1]
                span = data[a:z + 1]
                f = "wrapped" if (b"\r" in span or b"\n" in span) else form
                cands.append((a, z + 1 - a, f, si))
    # R4: no candidate of any form starts at CR or LF
    return [c for c in cands if data[c[0]] not in CRLF]


def best(cs):
    """Longest, then form order, then secret index."""
    return min(cs, key=lambda c: (-c[1], FORM_INDEX[c[2]], c[3]))


def replacement(secrets, cand, data, same_length):
    p, length, form, si = cand
    span = data[p:p + length]
    if same_length:
        return bytes(b if b in CRLF else 0x2A for b in span)
    s = secrets[si]
    if form == "raw" and s.placeholder:
        return s.placeholder
    return s.redacted()


def select(secrets, data):
    """The list of selected matches (p, length, form, si), in order."""
    data = bytes(data)
    by_pos = {}
    for c in candidates(secrets, data):
        by_pos.setdefault(c[0], []).append(c)
    out = []
    p = 0
    while p < len(data):
        if p in by_pos:
            m = best(by_pos[p])
            out.append(m)
            p = p + m[1]
        else:
            p += 1
    return out


def hits_of(secrets, matches):
    counts = {}
    for _, _, form, si in matches:
        counts[(si, form)] = counts.get((si, form), 0) + 1
    return [(secrets[si].name, form, counts[(si, form)])
            for si, form in sorted(counts, key=lambda k: (k[0], FORM_INDEX[k[1]]))]


def render(secrets, data, matches, same_length):
    out = bytearray()
    c = 0
    for m in matches:
        out += data[c:m[0]]
        out += replacement(secrets, m, data, same_length)
        c = m[0] + m[1]
    out += data[c:]
    return bytes(out)


def scrub(secrets, data, same_length=False):
    """bytes(input): (output, [(name, form, count)])"""
    data = bytes(data)
    matches = select(secrets, data)
    return render(secrets, data, matches, same_length), hits_of(secrets, matches)


def merge_hits(secrets, hit_lists):
    idx = {s.name: i for i, s in enumerate(secrets)}
    counts = {}
    for hl in hit_lists:
        for name, form, n in hl:
            counts[(name, form)] = counts.get((name, form), 0) + n
    return [(nm, f, counts[(nm, f)])
            for nm, f in sorted(counts, key=lambda k: (idx[k[0]], FORM_INDEX[k[1]]))]


def has_any_candidate(secrets, text):
    """R8: does text contain a match of any pattern of any secret?"""
    return bool(candidates(secrets, text))


# ---------------------------------------------------------------- section 4 model

def _could_grow(secrets, data, q):
    """Section 4: at q, could the input so far still become a longer candidate?"""
    t = len(data)
    if data[q] in CRLF:
        return False
    tail = data[q:]
    view_tail = bytes(b for b in tail if b not in CRLF)
    for s in secrets:
        # proper prefix of a pattern (all forms, CRLF raw variant, windows)
        for _, pat in s.patterns:
            if len(pat) > len(tail) and pat.startswith(tail):
                return True
        for _, w in s.windows:
            if len(w) > len(tail) and w.startswith(tail) and w[0] not in CRLF:
                return True
        # with CR and LF removed, a proper prefix of a base64 or hex pattern
        for _, pat in s.wrapped:
            if len(pat) > len(view_tail) and pat.startswith(view_tail):
                return True
        # a fragment candidate at q reached the end with value bytes left
        n = len(s.v)
        for k, w in s.windows:
            if w[0] in CRLF or len(tail) < FRAGMENT:
                continue
            if tail[:FRAGMENT] != w:
                continue
            ext = len(tail) - FRAGMENT
            if k + FRAGMENT + ext < n and tail[FRAGMENT:] == s.v[k + FRAGMENT:k + FRAGMENT + ext]:
                return True
    return False


def stream_state(secrets, data, same_length=False):
    """For the input pushed so far: (hold position, output decided so far,
    matches decided so far).  Bytes from the hold position on are held."""
    data = bytes(data)
    by_pos = {}
    for c in candidates(secrets, data):
        by_pos.setdefault(c[0], []).append(c)
    out = bytearray()
    matches = []
    q = 0
    while q < len(data):
        if _could_grow(secrets, data, q):
            return q, bytes(out), matches
        if q in by_pos:
            m = best(by_pos[q])
            matches.append(m)
            out += replacement(secrets, m, data, same_length)
            q += m[1]
        else:
            out.append(data[q])
            q += 1
    return len(data), bytes(out), matches

