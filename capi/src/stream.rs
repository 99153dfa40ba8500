//! Streams: push chunks in, get scrubbed bytes out (SPEC §4).

use slicc_scrub::{Stream, StreamError};

use super::boundary::{
    Failure, FfiResult, Out, boundary, bytes_ptr, clear_outputs, free_handle, into_handle, try_mut,
    try_ref, try_slice,
};
use super::hits::scrub_hits;
use super::scrubber::scrub_scrubber;
use super::status::scrub_status;

/// A stream over a scrubber. Used by one thread at a time (it may move
/// between threads between calls); make one per thread or per connection,
/// as many as you need, from one scrubber. It keeps the compiled secrets
/// alive: its scrubber may be freed first. Owns the output buffer that
/// push, idle and end point into, reused from call to call.
pub struct scrub_stream {
    inner: Stream,
    out: Vec<u8>,
    /// Set while a call runs; left set if it panicked.
    poisoned: bool,
}

impl From<StreamError> for Failure {
    fn from(error: StreamError) -> Failure {
        match error {
            StreamError::Ended => Failure::status(scrub_status::StreamEnded),
            // `#[non_exhaustive]`: see `From<&CompileError> for scrub_status`.
            _ => Failure::status(scrub_status::InvalidArgument),
        }
    }
}

/// The shared body of push, idle and end: checks every pointer before the
/// stream is touched (so a bad call loses no bytes), runs `op` into the
/// reused buffer, and hands the buffer out.
///
/// # Safety
/// The pointers follow the contract of `scrub_stream_push`.
unsafe fn run(
    stream: *mut scrub_stream,
    output_out: *mut *const u8,
    output_len_out: *mut usize,
    op: impl FnOnce(&mut Stream, &mut Vec<u8>) -> Result<(), StreamError>,
) -> FfiResult<()> {
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
    let stream = unsafe { try_mut(stream, "stream")? };
    if stream.poisoned {
        return Err(Failure::status(scrub_status::StreamPoisoned));
    }
    stream.out.clear();
    // Left set only if `op` panics.
    stream.poisoned = true;
    let result = op(&mut stream.inner, &mut stream.out);
    stream.poisoned = false;
    result?;
    output_out.set(bytes_ptr(&stream.out));
    output_len_out.set(stream.out.len());
    Ok(())
}

/// Whether `chunk` lies in the allocation of `buffer`.
fn overlaps(chunk: &[u8], buffer: &Vec<u8>) -> bool {
    let start = buffer.as_ptr() as usize;
    let end = start + buffer.capacity();
    let chunk_start = chunk.as_ptr() as usize;
    !chunk.is_empty() && chunk_start < end && chunk_start + chunk.len() > start
}

/// Makes a new stream over `scrubber`, stored in `*stream_out` (owned by the
/// caller, free it with `scrub_stream_free`), or NULL on failure.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer). Thread-safe: any number of threads may make streams
/// from one scrubber at once.
///
/// # Safety
/// `scrubber` is NULL or live; `stream_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_new(
    scrubber: *const scrub_scrubber,
    stream_out: *mut *mut scrub_stream,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let stream_out = unsafe { Out::new(stream_out, "stream_out")? };
        stream_out.set(std::ptr::null_mut());
        // SAFETY: as above.
        let scrubber = unsafe { try_ref(scrubber, "scrubber")? };
        stream_out.set(into_handle(scrub_stream {
            inner: scrubber.inner.stream(),
            out: Vec::new(),
            poisoned: false,
        }));
        Ok(())
    })
}

/// Pushes `chunk` and points `*output_out` at every byte, scrubbed, that can
/// no longer be part of a match (`*output_len_out` of them, possibly 0); the
/// rest is held for later calls. Any chunking followed by
/// `scrub_stream_end` gives exactly the bytes of `scrub_bytes` on the whole
/// input.
///
/// The output belongs to the stream: valid until the next push, idle, end
/// or free of this stream; not NUL-terminated; never NULL on success (an
/// empty output is a non-NULL pointer and 0). The buffer is reused, so no
/// allocation happens per chunk once it is large enough. `chunk` may be
/// NULL when `chunk_len` is 0, and is not kept after the call; it may even
/// be this stream's last output (it is copied first then).
///
/// Every pointer is checked before anything is consumed: on any error the
/// chunk was not pushed, no byte is lost, and `*output_out` / `*output_len_out`
/// (each where writable, whichever argument was bad) are an empty output.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT`,
/// `SCRUB_STATUS_STREAM_ENDED` (after `scrub_stream_end`),
/// `SCRUB_STATUS_STREAM_POISONED`. One thread at a time per stream.
///
/// # Safety
/// `stream` is NULL or live and not in use by another thread; `chunk` as
/// above; the out pointers are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_push(
    stream: *mut scrub_stream,
    chunk: *const u8,
    chunk_len: usize,
    output_out: *mut *const u8,
    output_len_out: *mut usize,
) -> scrub_status {
    boundary(|| {
        // Emptied before the chunk is checked: so is every error.
        // SAFETY: the caller's contract.
        unsafe { clear_outputs(output_out, output_len_out) };
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let chunk = unsafe { try_slice(chunk, chunk_len, "chunk")? };
        // A chunk inside this stream's own output buffer (its last output
        // pushed back) would be overwritten while it is read: copy it.
        // SAFETY: only compared as addresses; `stream` is checked in `run`.
        let aliased =
            !stream.is_null() && stream.is_aligned() && unsafe { overlaps(chunk, &(*stream).out) };
        let copy;
        let chunk = if aliased {
            copy = chunk.to_vec();
            &copy[..]
        } else {
            chunk
        };
        // SAFETY: as above.
        unsafe {
            run(stream, output_out, output_len_out, |s, out| {
                s.push_into(chunk, out)
            })
        }
    })
}

/// Call after `SCRUB_IDLE_MS` milliseconds without input (poll, select or a
/// timer), so an interactive prompt is never held back: when fewer than
/// `SCRUB_FRAGMENT` bytes are held, they are scrubbed and handed out as end
/// would, and the stream goes on afresh; when more are held it hands out
/// nothing (a tail that long could be a growing fragment). Output as for
/// `scrub_stream_push`.
///
/// Errors: as `scrub_stream_push`. One thread at a time per stream.
///
/// # Safety
/// As `scrub_stream_push`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_idle(
    stream: *mut scrub_stream,
    output_out: *mut *const u8,
    output_len_out: *mut usize,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract.
        unsafe { run(stream, output_out, output_len_out, Stream::idle_into) }
    })
}

/// Scrubs and hands out everything held; the stream is then ended: push,
/// idle and end give `SCRUB_STATUS_STREAM_ENDED`, hits stay readable.
/// Output as for `scrub_stream_push`. Free the stream afterwards.
///
/// Errors: as `scrub_stream_push`. One thread at a time per stream.
///
/// # Safety
/// As `scrub_stream_push`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_end(
    stream: *mut scrub_stream,
    output_out: *mut *const u8,
    output_len_out: *mut usize,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract.
        unsafe { run(stream, output_out, output_len_out, Stream::end_into) }
    })
}

/// Stores in `*hits_out` a new list of the hits of the stream so far (owned
/// by the caller, free it with `scrub_hits_free`; a snapshot, independent of
/// the stream), or NULL on failure. Works after end too, and on a stream
/// left poisoned by a panic (the hits it had counted).
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer), `SCRUB_STATUS_PANIC` (memory for the list). One
/// thread at a time per stream.
///
/// # Safety
/// `stream` is NULL or live; `hits_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_hits(
    stream: *const scrub_stream,
    hits_out: *mut *mut scrub_hits,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let hits_out = unsafe { Out::new(hits_out, "hits_out")? };
        hits_out.set(std::ptr::null_mut());
        // SAFETY: as above.
        let stream = unsafe { try_ref(stream, "stream")? };
        hits_out.set(into_handle(scrub_hits::new(&stream.inner.hits())?));
        Ok(())
    })
}

/// Stores in `*held_out` the number of bytes the stream holds back, waiting
/// for more input (at most the longest pattern plus the line breaks inside
/// a pending wrapped match). Works after end too (0), and on a stream left
/// poisoned by a panic.
///
/// Errors: `SCRUB_STATUS_NULL_ARGUMENT`, `SCRUB_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer). One thread at a time per stream.
///
/// # Safety
/// `stream` is NULL or live; `held_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_held(
    stream: *const scrub_stream,
    held_out: *mut usize,
) -> scrub_status {
    boundary(|| {
        // SAFETY: the caller's contract; NULL and alignment are checked.
        let (stream, held_out) =
            unsafe { (try_ref(stream, "stream")?, Out::new(held_out, "held_out")?) };
        held_out.set(stream.inner.held());
        Ok(())
    })
}

/// Frees a stream, with what it holds (bytes held back are dropped: call
/// `scrub_stream_end` first to get them). NULL is a no-op. Its output
/// pointer is invalid afterwards.
///
/// # Safety
/// `stream` is NULL or a stream not yet freed, not in use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_stream_free(stream: *mut scrub_stream) {
    // SAFETY: the caller passes NULL or a stream this library allocated.
    unsafe { free_handle(stream) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slicc_scrub::{Options, Secret, compile};

    fn stream() -> scrub_stream {
        let scrubber = compile(
            &[Secret::new("GH", "ghp_abcdefgh12345678")],
            &Options::new(slicc_scrub::RULES_VERSION),
        )
        .unwrap();
        scrub_stream {
            inner: scrubber.stream(),
            out: Vec::new(),
            poisoned: false,
        }
    }

    #[test]
    fn a_panic_poisons_the_stream() {
        let mut s = stream();
        let (mut out, mut len) = (std::ptr::null(), 0);
        let status = super::super::boundary::boundary(|| {
            // SAFETY: valid pointers.
            unsafe { run(&mut s, &mut out, &mut len, |_, _| panic!("engine bug")) }
        });
        assert_eq!(status, scrub_status::Panic);
        // SAFETY: valid pointers.
        let status = unsafe { scrub_stream_push(&mut s, b"x".as_ptr(), 1, &mut out, &mut len) };
        assert_eq!(status, scrub_status::StreamPoisoned);
        assert_eq!(len, 0);
    }

    #[test]
    fn pushing_its_own_output_back_is_safe() {
        let mut s = stream();
        let (mut out, mut len) = (std::ptr::null(), 0);
        let input = b"plain text, then ghp_abcdefgh12345678 and more text\n";
        // SAFETY: valid pointers.
        let status =
            unsafe { scrub_stream_push(&mut s, input.as_ptr(), input.len(), &mut out, &mut len) };
        assert_eq!(status, scrub_status::Ok);
        let first = unsafe { std::slice::from_raw_parts(out, len) }.to_vec();
        // Push the output buffer itself.
        // SAFETY: `out` points into the stream's buffer, `len` bytes.
        let status = unsafe { scrub_stream_push(&mut s, out, len, &mut out, &mut len) };
        assert_eq!(status, scrub_status::Ok);
        let mut all = unsafe { std::slice::from_raw_parts(out, len) }.to_vec();
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { scrub_stream_end(&mut s, &mut out, &mut len) },
            scrub_status::Ok
        );
        all.extend_from_slice(unsafe { std::slice::from_raw_parts(out, len) });
        assert_eq!(first, b"plain text, then [redacted:GH] and more text\n");
        assert_eq!(all, first);
    }
}
