#!/usr/bin/env python3
"""Writes the shared test vectors of slicc-scrub (SPEC.md section 5).

    python3 vectors/generate.py          # (re)write vectors.json, idle.json, patterns.json, errors.json
    python3 vectors/generate.py --check  # exit 1, naming what differs, when a committed file is stale

Every case is *built*: its input is a list of segments, plain bytes and matches
(secret index, form, the encoded bytes) made with Python's own standard encoders,
and its expected output is the concatenation of the plain bytes and the
replacements. Nothing here selects matches to produce an output.

The generator then checks each case against SPEC.md section 3 with the pattern set
of section 2 (computed here in Python, independently of the Rust scrubber): no
candidate may start inside plain text, and each match segment must be the longest
candidate at its position with the right form and secret. A case that fails that
check is a mistake in the case, and the script stops.

idle.json (streams with idle calls) is checked the same way, and its outputs,
written by hand, are re-derived from the segments and the hold rule of section 4.
patterns.json lists section 2's ordered patterns for a few values.
errors.json lists secrets and options that a compile must refuse, each with the
one kind of error of section 1 that it has (checked here against section 1).

Rules version 4: a secret's value is written as given (with any leading and
trailing CR and LF) and every pattern and candidate is built from the trimmed
value (SPEC section 1).

    python3 vectors/generate.py --coverage  # which cases match each form and variant

Standard library only (Python 3.11).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import json
import re
import sys
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

FRAGMENT = 16
MIN_VALUE = 8
IDLE_MS = 50
RULES_VERSION = 4  # the rules this file speaks of: SPEC.md, rules version 4
FORMS = ("raw", "fragment", "json", "percent", "html", "base64", "hex", "wrapped")
FORM_RANK = {f: i for i, f in enumerate(FORMS)}
CR, LF = 0x0D, 0x0A


def as_bytes(x: str | bytes) -> bytes:
    return x.encode("utf-8") if isinstance(x, str) else bytes(x)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")  # strict: rejects surrogates and overlongs
    except UnicodeDecodeError:
        return False
    return True


# ---------------------------------------------------------------------------
# Encoders, from the standard library (SPEC section 2). Each is cross-checked
# against a direct transcription of the spec's rule (spec_* below).
# ---------------------------------------------------------------------------


def json_a(v: str) -> bytes:
    """ECMAScript JSON.stringify body (same as Python with ensure_ascii=False for
    any string that is valid UTF-8, which has no lone surrogates)."""
    return json.dumps(v, ensure_ascii=False)[1:-1].encode()


def json_b(v: str) -> bytes:
    """Python json.dumps default (ensure_ascii)."""
    return json.dumps(v, ensure_ascii=True)[1:-1].encode()


_GO_EXTRA = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_c(v: str) -> bytes:
    """Go encoding/json: as a, and < > & U+2028 U+2029 as \\u escapes."""
    return "".join(_GO_EXTRA.get(ch) or json.dumps(ch, ensure_ascii=False)[1:-1] for ch in v).encode()


def json_d(v: str) -> bytes:
    """PHP json_encode: as a, non-ASCII as in b (U+007F stays), / as \\/."""
    return "".join(
        "\\/" if ch == "/" else json.dumps(ch, ensure_ascii=ord(ch) > 0x7F)[1:-1] for ch in v
    ).encode()


def _lower_escapes(p: bytes) -> bytes:
    return re.sub(rb"%[0-9A-F]{2}", lambda m: m.group(0).lower(), p)


def pct_a(v: bytes) -> bytes:
    """encodeURIComponent."""
    return urllib.parse.quote(v, safe="-_.!~*'()").encode()


def pct_b(v: bytes) -> bytes:
    """RFC 3986, Python quote(v, safe='')."""
    return urllib.parse.quote(v, safe="").encode()


def pct_c(v: bytes) -> bytes:
    """Form encoding, Python quote_plus / Go url.QueryEscape."""
    return urllib.parse.quote_plus(v, safe="").encode()


def pct_d(v: bytes) -> bytes:
    """WHATWG URLSearchParams: keeps A-Z a-z 0-9 * - . _ and writes space as +.
    Python's quote always keeps ~, which URLSearchParams escapes: fix that."""
    return urllib.parse.quote_plus(v, safe="*-._").replace("~", "%7E").encode()


def html_b(v: bytes) -> bytes:
    """Python html.escape (quote=True); bytes pass through latin-1 unchanged."""
    return html.escape(v.decode("latin-1"), quote=True).encode("latin-1")


def html_a(v: bytes) -> bytes:
    return html_b(v).replace(b"&#x27;", b"&#39;")


def html_c(v: bytes) -> bytes:
    """Go html.EscapeString."""
    return html_a(v).replace(b"&quot;", b"&#34;")


def _b64(data: bytes, alphabet: str) -> bytes:
    return base64.b64encode(data) if alphabet == "std" else base64.urlsafe_b64encode(data)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def b64_core(v: bytes, alphabet: str, s: int) -> bytes:
    enc = _b64(b"\0" * s + v + b"\0\0\0", alphabet).rstrip(b"=")
    return enc[_ceil_div(8 * s, 6) : (8 * (s + len(v))) // 6]


def b64_tail(v: bytes, alphabet: str, s: int, padded: bool) -> bytes:
    enc = _b64(b"\0" * s + v, alphabet)[_ceil_div(8 * s, 6) :]
    return enc if padded else enc.rstrip(b"=")


def hex_lower(v: bytes) -> bytes:
    return binascii.hexlify(v)


def hex_upper(v: bytes) -> bytes:
    return binascii.hexlify(v).upper()


def crlf_variant(v: bytes) -> bytes | None:
    """v with each LF not preceded by CR written as CR LF; None when there is none."""
    if not re.search(rb"(?<!\r)\n", v):
        return None
    return re.sub(rb"(?<!\r)\n", b"\r\n", v)


# --- direct transcriptions of the spec, used only to check the encoders above ---


def spec_json(v: str, variant: str) -> bytes:
    short = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}
    out = []
    for ch in v:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o in short:
            out.append(short[o])
        elif o < 0x20:
            out.append("\\u%04x" % o)
        elif variant == "c" and ch in "<>&\u2028\u2029":
            out.append("\\u%04x" % o)
        elif variant == "d" and ch == "/":
            out.append("\\/")
        elif (variant == "b" and o >= 0x7F) or (variant == "d" and o > 0x7F):
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out).encode()


_ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_KEEP = {"a": _ALNUM + b"-_.!~*'()", "b": _ALNUM + b"-_.~", "c": _ALNUM + b"-_.~", "d": _ALNUM + b"*-._"}


def spec_percent(v: bytes, variant: str) -> bytes:
    out = bytearray()
    for byte in v:
        if byte in _KEEP[variant]:
            out.append(byte)
        elif byte == 0x20 and variant in "cd":
            out += b"+"
        else:
            out += b"%%%02X" % byte
    return bytes(out)


def spec_html(v: bytes, variant: str) -> bytes:
    table = {b"&": b"&amp;", b"<": b"&lt;", b">": b"&gt;", b'"': b"&quot;", b"'": b"&#39;"}
    if variant == "b":
        table[b"'"] = b"&#x27;"
    if variant == "c":
        table[b'"'] = b"&#34;"
    return b"".join(table.get(v[i : i + 1], v[i : i + 1]) for i in range(len(v)))


def spec_b64_core(v: bytes, alphabet: str, s: int) -> bytes:
    """Bit by bit: the characters whose six bits all come from v."""
    chars = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    chars += b"+/" if alphabet == "std" else b"-_"
    bits = "0" * (8 * s) + "".join(f"{x:08b}" for x in v)
    first = 8 * s
    out = bytearray()
    j = 0
    while 6 * j + 6 <= len(bits):
        if 6 * j >= first:
            out.append(chars[int(bits[6 * j : 6 * j + 6], 2)])
        j += 1
    return bytes(out)


def check_encoders(v: bytes) -> None:
    """Asserts the standard-library encoders agree with the spec's rules for v."""
    if is_utf8(v):
        t = v.decode()
        assert json_a(t) == spec_json(t, "a"), (v, "json a")
        assert json_b(t) == spec_json(t, "b"), (v, "json b")
        assert json_c(t) == spec_json(t, "c"), (v, "json c")
        assert json_d(t) == spec_json(t, "d"), (v, "json d")
    for variant, fn in zip("abcd", (pct_a, pct_b, pct_c, pct_d)):
        assert fn(v) == spec_percent(v, variant), (v, "percent", variant)
    for variant, fn in zip("abc", (html_a, html_b, html_c)):
        assert fn(v) == spec_html(v, variant), (v, "html", variant)
    for alphabet in ("std", "url"):
        for s in range(3):
            assert b64_core(v, alphabet, s) == spec_b64_core(v, alphabet, s), (v, alphabet, s)


# ---------------------------------------------------------------------------
# The pattern list of one value (SPEC section 2), in order, after the dedupe.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    form: str
    variant: str
    data: bytes


def patterns(v: bytes) -> list[Pattern]:
    out: list[Pattern] = []
    seen: set[bytes] = set()

    def add(form: str, variant: str, data: bytes) -> None:
        if data not in seen:
            seen.add(data)
            out.append(Pattern(form, variant, data))

    add("raw", "lf", v)
    crlf = crlf_variant(v)
    if crlf is not None:
        add("raw", "crlf", crlf)
    if len(v) > FRAGMENT:
        for k in range(len(v) - FRAGMENT + 1):
            add("fragment", f"@{k}", v[k : k + FRAGMENT])
    if is_utf8(v):
        t = v.decode()
        for variant, fn in zip("abcd", (json_a, json_b, json_c, json_d)):
            add("json", variant, fn(t))
    for case_ in ("upper", "lower"):
        for variant, fn in zip("abcd", (pct_a, pct_b, pct_c, pct_d)):
            p = fn(v)
            add("percent", f"{variant}-{case_}", p if case_ == "upper" else _lower_escapes(p))
    for variant, fn in zip("abc", (html_a, html_b, html_c)):
        add("html", variant, fn(v))
    for alphabet in ("std", "url"):
        for s in range(3):
            add("base64", f"{alphabet}/s{s}/core", b64_core(v, alphabet, s))
            add("base64", f"{alphabet}/s{s}/tail-padded", b64_tail(v, alphabet, s, True))
            add("base64", f"{alphabet}/s{s}/tail-unpadded", b64_tail(v, alphabet, s, False))
    add("hex", "lower", hex_lower(v))
    add("hex", "upper", hex_upper(v))
    return out


def check_spec_example() -> None:
    """SPEC section 2, item 6: the example for ghp_abcdefgh."""
    v = b"ghp_abcdefgh"
    assert b64_tail(v, "std", 0, True) == b"Z2hwX2FiY2RlZmdo"
    assert b64_core(v, "std", 0) == b"Z2hwX2FiY2RlZmdo"
    assert b64_core(v, "std", 1) == b"docF9hYmNkZWZna"
    assert b64_tail(v, "std", 1, True) == b"docF9hYmNkZWZnaA=="
    assert b64_core(v, "std", 2) == b"naHBfYWJjZGVmZ2"
    assert b64_tail(v, "std", 2, True) == b"naHBfYWJjZGVmZ2g="


# ---------------------------------------------------------------------------
# Secrets, and the candidates of SPEC section 3 (used only to check cases).
# ---------------------------------------------------------------------------

NAME_RE = re.compile(r"[A-Za-z0-9_.\-]{1,128}")


MAX_VALUE = 65536
MAX_PLACEHOLDER = 1024
MAX_NAME = 128


def trim(given: bytes) -> bytes:
    """SPEC section 1 (rules version 4): every CR and LF at the start and at the
    end of a value is removed before anything else; CR and LF inside stay."""
    return given.strip(b"\r\n")


@dataclass
class Secret:
    """`given` is the value as the secrets list holds it; `value` is the trimmed
    value `v` of SPEC section 2, the one every pattern is built from."""

    name: str
    given: bytes
    placeholder: bytes | None = None  # None: absent; b"": present but empty (= none)
    hex_value: bool = False  # write the value as valueHex even when it is UTF-8
    value: bytes = field(init=False)
    pats: list[Pattern] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        assert NAME_RE.fullmatch(self.name), self.name
        assert len(self.given) <= MAX_VALUE, self.name  # as given, before trimming
        self.value = trim(self.given)
        assert len(self.value) >= MIN_VALUE, self.name  # once trimmed
        assert self.placeholder is None or len(self.placeholder) <= MAX_PLACEHOLDER
        check_encoders(self.value)
        self.pats = patterns(self.value)

    def redacted(self) -> bytes:
        return b"[redacted:" + self.name.encode() + b"]"

    def replacement(self, form: str) -> bytes:
        if form == "raw" and self.placeholder:
            return self.placeholder
        return self.redacted()

    def to_json(self) -> dict:
        d: dict = {"name": self.name}
        d.update({"valueHex": self.given.hex()} if self.hex_value else text_or_hex("value", self.given))
        if self.placeholder is not None:
            d.update(text_or_hex("placeholder", self.placeholder))
        return d


def S(name: str, value: str | bytes, placeholder: str | bytes | None = None, hex_value: bool = False) -> Secret:
    return Secret(name, as_bytes(value), None if placeholder is None else as_bytes(placeholder), hex_value)


def text_or_hex(key: str, data: bytes) -> dict:
    if is_utf8(data):
        return {key: data.decode("utf-8")}
    return {key + "Hex": data.hex()}


class Matcher:
    """The candidates of SPEC section 3 at one position. Only a checker: the
    expected outputs are built from segments, never from this."""

    def __init__(self, secrets: list[Secret]):
        self.secrets = secrets
        self.fixed = [(p.data, p.form, i) for i, s in enumerate(secrets) for p in s.pats if p.form != "fragment"]
        self.wrap = [(p.data, i) for i, s in enumerate(secrets) for p in s.pats if p.form in ("base64", "hex")]

    def candidates(self, inp: bytes, p: int) -> list[tuple[int, str, int]]:
        """(length in original bytes, form, secret index) of every candidate at p."""
        if inp[p] in (CR, LF):
            return []
        out = [(len(d), form, i) for d, form, i in self.fixed if inp.startswith(d, p)]
        window = inp[p : p + FRAGMENT]
        for i, s in enumerate(self.secrets):
            v, n = s.value, len(s.value)
            if n <= FRAGMENT or len(window) < FRAGMENT:
                continue
            for k in range(n - FRAGMENT + 1):
                if v[k : k + FRAGMENT] != window:
                    continue
                e = 0
                while p + FRAGMENT + e < len(inp) and k + FRAGMENT + e < n and inp[p + FRAGMENT + e] == v[k + FRAGMENT + e]:
                    e += 1
                length = FRAGMENT + e
                out.append((length, "raw" if k == 0 and length == n else "fragment", i))
        # wrapped: base64 and hex patterns on the view without CR and LF
        view_pos = [j for j in range(p, len(inp)) if inp[j] not in (CR, LF)]
        view = bytes(inp[j] for j in view_pos)
        for d, i in self.wrap:
            if view.startswith(d):
                end = view_pos[len(d) - 1] + 1
                span = inp[p:end]
                if CR in span or LF in span:
                    out.append((end - p, "wrapped", i))
        return out

    @staticmethod
    def best(cands: list[tuple[int, str, int]]) -> tuple[int, str, int]:
        return max(cands, key=lambda c: (c[0], -FORM_RANK[c[1]], -c[2]))

    def first_candidate(self, data: bytes) -> int | None:
        for p in range(len(data)):
            if self.candidates(data, p):
                return p
        return None

    def holds(self, buf: bytes, q: int) -> bool:
        """SPEC section 4: could the input so far still become, at q, a candidate
        longer than any complete one? (for the idle vectors' check)"""
        if buf[q] in (CR, LF):
            return False
        rest = buf[q:]
        view = bytes(x for x in rest if x not in (CR, LF))
        for s in self.secrets:
            for pat in s.pats:
                if len(rest) < len(pat.data) and pat.data.startswith(rest):
                    return True
                if pat.form in ("base64", "hex") and len(view) < len(pat.data) and pat.data.startswith(view):
                    return True
            v, n = s.value, len(s.value)
            if n > FRAGMENT and len(rest) >= FRAGMENT:
                for k in range(n - FRAGMENT + 1):
                    if k + len(rest) < n and v[k : k + len(rest)] == rest:
                        return True
        return False


# ---------------------------------------------------------------------------
# Segments and the case builder.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class M:
    """A match segment: secret index, form, the bytes in the input; optionally the
    pattern variant it is meant to be (checked)."""

    secret: int
    form: str
    data: bytes
    variant: str | None = None


def m(secret: int, form: str, data: str | bytes, variant: str | None = None) -> M:
    assert form in FORMS, form
    return M(secret, form, as_bytes(data), variant)


Segment = bytes | str | M


def seg_input(seg: Segment) -> bytes:
    return seg.data if isinstance(seg, M) else as_bytes(seg)


def seg_output(seg: Segment, secrets: list[Secret], same_length: bool) -> bytes:
    if not isinstance(seg, M):
        return as_bytes(seg)
    if same_length:
        return bytes(x if x in (CR, LF) else 0x2A for x in seg.data)
    return secrets[seg.secret].replacement(seg.form)


COVERAGE: dict[tuple[str, str], list[str]] = {}


def check_claim(name: str, s: Secret, seg: M) -> str:
    """Cheap: the segment really is the encoding of the value it claims. Returns
    the variant it is (for the coverage table)."""
    v, d = s.value, seg.data
    if seg.form == "raw":
        assert d == v or d == crlf_variant(v), (name, "not raw", d)
        variant = "lf" if d == v else "crlf"
    elif seg.form == "fragment":
        assert len(d) >= FRAGMENT and d in v and d != v, (name, "not a fragment", d)
        variant = "window" if len(d) == FRAGMENT else "extended"
    elif seg.form == "wrapped":
        assert (CR in d or LF in d) and d[0] not in (CR, LF) and d[-1] not in (CR, LF), (name, "not wrapped", d)
        view = bytes(x for x in d if x not in (CR, LF))
        owners = [p for p in s.pats if p.data == view and p.form in ("base64", "hex")]
        assert owners, (name, "not a wrapped pattern", d)
        variant = f"{owners[0].form} {owners[0].variant}"
        variant += " crlf" if CR in d else " lf"
    else:
        owners = [p for p in s.pats if p.data == d]
        assert owners and owners[0].form == seg.form, (name, f"not {seg.form}", d, owners)
        variant = owners[0].variant
    if seg.variant is not None:
        assert variant == seg.variant, (name, f"is {seg.form} {variant}, not {seg.variant}")
    COVERAGE.setdefault((seg.form, variant), []).append(name)
    return variant


def audit(name: str, secrets: list[Secret], segments: list[Segment], inp: bytes) -> None:
    """SPEC section 3, position by position: no candidate in plain text; each match
    is the best candidate at its start (longest, then form, then secret)."""
    mt = Matcher(secrets)
    pos = 0
    for seg in segments:
        data = seg_input(seg)
        if isinstance(seg, M):
            cands = mt.candidates(inp, pos)
            assert cands, f"{name}: no candidate at {pos} for {seg}"
            best = mt.best(cands)
            want = (len(data), seg.form, seg.secret)
            assert best == want, f"{name}: at {pos} the best candidate is {best}, the case says {want}"
        else:
            for q in range(pos, pos + len(data)):
                cands = mt.candidates(inp, q)
                assert not cands, f"{name}: unintended candidate at {q}: {cands} in {inp[q:q+40]!r}"
        pos += len(data)


def check_secrets(name: str, secrets: list[Secret]) -> None:
    """SPEC section 1: unique names; no placeholder or [redacted:<name>] contains a match."""
    names = [s.name for s in secrets]
    assert len(set(names)) == len(names), f"{name}: duplicate name"
    mt = Matcher(secrets)
    for s in secrets:
        for text in (s.redacted(), s.placeholder or b""):
            assert mt.first_candidate(text) is None, f"{name}: {s.name}'s replacement contains a match"


def hits_of(secrets: list[Secret], matches: list[M]) -> list[dict]:
    counts: dict[tuple[int, str], int] = {}
    for seg in matches:
        counts[(seg.secret, seg.form)] = counts.get((seg.secret, seg.form), 0) + 1
    order = sorted(counts, key=lambda key: (key[0], FORM_RANK[key[1]]))
    return [{"name": secrets[i].name, "form": f, "count": counts[(i, f)]} for i, f in order]


def build(name: str, secrets: list[Secret], segments: list[Segment], same_length: bool) -> tuple[bytes, bytes, list[M]]:
    """Input, expected output and matches of a segment list, checked."""
    check_secrets(name, secrets)
    inp = b"".join(seg_input(s) for s in segments)
    out = b"".join(seg_output(s, secrets, same_length) for s in segments)
    matches = [s for s in segments if isinstance(s, M)]
    for seg in matches:
        check_claim(name, secrets[seg.secret], seg)
    audit(name, secrets, segments, inp)
    # No value, and no base64 or hex of it, survives in the output ...
    flat = bytes(x for x in out if x not in (CR, LF))
    for s in secrets:
        for enc in (s.value, base64.b64encode(s.value), hex_lower(s.value), hex_upper(s.value)):
            assert enc not in out and enc not in flat, f"{name}: {s.name} survives in the output"
    # ... nor does any candidate at all (a case whose output had one would be a
    # doubtful case: better rebuilt than explained).
    p = Matcher(secrets).first_candidate(out)
    assert p is None, f"{name}: the expected output has a candidate at {p}: {out[p:p+40]!r}"
    if same_length:
        assert len(out) == len(inp)
    return inp, out, matches


CASES: list[dict] = []


def case(name: str, secrets: list[Secret], segments: list[Segment], options: dict | None = None) -> None:
    assert all(c["name"] != name for c in CASES), f"duplicate case {name}"
    same_length = bool(options and options.get("sameLength"))
    inp, out, matches = build(name, secrets, segments, same_length)
    d: dict = {"name": name, "secrets": [s.to_json() for s in secrets]}
    if same_length:
        d["options"] = {"sameLength": True}
    d.update(text_or_hex("input", inp))
    d.update(text_or_hex("output", out))
    d["hits"] = hits_of(secrets, matches)
    CASES.append(d)


# ---------------------------------------------------------------------------
# Values used by several groups, and helpers that lay encoded values into text.
# ---------------------------------------------------------------------------

API = "sk-live-7f3a9c2e5b"  # 18 bytes
GH = "ghp_R8x2Kq9LmZ4vT7nW3yB6cD1fH5jP0sUa"  # 36 bytes, every 16-byte window distinct
SPEC_EX = "ghp_abcdefgh"  # the spec's base64 example
B13 = "key?~>b64-one"  # 13 bytes: every std core has + or /; tails exist at shifts 0 and 1
B14 = "key?~>b64-two."  # 14 bytes: the same; tails exist at shifts 0 and 2
JSONV = 'pa"ss\\wd/é<&>1'  # json a, b, c and d all differ
PCT = "p@ss w0rd~!*'()/"  # 16 bytes: percent a-d all differ, in upper and in lower case
HTMLV = "a&b<c>d\"e'f-secret"  # html a, b and c all differ
UTF = "pässwörd-ünïcødé"  # multi-byte UTF-8
BIN = b"\xde\xad\xbe\xef\x00<&>\xff\xfe\x80"  # not UTF-8


def _pem(label: str, seed: bytes) -> str:
    data = b"".join(hashlib.sha256(seed + bytes([i])).digest() for i in range(8))
    body = base64.b64encode(data).decode()
    lines = [body[i * 64 : (i + 1) * 64] for i in range(3)] + [body[192:232]]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


PEM = _pem("TEST KEY", b"slicc-scrub vectors pem")  # multi-line, LF, 286 bytes
LONG = "tok_" + base64.b64encode(b"".join(hashlib.sha256(b"long %d" % i).digest() for i in range(4))).decode()[:124]

assert len(API) == 18 and len(GH) == 36 and len(B13) == 13 and len(B14) == 14 and len(PCT) == 16
assert len(LONG) == 128 and len(PEM) > 256


def crlf(text: str | bytes) -> bytes:
    out = crlf_variant(as_bytes(text))
    assert out is not None
    return out


def b64_blob(secret: int, v: str | bytes, prefix: bytes, suffix: bytes, alphabet: str = "std",
             padded: bool = True, variant: str | None = None, extra: int = 0) -> list[Segment]:
    """base64(prefix ‖ v ‖ suffix) as [before, match, after]. The match is the core
    (the characters whose six bits all come from v) when a suffix follows, the
    tail (to the blob's end) when v ends the blob; `extra` widens the core by
    that many characters (for a tail pattern that also matches mid-blob)."""
    v = as_bytes(v)
    blob = _b64(prefix + v + suffix, alphabet)
    if not padded:
        blob = blob.rstrip(b"=")
    s, base = len(prefix) % 3, 4 * (len(prefix) // 3)
    start = base + _ceil_div(8 * s, 6)
    end = base + (8 * (s + len(v))) // 6 + extra if suffix else len(blob)
    return [blob[:start], M(secret, "base64", blob[start:end], variant), blob[end:]]


def hex_blob(secret: int, v: str | bytes, prefix: bytes, suffix: bytes, upper: bool = False,
             variant: str | None = None) -> list[Segment]:
    v = as_bytes(v)
    enc = hex_upper if upper else hex_lower
    return [enc(prefix), M(secret, "hex", enc(v), variant), enc(suffix)]


def wrap(segments: list[Segment], width: int, nl: bytes) -> list[Segment]:
    """Cuts the text of segments into lines of `width` characters, each followed by
    nl (like base64.encodebytes for 76 and LF). A match that gets a line break
    inside becomes `wrapped`; breaks at its edges stay in the plain text."""
    text = b"".join(seg_input(s) for s in segments)
    lines = [text[i : i + width] for i in range(0, len(text), width)]
    out_text = nl.join(lines) + nl
    at = lambda i: i + (i // width) * len(nl)  # noqa: E731  position of text[i] in out_text
    out: list[Segment] = []
    cur = pos = 0
    for seg in segments:
        n = len(seg_input(seg))
        if isinstance(seg, M):
            a, b = at(pos), at(pos + n - 1) + 1
            out.append(out_text[cur:a])
            span = out_text[a:b]
            if b"\r" in span or b"\n" in span:
                nl_name = "crlf" if b"\r" in span else "lf"
                variant = f"{seg.form} {seg.variant} {nl_name}" if seg.variant else None
                out.append(M(seg.secret, "wrapped", span, variant))
            else:
                out.append(M(seg.secret, seg.form, span, seg.variant))
            cur = b
        pos += n
    out.append(out_text[cur:])
    return [x for x in out if x != b""]


# ---------------------------------------------------------------------------
# The cases, one function per group.
# ---------------------------------------------------------------------------


def group_basics() -> None:
    api = S("API_KEY", API)
    case("no_secrets_passthrough", [], ["export API_KEY=" + API + "\nnothing is replaced without secrets\n"])
    case("no_secrets_binary_passthrough", [], [b"\x00\xff\xfe binary \r\n\x80"])
    case("no_secrets_empty_input", [], [])
    case("empty_input", [api], [])
    case("no_match", [api], ["a line of output with nothing secret in it\n"])
    case("near_miss_15_bytes_of_value", [api], ["key: " + API[:15] + "...\n"])
    case("case_sensitive_no_match", [api], ["key: " + API.upper() + "\n"])
    case("raw_whole_input", [api], [m(0, "raw", API, "lf")])
    case("raw_in_text", [api], ["export API_KEY=", m(0, "raw", API), "\n"])
    case("raw_at_input_start", [api], [m(0, "raw", API), " was printed\n"])
    case("raw_at_input_end", [api], ["the key is ", m(0, "raw", API)])
    case("raw_twice", [api], ["a=", m(0, "raw", API), " b=", m(0, "raw", API), "\n"])
    case("raw_adjacent_same_secret", [api], [m(0, "raw", API), m(0, "raw", API)])
    with_ph = S("API_KEY", API, "fnox_proxy_API_KEY")
    case("placeholder_replaces_raw", [with_ph], ["Authorization: Bearer ", m(0, "raw", API), "\r\n"])
    case("placeholder_empty_is_none", [S("API_KEY", API, "")], ["Authorization: Bearer ", m(0, "raw", API), "\r\n"])
    case("placeholder_only_for_raw", [with_ph],
         ["raw=", m(0, "raw", API), " hex=", m(0, "hex", hex_lower(as_bytes(API))), "\n"])
    case("placeholder_absent", [api], ["Authorization: Bearer ", m(0, "raw", API), "\r\n"])
    case("min_value_8_bytes", [S("PIN", "hunter2!")], ["password: ", m(0, "raw", "hunter2!"), "\n"])
    case("raw_multibyte_utf8", [S("PASS", UTF)], ["pw=", m(0, "raw", UTF), "\n"])
    case("raw_multibyte_utf8_placeholder", [S("PASS", UTF, "«pässwort»")], ["pw=", m(0, "raw", UTF), "\n"])


def group_raw_crlf() -> None:
    pem = S("PEM_KEY", PEM)
    case("raw_multiline_lf", [pem], ["key:\n", m(0, "raw", PEM, "lf"), "\n"])
    case("raw_multiline_printed_crlf", [pem], ["key:\r\n", m(0, "raw", crlf(PEM), "crlf"), "\r\n"])
    case("raw_multiline_crlf_placeholder", [S("PEM_KEY", PEM, "fnox:PEM_KEY")],
         ["$ cat key.pem\r\n", m(0, "raw", crlf(PEM), "crlf"), "\r\n$ "])
    short = "db_user=svc\ndb_pass=Tr0ub4dor-3"
    case("raw_short_multiline_crlf", [S("DB", short)], ["> ", m(0, "raw", crlf(short), "crlf"), "\r\n> "])
    case("raw_short_multiline_lf_and_crlf", [S("DB", short)],
         ["a:\n", m(0, "raw", short, "lf"), "\nb:\r\n", m(0, "raw", crlf(short), "crlf"), "\r\n"])
    mixed = "user=svc\r\npass=Tr0ub4dor-3\nend=1"  # one CRLF already, one lone LF
    case("raw_mixed_line_ends_value", [S("MIXED", mixed)],
         ["as is: ", m(0, "raw", mixed, "lf"), "\nprinted: ", m(0, "raw", crlf(mixed), "crlf"), "\n"])
    only_crlf = "alpha=1\r\nbeta=2-secret"  # no lone LF: no crlf variant, and LF-only text is not it
    case("raw_crlf_value_not_matched_as_lf", [S("CRLF_ONLY", only_crlf)], ["alpha=1\nbeta=2-secret\n"])
    case("raw_crlf_value_matched_as_is", [S("CRLF_ONLY", only_crlf)], [m(0, "raw", only_crlf), "\r\n"])


def group_fragments() -> None:
    gh = S("GH_TOKEN", GH)
    case("fragment_window_alone", [gh], ["log: ", m(0, "fragment", GH[10:26], "window"), " (cut)\n"])
    case("fragment_extended_to_value_end", [gh], ["tail=", m(0, "fragment", GH[12:]), ";\n"])
    case("fragment_stops_at_mismatch", [gh], ["x=", m(0, "fragment", GH[5:27]), "#\n"])
    case("fragment_at_input_start", [gh], [m(0, "fragment", GH[3:30]), " ...\n"])
    case("fragment_at_input_end", [gh], ["... ", m(0, "fragment", GH[3:30])])
    case("fragment_whole_input", [gh], [m(0, "fragment", GH[2:20])])
    case("fragment_window_alone_whole_input", [gh], [m(0, "fragment", GH[7:23], "window")])
    case("fragment_value_start", [gh], ["GH=", m(0, "fragment", GH[:20]), "...\n"])
    case("fragment_value_end", [gh], ["...", m(0, "fragment", GH[-20:]), "\n"])
    case("fragment_value_start_window_only", [gh], ["GH=", m(0, "fragment", GH[:16], "window"), "...\n"])
    case("fragment_value_end_window_only", [gh], ["...", m(0, "fragment", GH[-16:], "window"), "\n"])
    gh_ph = S("GH_TOKEN", GH, "fnox_proxy_GH_TOKEN")
    case("fragment_all_but_last_byte_no_placeholder", [gh_ph], ["GH=", m(0, "fragment", GH[:-1]), "?\n"])
    case("fragment_all_but_first_byte", [gh_ph], ["GH=", m(0, "fragment", GH[1:]), "\n"])
    case("fragment_covering_whole_value_is_raw", [gh_ph], ["GH=", m(0, "raw", GH), "\n"])
    case("fragment_two_pieces", [gh], ["a=", m(0, "fragment", GH[:18]), " b=", m(0, "fragment", GH[18:]), "\n"])
    case("fragment_starts_at_leftmost_window", [gh], ["x", m(0, "fragment", GH[9:26]), " \n"])
    v17 = "abcdefgh-ijklmnop"
    case("value_17_bytes_two_windows", [S("K17", v17)],
         ["a=", m(0, "fragment", v17[:16], "window"), "! b=", m(0, "fragment", v17[1:], "window"),
          " c=", m(0, "raw", v17), "\n"])
    v16 = "abcdefgh-ijklmno"
    case("value_16_bytes_has_no_fragments", [S("K16", v16)], ["a=" + v16[:15] + " b=" + v16[1:] + "\n"])
    case("value_16_bytes_raw", [S("K16", v16)], ["a=", m(0, "raw", v16), "\n"])
    uni = "0123456789abcdef-ä-tail"
    case("fragment_cuts_multibyte_character", [S("UNI", uni)],
         [m(0, "fragment", "0123456789abcdef-".encode() + b"\xc3"), "é-tail".encode()[1:]])
    pem_crlf = crlf(PEM)
    lines = pem_crlf.split(b"\r\n")
    cut = [m(0, "fragment", lines[0]), "\r\n", m(0, "fragment", lines[1]), "\r\n",
           m(0, "fragment", lines[2]), "\r\n", m(0, "fragment", lines[3][:30])]
    case("fragment_per_line_of_truncated_crlf_pem", [S("PEM_KEY", PEM)], cut)


def group_repetitive() -> None:
    ab = S("AB", "ab" * 12)
    case("repetitive_ab_exact", [ab], ["<", m(0, "raw", "ab" * 12), ">"])
    case("repetitive_ab_longer_run", [ab], [m(0, "raw", "ab" * 12), "ababab"])
    case("repetitive_ab_two_values_and_rest", [ab], [m(0, "raw", "ab" * 12), m(0, "raw", "ab" * 12), "abab"])
    case("repetitive_ab_fragment", [ab], ["[", m(0, "fragment", "ab" * 10), "]"])
    case("repetitive_ab_fragment_odd_offset", [ab], ["[", m(0, "fragment", "b" + "ab" * 10), "]"])
    case("repetitive_ab_window_only", [ab], ["[", m(0, "fragment", "ab" * 8, "window"), "]"])
    aaa = S("AAA", "a" * 20)
    case("repetitive_a_run_two_values", [aaa], [m(0, "raw", "a" * 20), m(0, "raw", "a" * 20), "aaaaa"])
    case("repetitive_a_run_value_then_fragment", [aaa], [m(0, "raw", "a" * 20), m(0, "fragment", "a" * 16)])
    case("repetitive_a_run_fragment", [aaa], ["x", m(0, "fragment", "a" * 19), "x"])
    case("repetitive_a_run_short", [aaa], ["x" + "a" * 15 + "x"])
    abc = "abc" * 7
    case("repetitive_abc_shifted_fragment", [S("ABC", abc)], ["<", m(0, "fragment", abc[1:]), ">"])
    case("repetitive_abc_value_then_more", [S("ABC", abc)], [m(0, "raw", abc), "abcabcabca"])
    case("repetitive_placeholder", [S("AB", "ab" * 12, "<ab>")], ["x", m(0, "raw", "ab" * 12), "x"])



def group_json() -> None:
    db = S("DB_PASS", JSONV)
    case("json_a_stringify", [db], ['{"password":"', m(0, "json", json_a(JSONV), "a"), '"}'])
    case("json_b_python_ascii", [db], ['{"password": "', m(0, "json", json_b(JSONV), "b"), '"}'])
    case("json_c_go_html_safe", [db], ['{"password":"', m(0, "json", json_c(JSONV), "c"), '"}\n'])
    case("json_d_php", [db], ['{"password":"', m(0, "json", json_d(JSONV), "d"), '"}'])
    plain = "plain-ascii-token-123"
    case("json_equal_to_raw_is_raw", [S("TOKEN", plain)], ['{"t":"', m(0, "raw", plain), '"}'])
    ctl = "tab\there\x01ctl\x7fdel"
    case("json_a_control_characters", [S("CTL", ctl)], ['{"v":"', m(0, "json", json_a(ctl), "a"), '"}'])
    case("json_b_control_and_del", [S("CTL", ctl)], ['{"v": "', m(0, "json", json_b(ctl), "b"), '"}'])
    nl = "line-one\nline-two"
    case("json_a_newline", [S("NOTE", nl)], ['{"note":"', m(0, "json", json_a(nl), "a"), '"}'])
    emoji = "key-\U0001F511-s3cret"
    case("json_b_surrogate_pair", [S("EMOJI", emoji)], ['{"k": "', m(0, "json", json_b(emoji), "b"), '"}'])
    ls = "s\u00e9p\u2028s3cret-x"  # c escapes only U+2028; b and d escape the é too
    case("json_c_line_separator", [S("LS", ls)], ['{"k":"', m(0, "json", json_c(ls), "c"), '"}'])
    case("json_b_line_separator", [S("LS", ls)], ['{"k": "', m(0, "json", json_b(ls), "b"), '"}'])
    case("json_a_line_separator_is_raw", [S("LS", ls)], ['{"k":"', m(0, "raw", ls), '"}'])
    case("json_b_multibyte", [S("PASS", UTF)], ['{"pw": "', m(0, "json", json_b(UTF), "b"), '"}'])
    slash = "https://x.test/cb?k=s3cret"
    case("json_d_escaped_slashes", [S("URL", slash)], ['{"url":"', m(0, "json", json_d(slash), "d"), '"}'])
    case("json_several_variants_one_input", [db],
         ["a=", m(0, "json", json_a(JSONV)), " b=", m(0, "json", json_b(JSONV)),
          " c=", m(0, "json", json_c(JSONV)), " d=", m(0, "json", json_d(JSONV)), "\n"])


def group_percent() -> None:
    pw = S("PASSWORD", PCT)
    for variant, fn in zip("abcd", (pct_a, pct_b, pct_c, pct_d)):
        upper = fn(as_bytes(PCT))
        lower = _lower_escapes(upper)
        assert upper != lower
        case(f"percent_{variant}_upper", [pw], ["GET /login?pw=", m(0, "percent", upper, f"{variant}-upper"), "&next=1 HTTP/1.1\r\n"])
        case(f"percent_{variant}_lower", [pw], ["pw=", m(0, "percent", lower, f"{variant}-lower"), "&next=1\n"])
    utf = as_bytes(UTF)
    case("percent_multibyte_upper", [S("PASS", UTF)], ["?pw=", m(0, "percent", pct_b(utf), "a-upper"), "\n"])
    case("percent_multibyte_lower", [S("PASS", UTF)], ["?pw=", m(0, "percent", _lower_escapes(pct_b(utf)), "a-lower"), "\n"])
    mixed = pct_b(as_bytes(PCT)).replace(b"%2A", b"%2a")  # one escape lower, %2F upper: neither variant
    assert b"%2F" in mixed and b"%2a" in mixed
    case("percent_mixed_case_no_match", [pw], [b"pw=" + mixed + b"\n"])
    case("percent_space_as_plus_only_in_c_and_d", [S("PHRASE", "correct horse battery")],
         ["q=", m(0, "percent", "correct+horse+battery", "c-upper"), " p=",
          m(0, "percent", "correct%20horse%20battery", "a-upper"), "\n"])


def group_html() -> None:
    fs = S("FORM_SECRET", HTMLV)
    for variant, fn in zip("abc", (html_a, html_b, html_c)):
        case(f"html_{variant}", [fs], ['<input value="', m(0, "html", fn(as_bytes(HTMLV)), variant), '">'])
    case("html_unknown_entity_no_match", [fs], ["<p>a&amp;b&lt;c&gt;d&quot;e&apos;f-secret</p>"])
    amp = "fish&chips-s3cret"
    case("html_ampersand_only", [S("AMP", amp)], ["<td>", m(0, "html", "fish&amp;chips-s3cret", "a"), "</td>"])


def group_base64() -> None:
    prefix = {0: b'{"id":7,"key":"', 1: b'{"id":17,"key":"', 2: b'{"id":117,"key":"'}
    suffix = b'","ok":1}'  # '"' leaves a nonzero bit in the character after the core
    core_value = {0: B13, 1: B14, 2: B13}
    tail_value = {0: B13, 1: B13, 2: B14}  # a tail differs from the core only when (s + n) % 3 != 0
    user = {0: b"ci:", 1: b"bob:", 2: b"anna:"}
    for alphabet in ("std", "url"):
        for s in range(3):
            assert len(prefix[s]) % 3 == s and len(user[s]) % 3 == s
            v = core_value[s]
            case(f"base64_{alphabet}_shift{s}_core", [S("KEY", v)],
                 ["data=", *b64_blob(0, v, prefix[s], suffix, alphabet, variant=f"{alphabet}/s{s}/core"), "\n"])
            v = tail_value[s]
            for padded in (True, False):
                kind = "tail-padded" if padded else "tail-unpadded"
                lead = "Authorization: Basic " if alphabet == "std" else "token="
                case(f"base64_{alphabet}_shift{s}_{kind.replace('-', '_')}", [S("KEY", v)],
                     [lead, *b64_blob(0, v, user[s], b"", alphabet, padded, variant=f"{alphabet}/s{s}/{kind}"), "\r\n"])
    ex = S("GH", SPEC_EX)
    case("base64_spec_example_shift0", [ex], ["b64: ", m(0, "base64", "Z2hwX2FiY2RlZmdo", "std/s0/core"), "\n"])
    segs = b64_blob(0, SPEC_EX, b"x", b"")
    assert segs[1].data == b"docF9hYmNkZWZnaA=="
    case("base64_spec_example_shift1_tail", [ex], ["b64: ", *segs, "\n"])
    segs = b64_blob(0, SPEC_EX, b"xy", b"")
    assert segs[1].data == b"naHBfYWJjZGVmZ2g="
    case("base64_spec_example_shift2_tail", [ex], ["b64: ", *segs, "\n"])
    segs = b64_blob(0, SPEC_EX, b"x", b"Zz")
    assert segs[1].data == b"docF9hYmNkZWZna"
    case("base64_spec_example_shift1_core", [ex], ["b64: ", *segs, "\n"])
    segs = b64_blob(0, SPEC_EX, b"xy", b"Zz")
    assert segs[1].data == b"naHBfYWJjZGVmZ2"
    case("base64_spec_example_shift2_core", [ex], ["b64: ", *segs, "\n"])
    # B13 at shift 1 with '"' after it: the character after the core has v's last
    # four bits and two zero bits from '"' (0x22), which is exactly the last
    # character of the unpadded tail: that longer pattern matches mid-blob.
    case("base64_unpadded_tail_matches_inside_blob", [S("KEY", B13)],
         ["data=", *b64_blob(0, B13, prefix[1], suffix, extra=1, variant="std/s1/tail-unpadded"), "\n"])
    case("base64_core_at_blob_start", [S("KEY", B13)],
         ["data=", *b64_blob(0, B13, b"", suffix, variant="std/s0/core"), "\n"])
    header = base64.urlsafe_b64encode(b'{"alg":"none"}').rstrip(b"=")
    payload = b64_blob(0, B14, b'{"sub":"bob","tok":"', b'"}', "url", padded=False, variant="url/s2/core")
    case("base64_url_jwt_payload", [S("KEY", B14)], ["Bearer ", header + b"." + payload[0], payload[1], payload[2] + b".c2ln\n"])
    two = [S("KEY13", B13), S("KEY14", B14)]
    case("base64_two_secrets_std_and_url", two,
         ["a=", *b64_blob(0, B13, b"", b"", "std"), " b=", *b64_blob(1, B14, b"", b"", "url", padded=False), "\n"])


def group_hex() -> None:
    k = S("KEY", B13)
    v = as_bytes(B13)
    case("hex_lower", [k], ["hex=", m(0, "hex", hex_lower(v), "lower"), "\n"])
    case("hex_upper", [k], ["HEX=", m(0, "hex", hex_upper(v), "upper"), "\n"])
    case("hex_inside_dump_lower", [k], ["dump: ", *hex_blob(0, v, b"\x00\x01hdr", b"\xff\x00"), "\n"])
    case("hex_inside_dump_upper", [k], ["DUMP: ", *hex_blob(0, v, b"\x00\x01hdr", b"\xff\x00", upper=True), "\n"])
    mixed = hex_lower(v)[:10] + hex_upper(v)[10:]
    assert mixed != hex_lower(v) and mixed != hex_upper(v)
    case("hex_mixed_case_no_match", [k], [b"hex=" + mixed + b"\n"])
    case("hex_digits_only_value", [S("PIN8", "12345678")], ["hex=", m(0, "hex", "3132333435363738", "lower"), "\n"])
    case("hex_spec_example_value", [S("GH", SPEC_EX)],
         ["lower ", m(0, "hex", "6768705f6162636465666768"), " upper ", m(0, "hex", "6768705F6162636465666768"), "\n"])


def group_wrapped() -> None:
    gh = S("GH_TOKEN", GH)
    raw = as_bytes(GH)
    pre = b"user=ci-bot;scope=repo,workflow;created=2024-05-01;note=nightly-ci;"
    assert len(pre) >= 64
    pre50 = pre[:50]
    suf30 = b"expires=2030-01-01T00:00:00Z;x"  # a letter first: nonzero top bits after the core
    assert len(pre50) == 50 and len(suf30) == 30
    segs = wrap(b64_blob(0, raw, pre50, suf30), 76, b"\n")
    assert b"".join(seg_input(x) for x in segs) == base64.encodebytes(pre50 + raw + suf30)
    case("wrapped_base64_mime_lf_76", [gh], ["Content-Transfer-Encoding: base64\n\n", *segs, "\n"])
    pre40 = pre50[:40]
    segs = wrap(b64_blob(0, raw, pre40, suf30), 64, b"\r\n")
    case("wrapped_base64_pem_crlf_64", [gh], ["-----BEGIN DATA-----\r\n", *segs, "-----END DATA-----\r\n"])
    # B13 at shift 1 after 49 bytes: its url-safe core (with a '-') runs over column 76
    segs = wrap(b64_blob(0, B13, pre[:49], suf30, "url", variant="url/s1/core"), 76, b"\n")
    case("wrapped_base64_url_lf", [S("KEY", B13)], ["url:\n", *segs])
    segs = wrap(b64_blob(0, B14, pre[:38], b"", "url", padded=False, variant="url/s2/tail-unpadded"), 64, b"\r\n")
    case("wrapped_base64_url_tail_crlf", [S("KEY", B14)], ["url:\r\n", *segs])
    segs = wrap(b64_blob(0, raw, pre50[:44], b""), 64, b"\r\n")
    case("wrapped_base64_tail_crlf", [gh], ["blob:\r\n", *segs])
    segs = wrap(hex_blob(0, raw, b"\x00\x00\x00\x01hdr", b"\xff\xfe"), 32, b"\n")
    case("wrapped_hex_lower_lf_32", [gh], ["hexdump:\n", *segs])
    segs = wrap(hex_blob(0, raw, b"\x00\x00\x00\x01hdr-abc", b"\xff\xfe", upper=True), 64, b"\r\n")
    case("wrapped_hex_upper_crlf_64", [gh], ["HEX\r\n", *segs])
    # a core inside one line of a wrapped blob is plain base64
    segs = wrap(b64_blob(0, raw, pre50[:3], suf30), 76, b"\n")
    assert [x.form for x in segs if isinstance(x, M)] == ["base64"]
    case("wrapped_blob_core_within_one_line_is_base64", [gh], ["mime:\n", *segs])
    # GH is 36 bytes: at shift 0 its core is 48 characters; 21 bytes before it puts it at columns 28..76
    segs = wrap(b64_blob(0, raw, pre50[:21], suf30), 76, b"\n")
    assert [x.form for x in segs if isinstance(x, M)] == ["base64"] and segs[1].data[-1:] != b"\n"
    case("wrapped_blob_core_ends_at_line_end_is_base64", [gh], ["mime:\n", *segs])
    lv = as_bytes(LONG)
    segs = wrap(b64_blob(0, lv, pre[:57], suf30), 76, b"\n")  # core starts at column 76: a line start
    assert segs[0].endswith(b"\n") and segs[1].form == "wrapped"
    case("wrapped_core_starts_at_line_start", [S("LONG", LONG)], ["mime:\n", *segs])
    segs = wrap(b64_blob(0, lv, pre50[:10], suf30), 64, b"\r\n")
    assert segs[1].data.count(b"\r\n") >= 2
    case("wrapped_long_value_several_line_breaks", [S("LONG", LONG)], ["-----BEGIN DATA-----\r\n", *segs, "-----END DATA-----\r\n"])
    segs = wrap(hex_blob(0, lv, b"", b""), 64, b"\n")
    case("wrapped_hex_long_value_lf", [S("LONG", LONG)], ["hex:\n", *segs])



def group_ties() -> None:
    # same span, different forms: secret 1's raw is secret 0's json a; raw wins although secret 0 is earlier
    quote0, quote1 = 'q"uote-s3cret', 'q\\"uote-s3cret'
    assert json_a(quote0) == as_bytes(quote1)
    two = [S("QUOTE", quote0, "<zero>"), S("ESCAPED", quote1, "<one>")]
    case("tie_same_span_earlier_form_wins", two, ['say "', m(1, "raw", quote1), '"\n'])
    same = "shared-s3cret-val"
    twins = [S("ALPHA", same, "<alpha>"), S("BRAVO", same, "<bravo>")]
    case("tie_same_value_earlier_secret_raw", twins, ["v=", m(0, "raw", same), "\n"])
    case("tie_same_value_earlier_secret_base64", twins, ["b=", m(0, "base64", base64.b64encode(as_bytes(same))), "\n"])
    case("tie_same_value_earlier_secret_fragment", twins, ["f=", m(0, "fragment", same[:16]), "\n"])
    case("tie_same_value_reversed_names", [S("ZULU", same), S("ALPHA", same)], ["v=", m(0, "raw", same), "\n"])
    ta, tb = "common-prefix-123456-alpha-tail", "common-prefix-123456-bravo-tail"
    shared = [S("TOKEN_A", ta), S("TOKEN_B", tb)]
    case("tie_shared_window_same_length_earlier_secret", shared, ["x=", m(0, "fragment", "common-prefix-123456-"), "zzz\n"])
    case("tie_shared_window_longer_extension_wins", shared, ["x=", m(1, "fragment", "common-prefix-123456-bravo-ta"), ";\n"])
    case("tie_shared_window_earlier_secret_longer", shared, ["x=", m(0, "fragment", "common-prefix-123456-alph"), "!\n"])
    window = GH[10:26]
    sub = [S("GH_TOKEN", GH), S("WINDOW", window)]
    case("tie_raw_of_later_secret_beats_fragment", sub, ["k=", m(1, "raw", window), " \n"])
    case("tie_longer_fragment_beats_raw", sub, ["k=", m(0, "fragment", GH[10:30]), " \n"])
    short, longer = "key=abcdefgh", "key=abcdefgh<z>"
    case("tie_longest_over_form_html_vs_raw", [S("SHORT", short), S("LONGER", longer)],
         ["<b>", m(1, "html", "key=abcdefgh&lt;z&gt;"), "</b>"])
    bs = "s3cret-value\\"
    case("tie_longest_over_form_json_vs_raw", [S("BS", bs, "<bs>")], ['{"v":"', m(0, "json", json_a(bs)), '"}'])
    case("tie_raw_when_json_does_not_fit", [S("BS", bs, "<bs>")], ["v=", m(0, "raw", bs), " end\n"])
    pct = "discount100%"
    case("tie_longest_over_form_percent_vs_raw", [S("CODE", pct, "<code>")], ["code=", m(0, "percent", "discount100%25"), "&x=1\n"])
    case("tie_leftmost_over_longest", [S("A", "abcdefgh"), S("B", "bcdefgh12345678")],
         ["XX", m(0, "raw", "abcdefgh"), "12345678\n"])
    case("tie_leftmost_over_longest_rest_is_fragment", [S("PREFIXED", "id=ghp_R8"), S("GH_TOKEN", GH)],
         [m(0, "raw", "id=ghp_R8"), m(1, "fragment", GH[6:]), "\n"])
    # a shorter plain core at p, and the padded tail of the same blob across a line
    # break: the wrapped one is longer in original bytes and wins over base64
    blob = base64.b64encode(as_bytes(B13))
    core = b64_core(as_bytes(B13), "std", 0)
    assert blob.startswith(core) and len(blob) == len(core) + 3
    case("tie_wrapped_tail_longer_than_plain_core", [S("KEY", B13)],
         ["token: ", m(0, "wrapped", core + b"\r\n" + blob[len(core):], "base64 std/s0/tail-padded crlf"), "\r\n"])


def group_same_length() -> None:
    opts = {"sameLength": True}
    api = S("API_KEY", API, "fnox_proxy_API_KEY")
    case("same_length_raw_placeholder_ignored", [api], ["Authorization: Bearer ", m(0, "raw", API), "\r\n"], opts)
    case("same_length_no_match", [api], ["nothing to see\n"], opts)
    case("same_length_empty_input", [api], [], opts)
    case("same_length_fragment", [S("GH_TOKEN", GH)], ["log: ", m(0, "fragment", GH[4:24]), " (cut)\n"], opts)
    case("same_length_json", [S("DB_PASS", JSONV)], ['{"password":"', m(0, "json", json_b(JSONV)), '"}'], opts)
    case("same_length_percent", [S("PASSWORD", PCT)], ["pw=", m(0, "percent", pct_c(as_bytes(PCT))), "&x=1\n"], opts)
    case("same_length_html", [S("FORM_SECRET", HTMLV)], ['<input value="', m(0, "html", html_b(as_bytes(HTMLV))), '">'], opts)
    case("same_length_base64", [S("KEY", B13)], ["Authorization: Basic ", *b64_blob(0, B13, b"bob:", b""), "\r\n"], opts)
    case("same_length_hex", [S("KEY", B13)], ["HEX=", m(0, "hex", hex_upper(as_bytes(B13))), "\n"], opts)
    pem = S("PEM_KEY", PEM, "fnox:PEM_KEY")
    case("same_length_raw_crlf_keeps_cr_lf", [pem], ["key:\r\n", m(0, "raw", crlf(PEM)), "\r\n"], opts)
    case("same_length_raw_lf_keeps_lf", [pem], ["key:\n", m(0, "raw", PEM), "\n"], opts)
    raw = as_bytes(GH)
    pre = b"user=ci-bot;scope=repo,workflow;created=2024-05-01;"
    suf = b"expires=2030-01-01T00:00:00Z;x"
    case("same_length_wrapped_base64_lf", [S("GH_TOKEN", GH)], ["mime:\n", *wrap(b64_blob(0, raw, pre[:50], suf), 76, b"\n")], opts)
    case("same_length_wrapped_base64_crlf", [S("GH_TOKEN", GH)],
         ["-----BEGIN DATA-----\r\n", *wrap(b64_blob(0, raw, pre[:40], suf), 64, b"\r\n"), "-----END DATA-----\r\n"], opts)
    case("same_length_wrapped_hex_crlf", [S("GH_TOKEN", GH)],
         ["HEX\r\n", *wrap(hex_blob(0, raw, b"\x00\x01", b"\xff", upper=True), 32, b"\r\n")], opts)
    case("same_length_several_secrets", [api, S("GH_TOKEN", GH), S("KEY", B13)],
         ["a=", m(0, "raw", API), " b=", m(1, "fragment", GH[:20]), " c=", m(2, "hex", hex_lower(as_bytes(B13))), "\n"], opts)
    case("same_length_non_utf8", [S("BLOB", BIN)], [b"\x01data=", m(0, "raw", BIN), b"\xff\n"], opts)
    case("same_length_multibyte_value", [S("PASS", UTF)], ["pw=", m(0, "raw", UTF), "\n"], opts)
    case("same_length_adjacent_matches", [api, S("GH_TOKEN", GH)], [m(0, "raw", API), m(1, "raw", GH)], opts)


def group_multi() -> None:
    api, gh = S("API_KEY", API), S("GH_TOKEN", GH)
    case("adjacent_two_secrets", [api, gh], [m(0, "raw", API), m(1, "raw", GH), "\n"])
    case("adjacent_two_secrets_reversed", [api, gh], [m(1, "raw", GH), m(0, "raw", API), "\n"])
    case("adjacent_different_forms", [api, gh], [m(0, "raw", API), m(1, "hex", hex_lower(as_bytes(GH))), "\n"])
    a, b = "alpha-secret-1234", "1234-bravo-secret-value-xyz"
    case("overlap_first_wins_rest_is_fragment", [S("A", a), S("B", b)],
         [m(0, "raw", a), m(1, "fragment", b[4:]), "\n"])
    a2, b2 = "alpha-secret-12", "12-bravo-x"
    case("overlap_first_wins_rest_passes", [S("A", a2), S("B", b2)], [m(0, "raw", a2), "-bravo-x\n"])
    inner, outer = "inner-s3cret", "pre-inner-s3cret-post"
    case("nested_outer_and_inner", [S("INNER", inner), S("OUTER", outer)],
         ["1:", m(1, "raw", outer), " 2:", m(0, "raw", inner), "\n"])
    p16, p27 = "sk-live-1234abcd", "sk-live-1234abcd-extra-tail"
    pair = [S("SHORT", p16), S("LONG", p27)]
    case("prefix_value_raw_beats_equal_fragment", pair, ["k=", m(0, "raw", p16), " end\n"])
    case("prefix_value_longer_fragment_wins", pair, ["k=", m(1, "fragment", p16 + "-"), "other\n"])
    case("prefix_value_longer_raw_wins", pair, ["k=", m(1, "raw", p27), "\n"])
    three = [api, gh, S("PASSWORD", PCT)]
    case("three_secrets_several_forms", three,
         ["api=", m(0, "raw", API), "\ngh=", *b64_blob(1, GH, b"", b""), "\npw=",
          m(2, "percent", pct_a(as_bytes(PCT))), "\nhex=", m(1, "hex", hex_upper(as_bytes(GH))),
          "\napi again=", m(0, "fragment", API[:17]), "\n"])
    fs = S("FORM_SECRET", HTMLV)
    hv = hex_lower(as_bytes(HTMLV))
    case("one_secret_every_form", [fs],
         ["raw ", m(0, "raw", HTMLV), "\nfragment ", m(0, "fragment", HTMLV[:16]), "!\njson ",
          m(0, "json", json_a(HTMLV)), "\npercent ", m(0, "percent", pct_a(as_bytes(HTMLV))),
          "\nhtml ", m(0, "html", html_a(as_bytes(HTMLV))), "\nbase64 ", m(0, "base64", base64.b64encode(as_bytes(HTMLV))),
          "\nhex ", m(0, "hex", hv), "\nwrapped ", m(0, "wrapped", hv[:20] + b"\n" + hv[20:]), "\n"])
    case("many_matches_one_line", [api, gh],
         [m(0, "raw", API), ",", m(1, "raw", GH), ",", m(0, "raw", API), ",", m(1, "fragment", GH[:16]), ","])


def group_non_utf8() -> None:
    blob = S("BLOB", BIN)
    case("non_utf8_raw_in_binary", [blob], [b"\x89\x01", m(0, "raw", BIN), b"\x02\xff"])
    case("non_utf8_raw_in_text", [blob], ["data=", m(0, "raw", BIN), "\n"])
    case("non_utf8_percent_upper", [blob], ["q=", m(0, "percent", pct_a(BIN), "a-upper"), "\n"])
    case("non_utf8_percent_lower", [blob], ["q=", m(0, "percent", _lower_escapes(pct_a(BIN)), "a-lower"), "\n"])
    case("non_utf8_html", [blob], [b"<pre>", m(0, "html", html_a(BIN), "a"), b"</pre>"])
    case("non_utf8_base64", [blob], ["b64=", m(0, "base64", base64.b64encode(BIN)), "\n"])
    case("non_utf8_base64_in_blob_shift2", [blob], ["b64=", *b64_blob(0, BIN, b"\x00\x00", b"Zz", "url"), "\n"])
    case("non_utf8_hex", [blob], ["hex=", m(0, "hex", hex_lower(BIN)), " HEX=", m(0, "hex", hex_upper(BIN)), "\n"])
    notjson = b'\xff"secret-bin'
    assert not is_utf8(notjson)
    case("non_utf8_value_has_no_json_form", [S("NJ", notjson)], [b'{"v":"\xff\\"secret-bin"}'])
    case("non_utf8_value_raw_in_json_text", [S("NJ", notjson)], [b'{"v":"', m(0, "raw", notjson), b'"}'])
    bin24 = bytes(range(0x80, 0x98))
    case("non_utf8_fragment", [S("BIN24", bin24)], [b"<", m(0, "fragment", bin24[3:21]), b">"])
    case("non_utf8_placeholder", [S("BLOB", BIN, b"\xff\xfe<blob>")], ["data=", m(0, "raw", BIN), "\n"])
    case("non_utf8_placeholder_utf8_value", [S("API_KEY", API, b"\xfe<key>")], ["k=", m(0, "raw", API), "\n"])


def group_long() -> None:
    lv = S("LONG", LONG, "fnox_proxy_LONG")
    case("long_value_raw", [lv], ["token: ", m(0, "raw", LONG), "\n"])
    case("long_value_fragment_middle", [lv], ["...", m(0, "fragment", LONG[40:100]), "...\n"])
    case("long_value_base64", [lv], ["b64=", *b64_blob(0, LONG, b"", b""), "\n"])
    case("long_value_hex_upper", [lv], ["HEX=", m(0, "hex", hex_upper(as_bytes(LONG))), "\n"])
    case("long_value_json_escaped_slashes", [lv], ['{"t":"', m(0, "json", json_d(LONG), "d"), '"}'])
    case("long_value_percent", [lv], ["t=", m(0, "percent", pct_a(as_bytes(LONG))), "\n"])
    case("long_value_same_length", [lv], ["token: ", m(0, "raw", LONG), "\n"], {"sameLength": True})
    case("long_pem_fragment_inside_first_body_line", [S("PEM_KEY", PEM)],
         ["line: ", m(0, "fragment", PEM.split("\n")[1][5:45]), "\n"])


# ---------------------------------------------------------------------------
# Rules version 4: values trimmed of leading and trailing CR and LF (SPEC
# section 1). Each value is given with its line breaks; what is matched is the
# trimmed value, and every encoding of the given value holds a pattern of it.
# ---------------------------------------------------------------------------


def split_given(given: bytes) -> tuple[bytes, bytes, bytes]:
    """(leading line breaks, the trimmed value, trailing line breaks)."""
    t = trim(given)
    lead = given[: len(given) - len(given.lstrip(b"\r\n"))]
    assert given == lead + t + given[len(lead) + len(t) :]
    return lead, t, given[len(lead) + len(t) :]


def form_of(s: Secret, data: bytes) -> str:
    """The form of the first pattern of s whose bytes are data (after the dedupe,
    a json or percent body equal to the raw value is the raw pattern)."""
    owners = [p for p in s.pats if p.data == data]
    assert owners, (s.name, data)
    return owners[0].form


def json_untrimmed(secret: int, s: Secret) -> list[Segment]:
    """json.dumps of the given value (quotes included) as [before, match, after]:
    escaping is character by character, so the escaped line breaks around the
    value stay plain text and the body of the trimmed value is the match."""
    lead, t, trail = split_given(s.given)
    body = json_b(t.decode())
    segs = [b'"' + json_b(lead.decode()), m(secret, form_of(s, body), body), json_b(trail.decode()) + b'"']
    assert b"".join(seg_input(x) for x in segs) == json.dumps(s.given.decode()).encode()
    return segs


def b64_untrimmed(secret: int, s: Secret, alphabet: str = "std", padded: bool = True) -> tuple[list[Segment], str]:
    """base64 of the given value as [before, match, after], and the variant the
    match is meant to be. The trimmed value sits
    at shift len(lead) % 3. With line breaks after it, the match is its core and,
    when (s + n) % 3 != 0, one character more: that character holds v's last bits
    and then the top bits of the CR or LF that follows (0x0D and 0x0A are below
    0x10, so those bits are zero), which is exactly the last character of the
    unpadded tail, a longer pattern. The padded tail never matches there, as the
    character after it holds the low bits of a CR or LF, never '='."""
    lead, t, trail = split_given(s.given)
    blob = _b64(s.given, alphabet)
    if not padded:
        blob = blob.rstrip(b"=")
    sh, base = len(lead) % 3, 4 * (len(lead) // 3)
    start = base + _ceil_div(8 * sh, 6)
    if trail:
        end = base + (8 * (sh + len(t))) // 6 + (1 if (sh + len(t)) % 3 else 0)
        kind = "tail-unpadded" if (sh + len(t)) % 3 else "core"
    else:
        end = len(blob)
        # a value that ends on a group boundary has tails equal to its core (the dedupe)
        kind = "core" if (sh + len(t)) % 3 == 0 else "tail-padded" if padded else "tail-unpadded"
    return [blob[:start], M(secret, "base64", blob[start:end]), blob[end:]], f"{alphabet}/s{sh}/{kind}"


def hex_untrimmed(secret: int, s: Secret, upper: bool = False) -> list[Segment]:
    lead, t, trail = split_given(s.given)
    enc = hex_upper if upper else hex_lower
    return [enc(lead), m(secret, "hex", enc(t), "upper" if upper else "lower"), enc(trail)]


def layout(secret: int, s: Secret, items: list[tuple[int, int | None]]) -> list[Segment]:
    """Segments of an input laid out from pieces of the value: items are (byte,
    its index in the trimmed value, or None for a byte that is not the value's,
    such as a line break added by re-wrapping or a terminal's CR). Each maximal
    run of consecutive value indices is a fragment candidate that extends to
    the run's end; its leading CR and LF stay plain (no candidate starts at a
    line break), and what is left is a match when it is at least 16 bytes long
    (raw when it is the whole value), plain text otherwise."""
    v = s.value
    out: list[Segment] = []
    i = 0
    while i < len(items):
        j = i + 1
        if items[i][1] is not None:
            while j < len(items) and items[j][1] is not None and items[j][1] == items[j - 1][1] + 1:
                j += 1
        run = items[i:j]
        while run and run[0][0] in (CR, LF):
            out.append(bytes([run[0][0]]))
            run = run[1:]
        data = bytes(b for b, _ in run)
        if run and run[0][1] is not None and len(data) >= FRAGMENT:
            assert data == v[run[0][1] : run[0][1] + len(data)]
            out.append(m(secret, "raw" if data == v else "fragment", data))
        elif data:
            out.append(data)
        i = j
    return out


def pem_items(value: bytes, width: int, terminal: bool, after: bytes) -> list[tuple[int, int | None]]:
    """A PEM-like value (header line, base64 body lines, footer line) printed with
    its body re-wrapped at `width`, followed by `after`; under a terminal every
    LF is written as CR LF (the CR is not the value's)."""
    lines = value.split(b"\n")
    header, body_lines, footer = lines[0], lines[1:-1], lines[-1]
    pos: list[int] = []  # value index of each body character
    at = len(header) + 1
    for line in body_lines:
        pos += range(at, at + len(line))
        at += len(line) + 1
    body = b"".join(body_lines)
    items: list[tuple[int, int | None]] = [(b, k) for k, b in enumerate(header)] + [(LF, len(header))]
    for start in range(0, len(body), width):
        items += [(body[j], pos[j]) for j in range(start, min(start + width, len(body)))]
        items.append((LF, None) if start + width < len(body) else (LF, at - 1))
    items += [(b, at + k) for k, b in enumerate(footer)] + [(b, None) for b in after]
    assert bytes(b for b, _ in items) == b"\n".join([header] + [body[i : i + width] for i in range(0, len(body), width)] + [footer]) + after
    if terminal:
        items = [x for b, k in items for x in ([(CR, None), (b, k)] if b == LF else [(b, k)])]
    return items


# Short values (8 to 16 bytes once trimmed) and long ones, each given with line breaks.
TRIM_SHORT = {
    "lf": "token12345\n",  # the example: read from a file
    "crlf": '\r\nPa55"w0rd-x\r\n',  # json a differs from raw
    "cr": "\rs1xteen-bytes-ok\r",  # 16 bytes: no fragments
    "lf_lead": "\n\nAbc-1234",  # 8 bytes
}
TRIM_LONG = {
    "lf": "lt_Yk9vR2FzZGZqa2w7cXdlcnR5dWlvcA/Zx" + "\n",  # 35 bytes + LF
    "crlf": "\r\n" + 'ln_"quoted"/token-0123456789abcdefXYZ' + "\r\n",
    "cr": "lc_QWxhZGRpbjpvcGVuIHNlc2FtZQ-long\r",
    "lf_lead": "\nll_9f8e7d6c5b4a39281706f5e4d3c2b1a0",
}


def trim_forms(label: str, given: str) -> None:
    """The forms every trimmed value is found in: printed without its line
    breaks, with them, inside a JSON string with them escaped, and the base64
    (both alphabets, padded and not) and hex (both cases) of the given value."""
    s = S("TRIMMED", given, "<trimmed>")
    lead, t, trail = split_given(s.given)
    assert (lead or trail) and t != s.given
    case(f"trim_{label}_raw_printed_without_line_breaks", [s], ["value=", m(0, "raw", t), " ok\n"])
    case(f"trim_{label}_raw_printed_with_line_breaks", [s], ["value=", lead, m(0, "raw", t), trail, "next\n"])
    case(f"trim_{label}_raw_whole_input_with_line_breaks", [s], [lead, m(0, "raw", t), trail])
    case(f"trim_{label}_json_escaped_line_breaks", [s], ['{"value": ', *json_untrimmed(0, s), "}\n"])
    for alphabet in ("std", "url"):
        for padded in (True, False):
            segs, variant = b64_untrimmed(0, s, alphabet, padded)
            if alphabet == "std":  # url-safe patterns equal to std ones are std's (the dedupe)
                segs[1] = M(0, "base64", segs[1].data, variant)
            pad = "padded" if padded else "unpadded"
            case(f"trim_{label}_base64_{alphabet}_{pad}_of_given", [s], ["b64=", *segs, "\n"])
    case(f"trim_{label}_hex_lower_of_given", [s], ["hex=", *hex_untrimmed(0, s), "\n"])
    case(f"trim_{label}_hex_upper_of_given", [s], ["HEX=", *hex_untrimmed(0, s, upper=True), "\n"])
    case(f"trim_{label}_percent_of_given", [s],
         ["q=", pct_b(lead), m(0, form_of(s, pct_b(t)), pct_b(t)), pct_b(trail), "&x=1\n"])
    case(f"trim_{label}_same_length_with_line_breaks", [s], ["v=", lead, m(0, "raw", t), trail], {"sameLength": True})


def group_trim() -> None:
    # The two examples.
    pw = S("PW", "\nhunter2123", hex_value=True)
    assert pw.to_json()["valueHex"] == "0a68756e74657232313233"
    case("trim_issue_leading_newline_value", [pw], ["password:\n", m(0, "raw", "hunter2123")])
    tok = S("TOKEN", "token12345\n")
    case("trim_issue_trailing_newline_printed_without", [tok], [m(0, "raw", "token12345")])
    case("trim_issue_trailing_newline_in_text", [tok], ["echo: ", m(0, "raw", "token12345"), " done\n"])
    for label, given in TRIM_SHORT.items():
        trim_forms(f"short_{label}", given)
    for label, given in TRIM_LONG.items():
        trim_forms(f"long_{label}", given)
        s = S("TRIMMED", given)
        lead, t, trail = split_given(s.given)
        case(f"trim_long_{label}_fragment_at_value_end_before_line_break", [s],
             ["...", m(0, "fragment", t[7:]), trail, "$ \n"])
        case(f"trim_long_{label}_fragment_at_value_start_after_line_break", [s],
             ["\n", lead, m(0, "fragment", t[:20]), "~\n"])
    # Where version 3 and version 4 differ for a long value stored with a
    # trailing newline (version 3 made the LF a byte of the value).
    t = TRIM_LONG["lf"].rstrip("\n")
    lf = [S("LONG_LF", TRIM_LONG["lf"], "<long>")]
    # v3: the fragment extends over the LF and swallows it; v4: the LF stays.
    case("trim_v4_fragment_stops_before_trailing_newline", lf, ["out: ", m(0, "fragment", t[10:]), "\nnext line\n"])
    # v3: the last window (15 bytes and the LF) matched; v4: 15 bytes are no fragment.
    case("trim_v4_15_bytes_before_newline_are_not_a_fragment", lf, ["out: " + t[-15:] + "\nnext line\n"])
    # v3: the value and its LF are raw (the placeholder eats the line break); v4: raw without it.
    case("trim_v4_raw_keeps_the_line_break", lf, ["k=", m(0, "raw", t), "\nk2\n"])
    # v3: "\n" + value never matched raw (it starts at LF): a fragment; v4: raw, placeholder.
    lead_lf = [S("LONG_LEAD", "\n" + t, "<long>")]
    case("trim_v4_leading_newline_value_is_raw", lead_lf, ["key:\n", m(0, "raw", t), "\n"])
    # Multi-line PEM-like values stored with a trailing newline.
    pem = S("PEM_KEY", PEM + "\n", "fnox:PEM_KEY")
    case("trim_pem_trailing_newline_printed", [pem], ["$ cat key.pem\n", m(0, "raw", PEM, "lf"), "\n$ "])
    case("trim_pem_trailing_newline_terminal", [pem],
         ["$ cat key.pem\r\n", m(0, "raw", crlf(PEM), "crlf"), "\r\n$ "])
    case("trim_pem_trailing_newline_json", [pem], ['{"key": ', *json_untrimmed(0, pem), "}"])
    segs, _ = b64_untrimmed(0, pem)
    case("trim_pem_trailing_newline_base64_mime", [pem], ["Content-Transfer-Encoding: base64\n\n", *wrap(segs, 76, b"\n")])
    pv = as_bytes(PEM)
    case("trim_pem_rewrapped_76", [pem], ["$ fold key.pem\n", *layout(0, pem, pem_items(pv, 76, False, b"\n"))])
    case("trim_pem_rewrapped_76_terminal", [pem],
         ["$ fold key.pem\r\n", *layout(0, pem, pem_items(pv, 76, True, b"\n"))])
    case("trim_pem_rewrapped_48_terminal", [pem],
         ["$ fold key.pem\r\n", *layout(0, pem, pem_items(pv, 48, True, b"\n"))])
    # A window that starts at an inner line break is no candidate; the one a
    # byte later covers the same secret bytes (SPEC section 3).
    at = PEM.index("\n")
    assert len(PEM[at : at + FRAGMENT]) == FRAGMENT
    case("trim_fragment_window_at_inner_line_break_starts_after_it", [pem],
         ["x" + PEM[at], m(0, "fragment", PEM[at + 1 : at + 40]), "!\n"])
    case("trim_pem_crlf_stored_value", [S("PEM_CRLF", crlf(PEM) + b"\r\n")],
         ["key:\r\n", m(0, "raw", crlf(PEM), "lf"), "\r\n"])



# ---------------------------------------------------------------------------
# idle.json: streams with idle calls (SPEC section 4).
#
# Each case gives its steps and the outputs written by hand, and the segments of
# each run of input between two releasing idle calls (a "piece": idle with fewer
# than 16 bytes held scrubs them as end would and the stream starts afresh).
# The check re-derives every step's output from those segments and the hold
# rule of section 4, and must agree with the hand-written outputs.
# ---------------------------------------------------------------------------

IDLE_CASES: list[dict] = []


def _hold_position(mt: Matcher, buf: bytes, spans: list[tuple[int, int, bytes, bool]], start: int) -> int:
    """The earliest position p >= start, not inside a decided match, where the
    input so far could still become a longer candidate; len(buf) if none."""
    q = start
    while q < len(buf):
        s, e, _, is_match = next(x for x in spans if x[0] <= q < x[1])
        if is_match:
            assert s == q, "a hold position inside a match"
            if mt.holds(buf, q):
                return q
            assert e <= len(buf), "an undecided match that cannot grow"
            q = e
        else:
            if mt.holds(buf, q):
                return q
            q += 1
    return len(buf)


def _render(spans: list[tuple[int, int, bytes, bool]], a: int, b: int) -> bytes:
    out = b""
    for s, e, o, is_match in spans:
        if e <= a or s >= b:
            continue
        if is_match:
            assert a <= s and e <= b, "a release boundary cuts a match"
            out += o
        else:
            out += o[max(a, s) - s : min(b, e) - s]
    return out


def idle_case(name: str, secrets: list[Secret], steps: list, outputs: list[str | bytes],
              pieces: list[list[Segment]], options: dict | None = None) -> None:
    """steps: ("push", data), "idle" or "end"; outputs: what each step returns."""
    assert all(c["name"] != name for c in IDLE_CASES), f"duplicate idle case {name}"
    same_length = bool(options and options.get("sameLength"))
    mt = Matcher(secrets)
    built = []
    matches: list[M] = []
    for i, segs in enumerate(pieces):
        inp, _, ms = build(f"{name} (piece {i})", secrets, segs, same_length)
        matches += ms
        spans, pos = [], 0
        for seg in segs:
            d = seg_input(seg)
            spans.append((pos, pos + len(d), seg_output(seg, secrets, same_length), isinstance(seg, M)))
            pos += len(d)
        built.append((inp, spans))
    derived: list[bytes] = []
    piece, buf, released = 0, b"", 0
    for step in steps:
        if isinstance(step, tuple):
            assert step[0] == "push"
            buf += as_bytes(step[1])
            inp, spans = built[piece]
            assert inp.startswith(buf), f"{name}: pushes do not follow piece {piece}"
            p = _hold_position(mt, buf, spans, released)
            derived.append(_render(spans, released, p))
            released = p
        elif step == "idle" and len(buf) - released >= FRAGMENT:
            derived.append(b"")
        else:
            assert step in ("idle", "end"), step
            if buf:
                inp, spans = built[piece]
                assert buf == inp, f"{name}: piece {piece} is not complete at {step}"
                derived.append(_render(spans, released, len(buf)))
                piece += 1
            else:
                derived.append(b"")
            buf, released = b"", 0
    assert piece == len(pieces) and steps[-1] == "end", f"{name}: pieces and steps disagree"
    want = [as_bytes(o) for o in outputs]
    assert derived == want, f"{name}: by hand {want}, by the hold rule {derived}"
    d: dict = {"name": name, "secrets": [s.to_json() for s in secrets]}
    if same_length:
        d["options"] = {"sameLength": True}
    d["steps"] = []
    for step in steps:
        if isinstance(step, tuple):
            data = as_bytes(step[1])
            d["steps"].append({"push": data.decode()} if is_utf8(data) else {"pushHex": data.hex()})
        else:
            d["steps"].append({step: True})
    for o in want:
        assert is_utf8(o), f"{name}: outputs are text"
    d["outputs"] = [o.decode() for o in want]
    d["hits"] = hits_of(secrets, matches)
    IDLE_CASES.append(d)


def group_idle() -> None:
    pw = S("PW", "Tr0ub4dor&3-x")
    idle_case("idle_prompt_nothing_held", [pw],
              [("push", "Password: "), "idle", ("push", "Tr0ub4dor&3-x\r\n"), "end"],
              ["Password: ", "", "[redacted:PW]\r\n", ""],
              [["Password: "], [m(0, "raw", "Tr0ub4dor&3-x"), "\r\n"]])
    idle_case("idle_releases_short_prefix_afresh", [pw],
              [("push", "Password: Tr0ub"), "idle", ("push", "4dor&3-x\n"), "end"],
              ["Password: ", "Tr0ub", "4dor&3-x\n", ""],
              [["Password: Tr0ub"], ["4dor&3-x\n"]])
    idle_case("idle_twice", [pw],
              [("push", "Password: Tr0"), "idle", "idle", "end"],
              ["Password: ", "Tr0", "", ""],
              [["Password: Tr0"]])
    idle_case("idle_after_completed_match", [pw],
              [("push", "pw=Tr0ub4dor&3-x "), "idle", ("push", "done\n"), "end"],
              ["pw=[redacted:PW] ", "", "done\n", ""],
              [["pw=", m(0, "raw", "Tr0ub4dor&3-x"), " "], ["done\n"]])
    idle_case("idle_on_empty_stream", [pw], ["idle", "end"], ["", ""], [])
    key = S("KEY", B13)
    idle_case("idle_releases_echoed_keystroke", [key],
              [("push", "Name: "), ("push", "k"), "idle", ("push", "ate\n"), "end"],
              ["Name: ", "", "k", "ate\n", ""],
              [["Name: k"], ["ate\n"]])
    gh = S("GH_TOKEN", GH)
    idle_case("idle_release_then_rest_is_fragment", [gh],
              [("push", "gh: " + GH[:6]), "idle", ("push", GH[6:] + "\n"), "end"],
              ["gh: ", GH[:6], "[redacted:GH_TOKEN]\n", ""],
              [["gh: " + GH[:6]], [m(0, "fragment", GH[6:]), "\n"]])
    idle_case("idle_15_held_released", [gh],
              [("push", "gh: " + GH[:15]), "idle", ("push", GH[15:] + "\n"), "end"],
              ["gh: ", GH[:15], "[redacted:GH_TOKEN]\n", ""],
              [["gh: " + GH[:15]], [m(0, "fragment", GH[15:]), "\n"]])
    idle_case("idle_16_held_is_kept", [gh],
              [("push", "gh: " + GH[:16]), "idle", "end"],
              ["gh: ", "", "[redacted:GH_TOKEN]"],
              [["gh: ", m(0, "fragment", GH[:16])]])
    idle_case("idle_growing_fragment_kept_then_completed", [gh],
              [("push", "gh: " + GH[:20]), "idle", ("push", GH[20:] + "\n"), "end"],
              ["gh: ", "", "[redacted:GH_TOKEN]\n", ""],
              [["gh: ", m(0, "raw", GH), "\n"]])
    idle_case("idle_growing_fragment_kept_then_mismatch", [gh],
              [("push", "gh: " + GH[:18]), "idle", ("push", "!\n"), "end"],
              ["gh: ", "", "[redacted:GH_TOKEN]!\n", ""],
              [["gh: ", m(0, "fragment", GH[:18]), "!\n"]])
    hx = hex_lower(as_bytes(B13))
    idle_case("idle_long_prefix_of_hex_kept", [key],
              [("push", b"hex=" + hx[:20]), "idle", ("push", hx[20:] + b"\n"), "end"],
              ["hex=", "", "[redacted:KEY]\n", ""],
              [["hex=", m(0, "hex", hx), "\n"]])
    pair = [S("A", "abcdefgh"), S("B", "abcdefgh-long-suffix")]
    idle_case("idle_releases_complete_match_that_could_grow", pair,
              [("push", "x=abcdefgh"), "idle", ("push", "-long-suffix\n"), "end"],
              ["x=", "[redacted:A]", "-long-suffix\n", ""],
              [["x=", m(0, "raw", "abcdefgh")], ["-long-suffix\n"]])
    idle_case("idle_same_length_releases_match", pair,
              [("push", "x=abcdefgh"), "idle", ("push", "-long-suffix\n"), "end"],
              ["x=", "********", "-long-suffix\n", ""],
              [["x=", m(0, "raw", "abcdefgh")], ["-long-suffix\n"]], {"sameLength": True})
    core = b64_core(as_bytes(B13), "std", 0)
    idle_case("idle_wrapped_short_released", [key],
              [("push", b"b64: " + core[:10] + b"\r\n"), "idle", "end"],
              ["b64: ", core[:10] + b"\r\n", ""],
              [[b"b64: " + core[:10] + b"\r\n"]])
    idle_case("idle_wrapped_pending_kept", [key],
              [("push", b"b64: " + core[:16] + b"\r\n"), "idle", ("push", core[16:] + b".\r\n"), "end"],
              ["b64: ", "", "[redacted:KEY].\r\n", ""],
              [["b64: ", m(0, "wrapped", core[:16] + b"\r\n" + core[16:]), ".\r\n"]])
    # Idle counts CR and LF among the held bytes (rules version 4): 14 view
    # bytes and a CR LF are 16 held, kept; without them counted, 14 would go.
    idle_case("idle_counts_line_breaks_held", [key],
              [("push", b"b64: " + core[:14] + b"\r\n"), "idle", ("push", core[14:] + b".\r\n"), "end"],
              ["b64: ", "", "[redacted:KEY].\r\n", ""],
              [["b64: ", m(0, "wrapped", core[:14] + b"\r\n" + core[14:]), ".\r\n"]])
    # Rules version 4: a value stored with a trailing newline is complete without
    # it, so nothing waits for the LF (under version 3 it was held until idle).
    tok = S("TOKEN", "token12345\n")
    idle_case("idle_trimmed_value_not_held_for_its_newline", [tok],
              [("push", "login: token12345"), "idle", ("push", "\n"), "end"],
              ["login: [redacted:TOKEN]", "", "\n", ""],
              [["login: ", m(0, "raw", "token12345")], ["\n"]])
    idle_case("idle_wrapped_complete_core_kept_until_end", [key],
              [("push", b"b64: " + core[:16] + b"\r\n"), ("push", core[16:] + b"\r\n"), "idle", "end"],
              ["b64: ", "", "", "[redacted:KEY]\r\n"],
              [["b64: ", m(0, "wrapped", core[:16] + b"\r\n" + core[16:]), "\r\n"]])



# ---------------------------------------------------------------------------
# errors.json: secrets and options that every compile must refuse (SPEC
# section 1), each with the one kind of error it must give. The generator
# checks each case against section 1 here: the case has exactly that fault.
# ---------------------------------------------------------------------------

ERROR_KINDS = ("unsupported version", "invalid name", "duplicate name", "value too short",
               "value too long", "placeholder too long", "placeholder leaks", "redaction leaks")
ERROR_CASES: list[dict] = []


def spec_faults(secrets: list[dict], options: dict) -> set[str]:
    """Every fault of SPEC section 1 in these secrets and options (the leak checks
    only where each secret is valid on its own)."""
    faults = set()
    if options.get("version", RULES_VERSION) != RULES_VERSION:
        faults.add("unsupported version")
    names: set[bytes] = set()
    fields_ok = True
    for d in secrets:
        name = d["name"].encode()
        value = bytes.fromhex(d["valueHex"]) if "valueHex" in d else d["value"].encode()
        ph = bytes.fromhex(d["placeholderHex"]) if "placeholderHex" in d else d.get("placeholder", "").encode()
        for fault, broken in (
            ("invalid name", not (1 <= len(name) <= MAX_NAME and re.fullmatch(rb"[A-Za-z0-9_.\-]+", name))),
            ("duplicate name", name in names),
            ("value too long", len(value) > MAX_VALUE),  # as given
            ("value too short", len(value) <= MAX_VALUE and len(trim(value)) < MIN_VALUE),  # once trimmed
            ("placeholder too long", len(ph) > MAX_PLACEHOLDER),
        ):
            if broken:
                faults.add(fault)
                fields_ok = False
        names.add(name)
    if fields_ok:
        objs = [Secret(d["name"], bytes.fromhex(d["valueHex"]) if "valueHex" in d else d["value"].encode(),
                       d.get("placeholder", "").encode()) for d in secrets]
        mt = Matcher(objs)
        for s in objs:
            if s.placeholder and mt.first_candidate(s.placeholder) is not None:
                faults.add("placeholder leaks")
            if mt.first_candidate(s.redacted()) is not None:
                faults.add("redaction leaks")
    return faults


def error_case(name: str, error: str, secrets: list[dict], options: dict | None = None) -> None:
    assert error in ERROR_KINDS and all(c["name"] != name for c in ERROR_CASES), name
    faults = spec_faults(secrets, options or {})
    assert faults == {error}, f"{name}: the case has {sorted(faults)}, not just {error!r}"
    d: dict = {"name": name, "secrets": secrets}
    if options:
        d["options"] = options
    d["error"] = error
    ERROR_CASES.append(d)


def group_errors() -> None:
    ok = [{"name": "API_KEY", "value": API}]
    for version in (3, 5, 0):
        error_case(f"unsupported_version_{version}", "unsupported version", ok, {"version": version})
    error_case("unsupported_version_3_no_secrets", "unsupported version", [], {"version": 3})
    error_case("unsupported_version_3_same_length", "unsupported version", ok, {"version": 3, "sameLength": True})
    error_case("invalid_name_empty", "invalid name", [{"name": "", "value": API}])
    error_case("invalid_name_space", "invalid name", [{"name": "API KEY", "value": API}])
    error_case("invalid_name_129_bytes", "invalid name", [{"name": "N" * 129, "value": API}])
    error_case("invalid_name_non_ascii", "invalid name", [{"name": "CL\u00c9", "value": API}])
    error_case("invalid_name_second_secret", "invalid name", ok + [{"name": "a/b", "value": GH}])
    error_case("duplicate_name", "duplicate name", ok + [{"name": "API_KEY", "value": GH}])
    error_case("duplicate_name_same_value", "duplicate name", ok + ok)
    error_case("value_too_short_7_bytes", "value too short", [{"name": "SHORT", "value": "abc1234"}])
    error_case("value_too_short_once_trimmed", "value too short", [{"name": "SHORT", "value": "\nabc1234\n"}])
    error_case("value_too_short_once_trimmed_crlf", "value too short", [{"name": "SHORT", "value": "\r\n\r\nabc1234\r\n"}])
    error_case("value_too_short_only_line_breaks", "value too short", [{"name": "BREAKS", "value": "\r\n\n\r\n\r\r\n\n"}])
    error_case("value_too_short_empty", "value too short", [{"name": "EMPTY", "value": ""}])
    long_value = (LONG * 513)[:MAX_VALUE]
    assert len(long_value) == MAX_VALUE
    error_case("value_too_long_65537_bytes_with_newline", "value too long", [{"name": "BIG", "value": long_value + "\n"}])
    error_case("value_too_long_65537_bytes", "value too long", [{"name": "BIG", "value": long_value + "x"}])
    error_case("placeholder_too_long_1025_bytes", "placeholder too long",
               [{"name": "API_KEY", "value": API, "placeholder": "p" * (MAX_PLACEHOLDER + 1)}])
    error_case("placeholder_leaks_other_value", "placeholder leaks",
               [{"name": "DB_PASS", "value": "hunter2hunter2"},
                {"name": "API_KEY", "value": API, "placeholder": "use hunter2hunter2 here"}])
    error_case("placeholder_leaks_own_value", "placeholder leaks",
               [{"name": "API_KEY", "value": API, "placeholder": "<" + API + ">"}])
    error_case("placeholder_leaks_hex_of_other_value", "placeholder leaks",
               [{"name": "DB_PASS", "value": "hunter2hunter2"},
                {"name": "API_KEY", "value": API, "placeholder": hex_lower(b"hunter2hunter2").decode()}])
    error_case("placeholder_leaks_trimmed_value", "placeholder leaks",
               [{"name": "TOKEN", "value": "token12345\n"},
                {"name": "API_KEY", "value": API, "placeholder": "token12345"}])
    error_case("redaction_leaks_name_is_other_value", "redaction leaks",
               [{"name": "DB_PASS", "value": "hunter2hunter2"}, {"name": "hunter2hunter2", "value": "unrelated-value-1"}])
    error_case("redaction_leaks_same_length", "redaction leaks",
               [{"name": "DB_PASS", "value": "hunter2hunter2"}, {"name": "hunter2hunter2", "value": "unrelated-value-1"}],
               {"sameLength": True})
    error_case("redaction_leaks_name_holds_fragment", "redaction leaks",
               [{"name": "GH_TOKEN", "value": GH}, {"name": "x" + GH[5:21], "value": "unrelated-value-1"}])


# ---------------------------------------------------------------------------
# patterns.json: the ordered pattern list of SPEC section 2 for a few values.
# ---------------------------------------------------------------------------

PATTERN_VALUES: list[tuple[str, bytes]] = [
    ("spec_example_ascii", as_bytes(SPEC_EX)),
    ("every_special_character", as_bytes("a\"b\\c/d<e>f&g'h i\nj")),
    ("multibyte_utf8", as_bytes("pässwörd-€-\U0001F511")),
    ("line_separator", as_bytes("s\u00e9p\u2028s3cret-x")),
    ("control_characters", as_bytes("tab\there\x01ctl\x7fdel")),
    ("percent_specials", as_bytes(PCT)),
    ("html_specials", as_bytes(HTMLV)),
    ("not_utf8", BIN),
    ("min_8_bytes_digits", b"12345678"),
    ("17_bytes", b"abcdefgh-ijklmnop"),
    ("repetitive_20_bytes", b"ab" * 10),
    ("mixed_line_ends", as_bytes("user=svc\r\npass=Tr0ub4dor-3\nend=1")),
    ("base64_plus_slash", as_bytes(B14)),
    ("trimmed_line_breaks_around", b"\r\n\ntoken\n12345\r\n"),  # listed: the patterns of "token\n12345"
]


def pattern_document() -> dict:
    values = []
    for name, v in PATTERN_VALUES:
        check_encoders(trim(v))
        d: dict = {"name": name}
        d.update(text_or_hex("value", v))
        d["patterns"] = [{"form": p.form, "variant": p.variant, "hex": p.data.hex()} for p in patterns(trim(v))]
        values.append(d)
    return {"format": 1, "values": values}


# ---------------------------------------------------------------------------
# Coverage: every form and variant must be matched by at least one case.
# ---------------------------------------------------------------------------

REQUIRED = (
    [("raw", "lf"), ("raw", "crlf"), ("fragment", "window"), ("fragment", "extended")]
    + [("json", x) for x in "abcd"]
    + [("percent", f"{x}-{c}") for c in ("upper", "lower") for x in "abcd"]
    + [("html", x) for x in "abc"]
    + [("base64", f"{a}/s{s}/{k}") for a in ("std", "url") for s in range(3)
       for k in ("core", "tail-padded", "tail-unpadded")]
    + [("hex", "lower"), ("hex", "upper")]
    + [("wrapped", f"{f} {nl}") for f in ("base64", "hex") for nl in ("lf", "crlf")]
)


def check_coverage() -> None:
    seen = {(form, " ".join(v.split(" ")[::2]) if form == "wrapped" else v) for form, v in COVERAGE}
    missing = [r for r in REQUIRED if r not in seen]
    if not any(form == "wrapped" and " url/" in v for form, v in COVERAGE):
        missing.append(("wrapped", "base64 url"))
    assert not missing, f"no case covers {missing}"
    assert len(CASES) >= 150 and len(IDLE_CASES) >= 8


def main_groups() -> None:
    group_basics()
    group_raw_crlf()
    group_fragments()
    group_repetitive()
    group_json()
    group_percent()
    group_html()
    group_base64()
    group_hex()
    group_wrapped()
    group_ties()
    group_same_length()
    group_multi()
    group_non_utf8()
    group_long()
    group_trim()
    group_idle()
    group_errors()


def dumps(obj: dict) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def render_all() -> dict[str, str]:
    """File name -> the text the generator writes."""
    CASES.clear()
    IDLE_CASES.clear()
    ERROR_CASES.clear()
    COVERAGE.clear()
    check_spec_example()
    main_groups()
    check_coverage()
    vectors = {"format": 1, "fragment": FRAGMENT, "minValue": MIN_VALUE, "idleMs": IDLE_MS, "cases": CASES}
    return {
        "vectors.json": dumps(vectors),
        "idle.json": dumps({"format": 1, "cases": IDLE_CASES}),
        "patterns.json": dumps(pattern_document()),
        "errors.json": dumps({"format": 1, "cases": ERROR_CASES}),
    }


def _differences(name: str, committed: str, fresh: str) -> list[str]:
    """Human-readable: which cases (or values) differ."""
    try:
        old = json.loads(committed)
    except ValueError:
        return [f"{name}: not valid JSON"]
    new = json.loads(fresh)
    key = "values" if name == "patterns.json" else "cases"
    out = []
    for field_ in sorted(set(old) | set(new)):
        if field_ != key and old.get(field_) != new.get(field_):
            out.append(f"{name}: top-level {field_!r} differs")
    old_items = {c.get("name"): c for c in old.get(key, [])}
    new_items = {c.get("name"): c for c in new.get(key, [])}
    for n in new_items:
        if n not in old_items:
            out.append(f"{name}: {n} is missing")
        elif old_items[n] != new_items[n]:
            out.append(f"{name}: {n} differs")
    out += [f"{name}: {n} should not be there" for n in old_items if n not in new_items]
    if not out and [c.get("name") for c in old.get(key, [])] != list(new_items):
        out.append(f"{name}: the order of {key} differs")
    if not out:
        out.append(f"{name}: formatting differs")
    return out


def main(argv: list[str]) -> int:
    files = render_all()
    if "--coverage" in argv:
        for (form, variant), names in sorted(COVERAGE.items()):
            print(f"{form:9} {variant:40} {len(names):3}  {', '.join(sorted(set(names))[:4])}")
        return 0
    if "--check" in argv:
        problems = []
        for name, text in files.items():
            path = HERE / name
            if not path.exists():
                problems.append(f"{name}: missing")
                continue
            committed = path.read_text(encoding="utf-8")
            if committed != text:
                problems += _differences(name, committed, text)
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            print("stale: run python3 vectors/generate.py", file=sys.stderr)
            return 1
        print(f"vectors are fresh: {len(CASES)} cases, {len(IDLE_CASES)} idle cases, {len(PATTERN_VALUES)} pattern lists, "
              f"{len(ERROR_CASES)} error cases")
        return 0
    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {len(CASES)} cases, {len(IDLE_CASES)} idle cases, {len(PATTERN_VALUES)} pattern lists, {len(ERROR_CASES)} error cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
