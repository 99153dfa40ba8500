//! On every error, each output parameter that can be written holds the
//! documented empty value (NULL, or an empty output), whichever argument was
//! bad: a C caller that frees or reads its outputs after a failure never
//! frees garbage nor re-sends an earlier call's output. And a handle that is
//! not aligned is refused, not read, by the getters too.

// The C ABI's own source, compiled into this test: the crate is a cdylib and
// a staticlib, which a Rust test cannot link.
#[path = "../src/lib.rs"]
#[allow(unused)]
mod capi;

use capi::{
    SCRUB_RULES_VERSION, scrub_bytes, scrub_compile, scrub_compile_json, scrub_error,
    scrub_error_message, scrub_error_status, scrub_options, scrub_result, scrub_result_free,
    scrub_result_output, scrub_scrubber, scrub_scrubber_free, scrub_secret, scrub_status,
    scrub_stream, scrub_stream_end, scrub_stream_free, scrub_stream_idle, scrub_stream_new,
    scrub_stream_push,
};

fn options() -> scrub_options {
    scrub_options {
        struct_size: size_of::<scrub_options>(),
        version: SCRUB_RULES_VERSION,
        same_length: 0,
    }
}

const VALUE: &[u8] = b"correct horse battery staple";

fn scrubber() -> *mut scrub_scrubber {
    let secret = scrub_secret {
        name: c"PW".as_ptr(),
        value: VALUE.as_ptr(),
        value_len: VALUE.len(),
        placeholder: std::ptr::null(),
        placeholder_len: 0,
    };
    let mut scrubber = std::ptr::null_mut();
    // SAFETY: valid pointers.
    let status =
        unsafe { scrub_compile(&secret, 1, &options(), &mut scrubber, std::ptr::null_mut()) };
    assert_eq!(status, scrub_status::Ok);
    scrubber
}

/// A pointer that is not NULL and not aligned for `T`: refused unread.
fn misaligned<T>() -> *mut T {
    std::ptr::dangling_mut::<u64>()
        .cast::<u8>()
        .wrapping_add(1)
        .cast()
}

/// Stale values a caller might have left in its variables.
static STALE: u8 = 9;
const STALE_OUTPUT: *const u8 = &raw const STALE;
const STALE_LEN: usize = 12_345;

/// A stream that has output to give: its last push's output is not empty.
fn stream_with_output(scrubber: *mut scrub_scrubber) -> *mut scrub_stream {
    let mut stream = std::ptr::null_mut();
    let (mut out, mut len) = (std::ptr::null(), 0);
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(scrub_stream_new(scrubber, &mut stream), scrub_status::Ok);
        let chunk = b"some text before it ";
        assert_eq!(
            scrub_stream_push(stream, chunk.as_ptr(), chunk.len(), &mut out, &mut len),
            scrub_status::Ok
        );
    }
    assert!(len > 0);
    stream
}

#[test]
fn a_push_with_a_bad_chunk_or_one_bad_output_empties_the_other() {
    let scrubber = scrubber();
    let stream = stream_with_output(scrubber);
    let chunk = b"more";
    // SAFETY: each call has one bad argument, which the library refuses;
    // the others are valid.
    unsafe {
        // A NULL chunk of 4 bytes.
        let (mut out, mut len) = (STALE_OUTPUT, STALE_LEN);
        let status = scrub_stream_push(stream, std::ptr::null(), 4, &mut out, &mut len);
        assert_eq!(status, scrub_status::NullArgument);
        assert!(
            !out.is_null() && out != STALE_OUTPUT && len == 0,
            "push: bad chunk"
        );
        // One output NULL or misaligned: the other is emptied all the same.
        let mut len = STALE_LEN;
        let status = scrub_stream_push(
            stream,
            chunk.as_ptr(),
            chunk.len(),
            std::ptr::null_mut(),
            &mut len,
        );
        assert_eq!(status, scrub_status::NullArgument);
        assert_eq!(len, 0, "push: output_out NULL");
        let mut out = STALE_OUTPUT;
        let status = scrub_stream_push(stream, chunk.as_ptr(), chunk.len(), &mut out, misaligned());
        assert_eq!(status, scrub_status::InvalidArgument);
        assert!(
            !out.is_null() && out != STALE_OUTPUT,
            "push: output_len_out misaligned"
        );
        for op in [scrub_stream_idle, scrub_stream_end] {
            let mut out = STALE_OUTPUT;
            assert_eq!(
                op(stream, &mut out, std::ptr::null_mut()),
                scrub_status::NullArgument
            );
            assert!(
                !out.is_null() && out != STALE_OUTPUT,
                "idle/end: output_len_out NULL"
            );
            let mut len = STALE_LEN;
            assert_eq!(
                op(std::ptr::null_mut(), std::ptr::null_mut(), &mut len),
                scrub_status::NullArgument
            );
            assert_eq!(len, 0, "idle/end: stream and output_out NULL");
        }
        scrub_stream_free(stream);
        scrub_scrubber_free(scrubber);
    }
}

#[test]
fn a_result_output_with_one_bad_output_empties_the_other() {
    let scrubber = scrubber();
    let mut result: *mut scrub_result = std::ptr::null_mut();
    let input = b"say correct horse battery staple";
    // SAFETY: valid pointers, then one bad output pointer a call.
    unsafe {
        let status = scrub_bytes(scrubber, input.as_ptr(), input.len(), &mut result);
        assert_eq!(status, scrub_status::Ok);
        let mut len = STALE_LEN;
        let status = scrub_result_output(result, std::ptr::null_mut(), &mut len);
        assert_eq!(status, scrub_status::NullArgument);
        assert_eq!(len, 0);
        let mut out = STALE_OUTPUT;
        let status = scrub_result_output(result, &mut out, misaligned());
        assert_eq!(status, scrub_status::InvalidArgument);
        assert!(!out.is_null() && out != STALE_OUTPUT);
        scrub_result_free(result);
        scrub_scrubber_free(scrubber);
    }
}

#[test]
fn a_compile_with_a_misaligned_error_out_gives_a_null_scrubber() {
    let json = br#"[{"name":"PW","value":"correct horse battery staple"}]"#;
    let stale = std::ptr::dangling_mut::<scrub_scrubber>();
    let error_out: *mut *mut scrub_error = misaligned();
    // SAFETY: valid pointers but `error_out`, which is refused unread.
    unsafe {
        let mut scrubber = stale;
        let status = scrub_compile(std::ptr::null(), 0, &options(), &mut scrubber, error_out);
        assert_eq!(status, scrub_status::InvalidArgument);
        assert!(scrubber.is_null(), "scrub_compile");
        let mut scrubber = stale;
        let status = scrub_compile_json(
            json.as_ptr().cast(),
            json.len(),
            &options(),
            &mut scrubber,
            error_out,
        );
        assert_eq!(status, scrub_status::InvalidArgument);
        assert!(scrubber.is_null(), "scrub_compile_json");
    }
}

#[test]
fn the_error_getters_refuse_a_misaligned_error() {
    let error: *const scrub_error = misaligned::<scrub_error>();
    // SAFETY: a misaligned pointer, which the library refuses unread.
    unsafe {
        assert!(scrub_error_message(error).is_null());
        assert_eq!(scrub_error_status(error), scrub_status::InvalidArgument);
        assert!(scrub_error_message(std::ptr::null()).is_null());
        assert_eq!(
            scrub_error_status(std::ptr::null()),
            scrub_status::NullArgument
        );
    }
}
