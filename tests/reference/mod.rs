//! An independent, brute-force reference of SPEC §2–§4, written from the
//! spec alone (not from `src/engine/`). Quadratic and slow on purpose: every
//! candidate at every position is enumerated directly, so its correctness
//! can be checked by reading it next to the spec.
//!
//! - [`trim_line_breaks`]: the value of §2 is the given value without leading and
//!   trailing CR and LF (§1, rules version 4).
//! - [`patterns_of`]: the patterns of one value (§2), with its own encoders.
//! - [`Reference::scrub`]: §3 selection on a whole input.
//! - [`RefStream`]: §4 streaming: what a correct stream emits after each
//!   push, what it holds back, and what `idle` and `end` return.
#![allow(dead_code)]

use std::collections::BTreeMap;

use slicc_scrub::{Form, Hit};

pub const FRAGMENT: usize = 16;
const CR: u8 = b'\r';
const LF: u8 = b'\n';

fn is_crlf(b: u8) -> bool {
    b == CR || b == LF
}

// ---------------------------------------------------------------------------
// §1 trimming
// ---------------------------------------------------------------------------

/// §1: "Every CR (0x0D) and LF (0x0A) at the start and at the end of a value
/// is removed before anything else"; CR and LF inside stay.
pub fn trim_line_breaks(given: &[u8]) -> &[u8] {
    let start = given
        .iter()
        .position(|&b| !is_crlf(b))
        .unwrap_or(given.len());
    let end = given
        .iter()
        .rposition(|&b| !is_crlf(b))
        .map_or(start, |i| i + 1);
    &given[start..end]
}

// ---------------------------------------------------------------------------
// §2 patterns
// ---------------------------------------------------------------------------

/// One pattern of a value: form, a variant label, bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPattern {
    pub form: Form,
    pub variant: String,
    pub bytes: Vec<u8>,
}

/// §2.1: `v` with each LF not preceded by CR written as CR LF, when there is
/// such an LF.
pub fn crlf_variant(v: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut changed = false;
    for (i, &b) in v.iter().enumerate() {
        if b == LF && (i == 0 || v[i - 1] != CR) {
            out.push(CR);
            changed = true;
        }
        out.push(b);
    }
    changed.then_some(out)
}

/// §2.3 json variant `a`..`d` of a UTF-8 value.
pub fn json(v: &str, variant: char) -> Vec<u8> {
    let mut out = String::new();
    for ch in v.chars() {
        let c = ch as u32;
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            _ if c < 0x20 => out.push_str(&format!("\\u{c:04x}")),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if variant == 'c' => {
                out.push_str(&format!("\\u{c:04x}"))
            }
            '\u{7f}' if variant == 'b' => out.push_str("\\u007f"),
            '/' if variant == 'd' => out.push_str("\\/"),
            _ if c >= 0x80 && (variant == 'b' || variant == 'd') => {
                let mut units = [0u16; 2];
                for u in ch.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            _ => out.push(ch),
        }
    }
    out.into_bytes()
}

/// §2.4 percent variant `a`..`d`, upper or lower hex.
pub fn percent(v: &[u8], variant: char, upper: bool) -> Vec<u8> {
    let keep_extra: &[u8] = match variant {
        'a' => b"-_.!~*'()",
        'b' | 'c' => b"-_.~",
        'd' => b"*-._",
        _ => unreachable!(),
    };
    let plus = variant == 'c' || variant == 'd';
    let mut out = Vec::new();
    for &b in v {
        if b.is_ascii_alphanumeric() || keep_extra.contains(&b) {
            out.push(b);
        } else if b == b' ' && plus {
            out.push(b'+');
        } else if upper {
            out.extend(format!("%{b:02X}").bytes());
        } else {
            out.extend(format!("%{b:02x}").bytes());
        }
    }
    out
}

/// §2.5 html variant `a`..`c`.
pub fn html(v: &[u8], variant: char) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in v {
        match b {
            b'&' => out.extend(b"&amp;"),
            b'<' => out.extend(b"&lt;"),
            b'>' => out.extend(b"&gt;"),
            b'"' if variant == 'c' => out.extend(b"&#34;"),
            b'"' => out.extend(b"&quot;"),
            b'\'' if variant == 'b' => out.extend(b"&#x27;"),
            b'\'' => out.extend(b"&#39;"),
            _ => out.push(b),
        }
    }
    out
}

pub const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Plain base64 of `data` in `alphabet`, with or without `=` padding.
pub fn base64(data: &[u8], alphabet: &[u8; 64], pad: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(3) {
        let mut buf = [0u8; 3];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = u32::from(buf[0]) << 16 | u32::from(buf[1]) << 8 | u32::from(buf[2]);
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize]);
            } else if pad {
                out.push(b'=');
            }
        }
    }
    out
}

/// §2.6 core at shift `s`: the characters whose six bits all come from `v`.
pub fn base64_core(v: &[u8], alphabet: &[u8; 64], s: usize) -> Vec<u8> {
    let mut data = vec![0u8; s];
    data.extend_from_slice(v);
    data.extend_from_slice(&[0, 0, 0]);
    let enc = base64(&data, alphabet, false);
    let from = (8 * s).div_ceil(6);
    let to = 8 * (s + v.len()) / 6;
    enc[from..to].to_vec()
}

/// §2.6 tail at shift `s`, padded or not.
pub fn base64_tail(v: &[u8], alphabet: &[u8; 64], s: usize, pad: bool) -> Vec<u8> {
    let mut data = vec![0u8; s];
    data.extend_from_slice(v);
    let enc = base64(&data, alphabet, pad);
    enc[(8 * s).div_ceil(6)..].to_vec()
}

pub fn hex(v: &[u8], upper: bool) -> Vec<u8> {
    v.iter()
        .flat_map(|b| {
            if upper {
                format!("{b:02X}").into_bytes()
            } else {
                format!("{b:02x}").into_bytes()
            }
        })
        .collect()
}

/// Every pattern of a value in SPEC §2 order, each added only when it
/// differs from every one already added. Variant labels are this file's own.
/// The value is trimmed first (§1), as the crate's `patterns(value)` does.
pub fn patterns_of(given: &[u8]) -> Vec<RefPattern> {
    let v = trim_line_breaks(given);
    let mut list: Vec<RefPattern> = Vec::new();
    let mut add = |form: Form, variant: String, bytes: Vec<u8>| {
        if !list.iter().any(|p| p.bytes == bytes) {
            list.push(RefPattern {
                form,
                variant,
                bytes,
            });
        }
    };
    add(Form::Raw, "lf".into(), v.to_vec());
    if let Some(crlf) = crlf_variant(v) {
        add(Form::Raw, "crlf".into(), crlf);
    }
    if v.len() > FRAGMENT {
        for k in 0..=v.len() - FRAGMENT {
            add(Form::Fragment, format!("@{k}"), v[k..k + FRAGMENT].to_vec());
        }
    }
    if let Ok(text) = std::str::from_utf8(v) {
        for variant in ['a', 'b', 'c', 'd'] {
            add(Form::Json, variant.to_string(), json(text, variant));
        }
    }
    for upper in [true, false] {
        for variant in ['a', 'b', 'c', 'd'] {
            let case = if upper { "upper" } else { "lower" };
            add(
                Form::Percent,
                format!("{variant}-{case}"),
                percent(v, variant, upper),
            );
        }
    }
    for variant in ['a', 'b', 'c'] {
        add(Form::Html, variant.to_string(), html(v, variant));
    }
    for (name, alphabet) in [("std", STD), ("url", URL)] {
        for s in 0..3 {
            add(
                Form::Base64,
                format!("{name}/s{s}/core"),
                base64_core(v, alphabet, s),
            );
            add(
                Form::Base64,
                format!("{name}/s{s}/tail-padded"),
                base64_tail(v, alphabet, s, true),
            );
            add(
                Form::Base64,
                format!("{name}/s{s}/tail-unpadded"),
                base64_tail(v, alphabet, s, false),
            );
        }
    }
    add(Form::Hex, "lower".into(), hex(v, false));
    add(Form::Hex, "upper".into(), hex(v, true));
    list
}

// ---------------------------------------------------------------------------
// §3 matching
// ---------------------------------------------------------------------------

/// A secret as the reference sees it.
#[derive(Clone, Debug)]
pub struct RefSecret {
    pub name: String,
    /// As given: the reference trims it (§1).
    pub value: Vec<u8>,
    /// `None` or empty: none.
    pub placeholder: Option<Vec<u8>>,
}

struct Compiled {
    /// The trimmed value `v` of §2.
    value: Vec<u8>,
    name: String,
    /// raw, json, percent, html patterns (matched on the input as is).
    direct: Vec<(Form, Vec<u8>)>,
    /// 16-byte windows with their offset in the value.
    windows: Vec<(usize, Vec<u8>)>,
    /// base64 and hex patterns (matched on the CR/LF-free view).
    encoded: Vec<(Form, Vec<u8>)>,
    raw_replacement: Vec<u8>,
    redaction: Vec<u8>,
}

/// A candidate: its length in original input bytes, form, secret index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cand {
    pub len: usize,
    pub form: Form,
    pub secret: usize,
}

/// The input with CR and LF removed, mapped back to original positions.
struct View {
    bytes: Vec<u8>,
    /// view index -> original position
    orig: Vec<usize>,
    /// original position -> view index (None at CR/LF)
    index: Vec<Option<usize>>,
}

impl View {
    fn new(input: &[u8]) -> View {
        let mut view = View {
            bytes: Vec::new(),
            orig: Vec::new(),
            index: Vec::new(),
        };
        for (p, &b) in input.iter().enumerate() {
            if is_crlf(b) {
                view.index.push(None);
            } else {
                view.index.push(Some(view.bytes.len()));
                view.bytes.push(b);
                view.orig.push(p);
            }
        }
        view
    }
}

pub struct Reference {
    secrets: Vec<Compiled>,
    pub same_length: bool,
}

/// Hit totals keyed by (secret index, form).
pub type Tally = BTreeMap<(usize, Form), u64>;

impl Reference {
    pub fn new(secrets: &[RefSecret], same_length: bool) -> Reference {
        let secrets = secrets
            .iter()
            .map(|s| {
                let value = trim_line_breaks(&s.value).to_vec();
                let mut direct = Vec::new();
                let mut windows = Vec::new();
                let mut encoded = Vec::new();
                for p in patterns_of(&value) {
                    match p.form {
                        Form::Fragment => {
                            let k: usize = p.variant[1..].parse().unwrap();
                            windows.push((k, p.bytes));
                        }
                        Form::Base64 | Form::Hex => encoded.push((p.form, p.bytes)),
                        _ => direct.push((p.form, p.bytes)),
                    }
                }
                // Dedupe keeps one of several equal windows; §3 makes every
                // offset of a repeated window a candidate, so list them all.
                if value.len() > FRAGMENT {
                    windows = (0..=value.len() - FRAGMENT)
                        .map(|k| (k, value[k..k + FRAGMENT].to_vec()))
                        .collect();
                }
                let redaction = format!("[redacted:{}]", s.name).into_bytes();
                let raw_replacement = match &s.placeholder {
                    Some(p) if !p.is_empty() => p.clone(),
                    _ => redaction.clone(),
                };
                Compiled {
                    value,
                    name: s.name.clone(),
                    direct,
                    windows,
                    encoded,
                    raw_replacement,
                    redaction,
                }
            })
            .collect();
        Reference {
            secrets,
            same_length,
        }
    }

    pub fn names(&self) -> Vec<String> {
        self.secrets.iter().map(|s| s.name.clone()).collect()
    }

    /// The longest pattern (or value) of any secret, in bytes.
    pub fn longest_pattern(&self) -> usize {
        self.secrets
            .iter()
            .flat_map(|s| {
                s.direct
                    .iter()
                    .chain(s.encoded.iter())
                    .map(|(_, p)| p.len())
                    .chain([s.value.len()])
            })
            .max()
            .unwrap_or(0)
    }

    /// Every candidate starting at `p`, by brute force.
    fn candidates(&self, input: &[u8], view: &View, p: usize) -> Vec<Cand> {
        let rest = &input[p..];
        let mut out = Vec::new();
        // §3: "No candidate of any form starts at a CR or LF."
        if is_crlf(input[p]) {
            return out;
        }
        for (i, s) in self.secrets.iter().enumerate() {
            for (form, pat) in &s.direct {
                if rest.starts_with(pat) {
                    out.push(Cand {
                        len: pat.len(),
                        form: *form,
                        secret: i,
                    });
                }
            }
            for (k, window) in &s.windows {
                if rest.starts_with(window) {
                    let mut e = 0;
                    while FRAGMENT + e < rest.len()
                        && k + FRAGMENT + e < s.value.len()
                        && rest[FRAGMENT + e] == s.value[k + FRAGMENT + e]
                    {
                        e += 1;
                    }
                    let whole = *k == 0 && FRAGMENT + e == s.value.len();
                    out.push(Cand {
                        len: FRAGMENT + e,
                        form: if whole { Form::Raw } else { Form::Fragment },
                        secret: i,
                    });
                }
            }
            if let Some(q) = view.index[p] {
                for (form, pat) in &s.encoded {
                    if view.bytes[q..].starts_with(pat) {
                        let end = view.orig[q + pat.len() - 1] + 1;
                        let wrapped = input[p..end].iter().any(|&b| is_crlf(b));
                        out.push(Cand {
                            len: end - p,
                            form: if wrapped { Form::Wrapped } else { *form },
                            secret: i,
                        });
                    }
                }
            }
        }
        out
    }

    /// §4: could the input from `p` still become a longer candidate?
    fn pending(&self, input: &[u8], view: &View, p: usize) -> bool {
        if is_crlf(input[p]) {
            return false; // no candidate starts at CR or LF
        }
        let rest = &input[p..];
        let proper_prefix =
            |rest: &[u8], pat: &[u8]| rest.len() < pat.len() && pat.starts_with(rest);
        for s in &self.secrets {
            if s.direct.iter().any(|(_, pat)| proper_prefix(rest, pat)) {
                return true;
            }
            for (k, window) in &s.windows {
                if proper_prefix(rest, window) {
                    return true;
                }
                if rest.starts_with(window) {
                    // extended to the end of the input with value bytes left?
                    let tail = &rest[FRAGMENT..];
                    let along = &s.value[k + FRAGMENT..];
                    if tail.len() < along.len() && along.starts_with(tail) {
                        return true;
                    }
                }
            }
            if let Some(q) = view.index[p]
                && s.encoded
                    .iter()
                    .any(|(_, pat)| proper_prefix(&view.bytes[q..], pat))
            {
                return true;
            }
        }
        false
    }

    /// The best of the candidates: longest, then form, then secret index.
    fn best(cands: &[Cand]) -> Option<Cand> {
        cands
            .iter()
            .copied()
            .min_by_key(|c| (std::cmp::Reverse(c.len), c.form, c.secret))
    }

    fn replacement(&self, c: Cand, span: &[u8]) -> Vec<u8> {
        if self.same_length {
            return span
                .iter()
                .map(|&b| if is_crlf(b) { b } else { b'*' })
                .collect();
        }
        let s = &self.secrets[c.secret];
        if c.form == Form::Raw {
            s.raw_replacement.clone()
        } else {
            s.redaction.clone()
        }
    }

    /// §3 selection over `input`. With `barrier`, stops at the earliest
    /// position (not inside a decided match) that is still pending (§4) and
    /// returns it; without, scrubs everything. Appends to `out`, counts into
    /// `tally`, returns where it stopped.
    pub fn run(&self, input: &[u8], barrier: bool, out: &mut Vec<u8>, tally: &mut Tally) -> usize {
        let view = View::new(input);
        let mut c = 0;
        let mut p = 0;
        while p < input.len() {
            if barrier && self.pending(input, &view, p) {
                out.extend_from_slice(&input[c..p]);
                return p;
            }
            if let Some(best) = Self::best(&self.candidates(input, &view, p)) {
                out.extend_from_slice(&input[c..p]);
                out.extend(self.replacement(best, &input[p..p + best.len]));
                *tally.entry((best.secret, best.form)).or_insert(0) += 1;
                c = p + best.len;
                p = c;
            } else {
                p += 1;
            }
        }
        out.extend_from_slice(&input[c..]);
        input.len()
    }

    /// Whether `input` contains any candidate at all.
    pub fn has_match(&self, input: &[u8]) -> bool {
        let view = View::new(input);
        (0..input.len()).any(|p| !self.candidates(input, &view, p).is_empty())
    }

    pub fn hits(&self, tally: &Tally) -> Vec<Hit> {
        tally
            .iter()
            .map(|(&(i, form), &count)| Hit {
                name: self.secrets[i].name.clone(),
                form,
                count,
            })
            .collect()
    }

    /// `bytes(input)` by the reference.
    pub fn scrub(&self, input: &[u8]) -> (Vec<u8>, Vec<Hit>) {
        let mut out = Vec::new();
        let mut tally = Tally::new();
        self.run(input, false, &mut out, &mut tally);
        (out, self.hits(&tally))
    }

    /// The compile error SPEC §1 demands, if any: (secret index, true for a
    /// placeholder leak / false for a `[redacted:<name>]` leak). Checked in
    /// list order, placeholder before redaction.
    pub fn replacement_leak(&self) -> Option<(usize, bool)> {
        for (i, s) in self.secrets.iter().enumerate() {
            if s.raw_replacement != s.redaction && self.has_match(&s.raw_replacement) {
                return Some((i, true));
            }
            if self.has_match(&s.redaction) {
                return Some((i, false));
            }
        }
        None
    }
}

// ---------------------------------------------------------------------------
// §4 streaming
// ---------------------------------------------------------------------------

/// What a correct stream does: the held bytes always start at a position
/// not inside a decided match, so they are all the state there is.
pub struct RefStream<'a> {
    r: &'a Reference,
    held: Vec<u8>,
    tally: Tally,
}

impl<'a> RefStream<'a> {
    pub fn new(r: &'a Reference) -> RefStream<'a> {
        RefStream {
            r,
            held: Vec::new(),
            tally: Tally::new(),
        }
    }

    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        let mut input = std::mem::take(&mut self.held);
        input.extend_from_slice(chunk);
        let mut out = Vec::new();
        let stop = self.r.run(&input, true, &mut out, &mut self.tally);
        self.held = input[stop..].to_vec();
        out
    }

    pub fn idle(&mut self) -> Vec<u8> {
        if self.held.len() < FRAGMENT {
            self.end()
        } else {
            Vec::new()
        }
    }

    pub fn end(&mut self) -> Vec<u8> {
        let input = std::mem::take(&mut self.held);
        let mut out = Vec::new();
        self.r.run(&input, false, &mut out, &mut self.tally);
        out
    }

    pub fn held(&self) -> usize {
        self.held.len()
    }

    pub fn held_bytes(&self) -> &[u8] {
        &self.held
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.r.hits(&self.tally)
    }
}
