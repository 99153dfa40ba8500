//! `slicc-scrub completions SHELL`: the shell completion script, generated
//! from the same clap definitions that parse the command line.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::{Shell, generate};

use crate::args::{Cli, CompletionShell};
use crate::{CLOSED_OUTPUT, Failure};

/// Writes the completion script for `shell` to standard output.
pub fn write(shell: CompletionShell) -> Result<i32, Failure> {
    let shell = match shell {
        CompletionShell::Bash => Shell::Bash,
        CompletionShell::Zsh => Shell::Zsh,
        CompletionShell::Fish => Shell::Fish,
    };
    let mut command = Cli::command();
    let mut script = Vec::new();
    generate(shell, &mut command, "slicc-scrub", &mut script);
    if shell == Shell::Bash {
        script = fix_bash(&script);
    }
    match io::stdout().lock().write_all(&script) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(CLOSED_OUTPUT),
        Err(e) => Err(Failure::io(format!("writing standard output: {e}"))),
    }
}

/// clap_complete (up to 4.6.12 at least) spells the states of a hyphenated
/// name two ways in its bash script: the loop over the words reaches
/// `slicc__scrub__subcmd__run`, the `case` arms say
/// `slicc__subcmd__scrub__subcmd__run`, so no subcommand's options would
/// ever complete (clap-rs/clap#6421). The arms are made to match the loop.
fn fix_bash(script: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(script)
        .replace("slicc__subcmd__scrub", "slicc__scrub")
        .into_bytes()
}
