//! The command line, parsed with clap's derive API.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Removes known secret values, in every common encoding, from bytes before
/// they reach a language model.
///
/// Without a subcommand, scrubs standard input to standard output as a
/// stream. Bytes that could still be the start of a secret are held back
/// until more arrive; after --idle-ms without input, a short held tail is
/// released, so an interactive prompt is never stuck.
#[derive(Debug, Parser)]
#[command(
    name = "slicc-scrub",
    version,
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(flatten)]
    pub scrub: ScrubArgs,

    #[command(subcommand)]
    pub command: Option<Command>,
}

const AFTER_HELP: &str = "\
With no secrets given: a terminal on standard input shows the demo; otherwise
it is an error (exit 2), so a missing secret never passes output unscrubbed.

Exit status: 0 done; 2 usage or configuration error; 1 read or write error;
141 standard output closed. `run` exits with the command's status, 128+N if
it was killed by signal N, 127 if the command is not found, 126 if it cannot
be run.";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Runs COMMAND and scrubs what it writes. Exits with the command's
    /// status (128+N if a signal N killed it).
    ///
    /// When standard input and standard output are both terminals, COMMAND
    /// runs on a pseudo-terminal of its own (see --pty), so that colours,
    /// line buffering, prompts and interactive programs work as without
    /// slicc-scrub. Otherwise (or with --no-pty) its standard input is
    /// ours, and its standard output and standard error are scrubbed each
    /// as its own stream. The command does not outlive slicc-scrub.
    Run {
        #[command(flatten)]
        scrub: ScrubArgs,

        #[command(flatten)]
        terminal: PtyChoice,

        /// The command and its arguments (put `--` before it).
        #[arg(
            value_name = "COMMAND",
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        command: Vec<OsString>,
    },
    /// Writes the completion script for SHELL to standard output.
    Completions {
        /// The shell: bash, zsh or fish.
        #[arg(value_enum)]
        shell: CompletionShell,
    },
    /// Writes the manual page slicc-scrub(1), in roff, to standard output.
    Manpage {
        /// Write slicc-scrub.1 and a page per subcommand
        /// (slicc-scrub-run.1, ...) into DIR instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Scrubs a built-in sample and prints the result and the hits.
    Demo {
        /// Replace each match with as many `*` as it has bytes.
        #[arg(long)]
        same_length: bool,
    },
}

/// Whether `run` gives the command a pseudo-terminal.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct PtyChoice {
    /// Run COMMAND on a new pseudo-terminal, as its controlling terminal in
    /// a session of its own: everything it writes (standard output and
    /// error alike) is scrubbed as one stream, standard input is forwarded
    /// to it (in raw mode when it is a terminal) and the window size
    /// follows ours. The default when standard input and standard output
    /// are both terminals (Unix only).
    #[arg(long, conflicts_with = "no_pty")]
    pub pty: bool,

    /// Run COMMAND on pipes, even under a terminal: its standard input is
    /// ours, its standard output and error are scrubbed each as its own
    /// stream, forwarded in the order they are read.
    #[arg(long)]
    pub no_pty: bool,
}

/// The shells `completions` writes a script for.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

/// Where the secrets come from and how to scrub.
#[derive(Clone, Debug, Default, Args)]
pub struct ScrubArgs {
    /// A JSON file of secrets: [{"name", "value" | "valueHex",
    /// "placeholder"? | "placeholderHex"?}]. May be repeated.
    #[arg(long = "secrets", value_name = "FILE")]
    pub secrets: Vec<PathBuf>,

    /// Take the value of environment variable NAME as a secret named NAME.
    /// May be repeated.
    #[arg(long = "env", value_name = "NAME")]
    pub env: Vec<String>,

    /// Replace each match with as many `*` as it has bytes (CR and LF stay),
    /// so the output keeps the input's length and line breaks.
    #[arg(long)]
    pub same_length: bool,

    /// At the end, write the hits (name, form, count; never a value) to
    /// standard error, one per line.
    #[arg(long)]
    pub stats: bool,

    /// Milliseconds without input after which a short held tail is
    /// released [default: 50]; 0 never releases early, so the output is
    /// exactly that of scrubbing the whole input at once (a prompt may then
    /// stay held).
    #[arg(long, value_name = "MS")]
    pub idle_ms: Option<u64>,
}

impl ScrubArgs {
    /// Whether any secret source was given.
    pub fn has_secrets(&self) -> bool {
        !self.secrets.is_empty() || !self.env.is_empty()
    }

    /// How long to wait for input before calling idle; `None`: never.
    pub fn idle(&self) -> Option<std::time::Duration> {
        let ms = self.idle_ms.unwrap_or(slicc_scrub::IDLE_MS);
        (ms > 0).then(|| std::time::Duration::from_millis(ms))
    }

    /// These options given before a subcommand, joined with those given
    /// after it: secrets from both (these first), flags from either.
    pub fn join(mut self, after: ScrubArgs) -> Result<ScrubArgs, &'static str> {
        if self.idle_ms.is_some() && after.idle_ms.is_some() {
            return Err("--idle-ms given twice");
        }
        self.secrets.extend(after.secrets);
        self.env.extend(after.env);
        self.same_length |= after.same_length;
        self.stats |= after.stats;
        self.idle_ms = self.idle_ms.or(after.idle_ms);
        Ok(self)
    }
}
