//! A hint to the processor to start loading a cache line before it is
//! read. The bitmaps of a large set are far beyond the second-level cache,
//! and a sampled gram's probe there waits on memory; asked for a batch of
//! samples ahead, those loads overlap instead. A prefetch never faults and
//! changes nothing the program can see, so this is the crate's one use of
//! `unsafe`.
#![allow(unsafe_code)]

/// Starts loading the cache line that holds `item` (on x86-64; elsewhere
/// nothing).
#[inline(always)]
pub(super) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` only moves a line into the cache: it reads
    // nothing into a register, writes nothing and cannot fault, and the
    // address is that of a reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Starts loading the lines of the bytes of `bytes` from `from` on, `len`
/// of them (as far as `bytes` goes): successive calls cover successive
/// stretches, so a line that one leaves out at its end is the next one's
/// first. A loop of its own, not `step_by`, whose iterator took twice the
/// instructions (asking for the output's room, see `OutputRoom`, cost
/// `bytes` and 4 KiB pushes 3.6% more instructions at 100 tokens and 100
/// x 4 KiB so, 1.9% with this loop).
#[inline(always)]
pub(super) fn prefetch_lines<T>(bytes: &[T], from: usize, len: usize) {
    const { assert!(std::mem::size_of::<T>() == 1, "a slice of bytes") };
    let end = bytes.len().min(from + len);
    let mut line = from;
    while line < end {
        prefetch(&bytes[line]);
        line += 64;
    }
}
