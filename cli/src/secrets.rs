//! Secrets from `--secrets FILE` and `--env NAME`, compiled into a scrubber.
//!
//! Files come first, in the order given, then environment variables, in the
//! order given: that order is the secrets' index, which breaks ties (the
//! earlier secret wins). No message here ever shows a value.

use std::ffi::OsString;

use slicc_scrub::{Options, RULES_VERSION, Scrubber, Secret, compile};

use crate::Failure;
use crate::args::ScrubArgs;
use crate::secrets_file;
use crate::stats;

/// A compiled scrubber and its secrets' names, in index order.
pub struct Compiled {
    pub scrubber: Scrubber,
    pub names: Vec<stats::Name>,
}

/// Reads every secret source and compiles them.
pub fn compile_args(args: &ScrubArgs) -> Result<Compiled, Failure> {
    let mut secrets = Vec::new();
    // Where each secret came from, by index, to make compile errors clear.
    let mut sources = Vec::new();
    for path in &args.secrets {
        let json = secrets_file::read(path)?;
        let parsed = slicc_scrub::secrets_from_json(&json)
            .map_err(|e| Failure::config(format!("{}: {e}", path.display())))?;
        for entry in 0..parsed.len() {
            sources.push(format!("entry {entry} of {}", path.display()));
        }
        secrets.extend(parsed);
    }
    let files = sources.len();
    for name in &args.env {
        secrets.push(Secret::new(name.as_str(), env_value(name)?));
        sources.push(format!("--env {name}"));
    }
    let options = Options::new(RULES_VERSION).same_length(args.same_length);
    let scrubber = compile(&secrets, &options).map_err(|e| {
        let source = e.index().and_then(|i| match sources.get(i) {
            // An --env source is the secret's name: where the error hides
            // it (it holds another secret's value or a placeholder), so
            // does this line.
            Some(_) if i >= files && e.name().is_none() => {
                Some(format!("--env number {}", i - files + 1))
            }
            source => source.cloned(),
        });
        Failure::config(match source {
            Some(source) => format!("{e} (secret from {source})"),
            None => e.to_string(),
        })
    })?;
    Ok(Compiled {
        scrubber,
        names: stats::names(&secrets),
    })
}

/// The bytes of environment variable `name`, which must be set and not
/// empty.
fn env_value(name: &str) -> Result<Vec<u8>, Failure> {
    if name.is_empty() || name.contains(['=', '\0']) {
        return Err(Failure::config(format!(
            "--env {name:?}: not a valid environment variable name"
        )));
    }
    match std::env::var_os(name) {
        None => Err(Failure::config(format!(
            "--env {name}: environment variable {name} is not set"
        ))),
        Some(value) if value.is_empty() => Err(Failure::config(format!(
            "--env {name}: environment variable {name} is empty"
        ))),
        Some(value) => os_bytes(value).ok_or_else(|| {
            Failure::config(format!(
                "--env {name}: environment variable {name} is not valid Unicode"
            ))
        }),
    }
}

#[cfg(unix)]
fn os_bytes(value: OsString) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStringExt;
    Some(value.into_vec())
}

#[cfg(not(unix))]
fn os_bytes(value: OsString) -> Option<Vec<u8>> {
    value.into_string().ok().map(String::into_bytes)
}
