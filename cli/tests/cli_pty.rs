//! Drives the real `slicc-scrub run` under a real pseudo-terminal that the
//! test opens, as a user at a terminal would run it: the command gets a
//! terminal of its own, sees what is typed, shows its prompts, keeps its
//! colours and line buffering, follows the window size, leaves the terminal
//! as it found it, and does not outlive the tool. Also, without a pty, the
//! order of standard output and error.
//!
//! Waits are read-untils with generous timeouts (a loaded 2-core machine
//! must not fail them); none is a measurement.
#![cfg(target_os = "linux")]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fs::{Mode, OFlags};
use rustix::process::{Pid, PidfdFlags, Signal, kill_process, pidfd_open};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{LocalModes, Termios, Winsize, tcgetattr, tcsetwinsize};

const BIN: &str = env!("CARGO_BIN_EXE_slicc-scrub");

/// How long something the command writes may take to show: far above
/// IDLE_MS (50 ms) and any scheduling delay; a held or block-buffered
/// line does not show at all while the command waits for input.
const SHOW_TIMEOUT: Duration = Duration::from_secs(10);

/// How long slicc-scrub may run in any test before the watchdog kills it,
/// so that a regression fails the test instead of hanging it.
const WATCHDOG: Duration = Duration::from_secs(120);

/// Starts `command` under a [`watchdog`].
fn spawn_watched(command: &mut Command) -> Child {
    let child = command.spawn().expect("the binary starts");
    watchdog(&child);
    child
}

/// Kills `child` (by its pidfd: never another process that got its id)
/// if it still runs after WATCHDOG.
fn watchdog(child: &Child) {
    let pidfd = pidfd_open(
        Pid::from_raw(child.id() as i32).unwrap(),
        PidfdFlags::empty(),
    )
    .unwrap();
    thread::spawn(move || {
        if !ends_within(&pidfd, WATCHDOG) {
            let _ = rustix::process::pidfd_send_signal(&pidfd, Signal::KILL);
        }
    });
}

/// The value's first bytes, "hun", end the prompt: a stream holds them, as
/// they could start the value, until idle releases them (tests/cli.rs
/// checks that they are held without idle).
const PASSWORD: &str = "hunter2hunter2hunter2";
const PROMPT: &str = "Password for hun";

/// The binary with a clean environment apart from PATH, TERM and `env`.
fn slicc(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(BIN);
    command.args(args).env_clear().env("TERM", "xterm");
    if let Some(path) = std::env::var_os("PATH") {
        command.env("PATH", path);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

/// `slicc-scrub run FLAGS --env PW -- sh -c SCRIPT`, PW holding PASSWORD:
/// the shape of most tests here.
fn scrubbed_sh(flags: &[&str], script: &str) -> Command {
    let mut args = vec!["run"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--env", "PW", "--", "sh", "-c", script]);
    slicc(&args, &[("PW", PASSWORD)])
}

/// A pseudo-terminal the test holds the master end of: the terminal a user
/// would run slicc-scrub in.
struct Terminal {
    master: OwnedFd,
    shown: Shown,
    /// The mode slicc-scrub found (the pty's default, cooked), as Debug
    /// shows it: every flag, special character and speed.
    initial: String,
}

impl Terminal {
    /// Starts `command` (slicc-scrub) on a new pty of `rows` x `cols`, as
    /// the leader of a session whose controlling terminal it is.
    fn spawn(mut command: Command, rows: u16, cols: u16) -> (Terminal, Child) {
        let master =
            openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).expect("a pty");
        grantpt(&master).unwrap();
        unlockpt(&master).unwrap();
        let name = ptsname(&master, Vec::new()).unwrap();
        let slave = rustix::fs::open(
            name.as_c_str(),
            OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap();
        tcsetwinsize(&master, size(rows, cols)).unwrap();
        let initial = format!("{:?}", tcgetattr(&master).unwrap());
        command
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid(2) and ioctl(2) are plain system calls, safe
        // between fork and exec.
        unsafe {
            command.pre_exec(|| {
                rustix::process::setsid()?;
                rustix::process::ioctl_tiocsctty(rustix::stdio::stdin())?;
                Ok(())
            });
        }
        let child = spawn_watched(&mut command);
        // Only slicc-scrub (and what it starts) holds the slave end now, so
        // the master reads end (EIO) when they have all gone.
        drop(command);
        let shown = Shown::collect(File::from(master.try_clone().unwrap()));
        (
            Terminal {
                master,
                shown,
                initial,
            },
            child,
        )
    }

    fn type_keys(&self, keys: &str) {
        File::from(self.master.try_clone().unwrap())
            .write_all(keys.as_bytes())
            .unwrap();
    }

    /// The terminal's mode now (the master end reports the slave's).
    fn mode(&self) -> Termios {
        tcgetattr(&self.master).unwrap()
    }

    /// Waits for `want` to show, failing the test with what did show.
    fn expect(&self, want: &str) {
        assert!(
            self.shown.wait_contains(want, SHOW_TIMEOUT),
            "{want:?} did not show; shown: {:?}",
            self.shown.text()
        );
    }
}

fn size(rows: u16, cols: u16) -> Winsize {
    Winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    }
}

/// What the terminal shows, collected by a thread until the pty's far end
/// has closed.
#[derive(Clone)]
struct Shown(Arc<(Mutex<ShownSoFar>, Condvar)>);

#[derive(Default)]
struct ShownSoFar {
    bytes: Vec<u8>,
    /// The pty's far end has closed: nothing more will show.
    closed: bool,
}

impl Shown {
    fn collect(mut from: File) -> Shown {
        let shown = Shown(Arc::default());
        let filler = shown.clone();
        thread::spawn(move || {
            let mut buf = [0; 4096];
            loop {
                // EIO once every holder of the slave end has closed it.
                let n = from.read(&mut buf).unwrap_or(0);
                let (lock, changed) = &*filler.0;
                let mut state = lock.lock().unwrap();
                if n == 0 {
                    state.closed = true;
                    changed.notify_all();
                    return;
                }
                state.bytes.extend_from_slice(&buf[..n]);
                changed.notify_all();
            }
        });
        shown
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.0.lock().unwrap().bytes).into_owned()
    }

    /// Waits up to `timeout` for `want` to show.
    fn wait_contains(&self, want: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let (lock, changed) = &*self.0;
        let mut state = lock.lock().unwrap();
        loop {
            if String::from_utf8_lossy(&state.bytes).contains(want) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if state.closed || left.is_zero() {
                return false;
            }
            state = changed.wait_timeout(state, left).unwrap().0;
        }
    }

    /// Everything shown, once the pty's far end has closed.
    fn all(&self) -> String {
        let (lock, changed) = &*self.0;
        let mut state = lock.lock().unwrap();
        while !state.closed {
            state = changed.wait(state).unwrap();
        }
        String::from_utf8_lossy(&state.bytes).into_owned()
    }
}

/// `run` with the secret PW, under a terminal of 24 x 80, running `sh -c
/// script`.
fn run_sh(script: &str) -> (Terminal, Child) {
    Terminal::spawn(scrubbed_sh(&[], script), 24, 80)
}

fn is_raw(mode: &Termios) -> bool {
    !mode
        .local_modes
        .intersects(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG)
}

#[test]
fn the_command_sees_a_terminal_on_0_1_and_2() {
    let (terminal, mut child) = run_sh(
        r#"for fd in 0 1 2; do if [ -t $fd ]; then echo "fd $fd: terminal"; else echo "fd $fd: not"; fi; done; echo "$PW" >&2; tty"#,
    );
    let shown = terminal.shown.all();
    assert!(child.wait().unwrap().success(), "{shown:?}");
    assert!(
        shown.starts_with(
            "fd 0: terminal\r\nfd 1: terminal\r\nfd 2: terminal\r\n[redacted:PW]\r\n/dev/pts/"
        ),
        "{shown:?}"
    );
    assert!(!shown.contains(PASSWORD));
}

#[test]
fn with_no_pty_under_a_terminal_the_command_gets_pipes() {
    let (terminal, mut child) = Terminal::spawn(
        scrubbed_sh(
            &["--no-pty"],
            r#"if [ -t 1 ]; then echo "fd 1: terminal"; else echo "fd 1: not"; fi"#,
        ),
        24,
        80,
    );
    let shown = terminal.shown.all();
    assert!(child.wait().unwrap().success());
    // Our terminal, not raw, turns the LF into CR LF.
    assert_eq!(shown, "fd 1: not\r\n");
}

#[test]
fn ls_keeps_its_colours() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ls-colour");
    std::fs::create_dir_all(dir.join("a-folder")).unwrap();
    let dir = dir.to_str().unwrap();
    let (terminal, mut child) = Terminal::spawn(
        slicc(
            &["run", "--env", "PW", "--", "ls", "--color=auto", dir],
            &[("PW", PASSWORD)],
        ),
        24,
        80,
    );
    let shown = terminal.shown.all();
    assert!(child.wait().unwrap().success(), "{shown:?}");
    assert!(shown.contains("a-folder"), "{shown:?}");
    assert!(
        shown.contains("\x1b["),
        "no colour escape in ls output: {shown:?}"
    );
}

#[test]
fn a_python_line_arrives_while_python_still_runs() {
    // Without a terminal Python buffers its output in blocks: this line
    // would then arrive only when it exits, and it waits for input first.
    let (terminal, mut child) = Terminal::spawn(
        slicc(
            &[
                "run",
                "--env",
                "PW",
                "--",
                "python3",
                "-c",
                "import sys; print('first line'); sys.stdin.readline(); print('done')",
            ],
            &[("PW", PASSWORD)],
        ),
        24,
        80,
    );
    terminal.expect("first line\r\n");
    assert!(child.try_wait().unwrap().is_none(), "python still runs");
    terminal.type_keys("\r");
    terminal.expect("done\r\n");
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_prompt_shows_and_what_is_typed_reaches_the_command() {
    let (terminal, mut child) = Terminal::spawn(
        slicc(
            &[
                "run",
                "--env",
                "PW",
                "--",
                "bash",
                "-c",
                &format!(r#"read -p '{PROMPT}' reply; echo "got <$reply>""#),
            ],
            &[("PW", PASSWORD)],
        ),
        24,
        80,
    );
    // The prompt ends in bytes the stream holds: idle releases them.
    terminal.expect(PROMPT);
    terminal.type_keys(&format!("{PASSWORD}\r"));
    terminal.expect("got <[redacted:PW]>\r\n");
    let shown = terminal.shown.all();
    assert!(child.wait().unwrap().success());
    // The pty echoes what is typed: scrubbed too.
    assert_eq!(
        shown,
        format!("{PROMPT}[redacted:PW]\r\ngot <[redacted:PW]>\r\n")
    );
}

#[test]
fn ctrl_c_reaches_the_command_on_its_pty() {
    let (terminal, mut child) =
        run_sh(r#"trap 'echo "int $PW"; exit 7' INT; echo ready; read line"#);
    terminal.expect("ready\r\n");
    terminal.type_keys("\x03");
    terminal.expect("int [redacted:PW]\r\n");
    assert_eq!(child.wait().unwrap().code(), Some(7));
}

#[test]
fn a_multi_line_secret_with_cr_lf_from_the_terminal_is_replaced() {
    let key = "first-line-of-the-key\nsecond-line-of-the-key";
    let (terminal, mut child) = Terminal::spawn(
        slicc(
            &[
                "run",
                "--env",
                "KEY",
                "--",
                "sh",
                "-c",
                r#"printf 'key: %s\n' "$KEY""#,
            ],
            &[("KEY", key)],
        ),
        24,
        80,
    );
    let shown = terminal.shown.all();
    assert!(child.wait().unwrap().success());
    assert_eq!(shown, "key: [redacted:KEY]\r\n");
}

#[test]
fn the_window_size_reaches_the_command_and_follows_ours() {
    let (terminal, mut child) =
        Terminal::spawn(scrubbed_sh(&[], "stty size; read line; stty size"), 37, 101);
    terminal.expect("37 101\r\n");
    // SIGWINCH goes to slicc-scrub, the foreground of our terminal.
    tcsetwinsize(&terminal.master, size(40, 120)).unwrap();
    terminal.type_keys("\r");
    terminal.expect("40 120\r\n");
    assert!(child.wait().unwrap().success());
}

#[test]
fn the_terminal_mode_is_restored_after_the_command_exits() {
    let (terminal, mut child) = run_sh("echo ready; read line; exit 3");
    terminal.expect("ready\r\n");
    let raw = terminal.mode();
    assert!(is_raw(&raw), "raw while the command runs: {raw:?}");
    terminal.type_keys("\r");
    assert_eq!(child.wait().unwrap().code(), Some(3));
    assert_eq!(format!("{:?}", terminal.mode()), terminal.initial);
}

#[test]
fn the_terminal_mode_is_restored_after_sigterm() {
    let (terminal, mut child) = run_sh("echo ready; exec sleep 60");
    terminal.expect("ready\r\n");
    assert!(is_raw(&terminal.mode()));
    kill(child.id(), Signal::TERM);
    // Passed on to the command, which it kills; slicc-scrub exits as a
    // shell would.
    assert_eq!(child.wait().unwrap().code(), Some(128 + 15));
    assert_eq!(format!("{:?}", terminal.mode()), terminal.initial);
}

#[test]
fn sighup_to_the_tool_reaches_the_command_on_its_pty() {
    let (terminal, mut child) =
        run_sh(r#"trap 'echo "hup $PW"; exit 9' HUP; echo ready; read line"#);
    terminal.expect("ready\r\n");
    kill(child.id(), Signal::HUP);
    terminal.expect("hup [redacted:PW]\r\n");
    assert_eq!(child.wait().unwrap().code(), Some(9));
    assert_eq!(format!("{:?}", terminal.mode()), terminal.initial);
}

fn kill(pid: u32, signal: Signal) {
    kill_process(Pid::from_raw(pid as i32).unwrap(), signal).unwrap();
}

/// Waits for process `pid` (not our child) to end.
fn ends_within(pidfd: &OwnedFd, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
        let wait = Timespec {
            tv_sec: left.as_secs() as _,
            tv_nsec: left.subsec_nanos() as _,
        };
        match poll(&mut fds, Some(&wait)) {
            Ok(n) if n > 0 => return true,
            Ok(_) => return false,
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => panic!("poll: {e}"),
        }
    }
}

/// The process id the command printed as "pid N".
fn printed_pid(shown: &str) -> u32 {
    let line = shown
        .lines()
        .find_map(|line| line.trim().strip_prefix("pid "))
        .unwrap_or_else(|| panic!("no pid in {shown:?}"));
    line.trim().parse().unwrap()
}

#[test]
fn the_command_dies_with_the_tool_on_a_pty() {
    let (terminal, mut child) = run_sh(r#"echo "pid $$"; exec sleep 60"#);
    terminal.expect("\r\n");
    let pid = printed_pid(&terminal.shown.text());
    let pidfd = pidfd_open(Pid::from_raw(pid as i32).unwrap(), PidfdFlags::empty()).unwrap();
    assert!(!ends_within(&pidfd, Duration::ZERO));
    kill(child.id(), Signal::KILL);
    assert_eq!(child.wait().unwrap().signal(), Some(9));
    assert!(ends_within(&pidfd, SHOW_TIMEOUT), "the command outlived us");
}

#[test]
fn the_command_dies_with_the_tool_on_pipes() {
    let mut child = spawn_watched(
        scrubbed_sh(&[], r#"echo "pid $$"; exec sleep 60"#)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    );
    let mut stdout = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0];
    while !line.ends_with(b"\n") && stdout.read(&mut byte).unwrap() == 1 {
        line.push(byte[0]);
    }
    let pid = printed_pid(&String::from_utf8(line).unwrap());
    let pidfd = pidfd_open(Pid::from_raw(pid as i32).unwrap(), PidfdFlags::empty()).unwrap();
    kill(child.id(), Signal::KILL);
    assert_eq!(child.wait().unwrap().signal(), Some(9));
    assert!(ends_within(&pidfd, SHOW_TIMEOUT), "the command outlived us");
}

/// Without a pty, 200 lines written in turn to standard output and standard
/// error come out of `2>&1` in the order written. The command waits until
/// slicc-scrub has read each line (the pipe is empty) before it writes the
/// next, so the order is what one loop forwarding each read at once gives;
/// one pump per pipe on its own thread would race the two.
#[test]
fn without_a_pty_stdout_and_stderr_keep_their_order() {
    const CHILD: &str = r#"
import fcntl, os, struct, termios, time
def queued(fd):
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
for i in range(200):
    fd = 1 if i % 2 == 0 else 2
    os.write(fd, b"line %03d to %d.\n" % (i, fd))
    while queued(fd):
        time.sleep(0.0005)
"#;
    let expected: Vec<String> = (0..200)
        .map(|i| format!("line {i:03} to {}.", 1 + i % 2))
        .collect();
    // The check is only meaningful if no line is held back by its stream
    // (idle would then release it late, after the other stream's line).
    let scrubber = slicc_scrub::compile(
        &[slicc_scrub::Secret::new("PW", PASSWORD)],
        &slicc_scrub::Options::new(slicc_scrub::RULES_VERSION),
    )
    .unwrap();
    for line in &expected {
        let mut stream = scrubber.stream();
        stream.push(format!("{line}\n").as_bytes()).unwrap();
        assert_eq!(stream.held(), 0, "{line:?} is held");
    }
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = spawn_watched(
        slicc(
            &[
                "run", "--no-pty", "--env", "PW", "--", "python3", "-c", CHILD,
            ],
            &[("PW", PASSWORD)],
        )
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer),
    );
    let mut output = String::new();
    let mut reader = reader;
    reader.read_to_string(&mut output).unwrap();
    assert!(child.wait().unwrap().success(), "{output}");
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines, expected);
}

/// Something the command left running on the pty, immune to the hangup,
/// does not keep slicc-scrub waiting once the command has exited.
#[test]
fn the_run_ends_when_the_command_exits_though_a_job_holds_the_pty() {
    let (terminal, mut child) = run_sh(r#"(trap '' HUP; exec sleep 60) & echo "pid $!"; echo bye"#);
    terminal.expect("bye\r\n");
    let job = printed_pid(&terminal.shown.text());
    let tool = pidfd_open(
        Pid::from_raw(child.id() as i32).unwrap(),
        PidfdFlags::empty(),
    )
    .unwrap();
    let ended = ends_within(&tool, SHOW_TIMEOUT);
    kill(job, Signal::KILL);
    assert!(ended, "slicc-scrub waited for the job");
    assert!(child.wait().unwrap().success());
}

/// An interactive shell works through it: a prompt, a command typed, its
/// output scrubbed, job control on the pty, exit.
#[test]
fn an_interactive_shell_works() {
    let (terminal, mut child) = Terminal::spawn(
        slicc(
            &[
                "run",
                "--env",
                "PW",
                "--",
                "bash",
                "--norc",
                "--noprofile",
                "-i",
            ],
            &[("PW", PASSWORD), ("PS1", "prompt> ")],
        ),
        24,
        80,
    );
    terminal.expect("prompt> ");
    terminal.type_keys("echo \"sum $((6 * 7)) $PW\"; [[ $- == *m* ]] && echo job-control\r");
    terminal.expect("sum 42 [redacted:PW]\r\n");
    // Job control: bash has the pty as its controlling terminal.
    terminal.expect("\r\njob-control\r\n");
    terminal.type_keys("exit 5\r");
    assert_eq!(child.wait().unwrap().code(), Some(5));
    assert!(!terminal.shown.all().contains(PASSWORD));
}

/// `--pty` without a terminal of ours: our standard input (a pipe) is
/// forwarded, and its end reaches the command as the pty's end of file,
/// after a last line without a newline too.
#[test]
fn with_pty_and_piped_input_the_command_reads_to_its_end() {
    let mut child = spawn_watched(
        scrubbed_sh(
            &["--pty"],
            // No echo of the input, so that only cat's output shows.
            "stty -echo; echo ready; cat; echo '<end of input>'; exit 6",
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped()),
    );
    let mut stdout = child.stdout.take().unwrap();
    let mut shown = Vec::new();
    let mut byte = [0];
    while !shown.ends_with(b"ready\r\n") && stdout.read(&mut byte).unwrap() == 1 {
        shown.push(byte[0]);
    }
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("one\n{PASSWORD}\nlast").as_bytes())
        .unwrap();
    drop(stdin);
    stdout.read_to_end(&mut shown).unwrap();
    assert_eq!(
        String::from_utf8(shown).unwrap(),
        "ready\r\none\r\n[redacted:PW]\r\nlast<end of input>\r\n"
    );
    assert_eq!(child.wait().unwrap().code(), Some(6));
}

#[test]
fn a_missing_command_on_a_pty_exits_127_and_leaves_the_mode() {
    let (terminal, mut child) = Terminal::spawn(
        slicc(
            &["run", "--env", "PW", "--", "slicc-scrub-no-such-command"],
            &[("PW", PASSWORD)],
        ),
        24,
        80,
    );
    let shown = terminal.shown.all();
    assert_eq!(child.wait().unwrap().code(), Some(127));
    assert_eq!(
        shown,
        "slicc-scrub: slicc-scrub-no-such-command: command not found\r\n"
    );
    assert_eq!(format!("{:?}", terminal.mode()), terminal.initial);
}

#[test]
fn stats_on_a_pty_count_the_one_stream() {
    let (terminal, mut child) = Terminal::spawn(
        scrubbed_sh(&["--stats"], r#"echo "$PW"; echo "$PW" >&2"#),
        24,
        80,
    );
    let shown = terminal.shown.all();
    assert!(child.wait().unwrap().success());
    // After the mode is restored: our terminal turns LF into CR LF again.
    assert_eq!(
        shown,
        "[redacted:PW]\r\n[redacted:PW]\r\nslicc-scrub: hit PW raw 2\r\n"
    );
}

/// A command that closes its standard streams (as coreutils do on their
/// way out) and goes on a while: the pty's other end is then closed while
/// the command still runs, and its exit status is its own, not the SIGHUP
/// a closed pty would send it (129).
#[test]
fn a_command_that_closes_its_terminal_first_keeps_its_exit_status() {
    for code in [0, 3] {
        let script = format!("echo done; exec >&- 2>&- <&-; sleep 0.3; exit {code}");
        let mut child = spawn_watched(
            scrubbed_sh(&["--pty"], &script)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        );
        let mut shown = Vec::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_end(&mut shown)
            .unwrap();
        assert_eq!(shown, b"done\r\n");
        assert_eq!(child.wait().unwrap().code(), Some(code));
    }
}
