//! The room after the end of the caller's output, where a feed writes what
//! it decides: asked for into the cache while the input is read.

use std::mem::MaybeUninit;

use super::prefetch::prefetch_lines;

/// The first bytes of the room after the end of the caller's output (its
/// spare capacity), about as many as a feed of a stretch of input writes
/// there. Where the input is read in place, the direct filter asks for the
/// room of each batch of samples as it reads them (see
/// `filter::for_each_passing`); a copied push of a few KiB asks for all of
/// it at once (see `matcher::PREFETCH_OUT`). Where that room is not
/// in the cache (a large output appended to, as a caller collecting a
/// stream's output does), each of its lines was fetched as the scrubbed
/// bytes were written, after the scan, and the next push's first reads
/// waited behind those fetches. Asked for a batch at a time, the lines
/// arrive while the filter reads: 4 KiB pushes 1.04 to 1.22 x at 10 to
/// 10,000 tokens and the long values, `bytes` 0.97 to 1.14 x (one binary
/// switched, rounds alternated), where asking for all of them at the
/// start of a push read in place delayed the filter's own reads as much
/// as it saved (0.95 to 1.02 x).
#[derive(Clone, Copy)]
pub(super) struct OutputRoom<'a> {
    room: &'a [MaybeUninit<u8>],
}

impl<'a> OutputRoom<'a> {
    /// No room to ask for.
    pub(super) const NONE: OutputRoom<'static> = OutputRoom { room: &[] };

    /// The first `len` bytes of the room after the end of `out` (fewer
    /// where its capacity ends first: what lies past it is not asked for).
    pub(super) fn of(out: &'a mut Vec<u8>, len: usize) -> OutputRoom<'a> {
        let room = out.spare_capacity_mut();
        let len = len.min(room.len());
        OutputRoom { room: &room[..len] }
    }

    /// Asks for the lines of the room from `from` on, `len` bytes of it (as
    /// far as it goes; see [`prefetch_lines`]).
    #[inline(always)]
    pub(super) fn prefetch(&self, from: usize, len: usize) {
        prefetch_lines(self.room, from, len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_is_the_spare_capacity_up_to_the_length_asked() {
        let mut out = Vec::with_capacity(100);
        out.extend_from_slice(b"abc");
        let start = out.as_ptr() as usize + 3;
        let room = OutputRoom::of(&mut out, 40);
        assert_eq!(room.room.len(), 40);
        assert_eq!(room.room.as_ptr() as usize, start);
        assert_eq!(OutputRoom::of(&mut out, 1000).room.len(), 97);
        // Asking past the room's end stops there (an index past it panics).
        OutputRoom::of(&mut out, 40).prefetch(0, 1000);
        OutputRoom::NONE.prefetch(0, 64);
    }
}
