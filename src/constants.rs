//! The constants every interface exports (SPEC §1), and the limits of
//! compile input.

/// Length of a fragment window: a value longer than this is also found by
/// any 16-byte piece of it, extended along the value.
pub const FRAGMENT: usize = 16;
/// Shortest value a secret may have, in bytes, once leading and trailing CR
/// and LF are trimmed (SPEC §1).
pub const MIN_VALUE: usize = 8;
/// Longest value a secret may have, in bytes, as given (before trimming).
pub const MAX_VALUE: usize = 65_536;
/// Longest placeholder a secret may have, in bytes.
pub const MAX_PLACEHOLDER: usize = 1_024;
/// Longest name a secret may have, in bytes.
pub const MAX_NAME: usize = 128;
/// Milliseconds without input after which a caller should call
/// [`crate::Stream::idle`], so an interactive prompt is never held back.
pub const IDLE_MS: u64 = 50;
/// The version of the matching rules this crate implements; pass it in
/// [`crate::Options::new`].
pub const RULES_VERSION: u32 = 4;
/// Longest secrets JSON text [`crate::secrets_from_json`] accepts, in bytes
/// (64 MiB): far above any real list of secrets, and low enough that a wrong
/// file (`/dev/zero`, a log) is refused at once instead of being read until
/// memory runs out.
pub const MAX_SECRETS_JSON: usize = 64 << 20;
/// Most value bytes (trimmed) one compile takes, all its secrets' together
/// (1 GiB): a compiled scrubber holds about 90 to 130 bytes a value byte,
/// so this is far beyond what a machine holds, and below it every count
/// the engine keeps in 32 bits fits. Beyond it, or where the secrets'
/// patterns (SPEC §2) would take more than 4 GiB, compiling fails with
/// [`crate::CompileError::TooLarge`] (not in SPEC: a limit of this library).
pub const MAX_TOTAL_VALUES: usize = 1 << 30;
