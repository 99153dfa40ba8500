//! The `compile` target. The first byte picks the rules version: when its
//! high four bits are all set, the low four are the version (so it is
//! sometimes wrong, sometimes 3, sometimes right); otherwise it is
//! `RULES_VERSION`. The rest is taken as a secrets JSON document:
//!
//! - `secrets_from_json`, then `compile` with sameLength off and on: never
//!   a panic (libFuzzer reports one);
//! - no message of any error, `Display` or `Debug`, shows a value or a
//!   placeholder of any secret in the document (`leaks.rs` says exactly
//!   what counts);
//! - a scrubber that compiled shows none in its `Debug`, nor does what it
//!   makes of the document itself, which it scrubs consistently
//!   (sameLength keeps its length).

use serde_json::Value;
use slicc_scrub::{Options, RULES_VERSION, Secret, compile, secrets_from_json};

use crate::leaks::{Known, assert_no_leak};

pub fn check(data: &[u8]) {
    let Some((&first, json)) = data.split_first() else {
        return;
    };
    let version = if first & 0xf0 == 0xf0 {
        u32::from(first & 0x0f)
    } else {
        RULES_VERSION
    };
    let document: Option<Value> = serde_json::from_slice(json).ok();
    let mut known = Known::default();
    if let Some(document) = &document {
        known.add_document(document);
    }
    let secrets = match secrets_from_json(json) {
        Ok(secrets) => secrets,
        Err(e) => {
            assert_no_leak(&known, "secrets_from_json Display", &e.to_string());
            assert_no_leak(&known, "secrets_from_json Debug", &format!("{e:?}"));
            return;
        }
    };
    // What was parsed is what the messages of compile must hide.
    known.add_secrets(&secrets);
    for same_length in [false, true] {
        let options = Options::new(version).same_length(same_length);
        match compile(&secrets, &options) {
            Err(e) => {
                assert_no_leak(&known, "compile Display", &e.to_string());
                assert_no_leak(&known, "compile Debug", &format!("{e:?}"));
            }
            Ok(scrubber) => {
                assert_eq!(version, RULES_VERSION, "compiled under version {version}");
                assert_no_leak(&known, "Scrubber Debug", &format!("{scrubber:?}"));
                let out = scrubber.bytes(json);
                // Its hits name secrets; their `Debug` must not.
                assert_no_leak(&known, "Scrubbed Debug", &format!("{out:?}"));
                if same_length {
                    assert_eq!(out.output.len(), json.len(), "sameLength length");
                }
                for hit in &out.hits {
                    assert!(
                        secrets.iter().any(|s: &Secret| s.name == hit.name),
                        "a hit names no secret"
                    );
                }
            }
        }
    }
}
