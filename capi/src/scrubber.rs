//! Compile from C structs, the scrubber handle, and one-shot scrubbing.

use std::ffi::c_char;
use std::mem::offset_of;

use slicc_scrub::{
    CompileError, MAX_NAME, MAX_PLACEHOLDER, MAX_VALUE, MIN_VALUE, Options, Scrubber, Secret,
    compile,
};

use super::boundary::{
    Failure, FfiResult, Out, boundary, boundary_with_error, bytes_ptr, clear_outputs, free_handle,
    into_handle, set_if_writable, try_ref, try_slice,
};
use super::hits::scrub_hits;
use super::status::{scrub_error, scrub_status};

/// A compiled list of secrets. Immutable: one scrubber may be used by any
/// number of threads at once (`scrub_bytes`, `scrub_stream_new`) without
/// locking. Made by `scrub_compile` or `scrub_compile_json`, freed by
/// `scrub_scrubber_free`; streams made from it keep what they need alive,
/// so it may be freed before them.
pub struct scrub_scrubber {
    pub(crate) inner: Scrubber,
}

/// One secret for `scrub_compile`. The library copies what it needs during
/// the call: the caller keeps ownership of every pointer, which need only
/// live until `scrub_compile` returns.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scrub_secret {
    /// NUL-terminated name: 1 to `SCRUB_MAX_NAME` bytes of
    /// `A-Z a-z 0-9 _ - .`, unique in the list. Used in `[redacted:<name>]`
    /// and in hits.
    pub name: *const c_char,
    /// The value's bytes (any bytes, NUL included; need not be UTF-8).
    pub value: *const u8,
    /// At most `SCRUB_MAX_VALUE` (a longer length is refused with
    /// `SCRUB_STATUS_VALUE_TOO_LONG` before any byte is read); at least
    /// `SCRUB_MIN_VALUE` once leading and trailing CR and LF are trimmed.
    pub value_len: usize,
    /// What replaces a raw match, or NULL for none (then
    /// `[redacted:<name>]`, as for every other form). NULL with a non-zero
    /// length is an error.
    pub placeholder: *const u8,
    /// At most `SCRUB_MAX_PLACEHOLDER` (a longer length is refused with
    /// `SCRUB_STATUS_PLACEHOLDER_TOO_LONG` before any byte is read); 0 means
    /// no placeholder.
    pub placeholder_len: usize,
}

/// Compile options. Set `struct_size` to `sizeof(scrub_options)` and
/// `version` to `SCRUB_RULES_VERSION`; `SCRUB_OPTIONS_INIT` does both.
/// The struct may grow at its end in later versions: `struct_size` tells
/// the library which fields the caller knows (fields past it take their
/// defaults), so a program built against this header keeps working. Zero
/// the whole struct before setting fields (`SCRUB_OPTIONS_INIT` does):
/// bytes past the fields this library knows must be 0, or the compile
/// fails with `SCRUB_STATUS_UNSUPPORTED_OPTIONS` (an option it would
/// ignore); a `struct_size` below the first version's fields or above
/// 4096 gives `SCRUB_STATUS_INVALID_ARGUMENT`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scrub_options {
    /// `sizeof(scrub_options)` as the caller was compiled.
    pub struct_size: usize,
    /// Rules version: must be `SCRUB_RULES_VERSION` of the library, or the
    /// compile fails with `SCRUB_STATUS_UNSUPPORTED_VERSION`.
    pub version: u32,
    /// 1: replace every match by as many `*` as it spans, keeping CR and LF
    /// (framing such as Content-Length stays right). 0: the default.
    pub same_length: u32,
}

/// The smallest `struct_size` accepted: the fields of the first version.
const OPTIONS_V1_SIZE: usize = offset_of!(scrub_options, same_length) + size_of::<u32>();
/// A `struct_size` above this is garbage, not a newer header.
const OPTIONS_MAX_SIZE: usize = 4096;

/// Reads options the caller may have built against another header version.
///
/// # Safety
/// `options` is NULL or points to `options->struct_size` readable bytes.
pub(crate) unsafe fn read_options(options: *const scrub_options) -> FfiResult<Options> {
    // SAFETY: checked for NULL and alignment; the first field is always
    // there.
    let size = *unsafe { try_ref(options.cast::<usize>(), "options") }?;
    if !(OPTIONS_V1_SIZE..=OPTIONS_MAX_SIZE).contains(&size) {
        return Err(Failure::new(
            scrub_status::InvalidArgument,
            format!("options->struct_size is {size}: set it to sizeof(scrub_options)"),
        ));
    }
    // SAFETY: the caller's contract: `size` bytes are readable.
    let raw = unsafe { std::slice::from_raw_parts(options.cast::<u8>(), size) };
    if raw.len() > size_of::<scrub_options>()
        && raw[size_of::<scrub_options>()..].iter().any(|&b| b != 0)
    {
        return Err(Failure::status(scrub_status::UnsupportedOptions));
    }
    let field = |offset: usize| {
        u32::from_ne_bytes(
            raw[offset..offset + 4]
                .try_into()
                .expect("a field of four bytes"),
        )
    };
    let version = field(offset_of!(scrub_options, version));
    let same_length = match field(offset_of!(scrub_options, same_length)) {
        0 => false,
        1 => true,
        other => {
            return Err(Failure::new(
                scrub_status::InvalidArgument,
                format!("options->same_length is {other}: it must be 0 or 1"),
            ));
        }
    };
    Ok(Options::new(version).same_length(same_length))
}

/// Reads a NUL-terminated name, scanning at most one byte past the longest
/// valid name: a longer one is invalid anyway, and compile says so.
///
/// # Safety
/// `name` points to bytes readable up to its NUL or `MAX_NAME + 1` bytes.
unsafe fn read_name(name: *const c_char) -> String {
    let mut bytes = Vec::with_capacity(16);
    for i in 0..=MAX_NAME {
        // SAFETY: the caller's contract; we stop at the first NUL.
        let b = unsafe { *name.add(i) } as u8;
        if b == 0 {
            break;
        }
        bytes.push(b);
    }
    // Invalid UTF-8 becomes U+FFFD, which compile rejects as an invalid
    // name (with its index).
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A field over its limit, left out of the secret instead of copied.
#[derive(Clone, Copy)]
enum Oversize {
    Value(usize),
    /// `value_ok`: the value itself is within its limits (else its fault
    /// is the one to report).
    Placeholder {
        len: usize,
        value_ok: bool,
    },
}

/// Reads one secret. A value or placeholder over its limit is neither read
/// nor copied: the secret comes back with an empty value and no placeholder,
/// and the field's length in [`Oversize`].
///
/// # Safety
/// The pointers of `secret` follow the contract of `scrub_secret`.
unsafe fn read_secret(
    index: usize,
    secret: &scrub_secret,
) -> FfiResult<(Secret, Option<Oversize>)> {
    let null = |what: &str| {
        Failure::new(
            scrub_status::NullArgument,
            format!("secret {index}: {what} is NULL"),
        )
    };
    if secret.name.is_null() {
        return Err(null("name"));
    }
    // SAFETY: non-NULL; NUL-terminated by the contract.
    let name = unsafe { read_name(secret.name) };
    if secret.value.is_null() && secret.value_len != 0 {
        return Err(null("value"));
    }
    if secret.placeholder.is_null() && secret.placeholder_len != 0 {
        return Err(null("placeholder (with a non-zero placeholder_len)"));
    }
    // The limits first: nothing of an oversized field is read or copied.
    if secret.value_len > MAX_VALUE {
        let oversize = Oversize::Value(secret.value_len);
        return Ok((Secret::new(name, Vec::new()), Some(oversize)));
    }
    // SAFETY: the caller's contract for value; the length is small.
    let value = unsafe { try_slice(secret.value, secret.value_len, "value")? };
    if secret.placeholder_len > MAX_PLACEHOLDER {
        // The value's own faults come first (SPEC §1 order): a value too
        // short is stood in for by one as short, a good one by an empty one.
        let trimmed = slicc_scrub::trim_line_breaks(value).len();
        let value_ok = trimmed >= MIN_VALUE;
        let stand_in = if value_ok { 0 } else { trimmed };
        let oversize = Oversize::Placeholder {
            len: secret.placeholder_len,
            value_ok,
        };
        return Ok((Secret::new(name, vec![b'x'; stand_in]), Some(oversize)));
    }
    // SAFETY: as above.
    let placeholder =
        unsafe { try_slice(secret.placeholder, secret.placeholder_len, "placeholder")? };
    let mut secret = Secret::new(name, value);
    if !placeholder.is_empty() {
        secret = secret.with_placeholder(placeholder);
    }
    Ok((secret, None))
}

/// Compiles secrets read by [`read_secret`]. Where a field was over its
/// limit, the error is the one `compile` gives for the whole list: the
/// first fault by index, and within a secret in SPEC §1 order. Those
/// fields were left out, and an empty value is "too short", so the compile
/// fails at or before the first such secret, naming it (or hiding its name)
/// as it would.
fn compile_read(
    secrets: Vec<(Secret, Option<Oversize>)>,
    options: &Options,
) -> FfiResult<Scrubber> {
    let oversize: Vec<Option<Oversize>> = secrets.iter().map(|(_, o)| *o).collect();
    let secrets: Vec<Secret> = secrets.into_iter().map(|(s, _)| s).collect();
    let error = match compile(&secrets, options) {
        Ok(scrubber) => return Ok(scrubber),
        Err(error) => error,
    };
    let error = match (error, &oversize) {
        (CompileError::ValueTooShort { index, name, len }, oversize) => match oversize[index] {
            Some(Oversize::Value(len)) => CompileError::ValueTooLong { index, name, len },
            Some(Oversize::Placeholder {
                len,
                value_ok: true,
            }) => CompileError::PlaceholderTooLong { index, name, len },
            _ => CompileError::ValueTooShort { index, name, len },
        },
        (error, _) => error,
    };
    Err(error.into())
}

/// Compiles `secrets` into a scrubber.
///
/// - `secrets`: `secrets_len` secrets (NULL is fine when `secrets_len` is
///   0: an empty list passes every byte through). Copied during the call.
/// - `options`: see `scrub_options`; required.
/// - `scrubber_out`: receives the new scrubber (owned by the caller, free it
///   with `scrub_scrubber_free`), or NULL on failure.
/// - `error_out`: NULL, or receives NULL on success and on failure an error
///   with a message naming the secret by index and name, by index alone
///   where the name holds a match or a placeholder (owned by the
///   caller, free it with `scrub_error_free`).
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT`,
/// `SCRUB_STATUS_UNSUPPORTED_OPTIONS`, and one status per compile error
/// (`SCRUB_STATUS_UNSUPPORTED_VERSION` to `SCRUB_STATUS_TOO_LARGE`).
/// Thread-safe.
///
/// # Safety
/// Each pointer is NULL or valid as described above.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_compile(
    secrets: *const scrub_secret,
    secrets_len: usize,
    options: *const scrub_options,
    scrubber_out: *mut *mut scrub_scrubber,
    error_out: *mut *mut scrub_error,
) -> scrub_status {
    // SAFETY: the caller's contract for every pointer.
    unsafe {
        // NULL before `error_out` is checked: so on every failure.
        set_if_writable(scrubber_out, std::ptr::null_mut());
        boundary_with_error(error_out, || {
            compile_into(scrubber_out, options, |options| {
                let secrets = try_slice(secrets, secrets_len, "secrets")?
                    .iter()
                    .enumerate()
                    .map(|(index, secret)| read_secret(index, secret))
                    .collect::<FfiResult<_>>()?;
                compile_read(secrets, options)
            })
        })
    }
}

/// What both compile functions do once their secrets are read:
/// `*scrubber_out` is NULL until the compile succeeds.
///
/// # Safety
/// `scrubber_out` and `options` as for `scrub_compile`.
pub(crate) unsafe fn compile_into(
    scrubber_out: *mut *mut scrub_scrubber,
    options: *const scrub_options,
    compile: impl FnOnce(&Options) -> FfiResult<Scrubber>,
) -> FfiResult<()> {
    // SAFETY: the caller's contract for both pointers.
    let scrubber_out = unsafe { Out::new(scrubber_out, "scrubber_out")? };
    scrubber_out.set(std::ptr::null_mut());
    let options = unsafe { read_options(options)? };
    let inner = compile(&options)?;
    scrubber_out.set(into_handle(scrub_scrubber { inner }));
    Ok(())
}

/// Frees a scrubber. NULL is a no-op. Streams made from it stay usable.
/// No other thread may be using it in a call at the time.
///
/// # Safety
/// `scrubber` is NULL or a scrubber not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_scrubber_free(scrubber: *mut scrub_scrubber) {
    // SAFETY: the caller passes NULL or a scrubber this library allocated.
    unsafe { free_handle(scrubber) }
}

/// The result of `scrub_bytes`: the scrubbed output and the hits. Owned by
/// the caller; free it with `scrub_result_free`. Immutable.
pub struct scrub_result {
    output: Vec<u8>,
    hits: Vec<slicc_scrub::Hit>,
}

/// Scrubs `input` in one piece (SPEC §3).
///
/// - `input`: `input_len` bytes, any bytes; NULL is fine when `input_len`
///   is 0. Not kept after the call.
/// - `result_out`: receives a new result (owned by the caller, free it with
///   `scrub_result_free`), or NULL on failure.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT`.
/// Thread-safe: any number of threads may call it on one scrubber.
///
/// # Safety
/// `scrubber` is NULL or live; `input` as above; `result_out` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_bytes(
    scrubber: *const scrub_scrubber,
    input: *const u8,
    input_len: usize,
    result_out: *mut *mut scrub_result,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let result_out = unsafe { Out::new(result_out, "result_out")? };
        result_out.set(std::ptr::null_mut());
        // SAFETY: as above.
        let (scrubber, input) = unsafe {
            (
                try_ref(scrubber, "scrubber")?,
                try_slice(input, input_len, "input")?,
            )
        };
        let scrubbed = scrubber.inner.bytes(input);
        result_out.set(into_handle(scrub_result {
            output: scrubbed.output,
            hits: scrubbed.hits,
        }));
        Ok(())
    })
}

/// Points `*output_out` at the scrubbed bytes of `result` and stores their
/// number in `*output_len_out`. The bytes belong to `result` and stay valid
/// until `scrub_result_free(result)`; they are not NUL-terminated. An empty
/// output gives a non-NULL pointer and a length of 0. On any error,
/// `*output_out` / `*output_len_out` (each where writable) are an empty
/// output.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer). Thread-safe: `result` is immutable.
///
/// # Safety
/// `result` is NULL or live; the out pointers are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_result_output(
    result: *const scrub_result,
    output_out: *mut *const u8,
    output_len_out: *mut usize,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract.
        unsafe { clear_outputs(output_out, output_len_out) };
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let (output_out, output_len_out) = unsafe {
            (
                Out::new(output_out, "output_out")?,
                Out::new(output_len_out, "output_len_out")?,
            )
        };
        // SAFETY: as above.
        let result = unsafe { try_ref(result, "result")? };
        output_out.set(bytes_ptr(&result.output));
        output_len_out.set(result.output.len());
        Ok(())
    })
}

/// Stores in `*hits_out` a new list of the hits of `result` (owned by the
/// caller, free it with `scrub_hits_free`; independent of `result`), or
/// NULL on failure.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer), `SCRUB_STATUS_PANIC` (memory for the list).
/// Thread-safe: `result` is immutable.
///
/// # Safety
/// `result` is NULL or live; `hits_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_result_hits(
    result: *const scrub_result,
    hits_out: *mut *mut scrub_hits,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let hits_out = unsafe { Out::new(hits_out, "hits_out")? };
        hits_out.set(std::ptr::null_mut());
        // SAFETY: as above.
        let result = unsafe { try_ref(result, "result")? };
        hits_out.set(into_handle(scrub_hits::new(&result.hits)?));
        Ok(())
    })
}

/// Frees a result. NULL is a no-op. Its output pointer is invalid
/// afterwards. No other thread may be using it at the time.
///
/// # Safety
/// `result` is NULL or a result not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_result_free(result: *mut scrub_result) {
    // SAFETY: the caller passes NULL or a result this library allocated.
    unsafe { free_handle(result) }
}
