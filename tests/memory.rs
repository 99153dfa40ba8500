//! The compiled scrubber's memory stays linear and small in the length of
//! its values (issue 8): at most 128 bytes per byte of value, as
//! `Scrubber::memory_usage()` reports it, for tokens of 40 bytes, PEM-sized
//! and 64 KiB values.

mod common;
mod reference;

use common::Rng;
use slicc_scrub::{Options, RULES_VERSION, Secret, compile};

const BOUND: usize = 128;

/// A multi-line PEM-like value of exactly `len` bytes: a header, base64
/// lines of 64 characters, a footer.
fn pem(rng: &mut Rng, len: usize) -> Vec<u8> {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let head = b"-----BEGIN PRIVATE KEY-----\n";
    let foot = b"\n-----END PRIVATE KEY-----";
    let mut v = head.to_vec();
    let body = len - head.len() - foot.len();
    for i in 0..body {
        v.push(if i % 65 == 64 { b'\n' } else { *rng.pick(B64) });
    }
    if v.last() == Some(&b'\n') {
        let at = v.len() - 1;
        v[at] = b'A';
    }
    v.extend_from_slice(foot);
    v
}

fn per_value_byte(count: usize, len: usize) -> (usize, usize) {
    let mut rng = Rng::new(0x6d65_6d00 + count as u64);
    let secrets: Vec<Secret> = (0..count)
        .map(|i| Secret::new(format!("KEY_{i}"), pem(&mut rng, len)))
        .collect();
    let total: usize = secrets.iter().map(|s| s.value.len()).sum();
    let scrubber = compile(&secrets, &Options::new(RULES_VERSION)).expect("compile");
    (scrubber.memory_usage(), total)
}

#[test]
fn memory_per_value_byte_of_pem_sized_values() {
    let (memory, total) = per_value_byte(100, 4096);
    assert!(
        memory <= BOUND * total,
        "100 x 4 KiB: {memory} bytes for {total} value bytes ({} per byte)",
        memory / total
    );
}

#[test]
fn memory_per_value_byte_of_64_kib_values() {
    let (memory, total) = per_value_byte(10, 65_536);
    assert!(
        memory <= BOUND * total,
        "10 x 64 KiB: {memory} bytes for {total} value bytes ({} per byte)",
        memory / total
    );
}

/// Tokens of 40 bytes, 10 to 1,000 of them (random alphanumeric ones take
/// 125.6, 120.3 and 118.5 bytes per value byte at 10, 100 and 1,000, the
/// last with the strings of 3 bytes that begin something in rows, and 10
/// without those of 2, which would take it to 128.3; 123 to 112 as first
/// written down here; 119 to 108 before the grams a push's
/// tail can end with were kept, 117 to 107 before each pattern longer than
/// the prefix kept 8 bytes of its tail beside it; 126 to 117 with
/// aho-corasick's automata): each has nine base64 and hex patterns, kept
/// and indexed, and a suffix automaton's states.
#[test]
fn memory_per_value_byte_of_tokens() {
    for count in [10, 100, 1_000] {
        let mut rng = Rng::new(0x746f_6b00 + count as u64);
        const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let secrets: Vec<Secret> = (0..count)
            .map(|i| {
                let value: Vec<u8> = (0..40).map(|_| *rng.pick(ALNUM)).collect();
                Secret::new(format!("TOKEN_{i}"), value)
            })
            .collect();
        let total: usize = secrets.iter().map(|s| s.value.len()).sum();
        let scrubber = compile(&secrets, &Options::new(RULES_VERSION)).expect("compile");
        let memory = scrubber.memory_usage();
        assert!(
            memory <= BOUND * total,
            "{count} x 40 B: {memory} bytes for {total} value bytes ({} per byte)",
            memory / total
        );
    }
}
