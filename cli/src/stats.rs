//! `--stats`: the hits, totalled over streams, written to standard error.

use std::collections::HashMap;
use std::io::{self, Write};

use slicc_scrub::{Form, Hit};

/// The hits of several streams over the same secrets, summed per secret and
/// form, listed as a stream lists them: by secret (in `names` order), then
/// form; each named by its label (`labels`, in the same order).
pub fn total(names: &[String], labels: &[String], lists: &[Vec<Hit>]) -> Vec<Hit> {
    let mut counts: HashMap<(&str, Form), u64> = HashMap::new();
    for hit in lists.iter().flatten() {
        *counts.entry((hit.name.as_str(), hit.form)).or_default() += hit.count;
    }
    let mut hits = Vec::new();
    for (name, label) in names.iter().zip(labels) {
        for form in Form::ALL {
            if let Some(&count) = counts.get(&(name.as_str(), form)) {
                hits.push(Hit {
                    name: label.clone(),
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
