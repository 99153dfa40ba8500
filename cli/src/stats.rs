//! `--stats`: the hits, totalled over streams, written to standard error.

use std::collections::HashMap;
use std::io::{self, Write};

use slicc_scrub::{Form, Hit, Secret};

/// A secret's name, and how a line of `--stats` shows it: the name, or
/// `#INDEX` where the name holds a placeholder (SPEC §1: no log line shows
/// one; a compiled name holds no match of any value, since the compile checks
/// its redaction).
pub struct Name {
    pub name: String,
    pub shown: String,
}

/// The names of `secrets`, in index order.
pub fn names(secrets: &[Secret]) -> Vec<Name> {
    // Longer placeholders cannot be in a name; no prefilter, which would keep
    // copies of them.
    let placeholders = secrets
        .iter()
        .filter_map(|s| s.placeholder.as_deref())
        .filter(|p| !p.is_empty() && p.len() <= slicc_scrub::MAX_NAME);
    let holds = aho_corasick::AhoCorasick::builder()
        .prefilter(false)
        .build(placeholders)
        .ok();
    secrets
        .iter()
        .enumerate()
        .map(|(index, s)| Name {
            name: s.name.clone(),
            shown: match &holds {
                Some(holds) if !holds.is_match(&s.name) => s.name.clone(),
                _ => format!("#{index}"),
            },
        })
        .collect()
}

/// The hits of several streams over the same secrets, summed per secret and
/// form, listed as a stream lists them: by secret (in `names` order), then
/// form, each under the name it is shown by.
pub fn total(names: &[Name], lists: &[Vec<Hit>]) -> Vec<Hit> {
    let mut counts: HashMap<(&str, Form), u64> = HashMap::new();
    for hit in lists.iter().flatten() {
        *counts.entry((hit.name.as_str(), hit.form)).or_default() += hit.count;
    }
    let mut hits = Vec::new();
    for Name { name, shown } in names {
        for form in Form::ALL {
            if let Some(&count) = counts.get(&(name.as_str(), form)) {
                hits.push(Hit {
                    name: shown.clone(),
                    form,
                    count,
                });
            }
        }
    }
    hits
}

/// Writes one line per hit, `slicc-scrub: hit NAME FORM COUNT`, or
/// `slicc-scrub: no hits`. Names hold no spaces, so the fields split on
/// white space.
pub fn print(hits: &[Hit]) {
    let mut err = io::stderr().lock();
    // Standard error is our last resort: nothing to report a failure to.
    if hits.is_empty() {
        let _ = writeln!(err, "slicc-scrub: no hits");
    }
    for hit in hits {
        let _ = writeln!(
            err,
            "slicc-scrub: hit {} {} {}",
            hit.name, hit.form, hit.count
        );
    }
}
