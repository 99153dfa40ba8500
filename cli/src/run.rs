//! `slicc-scrub run -- COMMAND [ARGS]`: runs a command and scrubs what it
//! writes, then exits as a shell would. Under a terminal the command gets a
//! pseudo-terminal of its own (`pty.rs`); otherwise, or with `--no-pty`, it
//! runs with standard input inherited and its standard output and standard
//! error on pipes, each scrubbed through its own stream (`pipes.rs`).
//!
//! Signals (Unix), while the command runs on pipes: SIGINT, SIGQUIT, SIGTERM
//! and SIGHUP sent to slicc-scrub by another process (`kill`) are forwarded
//! to the command, and slicc-scrub keeps scrubbing until the command exits.
//! The same signals sent by the terminal (Ctrl-C, Ctrl-\, hangup) reach the
//! command directly, since it shares slicc-scrub's process group, so they
//! are not forwarded a second time; slicc-scrub outlives them too, to pass
//! on what the command prints while it stops. Once the command has exited,
//! the signals act as usual again. Either way the command does not outlive
//! slicc-scrub (`orphan.rs`).

use std::ffi::OsString;
use std::io::{self, ErrorKind};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;

use crate::Failure;
use crate::args::{PtyChoice, ScrubArgs};
use crate::filter::PumpError;
use crate::orphan::{DeathSignal, die_with_us};
use crate::pipes::{self, Forwarded};
use crate::secrets::Compiled;
use crate::stats;

/// Runs `command` and returns the exit status slicc-scrub should exit with.
pub fn run(
    compiled: &Compiled,
    args: &ScrubArgs,
    terminal: PtyChoice,
    command: &[OsString],
) -> Result<i32, Failure> {
    if use_pty(terminal)? {
        #[cfg(unix)]
        return crate::pty::run(compiled, args, command);
    }
    let (program, rest) = command.split_first().expect("clap requires COMMAND");
    let shown = program.to_string_lossy();

    signals::install();
    let mut command = Command::new(program);
    command
        .args(rest)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    die_with_us(&mut command, DeathSignal::Terminate);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            signals::restore();
            return Err(cannot_start(&shown, &error));
        }
    };
    drop(command);
    signals::set_child(child.id());

    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    // Until every holder of the pipes has closed them: the command, and
    // anything it left running (as a shell pipeline does).
    // Signals act as usual again once the command has exited, even while
    // something it left running still holds the pipes: a thread watches.
    let pid = child.id();
    let exited = thread::Builder::new()
        .name("slicc-scrub wait".into())
        .spawn(move || stop_forwarding_at_exit(pid));
    let forwarded = pipes::forward(stdout, stderr, compiled, args.idle());
    let status = match exited {
        Ok(exited) => {
            let _ = exited.join();
            child.wait()
        }
        Err(_) => {
            stop_forwarding_at_exit(pid);
            child.wait()
        }
    };

    let mut failures = Vec::new();
    let mut lists = Vec::new();
    for (what, Forwarded { result, hits }) in ["standard output", "standard error"]
        .into_iter()
        .zip(forwarded)
    {
        lists.push(hits);
        // Our output was closed: the command, no longer read, meets the
        // closed pipe itself, as it would without us.
        failures.extend(result.err().and_then(|e| pump_failure(e, what)));
    }
    Ok(finish(failures, status, &shown, args, compiled, &lists))
}

/// The line to print for a pump that failed, if any: a closed output of
/// ours is no failure (the command meets it as it would without us).
pub fn pump_failure(error: PumpError, what: &str) -> Option<String> {
    match error {
        PumpError::Write(e) if e.kind() == ErrorKind::BrokenPipe => None,
        PumpError::Write(e) => Some(format!("writing the command's {what}: {e}")),
        PumpError::Read(e) => Some(format!("reading the command's {what}: {e}")),
    }
}

/// How `run` ends, on pipes or on a pty: one line per failure, the hit
/// counts with `--stats`, and the command's status (1 where it succeeded
/// but forwarding failed).
pub fn finish(
    mut failures: Vec<String>,
    status: io::Result<ExitStatus>,
    shown: &str,
    args: &ScrubArgs,
    compiled: &Compiled,
    hits: &[Vec<slicc_scrub::Hit>],
) -> i32 {
    let code = match status {
        Ok(status) => exit_code(status),
        Err(e) => {
            failures.push(format!("waiting for {shown}: {e}"));
            1
        }
    };
    for failure in &failures {
        eprintln!("slicc-scrub: {failure}");
    }
    if args.stats {
        stats::print(&stats::total(&compiled.names, hits));
    }
    if code == 0 && !failures.is_empty() {
        1
    } else {
        code
    }
}

/// Whether the command gets a pty: as asked, else when standard input and
/// standard output are both terminals (an interactive user).
fn use_pty(choice: PtyChoice) -> Result<bool, Failure> {
    use std::io::IsTerminal;
    if choice.no_pty {
        return Ok(false);
    }
    if cfg!(unix) {
        Ok(choice.pty || (io::stdin().is_terminal() && io::stdout().is_terminal()))
    } else if choice.pty {
        Err(Failure::config("--pty needs a Unix system"))
    } else {
        Ok(false)
    }
}

/// The failure, and the shell's status for it, when `program` cannot start.
pub fn cannot_start(shown: &str, error: &io::Error) -> Failure {
    match error.kind() {
        ErrorKind::NotFound => Failure::new(127, format!("{shown}: command not found")),
        ErrorKind::PermissionDenied => Failure::new(126, format!("{shown}: permission denied")),
        _ => Failure::new(126, format!("{shown}: cannot run: {error}")),
    }
}

/// Waits for the command to exit, without reaping it, and stops forwarding
/// signals before its process id can be reused.
fn stop_forwarding_at_exit(pid: u32) {
    signals::wait_exited(pid);
    signals::restore();
}

/// The status a shell gives a command: its exit code, or 128 + N when
/// signal N killed it.
pub fn exit_code(status: ExitStatus) -> i32 {
    if let Some(code) = status.code() {
        return code;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    1
}

#[cfg(unix)]
mod signals {
    //! Forwarding signals to the command, as sudo does: only those another
    //! process sent, since the terminal's reach the command by themselves.

    use std::sync::Mutex;
    use std::sync::atomic::{AtomicI32, Ordering};

    const SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP];

    /// The command's process id while it runs, else 0.
    static CHILD: AtomicI32 = AtomicI32::new(0);
    /// A signal that arrived while no command was running, to act on later.
    static PENDING: AtomicI32 = AtomicI32::new(0);
    /// The dispositions replaced by `install`, for `restore`.
    static SAVED: Mutex<Vec<(libc::c_int, libc::sigaction)>> = Mutex::new(Vec::new());

    extern "C" fn handle(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // Only async-signal-safe calls here: atomics and kill(2).
        // SAFETY: the kernel passes a valid siginfo_t with SA_SIGINFO.
        let code = if info.is_null() {
            libc::SI_USER
        } else {
            unsafe { (*info).si_code }
        };
        if !sent_by_process(code) {
            return;
        }
        let child = CHILD.load(Ordering::SeqCst);
        if child > 0 {
            // SAFETY: kill(2) is async-signal-safe; child is a live child
            // of ours (cleared before it is reaped).
            unsafe { libc::kill(child, signal) };
        } else {
            PENDING.store(signal, Ordering::SeqCst);
        }
    }

    fn sent_by_process(code: libc::c_int) -> bool {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if code == libc::SI_TKILL {
            return true;
        }
        code == libc::SI_USER || code == libc::SI_QUEUE
    }

    /// Catches the signals, except any that were ignored when we started
    /// (such as SIGINT for a background job): the command inherits those
    /// as ignored. Caught signals are reset to default in the command when
    /// it starts.
    pub fn install() {
        let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
        for signal in SIGNALS {
            // SAFETY: plain sigaction(2) calls on zeroed, then filled, structs.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handle as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                if libc::sigaction(signal, &action, std::ptr::null_mut()) == 0 {
                    saved.push((signal, old));
                }
            }
        }
    }

    /// Starts forwarding to `pid`, and forwards a signal that came before.
    pub fn set_child(pid: u32) {
        let pid = pid as i32;
        CHILD.store(pid, Ordering::SeqCst);
        let pending = PENDING.swap(0, Ordering::SeqCst);
        if pending != 0 {
            // SAFETY: pid is our child, not yet reaped.
            unsafe { libc::kill(pid, pending) };
        }
    }

    /// Blocks until the command has exited, without reaping it, then stops
    /// forwarding: its process id stays ours until `Child::wait` reaps it.
    pub fn wait_exited(pid: u32) {
        // SAFETY: waitid(2) with WNOWAIT on our own child; info is ours.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            while libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            ) != 0
                && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
            {
            }
        }
        CHILD.store(0, Ordering::SeqCst);
    }

    /// Puts back the dispositions `install` replaced; a signal that came
    /// while no command ran then takes its usual effect.
    pub fn restore() {
        let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
        for (signal, old) in saved.drain(..) {
            // SAFETY: restoring a disposition sigaction(2) gave us.
            unsafe { libc::sigaction(signal, &old, std::ptr::null_mut()) };
        }
        let pending = PENDING.swap(0, Ordering::SeqCst);
        if pending != 0 {
            // SAFETY: raise(3) with a signal number the kernel gave us.
            unsafe { libc::raise(pending) };
        }
    }
}

#[cfg(not(unix))]
mod signals {
    //! Elsewhere the command shares our console and gets its Ctrl-C itself.

    pub fn install() {}
    pub fn set_child(_pid: u32) {}
    pub fn wait_exited(_pid: u32) {}
    pub fn restore() {}
}
