//! The panic boundary and the pointer checks that wrap every exported
//! function.
//!
//! Every `extern "C"` function of this module tree runs its body through
//! [`boundary`] (or a sibling): a panic becomes `SCRUB_STATUS_PANIC`, never
//! an unwind into C. Its pointer arguments go through [`try_ref`],
//! [`try_mut`], [`try_slice`] and [`Out::new`], which turn NULL and
//! misaligned pointers into a status before anything is done.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::NonNull;

use super::status::{scrub_error, scrub_status};

/// Why a call failed: a status and, for `scrub_error`, a message. The
/// message never holds a value or a placeholder.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: scrub_status,
    pub(crate) message: Cow<'static, str>,
}

impl Failure {
    pub(crate) fn new(status: scrub_status, message: impl Into<Cow<'static, str>>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// A failure with the status's fixed message.
    pub(crate) fn status(status: scrub_status) -> Failure {
        let message = status.message().to_str().unwrap_or("error");
        Failure::new(status, message)
    }

    fn panic() -> Failure {
        Failure::status(scrub_status::Panic)
    }
}

pub(crate) type FfiResult<T> = Result<T, Failure>;

/// Runs `body`, turning its failure into a status and a panic into
/// `SCRUB_STATUS_PANIC`.
pub(crate) fn boundary(body: impl FnOnce() -> FfiResult<()>) -> scrub_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => scrub_status::Ok,
        Ok(Err(failure)) => failure.status,
        Err(_) => scrub_status::Panic,
    }
}

/// As [`boundary`], and on failure hands a `scrub_error` to `error_out`
/// when it is not NULL. `*error_out` is set to NULL first.
///
/// # Safety
/// `error_out` is NULL or valid for a write of one pointer.
pub(crate) unsafe fn boundary_with_error(
    error_out: *mut *mut scrub_error,
    body: impl FnOnce() -> FfiResult<()>,
) -> scrub_status {
    // NULL means "no details wanted"; a misaligned pointer is refused.
    let error_out = if error_out.is_null() {
        None
    } else {
        // SAFETY: the caller's contract; checked for alignment.
        match unsafe { Out::new(error_out, "error_out") } {
            Ok(out) => Some(out),
            Err(failure) => return failure.status,
        }
    };
    if let Some(out) = &error_out {
        out.set(std::ptr::null_mut());
    }
    let result = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(_) => Err(Failure::panic()),
    };
    match result {
        Ok(()) => scrub_status::Ok,
        Err(failure) => {
            let status = failure.status;
            if let Some(out) = error_out {
                let error = catch_unwind(AssertUnwindSafe(|| {
                    Box::into_raw(Box::new(scrub_error::from_failure(failure)))
                }));
                out.set(error.unwrap_or(std::ptr::null_mut()));
            }
            status
        }
    }
}

/// For the few functions that return a value instead of a status: runs
/// `body`, giving `fallback` on a failure or a panic.
pub(crate) fn boundary_value<T>(fallback: T, body: impl FnOnce() -> FfiResult<T>) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        _ => fallback,
    }
}

fn check<T>(ptr: *const T, what: &'static str) -> FfiResult<()> {
    if ptr.is_null() {
        return Err(Failure::new(
            scrub_status::NullArgument,
            format!("{what} is NULL"),
        ));
    }
    if !ptr.is_aligned() {
        return Err(Failure::new(
            scrub_status::InvalidArgument,
            format!("{what} is not aligned for its type"),
        ));
    }
    Ok(())
}

/// A shared reference from a pointer argument, or NULL_ARGUMENT.
///
/// # Safety
/// `ptr` is NULL or points to a live, initialised `T` not mutated for `'a`.
pub(crate) unsafe fn try_ref<'a, T>(ptr: *const T, what: &'static str) -> FfiResult<&'a T> {
    check(ptr, what)?;
    // SAFETY: non-NULL and aligned; the rest is the caller's contract.
    Ok(unsafe { &*ptr })
}

/// An exclusive reference from a pointer argument, or NULL_ARGUMENT.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` used by no one else for `'a`.
pub(crate) unsafe fn try_mut<'a, T>(ptr: *mut T, what: &'static str) -> FfiResult<&'a mut T> {
    check(ptr, what)?;
    // SAFETY: non-NULL and aligned; the rest is the caller's contract.
    Ok(unsafe { &mut *ptr })
}

/// A slice from a pointer and a length. A zero length gives an empty slice
/// whatever the pointer (NULL included); a NULL pointer with a non-zero
/// length is NULL_ARGUMENT.
///
/// # Safety
/// When `len` is not zero, `ptr` is NULL or points to `len` initialised
/// `T`s not mutated for `'a`.
pub(crate) unsafe fn try_slice<'a, T>(
    ptr: *const T,
    len: usize,
    what: &'static str,
) -> FfiResult<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    check(ptr, what)?;
    if len > isize::MAX as usize / size_of::<T>().max(1) {
        return Err(Failure::new(
            scrub_status::InvalidArgument,
            format!("{what}: the length {len} is larger than any object"),
        ));
    }
    // SAFETY: non-NULL, aligned, size checked; the rest is the contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// An out-parameter: checked for NULL and alignment up front, written once
/// the call has something to give.
pub(crate) struct Out<T> {
    ptr: NonNull<T>,
}

impl<T> Out<T> {
    /// # Safety
    /// `ptr` is NULL or valid for a write of one `T`.
    pub(crate) unsafe fn new(ptr: *mut T, what: &'static str) -> FfiResult<Out<T>> {
        check(ptr, what)?;
        Ok(Out {
            // Checked for NULL above.
            ptr: NonNull::new(ptr).ok_or_else(|| Failure::status(scrub_status::NullArgument))?,
        })
    }

    /// Writes `value` without reading or dropping what was there.
    pub(crate) fn set(&self, value: T) {
        // SAFETY: checked in `new`; valid for a write by the contract.
        unsafe { self.ptr.as_ptr().write(value) }
    }
}

/// Writes `value` through `ptr` where it is not NULL and is aligned, else
/// nothing: how an output gets its empty value before any argument is
/// checked, so that every error leaves each writable output so, whichever
/// argument was bad.
///
/// # Safety
/// `ptr` is NULL, misaligned, or valid for a write of one `T`.
pub(crate) unsafe fn set_if_writable<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() && ptr.is_aligned() {
        // SAFETY: not NULL and aligned: valid for a write by the contract.
        unsafe { ptr.write(value) }
    }
}

/// An empty output in each of the two that is writable.
///
/// # Safety
/// Each pointer is NULL, misaligned or valid for a write.
pub(crate) unsafe fn clear_outputs(output_out: *mut *const u8, output_len_out: *mut usize) {
    // SAFETY: the caller's contract.
    unsafe {
        set_if_writable(output_out, empty_bytes());
        set_if_writable(output_len_out, 0);
    }
}

/// Moves `value` to the heap and hands its pointer to C.
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Frees a handle made by [`into_handle`]. NULL is a no-op; a panic in a
/// destructor is caught.
///
/// # Safety
/// `ptr` is NULL or a pointer from [`into_handle`] for the same `T`, not yet
/// freed.
pub(crate) unsafe fn free_handle<T>(ptr: *mut T) {
    if ptr.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract.
        drop(unsafe { Box::from_raw(ptr) });
    }));
}

/// A pointer to an empty, static byte: what an empty output points to, so
/// the caller never sees NULL or a dangling pointer.
pub(crate) fn empty_bytes() -> *const u8 {
    static EMPTY: [u8; 1] = [0];
    EMPTY.as_ptr()
}

/// The pointer to hand out for `bytes`: never NULL, never dangling.
pub(crate) fn bytes_ptr(bytes: &[u8]) -> *const u8 {
    if bytes.is_empty() {
        empty_bytes()
    } else {
        bytes.as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_status() {
        let status = boundary(|| panic!("PAYLOAD-7f3a"));
        assert_eq!(status, scrub_status::Panic);
        assert_eq!(boundary_value(7, || panic!("PAYLOAD-7f3a")), 7);
        let mut error: *mut scrub_error = std::ptr::null_mut();
        // SAFETY: `error` is a valid out-pointer.
        let status = unsafe { boundary_with_error(&mut error, || panic!("PAYLOAD-7f3a")) };
        assert_eq!(status, scrub_status::Panic);
        assert!(!error.is_null());
        // SAFETY: made by boundary_with_error.
        let message = unsafe { (*error).message.to_str().unwrap().to_owned() };
        assert!(message.contains("panic"), "{message}");
        assert!(
            !message.contains("PAYLOAD"),
            "the payload stays out: {message}"
        );
        // SAFETY: made by boundary_with_error, freed once.
        unsafe { free_handle(error) };
    }

    #[test]
    fn pointers_are_checked() {
        let misaligned = (std::ptr::dangling::<u64>() as usize + 1) as *const u64;
        // SAFETY: never dereferenced: both are refused.
        unsafe {
            assert_eq!(
                try_ref(std::ptr::null::<u64>(), "p").unwrap_err().status,
                scrub_status::NullArgument
            );
            assert_eq!(
                try_ref(misaligned, "p").unwrap_err().status,
                scrub_status::InvalidArgument
            );
            assert_eq!(
                try_slice(std::ptr::null::<u8>(), 1, "p")
                    .unwrap_err()
                    .status,
                scrub_status::NullArgument
            );
            assert_eq!(
                try_slice(8usize as *const u32, usize::MAX / 2, "p")
                    .unwrap_err()
                    .status,
                scrub_status::InvalidArgument
            );
            assert!(
                try_slice(std::ptr::null::<u8>(), 0, "p")
                    .unwrap()
                    .is_empty()
            );
        }
    }
}
