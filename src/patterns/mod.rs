//! The patterns of one value, SPEC §2: every byte string the scrubber looks
//! for, in form order, with the per-secret dedupe applied.

mod base64;
mod hex;
mod html;
mod json;
mod percent;

use std::collections::HashSet;
use std::fmt;

use zeroize::Zeroize;

use crate::FRAGMENT;
use crate::form::Form;
use crate::secret::trim_line_breaks;

/// One pattern of a value: its form, which variant of the form made it, and
/// its bytes. Base64 and hex patterns are also matched with CR and LF
/// removed from the input (the `wrapped` form).
///
/// `Debug` shows the form, the variant and the length, never the bytes,
/// which are wiped when the pattern is dropped. A later version may add
/// fields: made by [`patterns`] only.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Pattern {
    /// The form the pattern belongs to.
    pub form: Form,
    /// Which variant of the form: `lf`/`crlf` (raw), `@k` (fragment window
    /// at offset k), `a`..`d` (json), `a-upper`..`d-lower` (percent),
    /// `a`..`c` (html), `std/s1/core`, `url/s0/tail-padded`, ... (base64),
    /// `lower`/`upper` (hex).
    pub variant: String,
    /// The bytes the scrubber looks for.
    pub bytes: Vec<u8>,
}

/// A pattern is made from a value: its bytes are wiped when it is dropped.
impl Drop for Pattern {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pattern({} {}, {} bytes)",
            self.form,
            self.variant,
            self.bytes.len()
        )
    }
}

/// Every pattern of `value`, in SPEC §2 order; a pattern equal to one
/// already listed is left out. The patterns are those of the trimmed value
/// (SPEC §1: leading and trailing CR and LF removed), as compile uses them.
///
/// ```
/// use slicc_scrub::{patterns, Form};
///
/// let list = patterns(b"ghp_abcdefgh12345678\n");
/// assert_eq!(list[0].form, Form::Raw);
/// assert_eq!(list[0].bytes, b"ghp_abcdefgh12345678");
/// assert!(list.iter().any(|p| p.form == Form::Hex && p.bytes == b"6768705f61626364656667683132333435363738"));
/// ```
pub fn patterns(value: &[u8]) -> Vec<Pattern> {
    build(trim_line_breaks(value), true)
}

/// The patterns of `value` but its fragment windows, for the engine, which
/// finds fragments along the value itself. Leaving the windows out changes
/// no other pattern: every other pattern of a value longer than a window is
/// longer than 16 bytes, so none is ever equal to a window.
pub(crate) fn patterns_but_fragments(value: &[u8]) -> Vec<Pattern> {
    build(value, false)
}

fn build(value: &[u8], fragments: bool) -> Vec<Pattern> {
    let mut list = PatternList::default();
    list.add(Form::Raw, "lf".into(), value.to_vec());
    if let Some(crlf) = lf_as_crlf(value) {
        list.add(Form::Raw, "crlf".into(), crlf);
    }
    if fragments && value.len() > FRAGMENT {
        // Windows are compared among themselves by slices of the value: a
        // window equals no other pattern of a value longer than a window.
        let mut seen: HashSet<&[u8]> = HashSet::new();
        for k in 0..=value.len() - FRAGMENT {
            let window = &value[k..k + FRAGMENT];
            if seen.insert(window) {
                list.patterns.push(Pattern {
                    form: Form::Fragment,
                    variant: format!("@{k}"),
                    bytes: window.to_vec(),
                });
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(value) {
        for (variant, bytes) in json::variants(text) {
            list.add(Form::Json, variant.into(), bytes);
        }
    }
    for (variant, bytes) in percent::variants(value) {
        list.add(Form::Percent, variant, bytes);
    }
    for (variant, bytes) in html::variants(value) {
        list.add(Form::Html, variant.into(), bytes);
    }
    for (variant, bytes) in base64::variants(value) {
        list.add(Form::Base64, variant, bytes);
    }
    for (variant, bytes) in hex::variants(value) {
        list.add(Form::Hex, variant.into(), bytes);
    }
    list.patterns
}

/// `value` with every LF not preceded by CR written as CR LF, when it has
/// such an LF: what a terminal's output processing prints for it.
fn lf_as_crlf(value: &[u8]) -> Option<Vec<u8>> {
    let lone = |i: usize| value[i] == b'\n' && (i == 0 || value[i - 1] != b'\r');
    let lone_count = (0..value.len()).filter(|&i| lone(i)).count();
    if lone_count == 0 {
        return None;
    }
    let mut out = Vec::with_capacity(value.len() + lone_count);
    for (i, &byte) in value.iter().enumerate() {
        if lone(i) {
            out.push(b'\r');
        }
        out.push(byte);
    }
    Some(out)
}

/// A buffer of `bound` bytes, at least what the encoding will write, so
/// that it never grows (a growing buffer leaves a freed copy of what it
/// held); [`exact`] then trims it.
pub(super) fn buffer(bound: usize) -> Vec<u8> {
    Vec::with_capacity(bound)
}

/// `buffer` copied into one of exactly its length, and wiped.
pub(super) fn exact(mut buffer: Vec<u8>) -> Vec<u8> {
    if buffer.capacity() == buffer.len() {
        return buffer;
    }
    let out = buffer.as_slice().to_vec();
    buffer.zeroize();
    out
}

/// The patterns of one value in order, each one once. Patterns other than
/// windows are few (under 50), so they are compared directly: no copy of
/// them is kept to look them up by.
#[derive(Default)]
struct PatternList {
    patterns: Vec<Pattern>,
}

impl PatternList {
    fn add(&mut self, form: Form, variant: String, mut bytes: Vec<u8>) {
        if self.patterns.iter().any(|p| p.bytes == bytes) {
            bytes.zeroize();
            return;
        }
        self.patterns.push(Pattern {
            form,
            variant,
            bytes,
        });
    }
}
