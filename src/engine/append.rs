//! Appending a few bytes without a call to `memcpy`: a push of a byte or two
//! holds and emits as many, and the call cost more than the bytes. A long
//! run is copied a piece at a time (see [`PIECE`]).

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
        _ if bytes.len() < PIECES_FROM => out.extend_from_slice(bytes),
        _ => append_pieces(out, bytes),
    }
}

/// Appends `bytes`, [`PIECES_FROM`] or more, a piece at a time. Out of
/// line: rare beside the short appends of small pushes.
#[inline(never)]
fn append_pieces(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len());
    for piece in bytes.chunks(PIECE) {
        out.extend_from_slice(piece);
    }
}

/// Up to this many bytes are appended one by one.
const SHORT: usize = 4;

/// The longest piece of a long run copied with one call. The system's
/// `memcpy` copies a large block with `rep movsb`, which on this
/// project's machines (AMD EPYC) ran slower than the vector loop it uses
/// for small ones: `bytes`, whose output is mostly long runs of its
/// input, 1.02 to 1.07 x at 10 to 1,000 tokens with pieces of 256 or 512
/// bytes (1.00 to 1.02 x with 1 to 8 KiB, no better at 64).
const PIECE: usize = 512;

/// Runs from this long on are copied in pieces: shorter ones, as a 4 KiB
/// push appends, were copied as fast in one call (pieces of those: 4 KiB
/// pushes 0.95 to 1.00 x).
const PIECES_FROM: usize = 8 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_short_and_long_alike() {
        for len in (0..12).chain([511, 512, 513, 8191, 8192, 8193, 20_000]) {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut out = b"ab".to_vec();
            append(&mut out, &bytes);
            assert_eq!(out[..2], *b"ab");
            assert_eq!(out[2..], bytes[..]);
        }
    }
}
