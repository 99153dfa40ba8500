//! Arbitrary secrets JSON through parse and compile: see `src/compile.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slicc_scrub_fuzz::compile::check(data));
