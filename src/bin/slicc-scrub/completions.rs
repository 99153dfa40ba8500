//! `slicc-scrub completions SHELL`: the shell completion script, generated
//! from the same clap definitions that parse the command line.

use std::io;

use clap::CommandFactory;
use clap_complete::{Shell, generate};

use crate::args::{Cli, CompletionShell};

/// Writes the completion script for `shell` to standard output.
pub fn write(shell: CompletionShell) -> i32 {
    let shell = match shell {
        CompletionShell::Bash => Shell::Bash,
        CompletionShell::Zsh => Shell::Zsh,
        CompletionShell::Fish => Shell::Fish,
    };
    let mut command = Cli::command();
    generate(shell, &mut command, "slicc-scrub", &mut io::stdout().lock());
    0
}
