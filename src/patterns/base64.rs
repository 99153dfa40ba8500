//! Base64 (SPEC §2.6): a value inside a larger blob starts at byte offset
//! 0, 1 or 2 mod 3 (the shift), which changes every character. For each
//! alphabet and shift: the core (the characters whose six bits all come from
//! the value) and the tail (for a value that ends the blob), padded and not.

use zeroize::Zeroizing;

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub(super) fn variants(value: &[u8]) -> Vec<(String, Vec<u8>)> {
    let n = value.len();
    let mut out = Vec::with_capacity(18);
    // `s` zero bytes, the value, three zero bytes: sized once, so it never
    // grows (a grown buffer would leave a freed copy of the value), and
    // wiped when dropped, as is every encoding made from it.
    let mut blob = Zeroizing::new(Vec::with_capacity(n + 5));
    for (name, alphabet) in [("std", STANDARD), ("url", URL_SAFE)] {
        for shift in 0..3usize {
            blob.clear();
            blob.resize(shift, 0);
            blob.extend_from_slice(value);
            // Characters before ceil(8s/6) carry bits of the s zero bytes.
            let skip = (8 * shift).div_ceil(6);
            let tail = Zeroizing::new(encode(&blob, alphabet));
            blob.extend_from_slice(&[0, 0, 0]);
            let core_end = 8 * (shift + n) / 6;
            let core = Zeroizing::new(encode(&blob, alphabet));
            // (empty for a value too short to have a character of its own:
            // `patterns` takes any value)
            let core = core.get(skip..core_end).unwrap_or_default().to_vec();
            out.push((format!("{name}/s{shift}/core"), core));
            let padded_len = tail.len().next_multiple_of(4) - skip;
            let mut padded = Vec::with_capacity(padded_len);
            padded.extend_from_slice(&tail[skip..]);
            padded.resize(padded_len, b'=');
            out.push((format!("{name}/s{shift}/tail-padded"), padded));
            out.push((
                format!("{name}/s{shift}/tail-unpadded"),
                tail[skip..].to_vec(),
            ));
        }
    }
    out
}

/// Base64 without padding.
fn encode(bytes: &[u8], alphabet: &[u8; 64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let bits = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(alphabet[(bits >> (18 - 6 * i) & 63) as usize]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_too_short_for_a_character_do_not_panic() {
        for value in [&b""[..], b"a", b"ab"] {
            assert_eq!(variants(value).len(), 18);
        }
    }

    #[test]
    fn spec_example() {
        let v = variants(b"ghp_abcdefgh");
        let get = |name: &str| {
            let (_, bytes) = v.iter().find(|(n, _)| n == name).unwrap();
            String::from_utf8(bytes.clone()).unwrap()
        };
        assert_eq!(get("std/s0/core"), "Z2hwX2FiY2RlZmdo");
        assert_eq!(get("std/s0/tail-padded"), "Z2hwX2FiY2RlZmdo");
        assert_eq!(get("std/s1/core"), "docF9hYmNkZWZna");
        assert_eq!(get("std/s1/tail-padded"), "docF9hYmNkZWZnaA==");
        assert_eq!(get("std/s1/tail-unpadded"), "docF9hYmNkZWZnaA");
        assert_eq!(get("std/s2/core"), "naHBfYWJjZGVmZ2");
        assert_eq!(get("std/s2/tail-padded"), "naHBfYWJjZGVmZ2g=");
    }
}
