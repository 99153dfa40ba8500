//! Builds the C test harness (capi/tests/c/) with the `cc` crate against the
//! static library (built by cargo for the test), and runs it on vectors/vectors.json:
//! every case through scrub_bytes, at every split point and one byte at a
//! time, compared in C; plus the misuse and thread tests.
//!
//! It also runs vectors/idle.json (streams with idle calls, step by step)
//! and vectors/errors.json (compiles that must fail, and with which status).
//! `SLICC_SCRUB_VECTORS=path`, `SLICC_SCRUB_IDLE_VECTORS=path` and
//! `SLICC_SCRUB_ERROR_VECTORS=path` run it on other files.
//!
//! Unix only: the harness uses pthreads and gcc-style flags.
#![cfg(unix)]

mod cbuild;

use std::path::PathBuf;
use std::process::Command;

use cbuild::root;

fn build_harness() -> PathBuf {
    let root = root();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_harness");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join("scrub_c_tests");
    let staticlib = cbuild::build_library().join("libslicc_scrub.a");
    let output = cbuild::compiler(false)
        .to_command()
        .args(["-std=c99", "-D_POSIX_C_SOURCE=200809L"])
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-pthread"])
        .arg("-I")
        .arg(root.join("include"))
        .arg(cbuild::c_tests().join("harness.c"))
        .arg(cbuild::c_tests().join("mini_json.c"))
        .arg("-o")
        .arg(&exe)
        .arg(&staticlib)
        .args(cbuild::native_static_libs())
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "the C harness does not build:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

#[test]
fn c_harness_passes() {
    let exe = build_harness();
    let path = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join(default))
    };
    let vectors = path("SLICC_SCRUB_VECTORS", "vectors/vectors.json");
    let idle = path("SLICC_SCRUB_IDLE_VECTORS", "vectors/idle.json");
    let errors = path("SLICC_SCRUB_ERROR_VECTORS", "vectors/errors.json");
    for file in [&vectors, &idle, &errors] {
        assert!(file.exists(), "{} is missing", file.display());
    }
    let output = Command::new(&exe)
        .arg(&vectors)
        .arg(&idle)
        .arg(&errors)
        .output()
        .expect("run the C harness");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "the C harness failed ({}):\n{stderr}\n{stdout}",
        output.status
    );
    assert!(
        stdout.contains("vectors: ") && stdout.contains("idle: ") && stdout.contains("errors: "),
        "the C harness ran no vectors:\n{stdout}"
    );
}
