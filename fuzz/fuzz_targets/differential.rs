//! Streaming against one-pass scrubbing and the reference: see
//! `src/differential.rs` for the input format and what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| slicc_scrub_fuzz::differential::check(data));
