//! The library's version as header macros, `SLICC_SCRUB_VERSION_MAJOR`,
//! `_MINOR` and `_PATCH`, checked at compile time against the crate's
//! version (Cargo.toml): a version bump that forgets them fails the build.

/// Major version of the library this header belongs to. `scrub_version()`
/// gives the linked library's; a program can compare the two.
pub const SLICC_SCRUB_VERSION_MAJOR: u32 = 0;
/// Minor version of the library this header belongs to. Before 1.0 a new
/// minor version may change the ABI (the SONAME is
/// `libslicc_scrub.so.0.<minor>`).
pub const SLICC_SCRUB_VERSION_MINOR: u32 = 1;
/// Patch version of the library this header belongs to.
pub const SLICC_SCRUB_VERSION_PATCH: u32 = 0;

/// The number `digits` spell. Used only by the check below, which rustc
/// 1.88 (the stated rust-version) does not count as a use.
#[allow(dead_code)]
const fn parse(digits: &str) -> u32 {
    let bytes = digits.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i].is_ascii_digit());
        n = n * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    n
}

const _: () = {
    assert!(SLICC_SCRUB_VERSION_MAJOR == parse(env!("CARGO_PKG_VERSION_MAJOR")));
    assert!(SLICC_SCRUB_VERSION_MINOR == parse(env!("CARGO_PKG_VERSION_MINOR")));
    assert!(SLICC_SCRUB_VERSION_PATCH == parse(env!("CARGO_PKG_VERSION_PATCH")));
};
