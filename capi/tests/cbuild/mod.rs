//! Helpers shared by the tests that build C code with the `cc` crate.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The host's target triple (integration tests get no `TARGET` from cargo).
pub fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("run rustc -vV");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .trim()
        .to_owned()
}

/// The C (or C++) compiler the `cc` crate picks for the host, honouring `CC`
/// and `CFLAGS` as usual.
pub fn compiler(cpp: bool) -> cc::Tool {
    let host = host_triple();
    cc::Build::new()
        .cpp(cpp)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .opt_level(1)
        .debug(true)
        .host(&host)
        .target(&host)
        .try_get_compiler()
        .expect("a C compiler")
}
