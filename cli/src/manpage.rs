//! `slicc-scrub manpage`: the manual pages, generated from the same clap
//! definitions that parse the command line: slicc-scrub(1) on standard
//! output, or with `--dir` that page and one per subcommand
//! (slicc-scrub-run(1), ...), as `cmake --install` installs them.

use std::io::{self, Write};
use std::path::Path;

use clap::CommandFactory;
use clap_mangen::Man;

use crate::args::Cli;
use crate::{CLOSED_OUTPUT, Failure};

/// Writes slicc-scrub(1) to standard output, or every page into `dir`.
pub fn write(dir: Option<&Path>) -> Result<i32, Failure> {
    if let Some(dir) = dir {
        clap_mangen::generate_to(Cli::command(), dir).map_err(|e| {
            Failure::io(format!(
                "writing the manual pages to {}: {e}",
                dir.display()
            ))
        })?;
        return Ok(0);
    }
    let mut page = Vec::new();
    Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| Failure::io(format!("rendering the manual page: {e}")))?;
    match io::stdout().lock().write_all(&page) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(CLOSED_OUTPUT),
        Err(e) => Err(Failure::io(format!("writing standard output: {e}"))),
    }
}
