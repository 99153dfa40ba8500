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
