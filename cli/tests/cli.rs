//! Drives the real `slicc-scrub` binary: streaming equals one-shot
//! scrubbing, prompts are not held, exit codes, errors, `--stats`,
//! `--same-length`.

use std::fs::File;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

#[path = "../../tests/common/names_with_matches.rs"]
mod names_with_matches;

use slicc_scrub::{Hit, Options, RULES_VERSION, Scrubber, Secret, compile};

const BIN: &str = env!("CARGO_BIN_EXE_slicc-scrub");

/// How long a prompt may take to show: far above IDLE_MS (50 ms), so a busy
/// machine does not fail the test; a held prompt never shows at all.
const PROMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// The binary with a clean environment apart from `env`.
fn slicc(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(BIN);
    command.args(args).env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        command.env("PATH", path);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

/// Runs `command` with `input` written in chunks of the given sizes (in
/// turn, repeating), and collects its output.
fn run_chunked(mut command: Command, input: &[u8], sizes: &[usize]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let sizes = sizes.to_vec();
    let writer = thread::spawn(move || {
        let mut rest = &input[..];
        for &size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (chunk, tail) = rest.split_at(size.min(rest.len()));
            // The binary may exit early on an error: stop writing then.
            if stdin.write_all(chunk).is_err() {
                break;
            }
            rest = tail;
        }
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn run_input(command: Command, input: &[u8]) -> Output {
    run_chunked(command, input, &[input.len().max(1)])
}

fn stderr_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stderr.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A file in the test's scratch folder holding `contents`, readable and
/// writable by its owner only, as a secrets file should be.
fn file(name: &str, contents: &[u8]) -> PathBuf {
    file_with_mode(name, contents, 0o600)
}

fn file_with_mode(name: &str, contents: &[u8], mode: u32) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    set_mode(&path, mode);
    path
}

#[cfg(unix)]
fn set_mode(path: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn set_mode(_path: &std::path::Path, _mode: u32) {}

const GOOD_SECRETS: &[u8] = br#"[{"name":"TOKEN","value":"ghp_abcdefgh12345678"}]"#;

#[cfg(unix)]
#[test]
fn a_secrets_file_that_group_or_others_can_write_is_refused() {
    for (mode, who) in [(0o620, "its group"), (0o602, "others"), (0o666, "others")] {
        let path = file_with_mode(&format!("writable-{mode:o}.json"), GOOD_SECRETS, mode);
        let out = run_input(
            slicc(&["--secrets", path_str(&path)], &[]),
            b"ghp_abcdefgh12345678\n",
        );
        assert_eq!(out.status.code(), Some(2), "mode {mode:o}");
        let lines = stderr_lines(&out);
        assert_eq!(lines.len(), 1, "one clear line: {lines:?}");
        assert!(
            lines[0].contains(&format!("writable by {who}: refused")),
            "{lines:?}"
        );
        assert!(out.stdout.is_empty(), "nothing scrubbed with those secrets");
    }
}

/// A named pipe others can write is refused as a file is: whoever writes
/// it first gives the secrets (an anonymous pipe, `<(...)`, is the
/// caller's alone and is taken).
#[cfg(unix)]
#[test]
fn a_named_pipe_that_others_can_write_is_refused() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fifo.json");
    // Not `file`: writing a pipe left by an earlier run would wait forever.
    let _ = std::fs::remove_file(&path);
    let c_path = std::ffi::CString::new(path_str(&path)).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    set_mode(&path, 0o666);
    let child = slicc(&["--secrets", path_str(&path)], &[])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The tool's open waits for a writer: be one, as another user would.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let _ = writer.write_all(GOOD_SECRETS);
    drop(writer);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines = stderr_lines(&out);
    assert!(
        lines.len() == 1 && lines[0].contains("writable by others: refused"),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(&path);
}

/// A file another user owns is refused whatever its mode, as ssh refuses
/// one: its owner can write it. Only root can make such a file: where it
/// cannot, the test checks that the caller's own file is taken.
#[cfg(unix)]
#[test]
fn a_secrets_file_another_user_owns_is_refused() {
    let path = file_with_mode("owned.json", GOOD_SECRETS, 0o600);
    let c_path = std::ffi::CString::new(path_str(&path)).unwrap();
    // SAFETY: geteuid cannot fail; a valid path (65534 is `nobody` on
    // Linux, which a user namespace may not map: then as not root).
    let root = unsafe { libc::geteuid() == 0 && libc::chown(c_path.as_ptr(), 65534, 65534) == 0 };
    let out = run_input(
        slicc(&["--secrets", path_str(&path)], &[]),
        b"ghp_abcdefgh12345678\n",
    );
    if root {
        assert_eq!(out.status.code(), Some(2));
        let lines = stderr_lines(&out);
        assert!(
            lines.len() == 1 && lines[0].contains("is owned by another user (uid 65534): refused"),
            "{lines:?}"
        );
        assert!(out.stdout.is_empty());
    } else {
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(out.stdout, b"[redacted:TOKEN]\n");
    }
}

#[cfg(unix)]
#[test]
fn a_secrets_file_that_others_can_read_is_used_with_a_warning() {
    let path = file_with_mode("readable.json", GOOD_SECRETS, 0o644);
    let out = run_input(
        slicc(&["--secrets", path_str(&path)], &[]),
        b"ghp_abcdefgh12345678\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"[redacted:TOKEN]\n");
    let lines = stderr_lines(&out);
    assert!(
        lines.iter().any(|l| l.contains("readable by others")),
        "{lines:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_of_secrets_is_taken_as_it_is_and_dev_zero_is_refused() {
    // A FIFO has no mode worth checking: `--secrets <(vault read ...)`.
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{BIN} --secrets <(printf '%s' '{}') <<< 'ghp_abcdefgh12345678'",
            std::str::from_utf8(GOOD_SECRETS).unwrap()
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", stderr_lines(&out));
    assert_eq!(out.stdout, b"[redacted:TOKEN]\n");
    assert!(stderr_lines(&out).is_empty(), "{:?}", stderr_lines(&out));
    // An endless device is refused once past the cap, not read to the end.
    let out = run_input(slicc(&["--secrets", "/dev/zero"], &[]), b"x");
    assert_eq!(out.status.code(), Some(2));
    let lines = stderr_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("larger than 67108864 bytes"), "{lines:?}");
}

fn path_str(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// The lines `--stats` writes for `hits`.
fn stats_lines(hits: &[Hit]) -> Vec<String> {
    if hits.is_empty() {
        return vec!["slicc-scrub: no hits".into()];
    }
    hits.iter()
        .map(|h| format!("slicc-scrub: hit {} {} {}", h.name, h.form, h.count))
        .collect()
}

// ---- large inputs: streaming equals one-shot ---------------------------

const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for group in bytes.chunks(3) {
        let b = [
            group[0],
            *group.get(1).unwrap_or(&0),
            *group.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= group.len() {
                out.push(BASE64[(n >> (18 - 6 * i) & 63) as usize]);
            } else {
                out.push(b'=');
            }
        }
    }
    out
}

fn hex(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .flat_map(|b| format!("{b:02x}").into_bytes())
        .collect()
}

/// A small deterministic generator (xorshift64*).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SECRETS_JSON: &str = r#"[
  {"name": "GH_TOKEN", "value": "ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo", "placeholder": "fnox_1"},
  {"name": "DB_PASSWORD", "value": "p@ss w0rd/\"quoted\""},
  {"name": "BINARY_KEY", "valueHex": "00ff10203040506070fe8081"}
]"#;

fn secrets() -> Vec<Secret> {
    slicc_scrub::secrets_from_json(SECRETS_JSON.as_bytes()).unwrap()
}

fn scrubber(same_length: bool) -> Scrubber {
    compile(
        &secrets(),
        &Options::new(RULES_VERSION).same_length(same_length),
    )
    .unwrap()
}

/// Several MiB of text and binary noise with the secrets in many forms:
/// raw, fragments, base64 at every shift, hex, wrapped hex, JSON, percent,
/// and near misses (a value with its last byte changed).
fn large_input(len: usize) -> Vec<u8> {
    let secrets = secrets();
    let mut random = Random(0x5eed_1234_abcd_0042);
    let mut input = Vec::with_capacity(len + 1024);
    while input.len() < len {
        let value = &secrets[random.below(secrets.len())].value;
        match random.below(10) {
            0 => input.extend_from_slice(value),
            1 => {
                let start = random.below(value.len().saturating_sub(16).max(1));
                input.extend_from_slice(&value[start..(start + 16).min(value.len())]);
            }
            2 => {
                let mut blob = vec![b'x'; random.below(3)];
                blob.extend_from_slice(value);
                input.extend(base64(&blob));
            }
            3 => input.extend(hex(value)),
            4 => {
                let h = hex(value);
                let cut = random.below(h.len());
                input.extend_from_slice(&h[..cut]);
                input.extend_from_slice(b"\r\n");
                input.extend_from_slice(&h[cut..]);
            }
            5 => input.extend_from_slice(br#"{"password":"p@ss w0rd/\"quoted\""}"#),
            6 => input.extend_from_slice(b"pw=p%40ss%20w0rd%2F%22quoted%22&x=1"),
            7 => {
                let mut near = value.clone();
                *near.last_mut().unwrap() ^= 1;
                input.extend(near);
            }
            _ => {
                for _ in 0..random.below(64) {
                    input.push(random.next() as u8);
                }
            }
        }
        // Text between the secrets, with line breaks.
        let text = b"abcdefghij klmnop\n0123456789ABCDEF";
        for _ in 0..random.below(400) {
            input.push(text[random.below(text.len())]);
        }
    }
    input
}

/// Odd write sizes, from single bytes to more than a pipe holds.
const ODD_SIZES: &[usize] = &[1, 7, 4093, 13, 65_537, 2, 333, 1_048_579, 31, 17];

/// Standard output handed over non-blocking (a pipe or terminal another
/// process set so) and read slowly: a full pipe is a wait, not an error,
/// for the filter and for `run` alike; every byte arrives.
#[cfg(unix)]
#[test]
fn a_non_blocking_standard_output_read_slowly_loses_nothing() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let input = large_input(1 << 20);
    let secrets_file = file("nonblocking.json", SECRETS_JSON.as_bytes());
    let input_file = file("nonblocking-input.txt", &input);
    let expected = scrubber(false).bytes(&input).output;
    let cat = format!("cat {}", path_str(&input_file));
    let filter: &[&str] = &["--secrets", path_str(&secrets_file)];
    let run: &[&str] = &[
        "--secrets",
        path_str(&secrets_file),
        "run",
        "--no-pty",
        "--",
        "sh",
        "-c",
        &cat,
    ];
    for args in [filter, run] {
        let mut fds = [0; 2];
        // SAFETY: a valid array of two; the write end made non-blocking.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let flags = libc::fcntl(fds[1], libc::F_GETFL);
            assert_eq!(
                libc::fcntl(fds[1], libc::F_SETFL, flags | libc::O_NONBLOCK),
                0
            );
        }
        // SAFETY: both ends are ours alone from here.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let stdin = if args.len() == 2 {
            Stdio::from(File::open(&input_file).unwrap())
        } else {
            Stdio::null()
        };
        let mut child = slicc(args, &[])
            .stdin(stdin)
            .stdout(Stdio::from(write_end))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = File::from(read_end);
        let mut out = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            // Slower than the tool writes: its pipe fills.
            thread::sleep(Duration::from_micros(200));
            match reader.read(&mut chunk).unwrap() {
                0 => break,
                n => out.extend_from_slice(&chunk[..n]),
            }
        }
        let status = child.wait().unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert!(status.success(), "{args:?}: {status:?} {stderr}");
        assert!(
            out == expected,
            "{args:?}: {} bytes against {}",
            out.len(),
            expected.len()
        );
    }
}

#[test]
fn large_input_in_odd_chunks_equals_bytes() {
    let input = large_input(6 << 20);
    let secrets_file = file("large.json", SECRETS_JSON.as_bytes());
    for same_length in [false, true] {
        let expected = scrubber(same_length).bytes(&input);
        assert!(expected.hits.len() >= 8, "the input has many forms");
        // --idle-ms 0 never releases early: the output must be exactly
        // that of one-shot scrubbing whatever the pipe's timing. The default
        // idle is run too: the writer never pauses, so it is the same.
        for idle in ["0", "50"] {
            let mut args = vec!["--secrets", path_str(&secrets_file), "--stats"];
            args.extend(["--idle-ms", idle]);
            if same_length {
                args.push("--same-length");
            }
            let output = run_chunked(slicc(&args, &[]), &input, ODD_SIZES);
            assert!(output.status.success(), "{output:?}");
            assert!(
                output.stdout == expected.output,
                "same_length {same_length}, idle {idle}: output differs from bytes() \
                 ({} bytes against {})",
                output.stdout.len(),
                expected.output.len()
            );
            assert_eq!(stderr_lines(&output), stats_lines(&expected.hits));
            if same_length {
                assert_eq!(output.stdout.len(), input.len());
            }
        }
    }
}

#[test]
fn single_byte_writes_equal_bytes() {
    let input = large_input(64 << 10);
    let secrets_file = file("bytewise.json", SECRETS_JSON.as_bytes());
    let expected = scrubber(false).bytes(&input);
    let args = ["--secrets", path_str(&secrets_file), "--idle-ms", "0"];
    let output = run_chunked(slicc(&args, &[]), &input, &[1]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stdout == expected.output,
        "output differs from bytes()"
    );
}

// ---- prompts: never held ------------------------------------------------

/// The value's first bytes, "hun", end the prompt: a stream holds them, as
/// they could start the value, until idle releases them.
const PASSWORD: &str = "hunter2hunter2hunter2";
const PROMPT: &str = "Password for hun";

/// Collects what a child writes, on a thread, so a test can wait with a
/// timeout.
struct Collected {
    chunks: Receiver<Vec<u8>>,
    bytes: Vec<u8>,
}

impl Collected {
    fn new(mut from: impl Read + Send + 'static) -> Collected {
        let (sender, chunks) = mpsc::channel();
        thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n @ 1..) = from.read(&mut buf) {
                if sender.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Collected {
            chunks,
            bytes: Vec::new(),
        }
    }

    /// Waits up to `timeout` for the collected bytes to equal `want`.
    fn wait_for(&mut self, want: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.bytes != want.as_bytes() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.bytes.extend(chunk),
                Err(_) => return false,
            }
        }
        true
    }

    /// Everything until the writer closes.
    fn rest(mut self) -> String {
        while let Ok(chunk) = self.chunks.recv() {
            self.bytes.extend(chunk);
        }
        String::from_utf8(self.bytes).unwrap()
    }

    /// Waits up to `timeout` for `want` to appear in the collected bytes.
    #[cfg(target_os = "linux")]
    fn wait_contains(&mut self, want: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while !self.shown().contains(want) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.bytes.extend(chunk),
                Err(_) => return false,
            }
        }
        true
    }

    fn shown(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Sends `signal` to the child: by the system call, not the `kill` program,
/// which a minimal system (Debian without procps) does not have.
#[cfg(unix)]
fn signal(child: &Child, signal: rustix::process::Signal) {
    let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("a child's pid");
    rustix::process::kill_process(pid, signal).expect("the child takes the signal");
}

fn spawn_piped(mut command: Command) -> (Child, ChildStdin, Collected, Collected) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = Collected::new(child.stdout.take().unwrap());
    let stderr = Collected::new(child.stderr.take().unwrap());
    (child, stdin, stdout, stderr)
}

#[test]
fn prompt_through_the_filter_shows_before_any_input() {
    let (mut child, mut stdin, mut stdout, stderr) =
        spawn_piped(slicc(&["--env", "PW"], &[("PW", PASSWORD)]));
    stdin.write_all(PROMPT.as_bytes()).unwrap();
    stdin.flush().unwrap();
    assert!(
        stdout.wait_for(PROMPT, PROMPT_TIMEOUT),
        "the prompt was held: got {:?}",
        stdout.shown()
    );
    stdin
        .write_all(format!("\n{PASSWORD}\n").as_bytes())
        .unwrap();
    drop(stdin);
    assert_eq!(stdout.rest(), format!("{PROMPT}\n[redacted:PW]\n"));
    assert!(child.wait().unwrap().success());
    assert_eq!(stderr.rest(), "");
}

#[test]
fn without_idle_the_prompt_tail_stays_held() {
    // The check above is only meaningful if "hun" is really held.
    let (mut child, mut stdin, mut stdout, _stderr) = spawn_piped(slicc(
        &["--env", "PW", "--idle-ms", "0"],
        &[("PW", PASSWORD)],
    ));
    stdin.write_all(PROMPT.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let decided = "Password for ";
    assert!(stdout.wait_for(decided, PROMPT_TIMEOUT));
    assert!(!stdout.wait_for(PROMPT, Duration::from_millis(300)));
    assert_eq!(stdout.shown(), decided);
    drop(stdin);
    assert_eq!(stdout.rest(), PROMPT);
    assert!(child.wait().unwrap().success());
}

#[cfg(unix)]
#[test]
fn prompt_through_run_shows_before_any_input() {
    for (to_stderr, script) in [
        (false, r#"printf 'Password for hun'; read x; echo "got $x""#),
        (
            true,
            r#"printf 'Password for hun' >&2; read x; echo "got $x""#,
        ),
    ] {
        let (mut child, mut stdin, mut stdout, mut stderr) = spawn_piped(slicc(
            &["run", "--env", "PW", "--", "sh", "-c", script],
            &[("PW", PASSWORD)],
        ));
        let prompted = if to_stderr { &mut stderr } else { &mut stdout };
        assert!(
            prompted.wait_for(PROMPT, PROMPT_TIMEOUT),
            "the prompt was held: got {:?}",
            prompted.shown()
        );
        stdin.write_all(format!("{PASSWORD}\n").as_bytes()).unwrap();
        drop(stdin);
        let (out, err) = (stdout.rest(), stderr.rest());
        if to_stderr {
            assert_eq!(
                (out.as_str(), err.as_str()),
                ("got [redacted:PW]\n", PROMPT)
            );
        } else {
            assert_eq!(
                (out.as_str(), err.as_str()),
                ("Password for hungot [redacted:PW]\n", "")
            );
        }
        assert!(child.wait().unwrap().success());
    }
}

// ---- run: output, exit status, signals -----------------------------------

#[cfg(unix)]
#[test]
fn run_scrubs_both_streams_and_forwards_the_exit_code() {
    let token = "ghp_abcdefgh12345678";
    let script = r#"echo "out $TOKEN"; echo "err $TOKEN" >&2; printf '%s' "$TOKEN" | od -An -tx1 | tr -d ' \n'; exit 3"#;
    let output = run_input(
        slicc(
            &["run", "--env", "TOKEN", "--stats", "--", "sh", "-c", script],
            &[("TOKEN", token)],
        ),
        b"",
    );
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "out [redacted:TOKEN]\n[redacted:TOKEN]"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!stderr.contains(token));
    assert_eq!(
        stderr,
        "err [redacted:TOKEN]\n\
         slicc-scrub: hit TOKEN raw 2\n\
         slicc-scrub: hit TOKEN hex 1\n"
    );
}

#[cfg(unix)]
#[test]
fn options_before_run_count_too() {
    let output = run_input(
        slicc(
            &[
                "--env",
                "A",
                "run",
                "--env",
                "B",
                "--",
                "sh",
                "-c",
                "echo $A $B",
            ],
            &[("A", "aaaaaaaa1"), ("B", "bbbbbbbb2")],
        ),
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(output.stdout, b"[redacted:A] [redacted:B]\n");
}

#[cfg(unix)]
#[test]
fn run_exits_like_a_shell_when_a_signal_kills_the_command() {
    for (signal, code) in [("KILL", 128 + 9), ("TERM", 128 + 15)] {
        let script = format!("kill -{signal} $$");
        let output = run_input(
            slicc(
                &["run", "--env", "PW", "--", "sh", "-c", &script],
                &[("PW", PASSWORD)],
            ),
            b"",
        );
        assert_eq!(output.status.code(), Some(code), "SIG{signal}: {output:?}");
    }
}

#[cfg(unix)]
#[test]
fn run_forwards_sigterm_to_the_command() {
    let script = r#"trap 'echo "term $PW"; exit 7' TERM; echo ready; while :; do sleep 0.05; done"#;
    let (child, stdin, mut stdout, _stderr) = spawn_piped(slicc(
        &["run", "--env", "PW", "--", "sh", "-c", script],
        &[("PW", PASSWORD)],
    ));
    assert!(
        stdout.wait_for("ready\n", PROMPT_TIMEOUT),
        "{:?}",
        stdout.shown()
    );
    signal(&child, rustix::process::Signal::TERM);
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    // slicc-scrub lived on to pass on what the command printed as it
    // stopped, and exited with the command's status.
    assert_eq!(stdout.rest(), "ready\nterm [redacted:PW]\n");
    assert_eq!(output.status.code(), Some(7));
}

/// Under a terminal, Ctrl-C reaches the command (from the terminal: it is
/// in slicc-scrub's process group), a SIGINT sent to slicc-scrub by a
/// process is forwarded, SIGTERM too, and slicc-scrub lives on to pass on
/// what the command prints on each. (Whether a terminal's signal is also
/// forwarded cannot be seen reliably: two pending SIGINTs merge into one.)
#[cfg(target_os = "linux")]
#[test]
fn under_a_terminal_ctrl_c_reaches_the_command_once() {
    use std::os::fd::FromRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::process::CommandExt;

    // SAFETY: plain pty calls on a descriptor we own; ptsname_r writes a
    // NUL-terminated name into our buffer.
    let (master, slave_name) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "no pty: {}", std::io::Error::last_os_error());
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let name = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_str()
            .unwrap()
            .to_owned();
        (std::fs::File::from_raw_fd(master), name)
    };
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(slave_name)
        .unwrap();
    let script = r#"n=0; trap 'n=$((n+1)); echo "int $n $PW"' INT; echo ready; while :; do sleep 0.05; done"#;
    let mut command = slicc(
        // On pipes: under a terminal, run would give the command a pty
        // (tests/cli_pty.rs has that case).
        &["run", "--no-pty", "--env", "PW", "--", "sh", "-c", script],
        &[("PW", PASSWORD)],
    );
    command
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave);
    // SAFETY: setsid(2), ioctl(2) and signal(2) are async-signal-safe:
    // slicc-scrub leads a new session whose controlling terminal is the pty,
    // with SIGINT and SIGQUIT at their defaults, as for a job a user starts
    // at a terminal. (A test harness started as a background job without job
    // control ignores them, and an ignored SIGINT stays ignored, by design,
    // in slicc-scrub and its command: a CI run failed so.)
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            for signal in [libc::SIGINT, libc::SIGQUIT] {
                if libc::signal(signal, libc::SIG_DFL) == libc::SIG_ERR {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    drop(command);
    let mut terminal = master.try_clone().unwrap();
    let mut shown = Collected::new(master);
    let wait = PROMPT_TIMEOUT;
    assert!(shown.wait_contains("ready", wait), "{:?}", shown.shown());
    terminal.write_all(b"\x03").unwrap();
    assert!(
        shown.wait_contains("int 1 [redacted:PW]", wait),
        "{:?}",
        shown.shown()
    );
    // A second delivery, if the command handled the first in time, would
    // show as "int 2" now.
    assert!(!shown.wait_contains("int 2", Duration::from_millis(300)));
    signal(&child, rustix::process::Signal::INT);
    assert!(
        shown.wait_contains("int 2 [redacted:PW]", wait),
        "{:?}",
        shown.shown()
    );
    signal(&child, rustix::process::Signal::TERM);
    assert_eq!(child.wait().unwrap().code(), Some(128 + 15));
    assert!(!shown.shown().contains("int 3"), "{:?}", shown.shown());
    assert!(!shown.shown().contains(PASSWORD));
}

#[test]
fn run_a_missing_command_exits_127() {
    let output = run_input(
        slicc(
            &["run", "--env", "PW", "--", "slicc-scrub-no-such-command"],
            &[("PW", PASSWORD)],
        ),
        b"",
    );
    assert_eq!(output.status.code(), Some(127));
    assert_eq!(
        stderr_lines(&output),
        ["slicc-scrub: slicc-scrub-no-such-command: command not found"]
    );
}

/// When the command's standard output ends, what its stream held is
/// written then, not when its standard error ends too: text the command
/// writes later to standard error comes after it, as it was written.
#[cfg(unix)]
#[test]
fn a_held_tail_of_standard_output_goes_out_when_that_output_ends() {
    use std::os::fd::{FromRawFd, OwnedFd};
    // 20 bytes of the value: held (the fragment could still grow), and
    // longer than an idle may release.
    let prefix = &PASSWORD[..20];
    let script = format!("printf %s '{prefix}'; exec >&-; sleep 0.3; echo later >&2");
    let mut fds = [0; 2];
    // SAFETY: a valid array of two.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both ends are ours alone from here.
    let (read_end, write_end) =
        unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let mut child = slicc(
        &[
            "--env",
            "PW",
            "--idle-ms",
            "0",
            "run",
            "--no-pty",
            "--",
            "sh",
            "-c",
            &script,
        ],
        &[("PW", PASSWORD)],
    )
    .stdin(Stdio::null())
    .stdout(Stdio::from(write_end.try_clone().unwrap()))
    .stderr(Stdio::from(write_end))
    .spawn()
    .unwrap();
    let mut shown = String::new();
    File::from(read_end).read_to_string(&mut shown).unwrap();
    assert!(child.wait().unwrap().success());
    // At the end, the held 20 bytes are a fragment of the value.
    assert_eq!(shown, "[redacted:PW]later\n");
}

/// Runs the filter with `args`, its standard output closed before it
/// writes, on `input` and then 1 MiB of text.
#[cfg(unix)]
fn with_output_closed(args: &[&str], input: &[u8]) -> Output {
    let mut child = slicc(args, &[("PW", PASSWORD)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let mut all = input.to_vec();
    all.extend(vec![b'x'; 1 << 20]);
    let _ = stdin.write_all(&all);
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn output_closed_early_exits_141() {
    let output = with_output_closed(&["--env", "PW"], b"");
    assert_eq!(output.status.code(), Some(141));
    assert_eq!(output.stderr, b"");
}

/// With --stats, the hits so far are written all the same (as `run` does).
#[cfg(unix)]
#[test]
fn output_closed_early_still_gives_the_stats() {
    let input = format!("{PASSWORD}\n");
    let output = with_output_closed(&["--env", "PW", "--stats"], input.as_bytes());
    assert_eq!(output.status.code(), Some(141));
    let lines = stderr_lines(&output);
    assert!(lines.iter().any(|l| l.contains("PW")), "{lines:?}");
}

// ---- configuration errors --------------------------------------------------

/// Runs the filter with `args` and `env`, expecting exit 2 and one line on
/// standard error that starts with `slicc-scrub: ` and holds `expected`.
fn config_error(args: &[&str], env: &[(&str, &str)], expected: &str) -> String {
    let output = run_input(slicc(args, env), b"some input\n");
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    assert_eq!(output.stdout, b"", "{args:?}: nothing passes unscrubbed");
    let lines = stderr_lines(&output);
    assert_eq!(lines.len(), 1, "{args:?}: {lines:?}");
    assert!(lines[0].starts_with("slicc-scrub: "), "{lines:?}");
    assert!(lines[0].contains(expected), "{lines:?} lacks {expected:?}");
    lines[0].clone()
}

/// An --env variable named as another secret's value: the compile refuses
/// it (its redaction would show that value) and names it by index alone,
/// and so does the line that says where it came from.
#[test]
fn an_env_secret_named_as_a_value_is_refused_without_its_name() {
    let secrets = file(
        "named-value.json",
        br#"[{"name":"DB","value":"supersecretvalue1"}]"#,
    );
    let out = run_input(
        slicc(
            &[
                "--secrets",
                path_str(&secrets),
                "--env",
                "supersecretvalue1",
            ],
            &[("supersecretvalue1", "another-value-0001")],
        ),
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let lines = stderr_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("(secret from --env number 1)"),
        "{lines:?}"
    );
    assert!(!lines[0].contains("supersecretvalue1"), "{lines:?}");
}

#[test]
fn bad_secrets_files_exit_2_with_one_line_and_no_value() {
    let value = "supersecretvalue1";
    let cases = [
        (
            "truncated.json",
            format!(r#"[{{"name": "A", "value": "{value}""#),
            "not valid JSON",
        ),
        (
            "object.json",
            format!(r#"{{"name": "A", "value": "{value}"}}"#),
            "must be an array",
        ),
        (
            "typo.json",
            format!(r#"[{{"name": "A", "value": "{value}", "palceholder": "{value}"}}]"#),
            "unknown field",
        ),
        (
            "short.json",
            r#"[{"name": "SHORT", "value": "abcde"}]"#.to_owned(),
            "value too short",
        ),
        (
            "leaky.json",
            format!(r#"[{{"name": "A", "value": "{value}", "placeholder": "x{value}x"}}]"#),
            "placeholder contains",
        ),
    ];
    for (name, json, expected) in cases {
        let path = file(name, json.as_bytes());
        let line = config_error(&["--secrets", path_str(&path)], &[], expected);
        assert!(!line.contains(value), "{line:?} shows the value");
        assert!(!line.contains("abcde"), "{line:?} shows the value");
    }
    let line = config_error(
        &["--secrets", "/nonexistent/slicc-secrets.json"],
        &[],
        "cannot read secrets file /nonexistent/slicc-secrets.json",
    );
    assert!(!line.contains(value));
}

#[test]
fn compile_errors_say_where_the_secret_came_from() {
    let path = file("one.json", br#"[{"name": "TOKEN", "value": "abcdefgh12"}]"#);
    let line = config_error(
        &["--secrets", path_str(&path), "--env", "TOKEN"],
        &[("TOKEN", "zyxwvuts98")],
        "duplicate name",
    );
    assert!(line.contains("--env TOKEN"), "{line:?}");
    assert!(!line.contains("zyxwvuts98") && !line.contains("abcdefgh12"));
    let line = config_error(&["--env", "SHORT"], &[("SHORT", "abc12")], "too short");
    assert!(
        line.contains("--env SHORT") && !line.contains("abc12"),
        "{line:?}"
    );
}

#[test]
fn missing_or_empty_environment_variables_exit_2() {
    config_error(&["--env", "SLICC_MISSING"], &[], "SLICC_MISSING is not set");
    config_error(&["--env", "EMPTY"], &[("EMPTY", "")], "EMPTY is empty");
    let output = run_input(
        slicc(&["run", "--env", "SLICC_MISSING", "--", "echo", "x"], &[]),
        b"",
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(output.stdout, b"", "the command did not run");
}

#[test]
fn no_secrets_and_no_terminal_is_an_error() {
    config_error(
        &[],
        &[],
        "no secrets given (use --secrets FILE or --env NAME)",
    );
    let output = run_input(slicc(&["run", "--", "echo", "x"], &[]), b"");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(output.stdout, b"");
}

#[test]
fn an_empty_secrets_file_passes_input_through() {
    let path = file("empty.json", b"[]");
    let output = run_input(
        slicc(&["--secrets", path_str(&path), "--stats"], &[]),
        b"nothing to hide\n",
    );
    assert!(output.status.success());
    assert_eq!(output.stdout, b"nothing to hide\n");
    assert_eq!(stderr_lines(&output), ["slicc-scrub: no hits"]);
}

// ---- --stats, --same-length, demo -----------------------------------------

#[test]
fn stats_lists_names_forms_and_counts_never_values() {
    let path = file("stats.json", SECRETS_JSON.as_bytes());
    let token = "ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo";
    let input = format!(
        "{token} {token} {} pw=p%40ss%20w0rd%2F%22quoted%22 {}\n",
        String::from_utf8(base64(token.as_bytes())).unwrap(),
        String::from_utf8(hex(&[
            0x00, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0xfe, 0x80, 0x81
        ]))
        .unwrap(),
    );
    let output = run_input(
        slicc(&["--secrets", path_str(&path), "--stats"], &[]),
        input.as_bytes(),
    );
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout.clone()).unwrap(),
        "fnox_1 fnox_1 [redacted:GH_TOKEN] pw=[redacted:DB_PASSWORD] [redacted:BINARY_KEY]\n"
    );
    assert_eq!(
        stderr_lines(&output),
        [
            "slicc-scrub: hit GH_TOKEN raw 2",
            "slicc-scrub: hit GH_TOKEN base64 1",
            "slicc-scrub: hit DB_PASSWORD percent 1",
            "slicc-scrub: hit BINARY_KEY hex 1",
        ]
    );
}

/// SPEC §1: no log line shows a placeholder, and a name may hold one (the
/// compile allows it: placeholders are never matched). `--stats` names such
/// a secret by its index.
#[test]
fn stats_name_a_secret_by_index_where_its_name_holds_a_placeholder() {
    let json = r#"[{"name":"TOKEN","value":"tok_0123456789ab","placeholder":"fnox_7"},
                   {"name":"KEY_fnox_7","value":"key-9876543210","placeholder":"<k>"}]"#;
    let path = file("stats_placeholder.json", json.as_bytes());
    let output = run_input(
        slicc(&["--secrets", path_str(&path), "--stats"], &[]),
        b"tok_0123456789ab key-9876543210\n",
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        String::from_utf8(output.stdout.clone()).unwrap(),
        "fnox_7 <k>\n"
    );
    assert_eq!(
        stderr_lines(&output),
        ["slicc-scrub: hit TOKEN raw 1", "slicc-scrub: hit #1 raw 1"]
    );
}

#[test]
fn same_length_keeps_length_and_line_breaks() {
    let value = "line-one-secret\nline-two-secret";
    let input = format!("a {value} b\r\nc {} d\n", value.replace('\n', "\r\n"));
    let output = run_input(
        slicc(&["--env", "PEM", "--same-length"], &[("PEM", value)]),
        input.as_bytes(),
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "a ***************\n*************** b\r\nc ***************\r\n*************** d\n"
    );
}

#[test]
fn demo_shows_the_scrubbed_sample_and_hits() {
    let output = run_input(slicc(&["demo"], &[]), b"");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    // Everything after the input: both scrubbed sections and the hits.
    let scrubbed = text
        .split_once("--- scrubbed")
        .expect("a scrubbed section")
        .1;
    assert!(
        scrubbed.contains("identical to the one-piece result"),
        "{text}"
    );
    assert!(scrubbed.contains("Token: fnox_proxy_GH_TOKEN"), "{text}");
    assert!(scrubbed.contains("[redacted:DB_PASSWORD]"), "{text}");
    assert!(!scrubbed.contains("ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo"));
    for form in ["raw", "fragment", "base64", "wrapped", "json", "percent"] {
        assert!(
            scrubbed
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(form)),
            "no {form} hit in {text}"
        );
    }
    let same = run_input(slicc(&["demo", "--same-length"], &[]), b"");
    assert!(
        String::from_utf8(same.stdout)
            .unwrap()
            .contains("Token: *****")
    );
}

#[test]
fn demo_takes_no_secrets() {
    let output = run_input(slicc(&["--env", "PW", "demo"], &[("PW", PASSWORD)]), b"");
    assert_eq!(output.status.code(), Some(2));
}

/// SPEC §1: where a name holds a raw, fragment, hex or base64 match of
/// another secret's value, the CLI's one line names it by index alone.
#[test]
fn a_name_holding_a_match_is_not_in_the_error_line() {
    use names_with_matches::{NAMES, secrets_json};
    for (i, (form, name, text)) in NAMES.into_iter().enumerate() {
        let path = file(
            &format!("name-match-{i}.json"),
            secrets_json(name).as_bytes(),
        );
        let out = run_input(slicc(&["--secrets", path_str(&path)], &[]), b"x");
        assert_eq!(out.status.code(), Some(2), "{form}");
        let lines = stderr_lines(&out);
        assert_eq!(lines.len(), 1, "{form}: {lines:?}");
        assert!(!lines[0].contains(text), "{form}: {lines:?}");
        assert!(lines[0].contains("secret 1: "), "{form}: {lines:?}");
    }
}
