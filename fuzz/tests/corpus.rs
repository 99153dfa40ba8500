//! Replays every committed corpus file through its target's checks as a
//! plain test (`cargo test` in fuzz/, no nightly needed), so a committed
//! finding is a regression test with its file name in the failure.

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            failed.push(file.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(
        failed.is_empty(),
        "{target}: {} of {} corpus files fail: {failed:?}",
        failed.len(),
        files.len()
    );
}

#[test]
fn differential_corpus() {
    replay("differential", slicc_scrub_fuzz::differential::check);
}

#[test]
fn compile_corpus() {
    replay("compile", slicc_scrub_fuzz::compile::check);
}
