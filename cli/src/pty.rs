//! `slicc-scrub run --pty -- COMMAND`: the command runs on a new
//! pseudo-terminal, as the controlling terminal of a session of its own, so
//! it sees a terminal on standard input, output and error and behaves as it
//! would without us: colours, line-buffered output, prompts, programs that
//! read keys. Everything it writes comes back through the pty's one end as
//! one stream, scrubbed with idle flushes.
//!
//! One loop (poll) moves the bytes: our standard input to the pty (in raw
//! mode when it is a terminal, so each key goes through as typed), the pty's
//! output through the stream to our standard output, and the signals:
//! SIGWINCH copies our window size to the pty; SIGHUP and SIGTERM go to the
//! command; SIGINT and SIGQUIT (which, in raw mode, only another process can
//! send us) go to the pty's foreground process group, as a terminal's keys
//! would. The run ends when the pty's output ends, or soon after the command
//! exits if something it left running still holds the pty.

use std::ffi::OsString;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use rustix::process::{Pid, Signal};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{
    LocalModes, OptionalActions, SpecialCodeIndex, Termios, Winsize, tcgetattr, tcgetpgrp,
    tcsetattr, tcsetwinsize,
};
use slicc_scrub::Stream;

use crate::Failure;
use crate::args::ScrubArgs;
use crate::filter::{PumpError, write};
use crate::orphan::{DeathSignal, die_with_us};
use crate::run::{cannot_start, finish, pump_failure};
use crate::secrets::Compiled;
use crate::terminal::{self, RawMode};

/// Bytes asked for per read.
const CHUNK: usize = 64 * 1024;

/// After the command has exited, how long the pty may stay quiet before we
/// stop reading it: only something the command left running still holds
/// it then (the usual end, when nothing does, comes at once).
const QUIET_AFTER_EXIT: Duration = Duration::from_millis(250);

/// The signals the loop acts on; SIGCHLD wakes it when the command exits.
const CAUGHT: [Signal; 6] = [
    Signal::WINCH,
    Signal::HUP,
    Signal::TERM,
    Signal::INT,
    Signal::QUIT,
    Signal::CHILD,
];

/// Runs `command` on a new pty and returns the status to exit with.
pub fn run(compiled: &Compiled, args: &ScrubArgs, command: &[OsString]) -> Result<i32, Failure> {
    let (program, rest) = command.split_first().expect("clap requires COMMAND");
    let shown = program.to_string_lossy();
    let outer_mode = terminal::mode();
    let (master, slave) = open(outer_mode.as_ref(), terminal::size())
        .map_err(|e| Failure::io(format!("cannot open a pseudo-terminal: {e}")))?;
    let signals =
        Signals::install().map_err(|e| Failure::io(format!("cannot catch signals: {e}")))?;

    let mut spawn = Command::new(program);
    spawn.args(rest);
    for stdio in [
        Command::stdin as fn(&mut Command, Stdio) -> &mut Command,
        Command::stdout,
        Command::stderr,
    ] {
        let fd = slave
            .try_clone()
            .map_err(|e| Failure::io(format!("cannot open a pseudo-terminal: {e}")))?;
        stdio(&mut spawn, Stdio::from(fd));
    }
    // SAFETY: setsid(2) and ioctl(2) are plain system calls, safe between
    // fork and exec: the command leads a new session whose controlling
    // terminal is the pty (already its standard input).
    unsafe {
        spawn.pre_exec(|| {
            rustix::process::setsid()?;
            rustix::process::ioctl_tiocsctty(rustix::stdio::stdin())?;
            Ok(())
        });
    }
    die_with_us(&mut spawn, DeathSignal::Hangup);
    let child = spawn.spawn().map_err(|e| cannot_start(&shown, &e))?;
    // Only the command holds the pty's far end now, so its output ends
    // (EIO) when the command and what it started have closed it.
    drop(spawn);
    drop(slave);

    // Restored when this function returns, however it returns.
    let raw = outer_mode
        .as_ref()
        .and_then(|mode| RawMode::enter(mode).ok());
    let mut session = Session {
        master: Some(master),
        output_closed: false,
        child,
        status: None,
        signals,
        stdin_open: true,
        stdin_is_terminal: outer_mode.is_some(),
        to_command: Vec::new(),
        last_forwarded: b'\n',
        stream: compiled.scrubber.stream(),
        idle: args.idle(),
        idle_at: None,
        quiet_until: None,
        scrubbed: Vec::with_capacity(CHUNK + 1024),
        failure: None,
    };
    session.forward();
    let status = session.wait();
    // Where forward kept the pty open for the command to exit.
    session.master = None;
    drop(raw);

    let hits = session.stream.hits();
    // Our output was closed: the pty is hung up, as a closed terminal's is.
    let failures = session
        .failure
        .and_then(|e| pump_failure(e, "output"))
        .into_iter()
        .collect();
    Ok(finish(failures, status, &shown, args, compiled, &[hits]))
}

/// A new pty: its master end (non-blocking, ours) and its slave end (the
/// command's), in our terminal's mode and size when we have a terminal.
fn open(mode: Option<&Termios>, size: Option<Winsize>) -> rustix::io::Result<(OwnedFd, OwnedFd)> {
    // Close-on-exec after the fact: posix_openpt has no such flag on every
    // system, and no other thread of ours forks meanwhile.
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY)?;
    rustix::io::fcntl_setfd(&master, rustix::io::FdFlags::CLOEXEC)?;
    grantpt(&master)?;
    unlockpt(&master)?;
    let name = ptsname(&master, Vec::new())?;
    let slave = rustix::fs::open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    if let Some(mode) = mode {
        tcsetattr(&slave, OptionalActions::Now, mode)?;
    }
    if let Some(size) = size {
        tcsetwinsize(&slave, size)?;
    }
    rustix::io::ioctl_fionbio(&master, true)?;
    Ok((master, slave))
}

/// The signals in `CAUGHT`: a flag each, and one socket the handlers write
/// a byte to, so that poll wakes. Unregistered when dropped.
struct Signals {
    wake: UnixStream,
    flags: Vec<(Signal, Arc<AtomicBool>)>,
    ids: Vec<signal_hook::SigId>,
}

impl Signals {
    fn install() -> io::Result<Signals> {
        let (wake, waker) = UnixStream::pair()?;
        wake.set_nonblocking(true)?;
        waker.set_nonblocking(true)?;
        let mut signals = Signals {
            wake,
            flags: Vec::new(),
            ids: Vec::new(),
        };
        for signal in CAUGHT {
            let flag = Arc::new(AtomicBool::new(false));
            signals
                .ids
                .push(signal_hook::flag::register(signal.as_raw(), flag.clone())?);
            signals.ids.push(signal_hook::low_level::pipe::register(
                signal.as_raw(),
                waker.try_clone()?,
            )?);
            signals.flags.push((signal, flag));
        }
        Ok(signals)
    }

    /// The signals that came since the last call, in `CAUGHT` order.
    fn take(&self) -> Vec<Signal> {
        let mut bytes = [0u8; 64];
        while matches!(io::Read::read(&mut &self.wake, &mut bytes), Ok(n) if n > 0) {}
        self.flags
            .iter()
            .filter(|(_, flag)| flag.swap(false, Ordering::SeqCst))
            .map(|(signal, _)| *signal)
            .collect()
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// The running command and the bytes between it and us.
struct Session {
    /// Our end of the pty, until `forward` takes it.
    master: Option<OwnedFd>,
    /// Writing our standard output failed: nobody sees the command's
    /// output any more, so the pty is hung up.
    output_closed: bool,
    child: Child,
    /// Set once the command has exited (it is reaped then).
    status: Option<io::Result<ExitStatus>>,
    signals: Signals,
    stdin_open: bool,
    stdin_is_terminal: bool,
    /// Our standard input, read but not yet taken by the pty.
    to_command: Vec<u8>,
    last_forwarded: u8,
    stream: Stream,
    idle: Option<Duration>,
    idle_at: Option<Instant>,
    /// After the command exited: when to stop waiting for more output.
    quiet_until: Option<Instant>,
    scrubbed: Vec<u8>,
    failure: Option<PumpError>,
}

impl Session {
    /// Moves bytes until the pty's output ends, our output fails, or the
    /// pty stays quiet after the command exited.
    fn forward(&mut self) {
        let master = self.master.take().expect("forward runs once");
        let mut buf = vec![0; CHUNK];
        // Every copy of the pty's other end is closed (EIO): the command
        // may still run, having closed its standard streams.
        let mut other_end_closed = false;
        while !self.output_closed {
            let exited = self.status.is_some();
            if exited && self.quiet_until.is_none() {
                self.quiet_until = Some(Instant::now() + QUIET_AFTER_EXIT);
            }
            let stdin = rustix::stdio::stdin();
            let read_stdin = self.stdin_open && self.to_command.is_empty() && !exited;
            let mut master_flags = PollFlags::IN;
            if !self.to_command.is_empty() {
                master_flags |= PollFlags::OUT;
            }
            let mut fds = vec![
                PollFd::new(&master, master_flags),
                PollFd::new(&self.signals.wake, PollFlags::IN),
            ];
            if read_stdin {
                fds.push(PollFd::new(&stdin, PollFlags::IN));
            }
            let due = [self.idle_at, self.quiet_until].into_iter().flatten().min();
            let timeout = due.map(|at| timespec(at.saturating_duration_since(Instant::now())));
            match poll(&mut fds, timeout.as_ref()) {
                Ok(_) | Err(Errno::INTR) => {}
                Err(e) => {
                    self.failure = Some(PumpError::Read(e.into()));
                    break;
                }
            }
            let master_ready = fds[0].revents();
            let stdin_ready = read_stdin && !fds[2].revents().is_empty();
            drop(fds);
            // Signals before input: the return from poll has run the
            // handlers of signals that came before the input it reports,
            // so a window change reaches the pty before keys typed after it.
            self.handle_signals(&master);

            if master_ready.intersects(PollFlags::IN | PollFlags::HUP | PollFlags::ERR) {
                match rustix::io::read(&master, &mut buf[..]) {
                    Ok(0) | Err(Errno::IO) => {
                        other_end_closed = true;
                        break;
                    }
                    Ok(n) => {
                        self.stream
                            .push_into(&buf[..n], &mut self.scrubbed)
                            .expect("the stream is open");
                        self.write_out();
                        self.idle_at = match self.idle {
                            Some(wait) if self.stream.held() > 0 => Some(Instant::now() + wait),
                            _ => None,
                        };
                        if exited {
                            self.quiet_until = Some(Instant::now() + QUIET_AFTER_EXIT);
                        }
                    }
                    Err(Errno::AGAIN | Errno::INTR) => {}
                    Err(e) => {
                        self.failure = Some(PumpError::Read(e.into()));
                        break;
                    }
                }
            }
            if stdin_ready {
                self.read_stdin(&master, &mut buf);
            }
            if !self.to_command.is_empty() {
                self.write_to_command(&master);
            }
            let now = Instant::now();
            if self.idle_at.is_some_and(|at| at <= now) {
                self.idle_at = None;
                self.stream
                    .idle_into(&mut self.scrubbed)
                    .expect("the stream is open");
                self.write_out();
            }
            if self.quiet_until.is_some_and(|at| at <= now) {
                break;
            }
        }
        if !self.output_closed {
            self.stream
                .end_into(&mut self.scrubbed)
                .expect("the stream is open");
            self.write_out();
        }
        // Closing our end hangs up the pty: what still runs on it gets
        // SIGHUP, as when a terminal closes. Not before the command exits
        // where nothing holds the pty any more: the hang-up would be the
        // command's death (129), not its own exit status (see `run`).
        if other_end_closed && self.status.is_none() {
            self.master = Some(master);
        }
    }

    /// Waits for the command to exit (if it has not), still passing
    /// signals on, and returns its status.
    fn wait(&mut self) -> io::Result<ExitStatus> {
        while self.status.is_none() {
            self.handle_signals_without_pty();
            if self.status.is_some() {
                break;
            }
            let mut fds = [PollFd::new(&self.signals.wake, PollFlags::IN)];
            match poll(&mut fds, None) {
                Ok(_) | Err(Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.status.take().expect("set above")
    }

    fn handle_signals(&mut self, master: &OwnedFd) {
        for signal in self.signals.take() {
            match signal {
                Signal::WINCH => {
                    if let Some(size) = terminal::size() {
                        // The kernel sends the command its SIGWINCH.
                        let _ = tcsetwinsize(master, size);
                    }
                }
                Signal::CHILD => self.reap(),
                Signal::INT | Signal::QUIT => {
                    let group = tcgetpgrp(master).ok();
                    self.pass_on(signal, group);
                }
                _ => self.pass_on(signal, None),
            }
        }
    }

    fn handle_signals_without_pty(&mut self) {
        for signal in self.signals.take() {
            match signal {
                Signal::WINCH => {}
                Signal::CHILD => self.reap(),
                _ => self.pass_on(signal, None),
            }
        }
        // SIGCHLD may have come before we started waiting for it.
        self.reap();
    }

    /// Sends `signal` to the process group `group`, or to the command.
    fn pass_on(&self, signal: Signal, group: Option<Pid>) {
        if self.status.is_some() {
            // Reaped: its process id may be another process's by now.
            return;
        }
        let sent =
            group.is_some_and(|group| rustix::process::kill_process_group(group, signal).is_ok());
        if !sent && let Some(pid) = Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process(pid, signal);
        }
    }

    fn reap(&mut self) {
        if self.status.is_none() {
            match self.child.try_wait() {
                Ok(Some(status)) => self.status = Some(Ok(status)),
                Ok(None) => {}
                Err(e) => self.status = Some(Err(e)),
            }
        }
    }

    /// Reads what our standard input has, for the pty.
    fn read_stdin(&mut self, master: &OwnedFd, buf: &mut [u8]) {
        match rustix::io::read(rustix::stdio::stdin(), &mut buf[..]) {
            Ok(n) if n > 0 => {
                self.to_command.extend_from_slice(&buf[..n]);
                self.last_forwarded = buf[n - 1];
            }
            Err(Errno::INTR | Errno::AGAIN) => {}
            // End of input, or a terminal hung up.
            Ok(_) | Err(_) => {
                self.stdin_open = false;
                if !self.stdin_is_terminal {
                    self.end_of_input(master);
                }
            }
        }
    }

    /// Our standard input (not a terminal) has ended: the pty's end-of-file
    /// character tells a command reading lines (twice after a partial line:
    /// the first only ends that line).
    fn end_of_input(&mut self, master: &OwnedFd) {
        let Ok(mode) = tcgetattr(master) else { return };
        if !mode.local_modes.contains(LocalModes::ICANON) {
            return;
        }
        let eof = mode.special_codes[SpecialCodeIndex::VEOF];
        if self.last_forwarded != b'\n' {
            self.to_command.push(eof);
        }
        self.to_command.push(eof);
    }

    fn write_to_command(&mut self, master: &OwnedFd) {
        match rustix::io::write(master, &self.to_command) {
            Ok(n) => {
                self.to_command.drain(..n);
            }
            Err(Errno::AGAIN | Errno::INTR) => {}
            // The command's side is gone: nobody reads this any more.
            Err(_) => {
                self.to_command.clear();
                self.stdin_open = false;
            }
        }
    }

    fn write_out(&mut self) {
        if let Err(e) = write(&mut io::stdout().lock(), &mut self.scrubbed) {
            self.scrubbed.clear();
            self.failure.get_or_insert(e);
            self.output_closed = true;
        }
    }
}

fn timespec(wait: Duration) -> Timespec {
    Timespec {
        tv_sec: wait.as_secs() as _,
        tv_nsec: wait.subsec_nanos() as _,
    }
}
