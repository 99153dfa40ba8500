//! Reading a `--secrets FILE` safely: a regular file or named pipe that
//! group or others can write, or that another user owns, is refused
//! (anyone who can write it can empty the list and so switch scrubbing off,
//! as ssh refuses a key others can read or own), one that others can read
//! is used with a warning, and no file is read past [`MAX_SECRETS_JSON`].
//! An anonymous pipe such as `--secrets <(vault read ...)` is the caller's,
//! mode 0600: it passes. A device (a terminal's /dev/stdin) is taken as it
//! is.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use slicc_scrub::MAX_SECRETS_JSON;
use zeroize::Zeroizing;

use crate::Failure;

/// The contents of the secrets file at `path`, wiped when dropped.
pub fn read(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let shown = path.display();
    let file = File::open(path)
        .map_err(|e| Failure::config(format!("cannot read secrets file {shown}: {e}")))?;
    // The opened file's own metadata: what is checked is what is read.
    let metadata = file
        .metadata()
        .map_err(|e| Failure::config(format!("cannot read secrets file {shown}: {e}")))?;
    if metadata.is_file() || is_fifo(&metadata) {
        check_permissions(path, &metadata)?;
    }
    if metadata.is_file() && metadata.len() > MAX_SECRETS_JSON as u64 {
        return Err(too_large(path));
    }
    let mut json = Zeroizing::new(Vec::new());
    // One byte past the cap tells a file that is too large (a device such
    // as /dev/zero has no size to check first).
    file.take(MAX_SECRETS_JSON as u64 + 1)
        .read_to_end(&mut json)
        .map_err(|e| Failure::config(format!("cannot read secrets file {shown}: {e}")))?;
    if json.len() > MAX_SECRETS_JSON {
        return Err(too_large(path));
    }
    Ok(json)
}

fn too_large(path: &Path) -> Failure {
    Failure::config(format!(
        "secrets file {} is larger than {MAX_SECRETS_JSON} bytes: refused",
        path.display()
    ))
}

#[cfg(unix)]
fn is_fifo(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    metadata.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_metadata: &std::fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
fn check_permissions(path: &Path, metadata: &std::fs::Metadata) -> Result<(), Failure> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    let owner = metadata.uid();
    if owner != me && owner != 0 {
        return Err(Failure::config(format!(
            "secrets file {} is owned by another user (uid {owner}): refused (its owner can switch scrubbing off; use a file of your own)",
            path.display()
        )));
    }
    let mode = metadata.permissions().mode();
    if mode & 0o022 != 0 {
        return Err(Failure::config(format!(
            "secrets file {} is writable by {}: refused (anyone who can write it can switch scrubbing off; chmod go-w it)",
            path.display(),
            if mode & 0o002 != 0 {
                "others"
            } else {
                "its group"
            },
        )));
    }
    if mode & 0o004 != 0 {
        eprintln!(
            "slicc-scrub: warning: secrets file {} is readable by others (chmod o-r it)",
            path.display()
        );
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_permissions(_path: &Path, _metadata: &std::fs::Metadata) -> Result<(), Failure> {
    Ok(())
}
