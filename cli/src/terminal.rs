//! The terminal slicc-scrub itself runs under, as `run --pty` uses it: its
//! mode (copied to the pty, then made raw while the command runs) and its
//! window size (copied to the pty at start and on every SIGWINCH).

use std::os::fd::BorrowedFd;

use rustix::termios::{OptionalActions, Termios, Winsize, isatty, tcgetattr, tcsetattr};

/// Our standard input's mode when it is a terminal.
pub fn mode() -> Option<Termios> {
    let stdin = rustix::stdio::stdin();
    if isatty(stdin) {
        tcgetattr(stdin).ok()
    } else {
        None
    }
}

/// The window size of the first of standard input, output and error that is
/// a terminal.
pub fn size() -> Option<Winsize> {
    [
        rustix::stdio::stdin(),
        rustix::stdio::stdout(),
        rustix::stdio::stderr(),
    ]
    .into_iter()
    .filter(|fd| isatty(fd))
    .find_map(|fd| rustix::termios::tcgetwinsize(fd).ok())
}

/// Standard input in raw mode, until dropped: keys go to the command as
/// typed (Ctrl-C is a byte for the pty to turn into the command's SIGINT),
/// and our output processing stays off, since the pty has done the
/// command's. Dropping it, on every path out of `run` (a panic included),
/// puts the saved mode back.
pub struct RawMode {
    saved: Termios,
}

impl RawMode {
    /// Makes standard input raw, given its mode from [`mode`].
    pub fn enter(saved: &Termios) -> rustix::io::Result<RawMode> {
        let mut raw = saved.clone();
        raw.make_raw();
        tcsetattr(stdin(), OptionalActions::Now, &raw)?;
        Ok(RawMode {
            saved: saved.clone(),
        })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        // Drain: what we wrote in raw mode is shown before the mode changes.
        let _ = tcsetattr(stdin(), OptionalActions::Drain, &self.saved);
    }
}

fn stdin() -> BorrowedFd<'static> {
    rustix::stdio::stdin()
}
