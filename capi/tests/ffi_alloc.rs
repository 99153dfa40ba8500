//! A warm stream allocates nothing per chunk through the C ABI: the output
//! buffer is the stream's, reused from call to call (issue 3).
//!
//! Only the allocations of the thread under test are counted: the test
//! harness's other threads (its output capture, a timer) allocate whenever
//! they like, and counting them made this test fail on a loaded machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

// The C ABI's own source, compiled into this test: the crate is a cdylib and
// a staticlib, which a Rust test cannot link.
#[path = "../src/lib.rs"]
#[allow(unused)]
mod capi;

use capi::{
    SCRUB_RULES_VERSION, scrub_compile_json, scrub_options, scrub_scrubber_free, scrub_status,
    scrub_stream_end, scrub_stream_free, scrub_stream_new, scrub_stream_push,
};

struct Counting;

thread_local! {
    /// Allocations made by this thread while `COUNTING` is set. A const
    /// initialiser: reading it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    // `try_with`: the thread-locals may already be gone while a thread exits.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

/// The allocations this thread makes while running `f`.
fn allocations_in(f: impl FnOnce()) -> usize {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards to the system allocator, counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_counter_sees_this_threads_allocations_only() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static STOP: AtomicBool = AtomicBool::new(false);
    // Another thread allocates all the time, as a loaded harness would.
    let noisy = std::thread::spawn(|| {
        while !STOP.load(Ordering::Relaxed) {
            drop(std::hint::black_box(vec![1u8; 64]));
        }
    });
    let mine = allocations_in(|| {
        for _ in 0..100 {
            drop(std::hint::black_box(vec![1u8; 64]));
        }
    });
    STOP.store(true, Ordering::Relaxed);
    noisy.join().unwrap();
    assert_eq!(mine, 100);
}

#[test]
fn a_warm_stream_does_not_allocate_per_chunk() {
    let json = br#"[{"name":"GH","value":"ghp_abcdefgh12345678","placeholder":"P"},
                    {"name":"DB","value":"correct horse battery staple"}]"#;
    let options = scrub_options {
        struct_size: size_of::<scrub_options>(),
        version: SCRUB_RULES_VERSION,
        same_length: 0,
    };
    let mut scrubber = std::ptr::null_mut();
    let mut stream = std::ptr::null_mut();
    let (mut out, mut len) = (std::ptr::null(), 0usize);
    let chunk = b"log line with ghp_abcdefgh12345678 and Y29ycmVjdCBob3JzZSBiYXR0ZXJ5IHN0YXBsZQ== then text\n";
    // SAFETY: valid pointers and lengths throughout.
    unsafe {
        let status = scrub_compile_json(
            json.as_ptr().cast(),
            json.len(),
            &options,
            &mut scrubber,
            std::ptr::null_mut(),
        );
        assert_eq!(status, scrub_status::Ok);
        assert_eq!(scrub_stream_new(scrubber, &mut stream), scrub_status::Ok);
        for _ in 0..64 {
            let status = scrub_stream_push(stream, chunk.as_ptr(), chunk.len(), &mut out, &mut len);
            assert_eq!(status, scrub_status::Ok);
        }
        let mut statuses = [scrub_status::Ok; 2];
        let during = allocations_in(|| {
            for _ in 0..1000 {
                let status =
                    scrub_stream_push(stream, chunk.as_ptr(), chunk.len(), &mut out, &mut len);
                if status != scrub_status::Ok {
                    statuses[0] = status;
                }
            }
            // And one byte at a time.
            for _ in 0..10 {
                for b in chunk {
                    let status = scrub_stream_push(stream, b, 1, &mut out, &mut len);
                    if status != scrub_status::Ok {
                        statuses[1] = status;
                    }
                }
            }
        });
        // (asserted outside: a failing assert allocates its message)
        assert_eq!(statuses, [scrub_status::Ok; 2]);
        assert_eq!(
            scrub_stream_end(stream, &mut out, &mut len),
            scrub_status::Ok
        );
        scrub_stream_free(stream);
        scrub_scrubber_free(scrubber);
        assert_eq!(during, 0, "{during} allocations in warm pushes");
    }
}
