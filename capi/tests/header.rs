//! The committed C header is what cbindgen makes of capi/src/ today, and it
//! compiles on its own as C99 and as C++17 without a warning.
//!
//! After changing the C ABI, regenerate it with
//! `SLICC_SCRUB_BLESS=1 cargo test -p slicc-scrub-ffi --test header`.

mod cbuild;

#[cfg(unix)]
use std::path::{Path, PathBuf};

use cbuild::root;

fn generate() -> String {
    let root = root();
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("capi/src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn header_is_fresh() {
    let path = root().join("include/slicc_scrub.h");
    let fresh = generate();
    if std::env::var_os("SLICC_SCRUB_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write include/slicc_scrub.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map_or(committed.lines().count().min(fresh.lines().count()), |i| i);
        panic!(
            "include/slicc_scrub.h is stale (first difference at line {}); regenerate it with \
             SLICC_SCRUB_BLESS=1 cargo test -p slicc-scrub-ffi --test header",
            line + 1
        );
    }
}

/// Compiles `source` (a file of capi/tests/c/) with the `cc` crate's compiler for
/// the host, as C or C++ with the given standard, warnings as errors.
#[cfg(unix)]
fn compile_alone(cpp: bool, std_flag: &str, source: &str, out_dir: &Path) {
    let output = cbuild::compiler(cpp)
        .to_command()
        .arg(format!("-std={std_flag}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-c", "-o"])
        .arg(out_dir.join(format!("header_alone_{std_flag}.o")))
        .arg("-I")
        .arg(root().join("include"))
        .arg(cbuild::c_tests().join(source))
        .output()
        .expect("run the compiler");
    assert!(
        output.status.success(),
        "the header does not compile as {std_flag}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Unix only: gcc/clang-style flags (MSVC has neither C99 mode nor them).
#[cfg(unix)]
#[test]
fn header_compiles_as_c99_and_cpp17() {
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("header");
    std::fs::create_dir_all(&out_dir).unwrap();
    compile_alone(false, "c99", "header_alone.c", &out_dir);
    compile_alone(true, "c++17", "header_alone.cpp", &out_dir);
}
