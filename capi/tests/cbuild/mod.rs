//! Helpers shared by the tests that build C code with the `cc` crate.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The repository root (this crate is `capi/` in it).
pub fn root() -> PathBuf {
    let capi = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    capi.parent()
        .expect("capi/ is inside the repository")
        .to_owned()
}

/// The C tests' folder, `capi/tests/c`.
pub fn c_tests() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c")
}

/// Builds the C library (this crate's staticlib and cdylib) with the profile
/// and target directory of the running test, and gives the folder holding
/// `libslicc_scrub.a` and the shared library. A cdylib or staticlib is not
/// built for a crate's own integration tests (a Rust test cannot link
/// either), so the test asks cargo for it; cargo reuses the engine the test
/// was built with.
pub fn build_library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/<test>
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    let target_dir = profile_dir.parent().expect("target/");
    let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") | None => "dev",
        Some(name) => name,
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--package",
            "slicc-scrub-ffi",
            "--profile",
            profile,
        ])
        .arg("--manifest-path")
        .arg(root().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .status()
        .expect("run cargo build --package slicc-scrub-ffi");
    assert!(
        status.success(),
        "cargo build --package slicc-scrub-ffi failed"
    );
    profile_dir.to_owned()
}

/// The system libraries a static Rust library needs on this platform, as
/// rustc lists them (`--print native-static-libs` of an empty staticlib,
/// which links the same standard library as ours).
pub fn native_static_libs() -> Vec<String> {
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("native-static-libs");
    std::fs::create_dir_all(&out_dir).unwrap();
    let source = out_dir.join("empty.rs");
    std::fs::write(&source, "").unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc)
        .args([
            "--crate-type",
            "staticlib",
            "--print",
            "native-static-libs",
            "-o",
        ])
        .arg(out_dir.join("libempty.a"))
        .arg(&source)
        .output()
        .expect("run rustc --print native-static-libs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "rustc failed:\n{stderr}");
    let libs = stderr
        .lines()
        .find_map(|line| line.split_once("native-static-libs:").map(|(_, libs)| libs))
        .expect("rustc prints native-static-libs");
    libs.split_whitespace().map(str::to_owned).collect()
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
