//! No C error message shows a value (SPEC §1): where a name holds a raw,
//! fragment, hex or base64 match of another secret's value, the message of
//! `scrub_error_message` names that secret by index alone.

// The engine tests' helpers, shared with them.
#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/reference/mod.rs"]
mod reference;
// The C ABI's own source, compiled into this test: the crate is a cdylib and
// a staticlib, which a Rust test cannot link.
#[path = "../src/lib.rs"]
#[allow(unused)]
mod capi;

use capi::{
    SCRUB_RULES_VERSION, scrub_compile_json, scrub_error, scrub_error_free, scrub_error_message,
    scrub_error_status, scrub_options, scrub_status,
};
use common::names_with_matches::{NAMES, secrets_json};

#[test]
fn a_name_holding_a_match_is_not_in_the_message() {
    let options = scrub_options {
        struct_size: size_of::<scrub_options>(),
        version: SCRUB_RULES_VERSION,
        same_length: 0,
    };
    for (form, name, text) in NAMES {
        let json = secrets_json(name);
        let (mut scrubber, mut error): (_, *mut scrub_error) =
            (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: valid pointers and lengths.
        let (status, message, error_status) = unsafe {
            let status = scrub_compile_json(
                json.as_ptr().cast(),
                json.len(),
                &options,
                &mut scrubber,
                &mut error,
            );
            let message = std::ffi::CStr::from_ptr(scrub_error_message(error))
                .to_string_lossy()
                .into_owned();
            let error_status = scrub_error_status(error);
            scrub_error_free(error);
            (status, message, error_status)
        };
        assert_eq!(status, scrub_status::RedactionLeaks, "{form}: {message}");
        assert_eq!(error_status, status);
        assert!(scrubber.is_null());
        assert!(!message.contains(text), "{form}: {message}");
        assert!(message.starts_with("secret 1: "), "{form}: {message}");
        assert!(
            message.contains("secret 0 (\"DB_PASS\")"),
            "{form}: {message}"
        );
    }
}
