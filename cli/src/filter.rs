//! The filter loop: one input through one stream to one output, calling
//! idle after a quiet interval so a prompt without a newline is not held.
//!
//! Input is read on its own thread and handed over a bounded channel, so the
//! loop can wait with `recv_timeout`. A thread (rather than `poll(2)` on the
//! file descriptor) works the same on every platform and for every reader:
//! standard input, a terminal, the pipes of a child process where there is
//! no poll (`run` on Unix polls them: `pipes.rs`, `pty.rs`).

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::Duration;

use slicc_scrub::Stream;

/// Bytes asked for per read.
const CHUNK: usize = 64 * 1024;
/// Chunks read ahead of the scrubber: enough to overlap reading with
/// scrubbing, few enough that a slow output pushes back on the input.
const CHUNKS_IN_FLIGHT: usize = 4;

/// Why a pump stopped early.
#[derive(Debug)]
pub enum PumpError {
    /// Reading the input failed (what was read before is written, and the
    /// stream ended).
    Read(io::Error),
    /// Writing the output failed: the rest of the input is not read.
    Write(io::Error),
}

/// Scrubs everything `reader` gives into `out` through `stream`, then ends
/// the stream. Writes and flushes after every push and idle that gives
/// bytes. With `idle` set, calls [`Stream::idle`] once bytes have been held
/// that long without new input.
pub fn pump<R, W>(
    reader: R,
    out: &mut W,
    stream: &mut Stream,
    idle: Option<Duration>,
) -> Result<(), PumpError>
where
    R: Read + Send + 'static,
    W: Write + ?Sized,
{
    let (sender, chunks) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
    let reader = thread::Builder::new()
        .name("slicc-scrub reader".into())
        .spawn(move || read_chunks(reader, sender))
        .map_err(PumpError::Read)?;
    let mut buf = Vec::with_capacity(CHUNK + 1024);
    // Whether bytes are held that idle could release.
    let mut idle_due = false;
    let mut failed = None;
    loop {
        let next = match idle {
            Some(wait) if idle_due => match chunks.recv_timeout(wait) {
                Ok(next) => Some(next),
                Err(RecvTimeoutError::Timeout) => {
                    idle_due = false;
                    stream.idle_into(&mut buf).expect("the stream is open");
                    write(out, &mut buf)?;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => None,
            },
            _ => chunks.recv().ok(),
        };
        match next {
            None => break,
            Some(Ok(chunk)) => {
                stream
                    .push_into(&chunk, &mut buf)
                    .expect("the stream is open");
                write(out, &mut buf)?;
                idle_due = stream.held() > 0;
            }
            Some(Err(error)) => {
                failed = Some(error);
                break;
            }
        }
    }
    // The reader has stopped: it sent an error or dropped its sender.
    let _ = reader.join();
    stream.end_into(&mut buf).expect("the stream is open");
    write(out, &mut buf)?;
    match failed {
        Some(error) => Err(PumpError::Read(error)),
        None => Ok(()),
    }
}

/// Writes `buf` (if not empty), flushes, and clears it.
pub fn write<W: Write + ?Sized>(out: &mut W, buf: &mut Vec<u8>) -> Result<(), PumpError> {
    if buf.is_empty() {
        return Ok(());
    }
    let mut rest = &buf[..];
    while !rest.is_empty() {
        match waiting(|| out.write(rest)) {
            Ok(0) => return Err(PumpError::Write(io::ErrorKind::WriteZero.into())),
            Ok(n) => rest = &rest[n..],
            Err(e) => return Err(PumpError::Write(e)),
        }
    }
    waiting(|| out.flush()).map_err(PumpError::Write)?;
    buf.clear();
    Ok(())
}

/// `op` until it does not fail with `Interrupted` or `WouldBlock`. An
/// output handed to us non-blocking (a pipe or terminal another process set
/// so: the flag is the file's, shared) gives `WouldBlock` when it is full:
/// a wait for the reader, not an error that would drop the rest.
fn waiting<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match op() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                thread::sleep(Duration::from_millis(1));
            }
            result => return result,
        }
    }
}

/// Reads until end of input or an error, sending each chunk; stops early
/// when the receiver has gone.
fn read_chunks<R: Read>(mut reader: R, sender: SyncSender<io::Result<Vec<u8>>>) {
    let mut buf = vec![0; CHUNK];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if sender.send(Ok(buf[..n].to_vec())).is_err() {
                    return;
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => {
                let _ = sender.send(Err(error));
                return;
            }
        }
    }
}
