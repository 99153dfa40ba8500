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
    let placeholders = Placeholders::of(secrets);
    secrets
        .iter()
        .enumerate()
        .map(|(index, s)| Name {
            name: s.name.clone(),
            shown: if placeholders.any_in(s.name.as_bytes()) {
                format!("#{index}")
            } else {
                s.name.clone()
            },
        })
        .collect()
}

/// The placeholders that fit in a name, by length, each list sorted: a
/// name's windows of each length are looked up by binary search. Only
/// borrowed slices: no copy of a placeholder, no hash of one (an automaton
/// over them, as this was, kept copies that nothing wiped).
struct Placeholders<'a> {
    /// (length, the placeholders of that length, sorted and distinct).
    by_length: Vec<(usize, Vec<&'a [u8]>)>,
}

impl<'a> Placeholders<'a> {
    fn of(secrets: &'a [Secret]) -> Placeholders<'a> {
        // Longer placeholders cannot be in a name.
        let mut all: Vec<&[u8]> = secrets
            .iter()
            .filter_map(|s| s.placeholder.as_deref())
            .filter(|p| !p.is_empty() && p.len() <= slicc_scrub::MAX_NAME)
            .collect();
        all.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        all.dedup();
        let mut by_length: Vec<(usize, Vec<&[u8]>)> = Vec::new();
        for p in all {
            match by_length.last_mut() {
                Some((len, list)) if *len == p.len() => list.push(p),
                _ => by_length.push((p.len(), vec![p])),
            }
        }
        Placeholders { by_length }
    }

    /// Whether `name` holds any of the placeholders.
    fn any_in(&self, name: &[u8]) -> bool {
        self.by_length.iter().any(|(len, list)| {
            name.windows(*len)
                .any(|window| list.binary_search(&window).is_ok())
        })
    }
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
        for &form in Form::ALL {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(name: &str, placeholder: Option<&str>) -> Secret {
        let mut s = Secret::new(name, format!("value-of-{name}-0123456789"));
        s.placeholder = placeholder.map(|p| p.as_bytes().to_vec());
        s
    }

    #[test]
    fn a_name_is_shown_by_index_only_where_it_holds_a_placeholder() {
        let secrets = [
            secret("TOKEN", Some("fnox_7")),
            secret("KEY_fnox_7", Some("<k>")),
            secret("fnox_", Some("fnox_77")),
            secret("A_<k>", None),
            secret("PLAIN", Some("")),
            secret("fnox_77_B", Some("fnox_7")),
        ];
        let shown: Vec<String> = names(&secrets).into_iter().map(|n| n.shown).collect();
        assert_eq!(shown, ["TOKEN", "#1", "fnox_", "#3", "PLAIN", "#5"]);
    }

    #[test]
    fn without_placeholders_every_name_is_shown() {
        let secrets = [secret("A", None), secret("B", None)];
        let names = names(&secrets);
        assert_eq!(names[0].shown, "A");
        assert_eq!(names[1].shown, "B");
        assert_eq!(names[1].name, "B");
    }
}
