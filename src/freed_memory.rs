//! A recording allocator for the tests that check that secrets are wiped
//! when dropped: it scans every block this thread frees, and every block a
//! reallocation leaves, for needles (a value, its patterns, what the engine
//! derives from them), while a scan is on. Shared by the engine's unit tests
//! and the C ABI's wipe test (included there by path), so that both check
//! freed memory the same way.

#![allow(unsafe_code)] // an allocator is unsafe to implement

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};

struct Scanning;

thread_local! {
    /// What no freed block may hold, while a scan is on.
    static NEEDLES: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    static SCANNING: Cell<bool> = const { Cell::new(false) };
    /// Freed blocks found holding a needle: (block size, needle index).
    static FOUND: RefCell<Vec<(usize, usize)>> = const { RefCell::new(Vec::new()) };
}

pub fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Scans a block about to be freed (the scan allocates nothing).
fn scan(ptr: *mut u8, size: usize) {
    let _ = SCANNING.try_with(|on| {
        if !on.get() {
            return;
        }
        on.set(false); // no scan of the scanner's own allocations
        // SAFETY: the block is live until the caller frees it.
        let block = unsafe { std::slice::from_raw_parts(ptr, size) };
        NEEDLES.with(|needles| {
            for (i, needle) in needles.borrow().iter().enumerate() {
                if contains(block, needle) {
                    FOUND.with(|found| found.borrow_mut().push((size, i)));
                }
            }
        });
        on.set(true);
    });
}

// SAFETY: forwards to the system allocator; a reallocation always moves, so
// that the block it leaves is scanned like any other. Every block is handed
// out zeroed: a block's bytes when it is freed are then what its owner
// wrote, never what another thread freed there before (a test that frees a
// value unwiped on purpose would otherwise fail another now and then, when
// the allocator hands that memory to a buffer written only in part).
unsafe impl GlobalAlloc for Scanning {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        scan(ptr, layout.size());
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract: a valid layout of the new size.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as above.
        let new = unsafe { System.alloc_zeroed(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are live and at least this long.
            unsafe { std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size)) };
            // SAFETY: `ptr` was allocated with `layout`.
            unsafe { self.dealloc(ptr, layout) };
        }
        new
    }
}

#[global_allocator]
static GLOBAL: Scanning = Scanning;

/// Runs `f` with every freed block of this thread scanned for `needles`,
/// and returns what was found.
pub fn scanned(needles: Vec<Vec<u8>>, f: impl FnOnce()) -> Vec<(usize, usize)> {
    NEEDLES.with(|n| *n.borrow_mut() = needles);
    FOUND.with(|found| found.borrow_mut().clear());
    SCANNING.with(|on| on.set(true));
    f();
    SCANNING.with(|on| on.set(false));
    FOUND.with(|found| std::mem::take(&mut *found.borrow_mut()))
}
