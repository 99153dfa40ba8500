//! Every length is checked before anything is copied or read (issue 7): a
//! value, placeholder or secrets JSON over its limit is refused at once,
//! reading nothing of it and allocating nothing of its size, with the error
//! `compile` gives for the whole list.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

// The C ABI's own source, compiled into this test: the crate is a cdylib and
// a staticlib, which a Rust test cannot link.
#[path = "../src/lib.rs"]
#[allow(unused)]
mod capi;

use capi::{
    SCRUB_MAX_TOTAL_VALUES, SCRUB_MAX_VALUE, SCRUB_RULES_VERSION, scrub_compile,
    scrub_compile_json, scrub_error, scrub_error_free, scrub_error_message, scrub_options,
    scrub_scrubber_free, scrub_secret, scrub_status,
};

/// Records the largest allocation made.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, recording sizes.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: the caller's contract, unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Largest = Largest;

const TWO_GIB: usize = 2 << 30;
/// Far below the 2 GiB claimed, far above anything compile needs here.
const SMALL: usize = 8 << 20;

fn options() -> scrub_options {
    scrub_options {
        struct_size: size_of::<scrub_options>(),
        version: SCRUB_RULES_VERSION,
        same_length: 0,
    }
}

fn secret(name: &'static std::ffi::CStr, value: &[u8]) -> scrub_secret {
    scrub_secret {
        name: name.as_ptr(),
        value: value.as_ptr(),
        value_len: value.len(),
        placeholder: std::ptr::null(),
        placeholder_len: 0,
    }
}

/// Compiles `secrets`, expecting a failure: its status and message.
fn compile_fails(secrets: &[scrub_secret]) -> (scrub_status, String) {
    let (mut scrubber, mut error): (_, *mut scrub_error) =
        (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: valid pointers; the over-long lengths are the point, and the
    // library must not read past the small buffers behind them.
    let status = unsafe {
        scrub_compile(
            secrets.as_ptr(),
            secrets.len(),
            &options(),
            &mut scrubber,
            &mut error,
        )
    };
    assert!(scrubber.is_null());
    // SAFETY: a live error from the failed call.
    let message = unsafe {
        let m = std::ffi::CStr::from_ptr(scrub_error_message(error))
            .to_string_lossy()
            .into_owned();
        scrub_error_free(error);
        scrub_scrubber_free(scrubber);
        m
    };
    (status, message)
}

#[test]
fn lengths_over_their_limits_are_refused_unread() {
    let small = *b"sixteen bytes ok";
    let good = *b"a-good-value-123";
    LARGEST.store(0, Ordering::Relaxed);

    let mut value = secret(c"BIG", &small);
    value.value_len = TWO_GIB;
    let (status, message) = compile_fails(&[value]);
    assert_eq!(status, scrub_status::ValueTooLong, "{message}");
    assert!(message.contains("secret 0") && message.contains(&TWO_GIB.to_string()));

    let mut placeholder = secret(c"PH", &good);
    placeholder.placeholder = small.as_ptr();
    placeholder.placeholder_len = TWO_GIB;
    let (status, message) = compile_fails(&[placeholder]);
    assert_eq!(status, scrub_status::PlaceholderTooLong, "{message}");

    let (mut scrubber, mut error) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: 16 readable bytes behind a length of 2 GiB: refused unread.
    let status = unsafe {
        scrub_compile_json(
            small.as_ptr().cast(),
            TWO_GIB,
            &options(),
            &mut scrubber,
            &mut error,
        )
    };
    assert_eq!(status, scrub_status::InvalidSecretsJson);
    // SAFETY: the error of the failed call.
    unsafe { scrub_error_free(error) };

    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(largest < SMALL, "an allocation of {largest} bytes");
}

#[test]
fn the_first_fault_by_index_and_rule_wins_as_in_compile() {
    let small = *b"sixteen bytes ok";
    let good = *b"a-good-value-123";
    let short = *b"\nshort\n";
    let mut big = secret(c"BIG", &small);
    big.value_len = TWO_GIB;
    let bad_name = secret(c"bad name", &good);
    // an earlier secret's fault comes first
    assert_eq!(compile_fails(&[bad_name, big]).0, scrub_status::InvalidName);
    assert_eq!(
        compile_fails(&[big, bad_name]).0,
        scrub_status::ValueTooLong
    );
    // within a secret: the name, then the value, then the placeholder
    let mut both = secret(c"bad name", &small);
    both.value_len = TWO_GIB;
    assert_eq!(compile_fails(&[both]).0, scrub_status::InvalidName);
    let mut short_and_long = secret(c"S", &short);
    short_and_long.placeholder = small.as_ptr();
    short_and_long.placeholder_len = TWO_GIB;
    let (status, message) = compile_fails(&[short_and_long]);
    assert_eq!(status, scrub_status::ValueTooShort);
    assert!(message.contains("5 bytes"), "the trimmed length: {message}");
    // a duplicate name before an over-long value of the same secret
    let first = secret(c"BIG", &good);
    assert_eq!(compile_fails(&[first, big]).0, scrub_status::DuplicateName);
}

#[test]
fn secrets_past_the_total_of_values_are_too_large() {
    // 16,384 values of 64 KiB are the 1 GiB allowed; the next is too many.
    let value = vec![b'v'; SCRUB_MAX_VALUE];
    let count = SCRUB_MAX_TOTAL_VALUES / SCRUB_MAX_VALUE + 1;
    let names: Vec<std::ffi::CString> = (0..count)
        .map(|i| std::ffi::CString::new(format!("S{i}")).unwrap())
        .collect();
    let secrets: Vec<scrub_secret> = names
        .iter()
        .map(|name| scrub_secret {
            name: name.as_ptr(),
            ..secret(c"unused", &value)
        })
        .collect();
    let (status, message) = compile_fails(&secrets);
    assert_eq!(status, scrub_status::TooLarge, "{message}");
    let last = count - 1;
    assert!(
        message.starts_with(&format!("secret {last} (\"S{last}\"): ")),
        "{message}"
    );
    assert!(!message.contains("vvvvvvvv"), "{message}");
    // The secret's own fault first, as `compile` reports it: its
    // placeholder, over its limit, is not read.
    let mut secrets = secrets;
    let small = *b"sixteen bytes ok";
    secrets[last].placeholder = small.as_ptr();
    secrets[last].placeholder_len = TWO_GIB;
    let (status, message) = compile_fails(&secrets);
    assert_eq!(status, scrub_status::PlaceholderTooLong, "{message}");
}
