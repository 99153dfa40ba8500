//! The C ABI (SPEC §6): opaque handles and `extern "C"` functions prefixed
//! `scrub_`, declared in `include/slicc_scrub.h` (generated from this crate
//! by cbindgen, see `cbindgen.toml`).
//!
//! A thin layer over the Rust API, no matching of its own. The rules, after
//! rustls-ffi:
//! - every exported function runs inside a panic boundary
//!   (`boundary::boundary`): no panic unwinds into C;
//! - every pointer argument is checked for NULL and alignment before
//!   anything is done;
//! - every fallible function returns a [`scrub_status`] (`#[repr(u32)]`,
//!   explicit values never reused); the compile functions can also give a
//!   [`scrub_error`] with a message naming the secret by index and name
//!   (by index alone where the name holds a match or a placeholder);
//! - every handle and every buffer the library hands out is freed by the
//!   library (`scrub_*_free`, NULL is a no-op).
//!
//! Built with `panic = "abort"`, a panic aborts instead of becoming
//! `SCRUB_STATUS_PANIC`; this crate's profiles keep unwinding.

#![allow(non_camel_case_types)]

mod boundary;
mod constants;
mod hits;
mod json;
mod scrubber;
mod status;
mod stream;
mod version;

use std::ffi::c_char;

pub use constants::{
    scrub_fragment, scrub_idle_ms, scrub_max_name, scrub_max_placeholder, scrub_max_total_values,
    scrub_max_value, scrub_min_value,
};
pub use hits::{
    scrub_form, scrub_form_name, scrub_hit, scrub_hits, scrub_hits_free, scrub_hits_get,
    scrub_hits_len,
};
pub use json::scrub_compile_json;
pub use scrubber::{
    scrub_bytes, scrub_compile, scrub_options, scrub_result, scrub_result_free, scrub_result_hits,
    scrub_result_output, scrub_scrubber, scrub_scrubber_free, scrub_secret,
};
pub use status::{
    scrub_error, scrub_error_free, scrub_error_message, scrub_error_status, scrub_status,
    scrub_status_message,
};
pub use stream::{
    scrub_stream, scrub_stream_end, scrub_stream_free, scrub_stream_held, scrub_stream_hits,
    scrub_stream_idle, scrub_stream_new, scrub_stream_push,
};
pub use version::{
    SLICC_SCRUB_VERSION_MAJOR, SLICC_SCRUB_VERSION_MINOR, SLICC_SCRUB_VERSION_PATCH,
};

/// Length of a fragment window: a value longer than this is also found by
/// any piece of this many bytes, extended along the value.
pub const SCRUB_FRAGMENT: usize = 16;
/// Shortest value a secret may have, in bytes.
pub const SCRUB_MIN_VALUE: usize = 8;
/// Longest value a secret may have, in bytes.
pub const SCRUB_MAX_VALUE: usize = 65_536;
/// Longest placeholder a secret may have, in bytes.
pub const SCRUB_MAX_PLACEHOLDER: usize = 1_024;
/// Longest name a secret may have, in bytes.
pub const SCRUB_MAX_NAME: usize = 128;
/// Most value bytes (trimmed) one compile takes, all its secrets' together
/// (1 GiB); past it, or past 4 GiB of their patterns, compiling fails with
/// `SCRUB_STATUS_TOO_LARGE`.
pub const SCRUB_MAX_TOTAL_VALUES: usize = 1_073_741_824;
/// Milliseconds without input after which a caller should call
/// `scrub_stream_idle`, so an interactive prompt is never held back.
pub const SCRUB_IDLE_MS: u64 = 50;
/// The version of the matching rules this header describes: put it in
/// `scrub_options.version`. A library implementing other rules refuses to
/// compile instead of scrubbing differently.
pub const SCRUB_RULES_VERSION: u32 = 4;

// The header's constants are literals (cbindgen writes them as they are);
// these make sure they are the engine's.
const _: () = {
    assert!(SCRUB_FRAGMENT == slicc_scrub::FRAGMENT);
    assert!(SCRUB_MIN_VALUE == slicc_scrub::MIN_VALUE);
    assert!(SCRUB_MAX_VALUE == slicc_scrub::MAX_VALUE);
    assert!(SCRUB_MAX_PLACEHOLDER == slicc_scrub::MAX_PLACEHOLDER);
    assert!(SCRUB_MAX_NAME == slicc_scrub::MAX_NAME);
    assert!(SCRUB_MAX_TOTAL_VALUES == slicc_scrub::MAX_TOTAL_VALUES);
    assert!(SCRUB_IDLE_MS == slicc_scrub::IDLE_MS);
    assert!(SCRUB_RULES_VERSION == slicc_scrub::RULES_VERSION);
};

/// The library's version ("0.1.0"), NUL-terminated and static: never free
/// it. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_version() -> *const c_char {
    boundary::boundary_value(std::ptr::null(), || {
        Ok(concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast())
    })
}

/// The rules version the library implements (`SCRUB_RULES_VERSION` of the
/// header it was built with). Compare with the header's to detect a library
/// built for other rules before compiling. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_rules_version() -> u32 {
    boundary::boundary_value(0, || Ok(slicc_scrub::RULES_VERSION))
}
