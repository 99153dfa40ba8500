//! `slicc-scrub`, the command line tool: scrubs standard input to standard
//! output, or runs a command and scrubs its output, or shows a demo.
//! `slicc-scrub --help` and the README's command line section describe it.

mod args;
mod completions;
mod demo;
mod filter;
mod manpage;
mod orphan;
mod pipes;
#[cfg(unix)]
mod pty;
mod run;
mod secrets;
mod secrets_file;
mod stats;
#[cfg(unix)]
mod terminal;

use std::io::{self, IsTerminal};

use clap::Parser;

use crate::args::{Cli, Command, ScrubArgs};
use crate::filter::{PumpError, pump};

/// The status when our standard output was closed early (`| head`): that
/// of a program killed by SIGPIPE, as a shell reports it.
pub const CLOSED_OUTPUT: i32 = 128 + 13;

const NO_SECRETS: &str = "no secrets given (use --secrets FILE or --env NAME)";

/// A reason to stop: one line for standard error, and an exit status.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// A usage or configuration error: status 2.
    pub fn config(message: impl Into<String>) -> Failure {
        Failure::new(2, message)
    }

    /// A read or write error: status 1.
    pub fn io(message: impl Into<String>) -> Failure {
        Failure::new(1, message)
    }
}

fn main() {
    let cli = Cli::parse();
    let code = match dispatch(cli) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("slicc-scrub: {}", failure.message);
            i32::from(failure.code)
        }
    };
    std::process::exit(code);
}

fn dispatch(cli: Cli) -> Result<i32, Failure> {
    match cli.command {
        None if !cli.scrub.has_secrets() => {
            if io::stdin().is_terminal() {
                eprintln!(
                    "slicc-scrub: no secrets given and standard input is a terminal: \
                     showing the demo (see slicc-scrub --help)"
                );
                demo::run(cli.scrub.same_length)
            } else {
                Err(Failure::config(NO_SECRETS))
            }
        }
        None => filter_stdin(&cli.scrub),
        Some(Command::Run {
            scrub,
            terminal,
            command,
        }) => {
            let scrub = cli.scrub.join(scrub).map_err(Failure::config)?;
            if !scrub.has_secrets() {
                return Err(Failure::config(NO_SECRETS));
            }
            let compiled = secrets::compile_args(&scrub)?;
            run::run(&compiled, &scrub, terminal, &command)
        }
        Some(Command::Completions { shell }) => completions::write(shell),
        Some(Command::Manpage { dir }) => manpage::write(dir.as_deref()),
        Some(Command::Demo { same_length }) => {
            if cli.scrub.has_secrets() {
                return Err(Failure::config(
                    "demo uses its own secrets: drop --secrets and --env",
                ));
            }
            demo::run(same_length || cli.scrub.same_length)
        }
    }
}

/// Scrubs standard input to standard output.
fn filter_stdin(scrub: &ScrubArgs) -> Result<i32, Failure> {
    let compiled = secrets::compile_args(scrub)?;
    let mut stream = compiled.scrubber.stream();
    let result = pump(
        io::stdin(),
        &mut io::stdout().lock(),
        &mut stream,
        scrub.idle(),
    );
    // The hits so far go to standard error whatever became of the output,
    // as `run` does.
    let print_stats = || {
        if scrub.stats {
            stats::print(&stats::total(&compiled.names, &[stream.hits()]));
        }
    };
    match result {
        Ok(()) => {
            print_stats();
            Ok(0)
        }
        Err(PumpError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            print_stats();
            Ok(CLOSED_OUTPUT)
        }
        Err(PumpError::Write(e)) => {
            print_stats();
            Err(Failure::io(format!("writing standard output: {e}")))
        }
        Err(PumpError::Read(e)) => {
            eprintln!("slicc-scrub: reading standard input: {e}");
            print_stats();
            Ok(1)
        }
    }
}
