//! Hits: how many matches of each secret in each form were replaced.

use std::ffi::{CString, c_char};

use slicc_scrub::{Form, Hit};

use super::boundary::{Failure, FfiResult, Out, boundary, boundary_value, free_handle, try_ref};
use super::status::scrub_status;

/// The form a secret was found in (SPEC §2), in tie-break order. The values
/// are part of the ABI and never reused; a later rules version may add
/// forms, so treat an unknown value as "other".
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scrub_form {
    Raw = 0,
    Fragment = 1,
    Json = 2,
    Percent = 3,
    Html = 4,
    Base64 = 5,
    Hex = 6,
    Wrapped = 7,
}

impl From<Form> for scrub_form {
    fn from(form: Form) -> scrub_form {
        match form {
            Form::Raw => scrub_form::Raw,
            Form::Fragment => scrub_form::Fragment,
            Form::Json => scrub_form::Json,
            Form::Percent => scrub_form::Percent,
            Form::Html => scrub_form::Html,
            Form::Base64 => scrub_form::Base64,
            Form::Hex => scrub_form::Hex,
            Form::Wrapped => scrub_form::Wrapped,
            // `Form` is `#[non_exhaustive]`, but this crate is built with the
            // engine of its own version (`=` in Cargo.toml), whose forms are
            // all above; a new form comes with a new `scrub_form` here.
            _ => unreachable!("a form the C ABI does not know"),
        }
    }
}

/// One entry of a `scrub_hits` list. Its strings are owned by the list and
/// valid until `scrub_hits_free`. It never holds a value; its name is the
/// secret's, as the caller gave it (which may hold a placeholder: print it
/// as the caller's own data, not in a log that must not show one).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scrub_hit {
    /// The secret's name, NUL-terminated.
    pub name: *const c_char,
    /// The form.
    pub form: scrub_form,
    /// The form's name as in SPEC §2 ("raw", "fragment", ...), static.
    pub form_name: *const c_char,
    /// How many matches of this secret in this form were replaced (> 0).
    pub count: u64,
}

struct Entry {
    name: CString,
    form: Form,
    count: u64,
}

/// A list of hits: one entry for each secret and form found at least once,
/// by secret index then form order. Owned by the caller; free it with
/// `scrub_hits_free`. Immutable: any number of threads may read one list.
pub struct scrub_hits {
    entries: Vec<Entry>,
}

impl scrub_hits {
    pub(crate) fn new(hits: &[Hit]) -> FfiResult<scrub_hits> {
        let entries = hits
            .iter()
            .map(|hit| {
                Ok(Entry {
                    // Names are validated: A-Z a-z 0-9 _ - . only.
                    name: CString::new(hit.name.as_str())
                        .map_err(|_| Failure::status(scrub_status::Panic))?,
                    form: hit.form,
                    count: hit.count,
                })
            })
            .collect::<FfiResult<Vec<Entry>>>()?;
        Ok(scrub_hits { entries })
    }
}

fn form_name(form: Form) -> *const c_char {
    match scrub_form::from(form) {
        scrub_form::Raw => c"raw",
        scrub_form::Fragment => c"fragment",
        scrub_form::Json => c"json",
        scrub_form::Percent => c"percent",
        scrub_form::Html => c"html",
        scrub_form::Base64 => c"base64",
        scrub_form::Hex => c"hex",
        scrub_form::Wrapped => c"wrapped",
    }
    .as_ptr()
}

/// The name of a form ("raw", "fragment", "json", "percent", "html",
/// "base64", "hex", "wrapped"): static, never free it. NULL for a value
/// that is not a form. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_form_name(form: u32) -> *const c_char {
    boundary_value(std::ptr::null(), || {
        Ok(Form::ALL
            .iter()
            .copied()
            .find(|f| scrub_form::from(*f) as u32 == form)
            .map_or(std::ptr::null(), form_name))
    })
}

/// Stores in `*len_out` the number of entries of `hits`.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT` when a pointer is NULL,
/// `SCRUB_STATUS_INVALID_ARGUMENT` (a misaligned pointer). Thread-safe: a
/// list is immutable.
///
/// # Safety
/// `hits` is NULL or a live list; `len_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_hits_len(
    hits: *const scrub_hits,
    len_out: *mut usize,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let (hits, len_out) = unsafe { (try_ref(hits, "hits")?, Out::new(len_out, "len_out")?) };
        len_out.set(hits.entries.len());
        Ok(())
    })
}

/// Stores entry `index` of `hits` in `*hit_out`. The strings it points to
/// belong to `hits` and stay valid until `scrub_hits_free(hits)`.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer), `SCRUB_STATUS_INDEX_OUT_OF_RANGE` (`*hit_out` is
/// left untouched then). Thread-safe: a list is immutable.
///
/// # Safety
/// `hits` is NULL or a live list; `hit_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_hits_get(
    hits: *const scrub_hits,
    index: usize,
    hit_out: *mut scrub_hit,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let (hits, hit_out) = unsafe { (try_ref(hits, "hits")?, Out::new(hit_out, "hit_out")?) };
        let entry = hits
            .entries
            .get(index)
            .ok_or_else(|| Failure::status(scrub_status::IndexOutOfRange))?;
        hit_out.set(scrub_hit {
            name: entry.name.as_ptr(),
            form: entry.form.into(),
            form_name: form_name(entry.form),
            count: entry.count,
        });
        Ok(())
    })
}

/// Frees a list of hits. NULL is a no-op. Every `scrub_hit` read from it is
/// invalid afterwards. No other thread may be using the list at the time.
///
/// # Safety
/// `hits` is NULL or a list not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_hits_free(hits: *mut scrub_hits) {
    // SAFETY: the caller passes NULL or a list this library allocated.
    unsafe { free_handle(hits) }
}
