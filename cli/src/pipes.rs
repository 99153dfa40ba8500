//! `run` without a pty: the command's standard output and standard error,
//! each scrubbed as its own stream into our own standard output and error.
//!
//! On Unix one loop polls both pipes and forwards each read as soon as it is
//! made, so what the command wrote to the two keeps its order as closely as
//! two pipes allow: a line read from one pipe is written out before the
//! other pipe is read again. (One pump per pipe, each on its own thread,
//! would race the two.) Elsewhere, where there is no poll(2) over pipes,
//! each pipe has its own pump.

use std::process::{ChildStderr, ChildStdout};
use std::time::Duration;

use slicc_scrub::Hit;

use crate::filter::PumpError;
use crate::secrets::Compiled;

/// How forwarding one pipe ended, and the hits of its stream.
pub struct Forwarded {
    pub result: Result<(), PumpError>,
    pub hits: Vec<Hit>,
}

#[cfg(unix)]
pub fn forward(
    stdout: ChildStdout,
    stderr: ChildStderr,
    compiled: &Compiled,
    idle: Option<Duration>,
) -> [Forwarded; 2] {
    poll_loop::forward(stdout, stderr, compiled, idle)
}

#[cfg(not(unix))]
pub fn forward(
    stdout: ChildStdout,
    stderr: ChildStderr,
    compiled: &Compiled,
    idle: Option<Duration>,
) -> [Forwarded; 2] {
    use crate::filter::pump;
    use std::io;

    let mut out_stream = compiled.scrubber.stream();
    let mut err_stream = compiled.scrubber.stream();
    std::thread::scope(|scope| {
        let out = scope.spawn(|| {
            let result = pump(stdout, &mut io::stdout().lock(), &mut out_stream, idle);
            Forwarded {
                result,
                hits: out_stream.hits(),
            }
        });
        let err = pump(stderr, &mut io::stderr(), &mut err_stream, idle);
        let err = Forwarded {
            result: err,
            hits: err_stream.hits(),
        };
        let out = out.join().unwrap_or_else(|_| Forwarded {
            result: Err(PumpError::Write(io::Error::other("the pump failed"))),
            hits: Vec::new(),
        });
        [out, err]
    })
}

#[cfg(unix)]
mod poll_loop {
    use std::io::{self, ErrorKind, Read, Write};
    use std::process::{ChildStderr, ChildStdout};
    use std::time::{Duration, Instant};

    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use slicc_scrub::Stream;

    use super::Forwarded;
    use crate::filter::{PumpError, write};
    use crate::secrets::Compiled;

    /// Bytes asked for per read.
    const CHUNK: usize = 64 * 1024;

    /// One pipe, its stream and where its scrubbed bytes go.
    struct Leg<'a, R> {
        /// None once it gave end of file, an error, or its output failed.
        pipe: Option<R>,
        stream: Stream,
        out: Box<dyn Write + 'a>,
        /// When idle is due, if bytes are held.
        idle_at: Option<Instant>,
        result: Result<(), PumpError>,
        /// Whether the stream still needs its end (not after a write error).
        open: bool,
    }

    impl<R: Read> Leg<'_, R> {
        /// One read, pushed and written out.
        fn read_once(&mut self, buf: &mut [u8], scrubbed: &mut Vec<u8>, idle: Option<Duration>) {
            let Some(pipe) = self.pipe.as_mut() else {
                return;
            };
            match pipe.read(buf) {
                Ok(0) => self.pipe = None,
                Ok(n) => {
                    self.stream
                        .push_into(&buf[..n], scrubbed)
                        .expect("the stream is open");
                    self.write(scrubbed);
                    self.idle_at = match idle {
                        Some(wait) if self.stream.held() > 0 => Some(Instant::now() + wait),
                        _ => None,
                    };
                }
                Err(e) if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::WouldBlock) => {}
                Err(e) => {
                    self.result = Err(PumpError::Read(e));
                    self.pipe = None;
                }
            }
        }

        fn idle_if_due(&mut self, now: Instant, scrubbed: &mut Vec<u8>) {
            if self.open && self.idle_at.is_some_and(|at| at <= now) {
                self.idle_at = None;
                self.stream.idle_into(scrubbed).expect("the stream is open");
                self.write(scrubbed);
            }
        }

        fn write(&mut self, scrubbed: &mut Vec<u8>) {
            if let Err(e) = write(&mut self.out, scrubbed) {
                // Stop reading: the command meets the closed pipe itself,
                // as it would without us.
                scrubbed.clear();
                self.result = Err(e);
                self.pipe = None;
                self.open = false;
                self.idle_at = None;
            }
        }

        fn end(&mut self, scrubbed: &mut Vec<u8>) {
            if self.open {
                self.open = false;
                self.stream.end_into(scrubbed).expect("the stream is open");
                let result = std::mem::replace(&mut self.result, Ok(()));
                self.write(scrubbed);
                if self.result.is_ok() {
                    self.result = result;
                }
            }
        }
    }

    pub fn forward(
        stdout: ChildStdout,
        stderr: ChildStderr,
        compiled: &Compiled,
        idle: Option<Duration>,
    ) -> [Forwarded; 2] {
        let mut out = Leg {
            pipe: Some(stdout),
            stream: compiled.scrubber.stream(),
            out: Box::new(io::stdout().lock()),
            idle_at: None,
            result: Ok(()),
            open: true,
        };
        let mut err = Leg {
            pipe: Some(stderr),
            stream: compiled.scrubber.stream(),
            out: Box::new(io::stderr()),
            idle_at: None,
            result: Ok(()),
            open: true,
        };
        let mut buf = vec![0; CHUNK];
        let mut scrubbed = Vec::with_capacity(CHUNK + 1024);
        while out.pipe.is_some() || err.pipe.is_some() {
            let due = [out.idle_at, err.idle_at].into_iter().flatten().min();
            let timeout = due.map(|at| {
                let wait = at.saturating_duration_since(Instant::now());
                Timespec {
                    tv_sec: wait.as_secs() as _,
                    tv_nsec: wait.subsec_nanos() as _,
                }
            });
            let (out_ready, err_ready) = {
                let mut fds = Vec::with_capacity(2);
                if let Some(pipe) = &out.pipe {
                    fds.push(PollFd::new(pipe, PollFlags::IN));
                }
                if let Some(pipe) = &err.pipe {
                    fds.push(PollFd::new(pipe, PollFlags::IN));
                }
                match poll(&mut fds, timeout.as_ref()) {
                    Ok(_) => {}
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(e) => {
                        out.result = Err(PumpError::Read(e.into()));
                        break;
                    }
                }
                let ready = |fd: &PollFd| !fd.revents().is_empty();
                let mut fds = fds.iter();
                let out_ready = out.pipe.is_some() && fds.next().is_some_and(ready);
                let err_ready = err.pipe.is_some() && fds.next().is_some_and(ready);
                (out_ready, err_ready)
            };
            if out_ready {
                out.read_once(&mut buf, &mut scrubbed, idle);
            }
            if err_ready {
                err.read_once(&mut buf, &mut scrubbed, idle);
            }
            // A side whose pipe has ended gives what it held now, not once
            // the other ends too: later text of the other side comes after.
            if out.pipe.is_none() {
                out.end(&mut scrubbed);
            }
            if err.pipe.is_none() {
                err.end(&mut scrubbed);
            }
            let now = Instant::now();
            out.idle_if_due(now, &mut scrubbed);
            err.idle_if_due(now, &mut scrubbed);
        }
        out.end(&mut scrubbed);
        err.end(&mut scrubbed);
        [
            Forwarded {
                result: out.result,
                hits: out.stream.hits(),
            },
            Forwarded {
                result: err.result,
                hits: err.stream.hits(),
            },
        ]
    }
}
