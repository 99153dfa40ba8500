//! Appending a few bytes without a call to `memcpy`: a push of a byte or two
//! holds and emits as many, and the call cost more than the bytes. A long
//! run is copied a piece at a time (see [`PIECE`]), and so is one of a few
//! KiB that would land just after its source's place in a page (see
//! [`NEAR_IN_PAGE`]).

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
        _ if bytes.len() < CHECKED_FROM => out.extend_from_slice(bytes),
        _ if bytes.len() < PIECES_FROM => append_run(out, bytes),
        _ => append_pieces(out, bytes),
    }
}

/// Appends `bytes`, [`CHECKED_FROM`] to [`PIECES_FROM`] long: with one
/// call, but a piece at a time where the destination lies just after the
/// source in the page (see [`NEAR_IN_PAGE`]). Out of line: once a push at
/// most.
#[inline(never)]
fn append_run(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len());
    let to = out.as_ptr() as usize + out.len();
    if is_near_in_page(to, bytes.as_ptr() as usize) {
        append_pieces(out, bytes);
    } else {
        out.extend_from_slice(bytes);
    }
}

/// Whether a copy to address `to` from address `from` is one that
/// [`NEAR_IN_PAGE`] slows.
fn is_near_in_page(to: usize, from: usize) -> bool {
    to.wrapping_sub(from) % PAGE < NEAR_IN_PAGE
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

/// Runs from this long on, up to [`PIECES_FROM`], are checked for
/// [`NEAR_IN_PAGE`]: below the size from which the system's `memcpy` uses
/// `rep movsb` (2,112 bytes on this project's machines).
const CHECKED_FROM: usize = 2 * 1024;

/// A run whose destination lies less than this many bytes after its
/// source, modulo a page, is copied in pieces: there `rep movsb` runs up to
/// 20 times slower on AMD processors (glibc bug 30994; 4 KiB copies here,
/// 2 to 4 GB/s at 1 to 15 bytes and 6 to 11 at 16 to 31, where 512-byte
/// pieces copy at 14 to 31; 24 to 42 at 0 and at 32 to 63, pieces 27 to
/// 58; 38 to 63 elsewhere). A caller that pushes 4 KiB from one buffer into
/// another it reuses meets it at every push, or never, by where the two
/// lie: 4 KiB pushes, where it does, 0.60 to 0.72 x `bytes` against 0.91
/// to 1.04 x with pieces (the benchmark's table of reused buffers). Pieces
/// at every distance would cost 4 KiB pushes into fresh room 2 to 7%:
/// there `rep movsb` is faster.
const NEAR_IN_PAGE: usize = 64;

/// The page size of the processors whose `rep movsb` is so slowed.
const PAGE: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_short_and_long_alike() {
        for len in (0..12).chain([511, 512, 513, 2047, 2048, 4096, 8191, 8192, 8193, 20_000]) {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut out = b"ab".to_vec();
            append(&mut out, &bytes);
            assert_eq!(out[..2], *b"ab");
            assert_eq!(out[2..], bytes[..]);
        }
    }

    #[test]
    fn tells_destinations_just_after_the_source_in_its_page() {
        let from = 0x7f00_0000_1230;
        for (to, near) in [
            (from, true),
            (from + 1, true),
            (from + 63, true),
            (from + 64, false),
            (from + 4095, false),
            (from + 4096 + 8, true),
            (from - 4096 + 8, true),
            (from - 8, false),
            (from + 3 * 4096 + 200, false),
        ] {
            assert_eq!(
                is_near_in_page(to, from),
                near,
                "{:#x}",
                to.wrapping_sub(from)
            );
        }
    }

    /// The runs copied in pieces where they land near their source in the
    /// page, and in one call elsewhere, come out alike.
    #[test]
    fn appends_runs_at_every_distance_in_the_page() {
        let source: Vec<u8> = (0..3 * PAGE).map(|i| (i * 7 + i / 251) as u8).collect();
        for len in [CHECKED_FROM, 4096 - 3, PIECES_FROM - 1] {
            let bytes = &source[5..5 + len];
            let mut near = 0;
            for before in (0..PAGE).step_by(13).chain(0..80) {
                let mut out = Vec::with_capacity(before + len);
                out.resize(before, 0xa5);
                let to = out.as_ptr() as usize + out.len();
                near += usize::from(is_near_in_page(to, bytes.as_ptr() as usize));
                append(&mut out, bytes);
                assert!(out[..before].iter().all(|&b| b == 0xa5));
                assert_eq!(out[before..], *bytes, "{len} bytes after {before}");
            }
            // Both ways were taken.
            assert!(near > 0 && near < PAGE / 13, "{near}");
        }
    }
}
