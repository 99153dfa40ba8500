//! The fuzz harness of slicc-scrub: each target in `fuzz_targets/` is one
//! call into a module here, so a finding can be replayed by a plain test
//! (`tests/corpus.rs`) as well as by `cargo fuzz run`.

pub mod case;
pub mod compile;
pub mod differential;
pub mod leaks;

// The brute-force reference matcher of the crate's own tests, written from
// the spec alone.
#[path = "../../tests/reference/mod.rs"]
pub mod reference;
