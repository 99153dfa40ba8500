//! Secrets are wiped when they are dropped (issue 7): a recording allocator
//! scans every block this thread frees, and every block a reallocation
//! leaves, for the value, each of its patterns (its 16-byte windows among
//! them) and the placeholder. Any copy that survives into freed memory
//! fails the test, through the Rust API and through the C ABI.

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
// The recording allocator, shared with the engine's unit tests.
#[path = "../../src/freed_memory.rs"]
mod freed_memory;

use freed_memory::{contains, scanned};
use slicc_scrub::{Options, RULES_VERSION, Secret, compile, patterns};

/// 40 bytes with a JSON escape, a percent escape and an HTML escape in it,
/// so that every encoder makes a pattern of its own.
const VALUE: &[u8] = b"pw<\"x\"> 0123456789 abcdefghijklmnopq\\rst";
const PLACEHOLDER: &[u8] = b"placeholder-of-the-value-0001";

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
