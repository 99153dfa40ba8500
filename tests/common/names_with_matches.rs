//! Names that hold a match of another secret's value, for the tests that
//! no message shows them (SPEC §1): each list fails to compile because the
//! name in secret 1 puts a match into its redaction text.

/// Secret 0's value: 18 bytes, so it has fragment windows.
pub const VALUE: &str = "hunter2hunter2xyzw";

/// (what the name holds, the name, the text of the match inside it).
pub const NAMES: [(&str, &str, &str); 5] = [
    ("raw", "hunter2hunter2xyzw", VALUE),
    // the 16-byte window at offset 0
    ("fragment", "x.hunter2hunter2xy", "hunter2hunter2xy"),
    (
        "hex",
        "68756e7465723268756e7465723278797a77",
        "68756e7465723268756e7465723278797a77",
    ),
    (
        "base64",
        "k-aHVudGVyMmh1bnRlcjJ4eXp3",
        "aHVudGVyMmh1bnRlcjJ4eXp3",
    ),
    // the issue's own example: the name is another secret's whole value
    ("raw", "hunter2hunter2", "hunter2hunter2"),
];

/// The secrets JSON of the case `name`: secret 0 `DB_PASS` with `VALUE`
/// (or, for the issue's example, `hunter2hunter2`), secret 1 named `name`.
pub fn secrets_json(name: &str) -> String {
    let value = if name == "hunter2hunter2" {
        "hunter2hunter2"
    } else {
        VALUE
    };
    format!(
        r#"[{{"name":"DB_PASS","value":"{value}"}},{{"name":"{name}","value":"unrelated-value-1"}}]"#
    )
}
