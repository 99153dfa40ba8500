//! The command does not outlive slicc-scrub, even when slicc-scrub is
//! killed with SIGKILL: on Linux, the kernel sends the command a signal
//! when slicc-scrub dies (`PR_SET_PDEATHSIG`). Elsewhere a pty's command
//! still gets its hangup when the pty's other end closes with slicc-scrub;
//! a command on pipes meets closed pipes when it next writes.

use std::process::Command;

/// The signal the command gets when slicc-scrub dies.
#[derive(Clone, Copy, Debug)]
pub enum DeathSignal {
    /// For a command on a pty: what a terminal's hangup would send.
    #[cfg_attr(not(unix), allow(dead_code))]
    Hangup,
    /// For a command on pipes.
    Terminate,
}

/// Arranges for `command`, once spawned, to get `signal` when we die.
/// Spawn it from the main thread: the kernel sends the signal when the
/// thread that forked it ends.
#[cfg(target_os = "linux")]
pub fn die_with_us(command: &mut Command, signal: DeathSignal) {
    use rustix::process::{Signal, getpid, getppid, set_parent_process_death_signal};
    use std::os::unix::process::CommandExt;

    let signal = match signal {
        DeathSignal::Hangup => Signal::HUP,
        DeathSignal::Terminate => Signal::TERM,
    };
    let parent = getpid();
    // SAFETY: prctl(2) and getppid(2) are plain system calls, safe between
    // fork and exec.
    unsafe {
        command.pre_exec(move || {
            set_parent_process_death_signal(Some(signal))?;
            // We may have died before the prctl: then nobody is left to
            // scrub the output, so the command must not start.
            if getppid() != Some(parent) {
                return Err(std::io::Error::other("slicc-scrub has exited"));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub fn die_with_us(_command: &mut Command, _signal: DeathSignal) {}
