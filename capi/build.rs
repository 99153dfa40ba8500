//! Gives the shared library its SONAME on ELF systems, by cargo-c's rule:
//! `libslicc_scrub.so.<major>` from 1.0 on, `libslicc_scrub.so.0.<minor>`
//! before (in 0.x a new minor version may break the ABI). The installed
//! file is `libslicc_scrub.so.<major>.<minor>.<patch>` with links from the
//! SONAME and from `libslicc_scrub.so` (CMakeLists.txt). On macOS the
//! install name is `@rpath/libslicc_scrub.dylib`.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let family = std::env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let elf = family == "unix" && !matches!(os.as_str(), "macos" | "ios" | "tvos" | "watchos");
    if elf {
        let major = env!("CARGO_PKG_VERSION_MAJOR");
        let minor = env!("CARGO_PKG_VERSION_MINOR");
        let soversion = if major == "0" {
            format!("0.{minor}")
        } else {
            major.to_owned()
        };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libslicc_scrub.so.{soversion}");
    } else if os == "macos" {
        // Found through the program's rpath wherever the prefix is.
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libslicc_scrub.dylib");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
