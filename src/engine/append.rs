//! Appending a few bytes without a call to `memcpy`: a push of a byte or two
//! holds and emits as many, and the call cost more than the bytes.

/// Appends `bytes` to `out`. Always inlined: where the quick decision grew
/// a test, the compiler made this a call again (6% of a 1 B push).
#[inline(always)]
pub(crate) fn append(out: &mut Vec<u8>, bytes: &[u8]) {
    match bytes {
        [] => {}
        [byte] => out.push(*byte),
        _ if bytes.len() <= SHORT => {
            out.reserve(bytes.len());
            for &byte in bytes {
                out.push(byte);
            }
        }
        _ => out.extend_from_slice(bytes),
    }
}

/// Up to this many bytes are appended one by one.
const SHORT: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_short_and_long_alike() {
        for len in 0..12 {
            let bytes: Vec<u8> = (0..len as u8).collect();
            let mut out = b"ab".to_vec();
            append(&mut out, &bytes);
            assert_eq!(out[..2], *b"ab");
            assert_eq!(out[2..], bytes[..]);
        }
    }
}
