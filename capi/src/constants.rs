//! The constants of SPEC §1 as functions, for callers that cannot read the
//! header's macros (Python's ctypes, JNA, koffi): they get them from the
//! library they loaded instead of copying them by hand.

use super::boundary::boundary_value;

/// `SCRUB_FRAGMENT` of the linked library. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_fragment() -> usize {
    boundary_value(0, || Ok(slicc_scrub::FRAGMENT))
}

/// `SCRUB_MIN_VALUE` of the linked library. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_min_value() -> usize {
    boundary_value(0, || Ok(slicc_scrub::MIN_VALUE))
}

/// `SCRUB_MAX_VALUE` of the linked library. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_max_value() -> usize {
    boundary_value(0, || Ok(slicc_scrub::MAX_VALUE))
}

/// `SCRUB_MAX_PLACEHOLDER` of the linked library. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_max_placeholder() -> usize {
    boundary_value(0, || Ok(slicc_scrub::MAX_PLACEHOLDER))
}

/// `SCRUB_MAX_NAME` of the linked library. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_max_name() -> usize {
    boundary_value(0, || Ok(slicc_scrub::MAX_NAME))
}

/// `SCRUB_MAX_TOTAL_VALUES` of the linked library (a limit of this
/// library, not of SPEC: the value bytes of one compile). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_max_total_values() -> usize {
    boundary_value(0, || Ok(slicc_scrub::MAX_TOTAL_VALUES))
}

/// `SCRUB_IDLE_MS` of the linked library. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_idle_ms() -> u64 {
    boundary_value(0, || Ok(slicc_scrub::IDLE_MS))
}
