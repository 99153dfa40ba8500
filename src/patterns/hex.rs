//! Hex (SPEC §2.7): two digits per byte, lowercase and then uppercase.

pub(super) fn variants(value: &[u8]) -> [(&'static str, Vec<u8>); 2] {
    [
        ("lower", encode(value, b"0123456789abcdef")),
        ("upper", encode(value, b"0123456789ABCDEF")),
    ]
}

fn encode(value: &[u8], digits: &[u8; 16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * value.len());
    for &b in value {
        out.extend_from_slice(&[digits[usize::from(b >> 4)], digits[usize::from(b & 15)]]);
    }
    out
}
