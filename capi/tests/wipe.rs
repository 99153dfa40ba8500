//! Secrets are wiped when they are dropped (issue 7): a recording allocator
//! scans every block this thread frees, and every block a reallocation
//! leaves, for the value, each of its patterns (its 16-byte windows among
//! them) and the placeholder. Any copy that survives into freed memory
//! fails the test, through the Rust API and through the C ABI.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};

// The C ABI's own source, compiled into this test: the crate is a cdylib and
// a staticlib, which a Rust test cannot link.
#[path = "../src/lib.rs"]
#[allow(unused)]
mod capi;

use capi::{
    SCRUB_RULES_VERSION, scrub_bytes, scrub_compile, scrub_compile_json, scrub_options,
    scrub_result_free, scrub_scrubber_free, scrub_secret, scrub_status, scrub_stream_end,
    scrub_stream_free, scrub_stream_new, scrub_stream_push,
};
use slicc_scrub::{Options, RULES_VERSION, Secret, compile, patterns};

struct Scanning;

thread_local! {
    /// What no freed block may hold, while a scan is on.
    static NEEDLES: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    static SCANNING: Cell<bool> = const { Cell::new(false) };
    /// Freed blocks found holding a needle: (block size, needle index).
    static FOUND: RefCell<Vec<(usize, usize)>> = const { RefCell::new(Vec::new()) };
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
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
// that the block it leaves is scanned like any other.
unsafe impl GlobalAlloc for Scanning {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.alloc(layout) }
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
        let new = unsafe { System.alloc(new_layout) };
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

/// 40 bytes with a JSON escape, a percent escape and an HTML escape in it,
/// so that every encoder makes a pattern of its own.
const VALUE: &[u8] = b"pw<\"x\"> 0123456789 abcdefghijklmnopq\\rst";
const PLACEHOLDER: &[u8] = b"placeholder-of-the-value-0001";

/// Runs `f` with every freed block of this thread scanned for `needles`,
/// and returns what was found.
fn scanned(needles: Vec<Vec<u8>>, f: impl FnOnce()) -> Vec<(usize, usize)> {
    NEEDLES.with(|n| *n.borrow_mut() = needles);
    FOUND.with(|found| found.borrow_mut().clear());
    SCANNING.with(|on| on.set(true));
    f();
    SCANNING.with(|on| on.set(false));
    FOUND.with(|found| std::mem::take(&mut *found.borrow_mut()))
}

/// The value and every pattern of it.
fn value_needles() -> Vec<Vec<u8>> {
    let mut needles = vec![VALUE.to_vec()];
    needles.extend(patterns(VALUE).iter().map(|p| p.bytes.clone()));
    needles
}

fn input() -> Vec<u8> {
    let b64 = b"cHc8IngiPiAwMTIzNDU2Nzg5IGFiY2RlZmdoaWprbG1ub3BxXHJzdA==";
    [
        &b"key "[..],
        VALUE,
        b" and ",
        b64,
        b" and a piece: ",
        &VALUE[4..30],
        b"\n",
    ]
    .concat()
}

#[test]
fn the_needles_are_found_where_they_are() {
    // The scan sees a block it should: the test can fail.
    let found = scanned(value_needles(), || {
        drop(std::hint::black_box(VALUE.to_vec()));
    });
    assert!(!found.is_empty());
}

#[test]
fn rust_api_leaves_no_copy_in_freed_memory() {
    let input = input();
    let found = scanned(value_needles(), || {
        let secrets = vec![Secret::new("PW", VALUE).with_placeholder(PLACEHOLDER)];
        let scrubber = compile(&secrets, &Options::new(RULES_VERSION)).unwrap();
        drop(secrets);
        let out = scrubber.bytes(&input);
        assert!(!contains(&out.output, VALUE));
        let mut stream = scrubber.stream();
        for chunk in input.chunks(7) {
            drop(stream.push(chunk).unwrap());
        }
        drop(stream.end().unwrap());
        drop(stream);
        drop(scrubber);
    });
    assert_eq!(found, [], "(freed block size, needle index)");
    // The placeholder too, when nothing is scrubbed (scrubbed output holds
    // it, and belongs to the caller).
    let mut needles = value_needles();
    needles.push(PLACEHOLDER.to_vec());
    let found = scanned(needles, || {
        let secrets = vec![Secret::new("PW", VALUE).with_placeholder(PLACEHOLDER)];
        drop(compile(&secrets, &Options::new(RULES_VERSION)).unwrap());
    });
    assert_eq!(found, [], "(freed block size, needle index)");
}

fn options() -> scrub_options {
    scrub_options {
        struct_size: size_of::<scrub_options>(),
        version: SCRUB_RULES_VERSION,
        same_length: 0,
    }
}

#[test]
fn c_abi_leaves_no_copy_in_freed_memory() {
    let input = input();
    let mut needles = value_needles();
    needles.push(PLACEHOLDER.to_vec());
    let secret = scrub_secret {
        name: c"PW".as_ptr(),
        value: VALUE.as_ptr(),
        value_len: VALUE.len(),
        placeholder: PLACEHOLDER.as_ptr(),
        placeholder_len: PLACEHOLDER.len(),
    };
    let found = scanned(needles.clone(), || {
        let mut scrubber = std::ptr::null_mut();
        // SAFETY: valid pointers throughout.
        unsafe {
            let status = scrub_compile(&secret, 1, &options(), &mut scrubber, std::ptr::null_mut());
            assert_eq!(status, scrub_status::Ok);
            scrub_scrubber_free(scrubber);
        }
    });
    assert_eq!(found, [], "scrub_compile: (freed block size, needle index)");

    // JSON, with escapes in the value's string (a parser's scratch space).
    let json = format!(
        r#"[{{"name":"PW","value":{},"placeholder":{}}}]"#,
        serde_json::to_string(std::str::from_utf8(VALUE).unwrap()).unwrap(),
        serde_json::to_string(std::str::from_utf8(PLACEHOLDER).unwrap()).unwrap(),
    );
    let found = scanned(value_needles(), || {
        let (mut scrubber, mut stream) = (std::ptr::null_mut(), std::ptr::null_mut());
        let (mut out, mut len) = (std::ptr::null(), 0usize);
        let mut result = std::ptr::null_mut();
        // SAFETY: valid pointers throughout.
        unsafe {
            let status = scrub_compile_json(
                json.as_ptr().cast(),
                json.len(),
                &options(),
                &mut scrubber,
                std::ptr::null_mut(),
            );
            assert_eq!(status, scrub_status::Ok);
            let status = scrub_bytes(scrubber, input.as_ptr(), input.len(), &mut result);
            assert_eq!(status, scrub_status::Ok);
            scrub_result_free(result);
            assert_eq!(scrub_stream_new(scrubber, &mut stream), scrub_status::Ok);
            scrub_scrubber_free(scrubber);
            for chunk in input.chunks(5) {
                let status =
                    scrub_stream_push(stream, chunk.as_ptr(), chunk.len(), &mut out, &mut len);
                assert_eq!(status, scrub_status::Ok);
            }
            assert_eq!(
                scrub_stream_end(stream, &mut out, &mut len),
                scrub_status::Ok
            );
            scrub_stream_free(stream);
        }
    });
    assert_eq!(
        found,
        [],
        "scrub_compile_json: (freed block size, needle index)"
    );
}
